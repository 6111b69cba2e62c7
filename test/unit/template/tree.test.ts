import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeAtPath, parseTemplate, pathAtOffset, toPlain } from '../../../server/src/template';

const text = [
  'Resources:',
  '  Bucket:',
  '    Type: AWS::S3::Bucket',
  '    Properties:',
  '      BucketName: !Sub "${Prefix}-data"',
  '      Tags:',
  '        - Key: team',
  '          Value: core',
  '',
].join('\n');
const root = parseTemplate(text).root!;

describe('toPlain', () => {
  test('gives the long-form plain value', () => {
    assert.deepEqual(toPlain(root), {
      Resources: {
        Bucket: {
          Type: 'AWS::S3::Bucket',
          Properties: { BucketName: { 'Fn::Sub': '${Prefix}-data' }, Tags: [{ Key: 'team', Value: 'core' }] },
        },
      },
    });
  });
});

describe('nodeAtPath', () => {
  test('follows keys and indexes', () => {
    assert.deepEqual(toPlain(nodeAtPath(root, ['Resources', 'Bucket', 'Properties', 'Tags', 0, 'Key'])!), 'team');
    assert.deepEqual(toPlain(nodeAtPath(root, ['Resources', 'Bucket', 'Properties', 'BucketName', 'Fn::Sub'])!), '${Prefix}-data');
    assert.equal(nodeAtPath(root, []), root);
  });

  test('is undefined for a missing key, an index into a map, or a key into a sequence', () => {
    assert.equal(nodeAtPath(root, ['Resources', 'Queue']), undefined);
    assert.equal(nodeAtPath(root, ['Resources', 0]), undefined);
    assert.equal(nodeAtPath(root, ['Resources', 'Bucket', 'Properties', 'Tags', 'Key']), undefined);
    assert.equal(nodeAtPath(root, ['Resources', 'Bucket', 'Properties', 'Tags', 5]), undefined);
  });
});

describe('pathAtOffset', () => {
  test('on a key: the path to that key, its value, and onKey', () => {
    const location = pathAtOffset(root, text.indexOf('BucketName') + 3);
    assert.deepEqual(location?.path, ['Resources', 'Bucket', 'Properties', 'BucketName']);
    assert.equal(location?.onKey, true);
    assert.equal(location?.node.kind, 'map');
  });

  test('inside a value: the deepest node holding the offset', () => {
    const location = pathAtOffset(root, text.indexOf('core') + 1);
    assert.deepEqual(location?.path, ['Resources', 'Bucket', 'Properties', 'Tags', 0, 'Value']);
    assert.equal(location?.onKey, false);
    assert.deepEqual(toPlain(location!.node), 'core');
  });

  test('on a short-form tag: the long-form key it stands for', () => {
    const location = pathAtOffset(root, text.indexOf('!Sub') + 1);
    assert.deepEqual(location?.path, ['Resources', 'Bucket', 'Properties', 'BucketName', 'Fn::Sub']);
    assert.equal(location?.onKey, true);
    const inside = pathAtOffset(root, text.indexOf('Prefix'));
    assert.deepEqual(inside?.path, ['Resources', 'Bucket', 'Properties', 'BucketName', 'Fn::Sub']);
    assert.equal(inside?.onKey, false);
  });

  test('ranges are half-open: the offset just after a value is not in it', () => {
    const end = text.indexOf('AWS::S3::Bucket') + 'AWS::S3::Bucket'.length;
    assert.deepEqual(pathAtOffset(root, end - 1)?.path, ['Resources', 'Bucket', 'Type']);
    assert.notDeepEqual(pathAtOffset(root, end)?.path, ['Resources', 'Bucket', 'Type']);
  });

  test('outside the root: undefined', () => {
    assert.equal(pathAtOffset(root, text.length + 10), undefined);
    assert.equal(pathAtOffset(root, -1), undefined);
  });
});
