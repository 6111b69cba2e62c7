import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeAtPath, parseTemplate, pathAtOffset, samePlainValue, toPlain } from '../../../server/src/template';

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

describe('samePlainValue', () => {
  const same = (a: string, b: string) => samePlainValue(parseTemplate(a).root!, parseTemplate(b).root!);

  test('the same value written differently is the same: layout, key order, short and long forms, JSON and YAML', () => {
    assert.equal(same('A: 1\nB: [x, y]\n', 'B:\n  - x\n  - y\nA: 1\n'), true);
    assert.equal(same('A: !Sub "${X}-data"\n', 'A:\n  Fn::Sub: ${X}-data\n'), true);
    assert.equal(same('{"A": {"Ref": "X"}}', 'A: !Ref X\n'), true);
    assert.equal(same('A: .nan\n', 'A: .NaN\n'), true);
  });

  test('a repeated key counts with its last value, as toPlain reads it', () => {
    assert.equal(same('{"A": 1, "A": 2}', 'A: 2\n'), true);
    assert.equal(same('{"A": 1, "A": 2}', 'A: 1\n'), false);
  });

  test('different values differ: type, sign of zero, length, keys, nesting', () => {
    assert.equal(same("A: '1'\n", 'A: 1\n'), false);
    assert.equal(same('A: 0\n', 'A: -0.0\n'), false);
    assert.equal(same('A: [x]\n', 'A: [x, x]\n'), false);
    assert.equal(same('A: 1\n', 'A: 1\nB: 1\n'), false);
    assert.equal(same('A: 1\nB: 1\n', 'A: 1\nC: 1\n'), false);
    assert.equal(same('A: [x]\n', 'A: {x: null}\n'), false);
    assert.equal(same('A: {}\n', 'A: []\n'), false);
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
