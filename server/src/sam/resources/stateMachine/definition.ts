/**
 * A state machine's inline `Definition` as SAM writes it (stepfunctions/generators.py): every
 * intrinsic function and dynamic reference inside becomes `${definition_substitution_N}` (numbered
 * in key order) with its value under `DefinitionSubstitutions`, and the definition becomes the
 * lines of Python's indented, key-sorted JSON joined by `Fn::Join`.
 */
import { pythonJsonDumpsIndented } from '../../python/pythonJson';
import { isIntrinsic, type PlainMap } from '../../model/values';

/** `is_dynamic_reference`: `{{resolve:...}}`. */
function isDynamicReference(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('{{resolve:') && value.endsWith('}}');
}

/** The `DefinitionString` and the substitutions SAM adds for the values CloudFormation resolves. */
export function definitionString(definition: unknown): { definitionString: PlainMap; substitutions: PlainMap } {
  const substitutions: PlainMap = {};
  let counter = 1;
  const json = pythonJsonDumpsIndented(definition, 4, (value) => {
    if (!isIntrinsic(value) && !isDynamicReference(value)) return undefined;
    const name = `definition_substitution_${counter++}`;
    substitutions[name] = value;
    return `\${${name}}`;
  });
  return { definitionString: { 'Fn::Join': ['\n', json.split('\n')] }, substitutions };
}
