/**
 * A grammar of CloudFormation shapes for fast-check: sections, resources of known and unknown
 * types, intrinsic functions nested at random, parameters, conditions, mappings, outputs and
 * AWS::LanguageExtensions loops. Generated templates are plain data, rendered as JSON or YAML.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';

export type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

const RESOURCE_IDS = ['Queue', 'Topic', 'Bucket', 'Vpc', 'Subnet', 'Role', 'Fn', 'Thing', 'A1', 'B2'];
const PARAMETER_NAMES = ['Env', 'Cidr', 'Count', 'Names', 'Flag'];
const CONDITION_NAMES = ['IsProd', 'HasName', 'Never'];
const KNOWN_TYPES = ['AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::S3::Bucket', 'AWS::EC2::VPC', 'AWS::EC2::Subnet', 'AWS::IAM::Role', 'AWS::Lambda::Function', 'AWS::EC2::Instance'];
const OTHER_TYPES = ['AWS::Nope::Thing', 'Custom::Widget', 'MyOrg::Widget::Thing', 'AWS::CloudFormation::WaitConditionHandle'];
const PROPERTY_NAMES = ['QueueName', 'TopicName', 'BucketName', 'CidrBlock', 'VpcId', 'Tags', 'DelaySeconds', 'DisplayName', 'Unknown', 'ImageId'];
const ATTRIBUTES = ['Arn', 'QueueName', 'TopicName', 'CidrBlock', 'Nope'];
const PSEUDO = ['AWS::Region', 'AWS::AccountId', 'AWS::StackName', 'AWS::Partition', 'AWS::NoValue', 'AWS::URLSuffix', 'AWS::NotificationARNs'];
const WORDS = ['a', 'prod', 'dev', '10.0.0.0/16', '', 'x-y', '0', '1.5', 'true', 'yes', '{{resolve:ssm:/p}}', '${Env}', 'é', '#', ':'];

/** Rarely: most generated templates should be valid, so that comparison, not validation, is exercised. */
function rarely<T>(arbitrary: fc.Arbitrary<T>, oneIn = 5): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

const name = (pool: string[]): fc.Arbitrary<string> => fc.constantFrom(...pool);
const referable = fc.oneof(name(RESOURCE_IDS), name(PARAMETER_NAMES), name(PSEUDO), fc.constant('Missing'));

/** A string for Fn::Sub: literals and `${...}` variables, some escaped, some unclosed. */
const subText = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 4, arbitrary: name(WORDS) },
        { weight: 4, arbitrary: name(['Queue', 'Topic', 'Env', 'AWS::Region', 'AWS::AccountId']).map((n) => '${' + n + '}') },
        { weight: 2, arbitrary: name(['Queue', 'Topic']).map((n) => '${' + n + '.Arn}') },
        { weight: 1, arbitrary: fc.constant('${!Literal}') },
        { weight: 1, arbitrary: referable.map((n) => '${' + n + '}') },
      ),
      { maxLength: 4 },
    ),
    rarely(fc.constant('${unclosed'), 10),
  )
  .map(([parts, unclosed]) => parts.join('') + (unclosed ?? ''));

/** Text: mostly plain words and references that resolve to strings. */
const textArbitrary: fc.Arbitrary<Plain> = fc.oneof(
  { weight: 6, arbitrary: name(WORDS) },
  { weight: 2, arbitrary: name(['Queue', 'Topic', 'Env', 'AWS::Region', 'AWS::StackName']).map((n) => ({ Ref: n }) as Plain) },
  { weight: 1, arbitrary: fc.tuple(name(['Queue', 'Topic']), name(['Arn', 'QueueName', 'TopicName'])).map((a) => ({ 'Fn::GetAtt': a }) as Plain) },
  { weight: 2, arbitrary: subText.map((t) => ({ 'Fn::Sub': t }) as Plain) },
);
const textList = fc.array(textArbitrary, { minLength: 1, maxLength: 3 });

/** Values: scalars, lists, maps and every intrinsic function, nested to a bounded depth; weighted towards valid shapes. */
export const valueArbitrary: fc.Arbitrary<Plain> = fc.letrec<{ value: Plain }>((tie) => {
  const value = tie('value');
  const list = fc.array(value, { maxLength: 3 });
  const fn = (key: string, arg: fc.Arbitrary<Plain>): fc.Arbitrary<Plain> => arg.map((a) => ({ [key]: a }));
  const w = (weight: number, arbitrary: fc.Arbitrary<Plain>) => ({ weight, arbitrary });
  return {
    value: fc.oneof(
      { depthSize: 'xsmall', withCrossShrink: true },
      w(30, fc.oneof(name(WORDS), fc.integer({ min: -3, max: 300 }), fc.boolean(), fc.constant(null))),
      w(8, list),
      w(8, fc.dictionary(name(PROPERTY_NAMES), value, { maxKeys: 3 })),
      w(8, fn('Ref', fc.oneof({ weight: 20, arbitrary: name(['Queue', 'Topic', 'Env', 'Names', ...PSEUDO]) }, { weight: 1, arbitrary: referable }))),
      w(4, fn('Fn::GetAtt', fc.tuple(name(['Queue', 'Topic']), name(ATTRIBUTES)))),
      w(2, fn('Fn::GetAtt', fc.tuple(name(['Queue', 'Topic', 'Queue', 'Topic', 'B2']), name(ATTRIBUTES)).map(([r, a]) => `${r}.${a}`))),
      w(8, fn('Fn::Sub', fc.oneof({ weight: 6, arbitrary: subText }, { weight: 2, arbitrary: fc.tuple(subText, fc.dictionary(name(['Env', 'X', 'Y']), textArbitrary, { maxKeys: 2 })) }, { weight: 1, arbitrary: value }))),
      w(4, fn('Fn::Join', fc.oneof({ weight: 8, arbitrary: fc.tuple(name([',', '', '-']), textList) }, { weight: 1, arbitrary: fc.tuple(name([',']), list) }, { weight: 1, arbitrary: value }))),
      w(3, fn('Fn::Select', fc.oneof({ weight: 8, arbitrary: fc.tuple(fc.constant(0), textList) }, { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 0, max: 2 }), fn('Fn::GetAZs', fc.constant(''))) }, { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -1, max: 4 }), list) }, { weight: 1, arbitrary: value }))),
      w(2, fn('Fn::Split', fc.oneof({ weight: 8, arbitrary: fc.tuple(name([',', '-']), textArbitrary) }, { weight: 1, arbitrary: fc.tuple(name(['', ',']), value) }))),
      w(4, fn('Fn::If', fc.oneof({ weight: 8, arbitrary: fc.tuple(name(CONDITION_NAMES), value, value) }, { weight: 4, arbitrary: fc.tuple(name(CONDITION_NAMES), value, fc.constant({ Ref: 'AWS::NoValue' })) }, { weight: 1, arbitrary: value }))),
      w(3, fn('Fn::FindInMap', fc.tuple(fc.oneof({ weight: 12, arbitrary: fc.constant('Regions') }, { weight: 1, arbitrary: fc.constant('Missing') }), fc.oneof(name(['us-east-1', 'eu-west-1']), fc.constant({ Ref: 'AWS::Region' })), fc.oneof({ weight: 12, arbitrary: name(['Ami', 'Size']) }, { weight: 1, arbitrary: fc.constant('Nope') })))),
      w(2, fn('Fn::Base64', fc.oneof({ weight: 8, arbitrary: textArbitrary }, { weight: 1, arbitrary: value }))),
      w(2, fn('Fn::GetAZs', fc.oneof(fc.constant(''), fc.constant({ Ref: 'AWS::Region' }), name(['eu-west-1'])))),
      w(1, fn('Fn::Cidr', fc.oneof({ weight: 8, arbitrary: fc.tuple(name(['10.0.0.0/16', '10.1.0.0/16']), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 4, max: 8 })) }, { weight: 1, arbitrary: fc.tuple(name(['10.0.0.0/16', '::/0', 'bad']), fc.integer({ min: -1, max: 300 }), fc.integer({ min: -1, max: 130 })) }))),
      w(2, fn('Fn::ImportValue', textArbitrary)),
      w(1, fn('Fn::Length', fc.oneof(textList, value))),
      w(1, fn('Fn::ToJsonString', value)),
      w(1, fc.oneof({ weight: 1, arbitrary: name(['Fn::Bogus', 'Fn::Transform', 'Condition', 'Fn::Equals']) }, { weight: 4, arbitrary: fc.constant('Fn::Base64') }).chain((key) => fn(key, value))),
    ),
  };
}).value;

/** Condition expressions over parameters; now and then one refers to another condition (so cycles happen). */
const conditionArbitrary: fc.Arbitrary<Plain> = fc.letrec<{ condition: Plain }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small' },
    { weight: 6, arbitrary: fc.tuple(fc.oneof(fc.constant({ Ref: 'Env' }), fc.constant({ Ref: 'AWS::Region' }), name(WORDS)), name(['prod', 'us-east-1', ''])).map((args) => ({ 'Fn::Equals': args })) },
    { weight: 1, arbitrary: fc.oneof({ weight: 5, arbitrary: fc.constant('Base') }, { weight: 1, arbitrary: name(CONDITION_NAMES) }).map((c) => ({ Condition: c })) },
    { weight: 2, arbitrary: tie('condition').map((c) => ({ 'Fn::Not': [c] })) },
    { weight: 1, arbitrary: fc.array(tie('condition'), { minLength: 2, maxLength: 3 }).map((cs) => ({ 'Fn::And': cs })) },
    { weight: 1, arbitrary: fc.array(tie('condition'), { minLength: 2, maxLength: 3 }).map((cs) => ({ 'Fn::Or': cs })) },
  ),
})).condition;

/** Parameters whose Default is usually allowed; now and then one without a value or outside AllowedValues. */
const parameterArbitrary: fc.Arbitrary<Plain> = fc
  .tuple(
    fc.oneof({ weight: 6, arbitrary: fc.constant('String') }, { weight: 1, arbitrary: name(['Number', 'CommaDelimitedList', 'List<Number>', 'AWS::EC2::VPC::Id', 'AWS::SSM::Parameter::Value<String>', 'Bogus']) }),
    fc.oneof({ weight: 30, arbitrary: name(['prod', 'dev', '1', 'a,b,c', '10.0.0.0/16']) }, { weight: 1, arbitrary: fc.constant(undefined) }),
    rarely(fc.array(name(['prod', 'dev', '1']), { maxLength: 2 }), 20),
    fc.boolean(),
  )
  .map(([type, fallback, allowed, noEcho]) => {
    const p: { [key: string]: Plain } = { Type: type };
    if (fallback !== undefined) p.Default = type === 'Number' || type === 'List<Number>' ? '1' : type === 'AWS::EC2::VPC::Id' ? 'vpc-1' : fallback;
    // AllowedValues usually include the Default; sometimes they do not, which is an error.
    if (allowed !== undefined) p.AllowedValues = allowed;
    else if (p.Default !== undefined && type === 'String') p.AllowedValues = [p.Default, 'other'];
    if (noEcho) p.NoEcho = true;
    return p;
  });

const resourceArbitrary: fc.Arbitrary<Plain> = fc
  .tuple(
    fc.oneof({ weight: 6, arbitrary: name(KNOWN_TYPES) }, { weight: 1, arbitrary: name(OTHER_TYPES) }),
    fc.dictionary(name(PROPERTY_NAMES), valueArbitrary, { maxKeys: 3 }),
    rarely(valueArbitrary),
    rarely(name(CONDITION_NAMES), 10),
    rarely(fc.oneof(name(['Queue', 'Topic', 'A1']), fc.array(name(['Queue', 'Topic', 'Bucket']), { maxLength: 2 })), 12),
    rarely(name(['Retain', 'Delete', 'Snapshot'])),
  )
  .map(([type, properties, metadata, condition, dependsOn, deletionPolicy]) => {
    const r: { [key: string]: Plain } = { Type: type, Properties: properties };
    if (metadata !== undefined) r.Metadata = metadata;
    if (condition !== undefined) r.Condition = condition;
    if (dependsOn !== undefined) r.DependsOn = dependsOn;
    if (deletionPolicy !== undefined) r.DeletionPolicy = deletionPolicy;
    return r;
  });

/** A `Fn::ForEach` loop generating resources, sometimes nested, over literal or parameter collections. */
const forEachArbitrary: fc.Arbitrary<[string, Plain]> = fc
  .tuple(
    fc.oneof(fc.uniqueArray(name(['a', 'b', 'c', 'd']), { maxLength: 4 }), fc.constant({ Ref: 'Names' } as Plain), fc.constant({ 'Fn::Split': [',', 'x,y,z'] } as Plain)),
    resourceArbitrary,
    fc.boolean(),
  )
  .map(([collection, resource, nested]) => {
    const inner: Plain = { 'Queue${Item}': resource };
    const fragment: Plain = nested ? { 'Fn::ForEach::Inner': ['Other', ['1', '2'], { 'Q${Item}${Other}': resource }] } : inner;
    return ['Fn::ForEach::Loop', ['Item', collection, fragment]];
  });

/** Whole templates: usually valid, with every section and every kind of mistake now and then. */
export const templateArbitrary: fc.Arbitrary<{ [key: string]: Plain }> = fc
  .record({
    version: rarely(fc.constantFrom('2010-09-09', '2010-09-09', '2099-01-01'), 2),
    description: rarely(name(WORDS), 3),
    transform: rarely(fc.constantFrom('AWS::LanguageExtensions', 'AWS::LanguageExtensions', 'AWS::Serverless-2016-10-31', 'MyMacro'), 3),
    parameters: fc.dictionary(name(PARAMETER_NAMES), parameterArbitrary, { maxKeys: 3 }),
    conditions: fc.record({ IsProd: conditionArbitrary, HasName: conditionArbitrary, Never: conditionArbitrary }),
    referenced: fc.record({ Queue: resourceArbitrary, Topic: resourceArbitrary, Bucket: resourceArbitrary, Vpc: resourceArbitrary }, { requiredKeys: ['Queue', 'Topic'] }),
    resources: fc.dictionary(name(RESOURCE_IDS), resourceArbitrary, { maxKeys: 3 }),
    loop: rarely(forEachArbitrary, 3),
    outputs: rarely(fc.dictionary(name(['Out', 'Arn']), valueArbitrary.map((v) => ({ Value: v }) as Plain), { maxKeys: 2 }), 2),
    bogus: rarely(fc.constant('unknown section'), 20),
    dropResources: rarely(fc.constant(true), 30),
  })
  .map((t) => {
    const template: { [key: string]: Plain } = {};
    if (t.version !== undefined) template.AWSTemplateFormatVersion = t.version;
    if (t.description !== undefined) template.Description = t.description;
    // A loop needs the LanguageExtensions transform; without it, it is one of the mistakes.
    const transform = t.loop !== undefined && t.bogus === undefined ? 'AWS::LanguageExtensions' : t.transform;
    if (transform !== undefined) template.Transform = transform;
    template.Parameters = { Names: { Type: 'CommaDelimitedList', Default: 'p,q' }, Env: { Type: 'String', Default: 'prod' }, ...t.parameters };
    template.Mappings = { Regions: { 'us-east-1': { Ami: 'ami-1', Size: 2 }, 'eu-west-1': { Ami: 'ami-2', Size: 3 } } };
    template.Conditions = { Base: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] }, ...t.conditions };
    const resources: [string, Plain][] = Object.entries({ ...t.referenced, ...t.resources });
    if (resources.length === 0) resources.push(['Queue', { Type: 'AWS::SQS::Queue' }]);
    if (t.loop !== undefined) resources.push(t.loop);
    if (t.dropResources === undefined) template.Resources = Object.fromEntries(resources);
    if (t.outputs !== undefined) template.Outputs = t.outputs;
    if (t.bogus !== undefined) template.Bogus = t.bogus;
    return template;
  });

/** The template as JSON text. */
export function renderJson(template: Plain): string {
  return JSON.stringify(template, null, 2);
}

/** The same template as YAML text (long-form intrinsics, which YAML and JSON share). */
export function renderYaml(template: Plain): string {
  return stringify(template, { aliasDuplicateObjects: false, lineWidth: 0 });
}
