/**
 * `Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]`, the order SAM's documentation
 * asks for: CloudFormation runs the transforms in the order listed, so SAM sees the template with
 * its `Fn::ForEach` loops expanded and every intrinsic function whose value is known resolved
 * (SAM takes some properties, such as an event's `Path` or a `CodeUri`, only as strings). Listed
 * the other way round, SAM meets the loop and rejects the template.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { diagnosticText } from '../../../server/src/present/findings';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { SKIP_WITHOUT_TRANSLATOR_SUITE, validTranslatorInputs } from './translatorSuiteInputs';

const spec = loadResourceSpec();

function functionsFor(names: string, { transforms = '[AWS::LanguageExtensions, AWS::Serverless-2016-10-31]' } = {}): string {
  return `Transform: ${transforms}
Parameters:
  Names:
    Type: CommaDelimitedList
    Default: ${names}
  Base:
    Type: String
    Default: v1
Resources:
  Fn::ForEach::Functions:
    - Name
    - !Ref Names
    - '\${Name}Function':
        Type: AWS::Serverless::Function
        Properties:
          Runtime: python3.12
          Handler: !Sub '\${Name}.handler'
          CodeUri: !Sub 's3://artifacts/\${Name}.zip'
          AutoPublishAlias: live
          Events:
            Get:
              Type: Api
              Properties:
                Path: !Sub '/\${Base}/\${Name}'
                Method: get
Outputs:
  Api:
    Value: !Sub 'https://\${ServerlessRestApi}.execute-api.\${AWS::Region}.amazonaws.com/Prod/'
`;
}

function impact(before: string, after: string): ImpactReport {
  return analyzeUpdate({ text: before }, { text: after }, { spec }).report;
}

function errors(report: ImpactReport): string[] {
  return report.diagnostics.filter((d) => d.severity === 'error').map(diagnosticText);
}

/** `action logicalId` of each change that changes something, sorted. */
function actions(report: ImpactReport): string[] {
  return report.changes
    .filter((c) => c.impact !== 'none')
    .map((c) => `${c.action} ${c.logicalId}`)
    .sort();
}

describe('AWS::LanguageExtensions listed before the Serverless transform', () => {
  test('a loop of functions whose paths and code locations are Fn::Sub of the loop and of a parameter, compared with itself, is a no-op', () => {
    const template = functionsFor('alpha,beta');
    const report = impact(template, template);
    assert.deepEqual(errors(report), []);
    assert.equal(report.status, 'noop', report.message);
  });

  test("an item added to the loop's collection adds its function with what SAM generates for it, and redeploys the API with its path", () => {
    const report = impact(functionsFor('alpha,beta'), functionsFor('alpha,beta,gamma'));
    assert.deepEqual(errors(report), []);
    const added = actions(report).filter((a) => a.startsWith('Add '));
    for (const id of ['gammaFunction', 'gammaFunctionAliaslive', 'gammaFunctionRole', 'gammaFunctionGetPermissionProd']) assert.ok(added.includes(`Add ${id}`), added.join(', '));
    assert.ok(added.some((a) => a.startsWith('Add gammaFunctionVersion')), added.join(', '));
    assert.ok(added.some((a) => a.startsWith('Add ServerlessRestApiDeployment')), added.join(', '));
    const api = report.changes.find((c) => c.logicalId === 'ServerlessRestApi');
    assert.deepEqual(api?.details.map((d) => d.target.path), ['/Properties/Body/paths/~1v1~1gamma']);
  });

  test("a parameter's new default that a Fn::Sub resolved before SAM changes what SAM made of it: every path, so the API", () => {
    const report = impact(functionsFor('alpha'), functionsFor('alpha').replace('Default: v1', 'Default: v2'));
    assert.deepEqual(errors(report), []);
    const api = report.changes.find((c) => c.logicalId === 'ServerlessRestApi');
    assert.deepEqual(api?.details.map((d) => d.target.path).sort(), ['/Properties/Body/paths/~1v1~1alpha', '/Properties/Body/paths/~1v2~1alpha']);
  });

  test("a function the loop generates is shown at the loop's text that produced it", () => {
    const before = functionsFor('alpha');
    const after = before.replace("Handler: !Sub '${Name}.handler'", "Handler: !Sub '${Name}.main'");
    const report = impact(before, after);
    const fn = report.changes.find((c) => c.logicalId === 'alphaFunction');
    assert.ok(fn, report.changes.map((c) => c.logicalId).join(', '));
    assert.equal(after.slice(fn.range.start, fn.range.end), "'${Name}Function'");
  });

  test("a loop over a parameter with no value at hand is not a rejection: its entries are compared as one, with the identifier's name in each item's place, and a warning says so", () => {
    const template = functionsFor('alpha').replace('    Default: alpha\n', '');
    assert.deepEqual(errors(impact(template, template)), []);
    const report = impact(template, template.replace("Handler: !Sub '${Name}.handler'", "Handler: !Sub '${Name}.main'"));
    assert.deepEqual(errors(report), []);
    assert.deepEqual(actions(report), ['Modify NameFunction']);
    assert.ok(
      report.diagnostics.some((d) => d.severity === 'warning' && /Fn::ForEach::Functions iterates over a value known only at deploy time: its entries are compared as one, with "Name" in each item's place/.test(diagnosticText(d))),
      report.diagnostics.map(diagnosticText).join('\n'),
    );
  });

  test('listed after the Serverless transform, the loop reaches SAM, which rejects it, as it rejects it for CloudFormation', () => {
    const template = functionsFor('alpha', { transforms: '[AWS::Serverless-2016-10-31, AWS::LanguageExtensions]' });
    assert.match(errors(impact(template, template)).join('\n'), /All 'Resources' must be Objects/);
  });

  test("without AWS::LanguageExtensions, SAM takes a path given by Fn::Sub as it does: not as a string", () => {
    const template = functionsFor('alpha', { transforms: 'AWS::Serverless-2016-10-31' })
      .replace(/Fn::ForEach::Functions:\n    - Name\n    - !Ref Names\n    - '\$\{Name\}Function':\n/, 'alphaFunction:\n')
      .replace(/\n {8}/g, '\n    ')
      .replace(/\$\{Name\}/g, 'alpha');
    assert.match(errors(impact(template, template)).join('\n'), /Property 'Path' should be a string/);
  });
});

describe("the SAM translator suite's inputs with AWS::LanguageExtensions listed first", { skip: SKIP_WITHOUT_TRANSLATOR_SUITE }, () => {
  test('each valid input the analysis takes as a no-op is still one, with no error: what the transform resolves is what SAM takes (a default as the template writes it, a list parameter as its list)', () => {
    const failures: string[] = [];
    let counted = 0;
    for (const { file, text: written } of validTranslatorInputs()) {
      // Inputs that list other transforms are left out; the rest are the template without its Transform line.
      if (/^Transform:/m.test(written) && !/^Transform: *'?AWS::Serverless-2016-10-31'?\s*$/m.test(written)) continue;
      const body = written.replace(/^Transform:.*\n/m, '');
      const alone = `Transform: AWS::Serverless-2016-10-31\n${body}`;
      if (impact(alone, alone).status !== 'noop') continue;
      counted++;
      const first = `Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]\n${body}`;
      const report = impact(first, first);
      if (report.status !== 'noop') failures.push(`${file}: ${report.status} ${errors(report).join(' | ')}`);
    }
    console.log(`valid inputs with AWS::LanguageExtensions listed first: ${counted - failures.length}/${counted} compared with themselves are a no-op`);
    assert.ok(counted > 400, `${counted} inputs counted`);
    assert.deepEqual(failures, []);
  });
});
