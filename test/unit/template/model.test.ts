import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, readTemplateModel, toPlain, type TemplateModel } from '../../../server/src/template';

/** The model of a template text, with its errors as [code, message, the text each error spans]. */
function read(text: string): { model: TemplateModel; errors: [string, string, string][] } {
  const model = readTemplateModel(parseTemplate(text));
  return { model, errors: model.errors.map((e) => [e.code, e.message, text.slice(e.range.start, e.range.end)]) };
}

describe('readTemplateModel: sections', () => {
  const text = [
    'AWSTemplateFormatVersion: "2010-09-09"',
    'Description: Queue and topic',
    'Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]',
    'Parameters:',
    '  Env:',
    '    Type: String',
    '    Default: dev',
    '  Secret:',
    '    Type: String',
    '    NoEcho: true',
    'Mappings:',
    '  Sizes: {dev: {Count: 1}}',
    'Conditions:',
    '  IsProd: !Equals [!Ref Env, prod]',
    'Resources:',
    '  Queue:',
    '    Type: AWS::SQS::Queue',
    '    Condition: IsProd',
    '    DependsOn: [Topic, Other]',
    '    DeletionPolicy: Retain',
    '    UpdateReplacePolicy: Snapshot',
    '    Metadata: {Note: x}',
    '    Properties: {DelaySeconds: 5}',
    '  Topic:',
    '    Type: AWS::SNS::Topic',
    '    DependsOn: Other',
    '  Other:',
    '    Type: Custom::Thing',
    '    Version: "1.0"',
    'Outputs:',
    '  QueueUrl:',
    '    Condition: IsProd',
    '    Value: !Ref Queue',
    '',
  ].join('\n');
  const { model, errors } = read(text);

  test('has no errors and is CloudFormation', () => {
    assert.deepEqual(errors, []);
    assert.equal(model.isCloudFormation, true);
  });

  test('reads the header sections and transforms', () => {
    assert.deepEqual(toPlain(model.formatVersion!), '2010-09-09');
    assert.deepEqual(toPlain(model.description!), 'Queue and topic');
    assert.deepEqual(
      model.transforms.map((t) => [t.name, text.slice(t.range.start, t.range.end)]),
      [
        ['AWS::LanguageExtensions', 'AWS::LanguageExtensions'],
        ['AWS::Serverless-2016-10-31', 'AWS::Serverless-2016-10-31'],
      ],
    );
  });

  test('reads parameters with type, default and NoEcho', () => {
    const env = model.parameters.get('Env')!;
    assert.equal(text.slice(env.keyRange.start, env.keyRange.end), 'Env');
    assert.equal(env.type, 'String');
    assert.deepEqual(toPlain(env.default!), 'dev');
    assert.equal(env.noEcho, false);
    assert.equal(model.parameters.get('Secret')!.noEcho, true);
  });

  test('reads mappings and conditions', () => {
    assert.deepEqual(toPlain(model.mappings!), { Sizes: { dev: { Count: 1 } } });
    assert.deepEqual([...model.conditions.keys()], ['IsProd']);
    assert.deepEqual(toPlain(model.conditions.get('IsProd')!.node), { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] });
  });

  test('reads each resource with its attributes and ranges', () => {
    assert.deepEqual([...model.resources.keys()], ['Queue', 'Topic', 'Other']);
    const queue = model.resources.get('Queue')!;
    assert.equal(queue.type, 'AWS::SQS::Queue');
    assert.equal(text.slice(queue.keyRange.start, queue.keyRange.end), 'Queue');
    assert.equal(text.slice(queue.typeRange!.start, queue.typeRange!.end), 'AWS::SQS::Queue');
    assert.equal(queue.condition, 'IsProd');
    assert.equal(text.slice(queue.conditionRange!.start, queue.conditionRange!.end), 'IsProd');
    assert.deepEqual(queue.dependsOn.map((d) => [d.name, text.slice(d.range.start, d.range.end)]), [
      ['Topic', 'Topic'],
      ['Other', 'Other'],
    ]);
    assert.deepEqual(toPlain(queue.properties!), { DelaySeconds: 5 });
    assert.deepEqual(toPlain(queue.metadata!), { Note: 'x' });
    assert.deepEqual(Object.keys(queue.attributes).sort(), ['DeletionPolicy', 'UpdateReplacePolicy']);
    assert.deepEqual(model.resources.get('Topic')!.dependsOn.map((d) => d.name), ['Other']);
    assert.deepEqual(toPlain(model.resources.get('Other')!.attributes.Version!), '1.0');
  });

  test('reads outputs with their condition', () => {
    const output = model.outputs.get('QueueUrl')!;
    assert.equal(output.condition, 'IsProd');
    assert.equal(text.slice(output.keyRange.start, output.keyRange.end), 'QueueUrl');
  });

  test('a single transform name is read like a list of one', () => {
    assert.deepEqual(
      read('Transform: AWS::Serverless-2016-10-31\nResources:\n  F: {Type: AWS::Serverless::Function}\n').model.transforms.map((t) => t.name),
      ['AWS::Serverless-2016-10-31'],
    );
  });
});

describe('readTemplateModel: structural errors, in CloudFormation wording where it has one', () => {
  const bucket = 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n';

  test('an unknown top-level key', () => {
    assert.deepEqual(read(`${bucket}Resource:\n  X: 1\n`).errors, [
      ['unknown-section', 'Template format error: Invalid template property or properties [Resource]', 'Resource'],
    ]);
  });

  test('Resources that is not a map', () => {
    assert.deepEqual(read('AWSTemplateFormatVersion: 2010-09-09\nResources: [a]\n').errors, [
      ['invalid-section', 'The Resources section must be a map of names to declarations.', '[a]'],
    ]);
  });

  test('no resources at all', () => {
    assert.deepEqual(read('AWSTemplateFormatVersion: 2010-09-09\nResources: {}\n').errors, [
      ['no-resources', 'Template format error: At least one Resources member must be defined.', 'Resources'],
    ]);
    assert.deepEqual(read('AWSTemplateFormatVersion: 2010-09-09\n').errors.map((e) => e[0]), ['no-resources']);
  });

  test('a resource that is not a map', () => {
    assert.deepEqual(read(`${bucket}  Queue: AWS::SQS::Queue\n`).errors, [
      ['invalid-resource', 'Template format error: [/Resources/Queue] Every Resources object must contain a Type member.', 'Queue'],
    ]);
  });

  test('a resource without Type', () => {
    assert.deepEqual(read(`${bucket}  Queue:\n    Properties: {}\n`).errors, [
      ['missing-type', 'Template format error: [/Resources/Queue] Every Resources object must contain a Type member.', 'Queue'],
    ]);
  });

  test('a Type that is not a name', () => {
    assert.deepEqual(read(`${bucket}  Queue:\n    Type: !Ref T\n`).errors.map((e) => [e[0], e[2]]), [['invalid-type', '!Ref T']]);
  });

  test('a logical id that is not alphanumeric', () => {
    assert.deepEqual(read(`${bucket}  My-Queue:\n    Type: AWS::SQS::Queue\n`).errors, [
      ['invalid-logical-id', 'Template format error: Resource name My-Queue is non alphanumeric.', 'My-Queue'],
    ]);
  });

  test('parameter and output names that are not alphanumeric', () => {
    assert.deepEqual(read(`${bucket}Parameters:\n  my_env: {Type: String}\nOutputs:\n  Bucket-Name: {Value: x}\n`).errors, [
      ['invalid-logical-id', 'Parameter name my_env must be alphanumeric (A-Z, a-z, 0-9).', 'my_env'],
      ['invalid-logical-id', "Template format error: Outputs name 'Bucket-Name' is non alphanumeric.", 'Bucket-Name'],
    ]);
  });

  test('an unknown resource attribute', () => {
    assert.deepEqual(read(`${bucket}    Propertes: {}\n`).errors, [
      ['unknown-resource-attribute', "Invalid template resource property 'Propertes'", 'Propertes'],
    ]);
  });

  test('DependsOn that is neither a name nor a list of names', () => {
    assert.deepEqual(read(`${bucket}    DependsOn: [A, {B: 1}]\n`).errors.map((e) => [e[0], e[2]]), [['invalid-depends-on', '{B: 1}']]);
    assert.deepEqual(read(`${bucket}    DependsOn: {B: 1}\n`).errors.map((e) => [e[0], e[2]]), [['invalid-depends-on', '{B: 1}']]);
  });

  test('Properties that are not a map', () => {
    assert.deepEqual(read(`${bucket}    Properties: [a]\n`).errors.map((e) => [e[0], e[2]]), [['invalid-properties', '[a]']]);
  });

  test('a parameter without Type, and an output without Value', () => {
    const { errors } = read(`${bucket}Parameters:\n  Env: {Default: dev}\nOutputs:\n  Name: {Description: x}\n`);
    assert.deepEqual(errors, [
      ['missing-type', 'Template format error: Every Parameters object must contain a Type member.', 'Env'],
      ['invalid-output', 'Template format error: Every Outputs member must contain a Value object', 'Name'],
    ]);
  });

  test('a transform that is not a name', () => {
    assert.deepEqual(read(`${bucket}Transform: [{Name: X}]\n`).errors.map((e) => [e[0], e[2]]), [['invalid-transform', '{Name: X}']]);
  });

  test('parse errors are carried into the model', () => {
    assert.deepEqual(read(`${bucket}  Bucket:\n    Type: AWS::SQS::Queue\n`).errors.map((e) => e[0]), ['duplicate-key']);
  });
});

describe('readTemplateModel: transforms relax the grammar they extend', () => {
  test('the Serverless transform allows Globals and its resource attributes', () => {
    const text = [
      'Transform: AWS::Serverless-2016-10-31',
      'Globals: {Function: {Timeout: 3}}',
      'Resources:',
      '  Fn:',
      '    Type: AWS::Serverless::Function',
      '    IgnoreGlobals: "*"',
      '    Connectors: {}',
      '',
    ].join('\n');
    assert.deepEqual(read(text).errors, []);
  });

  test('without it, Globals is an unknown section, and the error says what would make it known', () => {
    assert.deepEqual(read('Globals: {}\nResources:\n  B: {Type: AWS::S3::Bucket}\n').errors, [
      ['unknown-section', 'Template format error: Invalid template property or properties [Globals]. It needs Transform: AWS::Serverless-2016-10-31, which the template does not declare.', 'Globals'],
    ]);
  });

  test("without it, SAM's types are types CloudFormation does not know: one error at each, naming them all, as CloudFormation's one message does", () => {
    const text = [
      'Resources:',
      '  Api:',
      '    Type: AWS::Serverless::Api',
      '    Properties: {StageName: prod}',
      '  Fn:',
      '    Type: AWS::Serverless::Function',
      '  Other:',
      '    Type: AWS::Serverless::Function',
      '  Bucket:',
      '    Type: AWS::S3::Bucket',
      '',
    ].join('\n');
    const message = 'Template format error: Unrecognized resource types: [AWS::Serverless::Api, AWS::Serverless::Function]. They need Transform: AWS::Serverless-2016-10-31, which the template does not declare.';
    assert.deepEqual(
      read(text).errors,
      ['AWS::Serverless::Api', 'AWS::Serverless::Function', 'AWS::Serverless::Function'].map((type) => ['serverless-without-transform', message, type]),
    );
    // The template the transform made, which no longer declares it, keeps a SAM type it left as written.
    assert.deepEqual(readTemplateModel(parseTemplate(text), { processed: true }).errors, []);
  });

  test('a macro may rewrite anything, so nothing it could rewrite is judged', () => {
    const text = 'Transform: Count\nWhatever: 1\nResources:\n  B: {Type: AWS::S3::Bucket, Count: 3}\n';
    assert.deepEqual(read(text).errors, []);
  });

  test('Fn::ForEach loops under AWS::LanguageExtensions are not resources, but show the template is CloudFormation', () => {
    const text = [
      'Transform: AWS::LanguageExtensions',
      'Resources:',
      '  Fn::ForEach::Topics:',
      '    - Name',
      '    - [A, B]',
      '    - Topic${Name}: {Type: AWS::SNS::Topic}',
      '',
    ].join('\n');
    const { model, errors } = read(text);
    assert.deepEqual(errors, []);
    assert.equal(model.resources.size, 0);
    assert.equal(model.isCloudFormation, true);
  });

  test('section-level Fn::Transform (AWS::Include) is not a declaration', () => {
    const { model, errors } = read('Resources:\n  Fn::Transform: {Name: AWS::Include, Parameters: {Location: s3://b/k}}\n  B: {Type: AWS::S3::Bucket}\n');
    assert.deepEqual(errors, []);
    assert.deepEqual([...model.resources.keys()], ['B']);
  });

  test('Rain modules (Type: !Rain::Module) may take Overrides', () => {
    const text = 'Resources:\n  B: {Type: AWS::S3::Bucket}\n  Site:\n    Type: !Rain::Module modules/site.yml\n    Overrides: {}\n';
    assert.deepEqual(read(text).errors.map((e) => e[0]), ['preprocessor-tag']);
  });
});

describe('readTemplateModel: isCloudFormation', () => {
  const positives: [string, string][] = [
    ['the format version alone', 'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  X: {Type: My::Own::Type}\n'],
    ['an AWS:: resource type', 'Resources:\n  B:\n    Type: AWS::S3::Bucket\n'],
    ['a Custom:: resource type', '{"Resources": {"C": {"Type": "Custom::Lookup"}}}'],
    ['a third-party resource type', 'Resources:\n  M:\n    Type: MongoDB::Atlas::Cluster\n'],
  ];
  for (const [name, text] of positives) {
    test(`yes for ${name}`, () => assert.equal(read(text).model.isCloudFormation, true));
  }

  const negatives: [string, string][] = [
    ['a package.json', '{"name": "x", "version": "1.0.0", "scripts": {"test": "node t"}}'],
    ['a Kubernetes manifest', 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{port: 80}]\n'],
    ['a Resources map without CloudFormation types', 'Resources:\n  images: {Type: png}\n'],
    ['a list', '- a\n- b\n'],
    ['a scalar', 'hello\n'],
    ['the empty file', ''],
  ];
  for (const [name, text] of negatives) {
    test(`no for ${name}, and nothing is judged`, () => {
      const { model, errors } = read(text);
      assert.equal(model.isCloudFormation, false);
      assert.deepEqual(errors, []);
    });
  }
});
