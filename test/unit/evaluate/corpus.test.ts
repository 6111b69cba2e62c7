import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { evaluateTemplate } from '../../../server/src/evaluate/index';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template/index';
import { evaluateText } from './evaluateText';

const corpusRoot = '/work/shared/corpus';
const corpusAbsent = existsSync(corpusRoot) ? false : `the shared corpus is not present at ${corpusRoot}`;
if (corpusAbsent) console.log(`# skipping the corpus evaluation: ${corpusAbsent}`);

/**
 * Errors the corpus is known to produce, by file, each for a reason that is real:
 * - Rain sources (`!Rain::Module`, `!Rain::Embed`) reference resources that the Rain
 *   packager generates, so before packaging those names are unresolved.
 * - ADConnector references a security group whose Condition is false with the default
 *   parameters: CloudFormation rejects that deployment the same way.
 * Missing parameter values are expected everywhere (no values are supplied) and not listed.
 */
const EXPECTED: Record<string, string[]> = {
  'aws-cloudformation-templates/Solutions/ADConnector/templates/ADCONNECTOR.cfn.json': ['reference-to-inactive-resource'],
  'aws-cloudformation-templates/Solutions/ADConnector/templates/ADCONNECTOR.cfn.yaml': ['reference-to-inactive-resource'],
};
const RAIN_SOURCE = /!?Rain::/;

describe('the corpus', { skip: corpusAbsent }, () => {
  test('every CloudFormation template evaluates without an internal error, and only the known ones report problems', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ya?ml|json|template)$/.test(name)) files.push(path);
      }
    };
    walk(corpusRoot);
    let evaluated = 0;
    const unexpected: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const result = evaluateText(text);
      if (!result.model.isCloudFormation) continue;
      evaluated++;
      const name = relative(corpusRoot, file);
      const codes = [...new Set(result.errors.map((e) => e.code).filter((c) => c !== 'parameter-missing-value'))].sort();
      if (codes.length > 0) console.log(`# ${name}: ${codes.join(', ')}`);
      assert.ok(!codes.includes('internal-error'), `${name}: ${result.errors.map((e) => e.message).join('; ')}`);
      const expected = EXPECTED[name] ?? (RAIN_SOURCE.test(text) ? codes : []);
      if (codes.join() !== expected.join()) unexpected.push(`${name}: ${result.errors.map((e) => e.message).join('; ')}`);
    }
    console.log(`# evaluated ${evaluated} CloudFormation templates`);
    assert.ok(evaluated > 200);
    assert.deepEqual(unexpected, []);
  });
});

describe('scale', () => {
  test('2,000 resources full of intrinsic functions evaluate in time linear in their size', () => {
    const lines = ['Parameters:', '  Env: { Type: String, Default: dev }', 'Conditions:', '  IsProd: !Equals [!Ref Env, prod]', 'Mappings:', '  M:', '    us-east-1: { Ami: ami-1 }', 'Resources:'];
    for (let i = 0; i < 2000; i++) {
      lines.push(
        `  R${i}:`,
        '    Type: AWS::EC2::Instance',
        '    Properties:',
        '      ImageId: !FindInMap [M, !Ref AWS::Region, Ami]',
        `      SubnetId: !Ref R${i > 0 ? i - 1 : 'NoSuch'}`,
        `      Name: !Sub "\${Env}-\${AWS::StackName}-${i}"`,
        `      Tags: [{ Key: a, Value: !If [IsProd, x, y] }, { Key: b, Value: !Join [",", [a, !GetAtt R${i > 0 ? Math.floor(i / 2) : 'NoSuch'}.Arn]] }]`,
      );
    }
    const model = readTemplateModel(parseTemplate(lines.join('\n') + '\n'));
    const ctx = { parameters: {}, region: 'us-east-1', accountId: '123456789012', stackName: 'demo' };
    // Wall-clock bounds flake on a busy machine, so evaluation is measured against copying the
    // same resources into plain data, interleaved, median of several runs. About 20 ms on an idle
    // machine and a few times the copy; anything quadratic would be hundreds of times slower.
    const evaluateTimes: number[] = [];
    const copyTimes: number[] = [];
    let result = evaluateTemplate(model, ctx);
    for (let run = 0; run < 9; run++) {
      let started = performance.now();
      result = evaluateTemplate(model, ctx);
      evaluateTimes.push(performance.now() - started);
      started = performance.now();
      for (const decl of model.resources.values()) toPlain(decl.node);
      copyTimes.push(performance.now() - started);
    }
    const evaluateMedian = evaluateTimes.sort((a, b) => a - b)[4];
    const copyMedian = copyTimes.sort((a, b) => a - b)[4];
    console.log(`# evaluate 2,000 resources: median ${evaluateMedian.toFixed(1)} ms, ${(evaluateMedian / copyMedian).toFixed(1)} times a plain copy`);
    assert.equal(result.resources.size, 2000);
    assert.deepEqual(result.errors.map((e) => e.message), [
      'Template format error: Unresolved resource dependencies [RNoSuch] in the Resources block of the template',
      'Template error: instance of Fn::GetAtt references undefined resource RNoSuch',
    ]);
    assert.ok(evaluateMedian < 20 * copyMedian, `evaluation took ${evaluateMedian} ms, a plain copy ${copyMedian} ms`);
  });
});
