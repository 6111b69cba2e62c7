import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseTemplate, readTemplateModel } from '../../../server/src/template';

const corpus = join(__dirname, '../../../../shared/corpus');

/** Every .yaml, .yml and .json file under a folder. */
function templateFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...templateFiles(path));
    else if (/\.(ya?ml|json)$/.test(name)) found.push(path);
  }
  return found;
}

/**
 * Corpus files that are not templates, and why. Each is still parsed without syntax errors;
 * it is only exempt from having to look like CloudFormation.
 */
const NOT_TEMPLATES = new Map([
  // Sample events the Count macro's Lambda function receives: the template sits under `fragment`.
  ['aws-cloudformation-templates/CloudFormation/MacrosExamples/Count/event.json', 'macro invocation event'],
  ['aws-cloudformation-templates/CloudFormation/MacrosExamples/Count/event_bad.json', 'macro invocation event'],
]);

describe('the real-world corpus', () => {
  if (!existsSync(corpus)) {
    const reason = `${corpus} is absent (it exists only on the development machine)`;
    test('corpus', (t) => {
      console.log(`Skipping the corpus suite: ${reason}`);
      t.skip(reason);
    });
    return;
  }
  const files = templateFiles(corpus);

  test('every file parses without syntax errors, and every template with Resources is recognised and passes the structural checks', () => {
    assert.ok(files.length > 0);
    const problems: string[] = [];
    for (const file of files) {
      const name = relative(corpus, file);
      const model = readTemplateModel(parseTemplate(readFileSync(file, 'utf8')));
      const hasResources = model.root?.entries.some((e) => e.key === 'Resources') ?? false;
      for (const error of model.errors.filter((e) => e.severity === 'error')) {
        problems.push(`${name}: ${error.code} at ${error.range.start}: ${error.message}`);
      }
      if (NOT_TEMPLATES.has(name)) {
        if (model.isCloudFormation) problems.push(`${name}: listed as not a template (${NOT_TEMPLATES.get(name)}) but recognised as one`);
      } else if (!model.isCloudFormation) {
        problems.push(`${name}: not recognised as CloudFormation${hasResources ? ' although it has Resources' : ''}`);
      }
    }
    // The only warnings in this corpus are Rain's `!Rain::` preprocessor tags (see shortForms.test.ts).
    assert.deepEqual(problems, []);
  });

  test('the largest file parses quickly', () => {
    const largest = files.reduce((a, b) => (statSync(a).size >= statSync(b).size ? a : b));
    const text = readFileSync(largest, 'utf8');
    parseTemplate(text); // Warm up the JIT so that the measurement is of steady-state parsing.
    const runs = 10;
    const started = performance.now();
    for (let i = 0; i < runs; i++) readTemplateModel(parseTemplate(text));
    const perParse = (performance.now() - started) / runs;
    console.log(`Largest corpus file ${relative(corpus, largest)} (${text.length} characters): ${perParse.toFixed(1)} ms per parse and model`);
    assert.ok(perParse < 200, `${perParse.toFixed(1)} ms`);
  });
});
