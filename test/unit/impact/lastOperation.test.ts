/**
 * What the deployed stack's last operation says about the edited template: an early-validation
 * check that rejected it names a template path (a JSON pointer, DescribeEvents' ValidationPath),
 * and that path, where the edited template still has it, is a warning in the check's words.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import { diagnosticText } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

const deployed = `Resources:
  Logs: { Type: AWS::S3::Bucket }
`;
const edited = (archive: string) => `Resources:
  Logs: { Type: AWS::S3::Bucket }
  Archive:
    Type: AWS::S3::Bucket
${archive}`;
const failure = { name: 'ResourceNameConflict', reason: 'A bucket named shared-archive already exists in this account.', path: '/Resources/Archive/Properties/BucketName' };

describe("the deployed stack's last operation", () => {
  test('a check that rejected it is a warning at the key its path names, in its words', () => {
    const text = edited('    Properties:\n      BucketName: shared-archive\n');
    const { report } = analyzeUpdate({ text: deployed }, { text }, { spec, lastOperationFailures: [failure] });
    const warnings = report.diagnostics.filter((d) => d.code === 'early-validation-failed');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.severity, 'warning');
    assert.equal(text.slice(warnings[0]!.range!.start, warnings[0]!.range!.end), 'BucketName');
    assert.equal(diagnosticText(warnings[0]!), "Early validation (ResourceNameConflict) rejected the stack's last operation here: A bucket named shared-archive already exists in this account.");
  });

  test('a path the edit removed, or one it never had, says nothing: the edit may be the fix', () => {
    const { report } = analyzeUpdate({ text: deployed }, { text: edited('') }, { spec, lastOperationFailures: [failure, { name: 'Other', path: '/Resources/Nowhere/Properties/X' }, { name: 'NoPath' }] });
    assert.deepEqual(report.diagnostics.filter((d) => d.code === 'early-validation-failed'), []);
  });

  test('JSON pointer escapes: ~1 is a slash and ~0 a tilde in a key', () => {
    const text = `Resources:\n  Api:\n    Type: AWS::ApiGateway::RestApi\n    Properties:\n      Body:\n        paths:\n          /items~v2:\n            get: {}\n`;
    const { report } = analyzeUpdate({ text: deployed }, { text }, { spec, lastOperationFailures: [{ name: 'PathCheck', path: '/Resources/Api/Properties/Body/paths/~1items~0v2' }] });
    const warning = report.diagnostics.find((d) => d.code === 'early-validation-failed');
    assert.equal(text.slice(warning!.range!.start, warning!.range!.end), '/items~v2');
  });
});
