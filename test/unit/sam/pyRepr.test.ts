/**
 * `str()` of the values SAM hashes into a deployment's logical id, as Python prints them: SAM's
 * own strings with Python 3's `repr`, template strings as Python 2.7 unicode (`u'...'`, non-ASCII
 * escaped), dicts in their iteration order. Expectations written from Python's rules.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainDict, PyUnicode, type PyValue } from '../../../server/src/sam/python/py27Dict';
import { pyStr } from '../../../server/src/sam/python/pyRepr';

const CASES: [string, PyValue, string][] = [
  ['a plain string', 'aws_proxy', "'aws_proxy'"],
  ['a single quote: double quotes around it', "it's", `"it's"`],
  ['a double quote: single quotes around it', 'say "hi"', `'say "hi"'`],
  ['both quotes: the single one escaped', `it's "so"`, `'it\\'s "so"'`],
  ['a backslash, doubled', 'a\\b', "'a\\\\b'"],
  ['a tab and a newline', 'a\tb\n', "'a\\tb\\n'"],
  ['DEL, as a hex escape', 'a\x7f', "'a\\x7f'"],
  ['printable ASCII at both ends', ' ~', "' ~'"],
  ['a template string', new PyUnicode('/items/{id}'), "u'/items/{id}'"],
  ['a template string with a single quote', new PyUnicode("it's"), `u"it's"`],
  ['a template string with a backslash', new PyUnicode('a\\b'), "u'a\\\\b'"],
  ['a template string beyond ASCII', new PyUnicode('café'), "u'caf\\xe9'"],
  ['a dict of both', plainDict([[new PyUnicode('Path'), '/x']]), "{u'Path': '/x'}"],
  ['a list, None and booleans', [null, true, false, 3], '[None, True, False, 3]'],
];

for (const [what, value, expected] of CASES) {
  test(`str(): ${what}`, () => assert.equal(pyStr(value), expected));
}
