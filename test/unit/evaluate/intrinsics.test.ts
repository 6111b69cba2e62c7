import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Concatenation, ResourceAttribute, ResourceRef, UnknownValue } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

// Every template here declares a VPC and evaluates the properties of resource `Probe`.
const VPC = '  VPC:\n    Type: AWS::EC2::VPC\n    Properties: { CidrBlock: 10.0.0.0/16 }\n';

describe('Ref and Fn::GetAtt', () => {
  test('Ref to a resource is its physical id; Fn::GetAtt in every form is an attribute', () => {
    const result = evaluateText(`
Parameters:
  AttrName: { Type: String, Default: CidrBlock }
Resources:
${VPC}  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      Ref: !Ref VPC
      Short: !GetAtt VPC.CidrBlock
      Dotted: !GetAtt VPC.Endpoint.Address
      LongString: { "Fn::GetAtt": "VPC.Endpoint.Address" }
      LongList: { "Fn::GetAtt": [VPC, Endpoint.Address] }
      ComputedName: { "Fn::GetAtt": [VPC, { Ref: AttrName }] }
`);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.resources.get('Probe')!.properties, {
      Ref: new ResourceRef('VPC'),
      Short: new ResourceAttribute('VPC', 'CidrBlock'),
      Dotted: new ResourceAttribute('VPC', 'Endpoint.Address'),
      LongString: new ResourceAttribute('VPC', 'Endpoint.Address'),
      LongList: new ResourceAttribute('VPC', 'Endpoint.Address'),
      ComputedName: new ResourceAttribute('VPC', 'CidrBlock'),
    });
    assert.deepEqual(result.resources.get('Probe')!.dependsOn, ['VPC']);
  });

  test('Fn::GetAtt of a parameter is an error at the name', () => {
    const text = `Parameters:\n  P: { Type: String, Default: x }\nResources:\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: !GetAtt P.Arn }\n`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [['Template error: instance of Fn::GetAtt references undefined resource P', 'P']],
    );
    assert.ok((result.resources.get('Probe')!.properties as Record<string, unknown>).A instanceof UnknownValue);
  });

  test('a Fn::GetAtt without an attribute is malformed', () => {
    const text = `Resources:\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: { "Fn::GetAtt": "Probe" } }\n`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [['Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute', '{ "Fn::GetAtt": "Probe" }']],
    );
  });
});

describe('Fn::Sub', () => {
  test('substitutes parameters, pseudo parameters, resources and attributes, merging adjacent literals', () => {
    const result = evaluateText(`
Parameters:
  Env: { Type: String, Default: prod }
Resources:
${VPC}  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Known: !Sub "\${Env}-\${AWS::Region}-\${AWS::AccountId}"
      Mixed: !Sub "arn:\${AWS::Partition}:ec2:::vpc/\${VPC}/\${VPC.CidrBlock}!"
      Alone: !Sub "\${VPC}"
      Escaped: !Sub "\${!Literal}-\${Env}"
`);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.resources.get('Probe')!.properties, {
      Known: 'prod-us-east-1-123456789012',
      Mixed: new Concatenation(['arn:aws:ec2:::vpc/', new ResourceRef('VPC'), '/', new ResourceAttribute('VPC', 'CidrBlock'), '!']),
      Alone: new ResourceRef('VPC'),
      Escaped: '${Literal}-prod',
    });
  });

  test('the list form takes variables from its map first, evaluated', () => {
    const result = evaluateText(`
Resources:
${VPC}  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Name: !Sub
        - "\${Prefix}-\${Id}-\${AWS::Region}"
        - Prefix: app
          Id: !Ref VPC
`);
    assert.deepEqual(result.resources.get('Probe')!.properties, { Name: new Concatenation(['app-', new ResourceRef('VPC'), '-us-east-1']) });
    assert.deepEqual(result.resources.get('Probe')!.dependsOn, ['VPC']);
  });

  test('an undeclared variable is an error at the variable', () => {
    const text = 'Resources:\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: !Sub "x-${Missing}-y" }\n';
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [['Template format error: Unresolved resource dependencies [Missing] in the Resources block of the template', '${Missing}']],
    );
  });

  test('dynamic references in literals are unknowns within the text', () => {
    const result = evaluateText(`
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Name: !Sub "pre-{{resolve:ssm:/app/name:3}}-\${AWS::Region}"
      Secret: "{{resolve:ssm-secure:/db/password}}"
`);
    const props = result.resources.get('Probe')!.properties as Record<string, unknown>;
    assert.deepEqual(props.Name, new Concatenation(['pre-', new UnknownValue('dynamic:{{resolve:ssm:/app/name:3}}', 'SSM parameter /app/name:3', [], undefined, '{{resolve:ssm:/app/name:3}}'), '-us-east-1']));
    assert.deepEqual(props.Secret, new UnknownValue('dynamic:{{resolve:ssm-secure:/db/password}}', 'SSM SecureString parameter /db/password', [], undefined, '{{resolve:ssm-secure:/db/password}}'));
  });
});

describe('Fn::Join, Fn::Select, Fn::Split', () => {
  test('Join of known items is a string; over symbols a concatenation', () => {
    const result = evaluateText(`
Parameters:
  Names: { Type: CommaDelimitedList, Default: "a,b" }
Resources:
${VPC}  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Known: !Join ["-", [x, 1, true]]
      FromList: !Join [",", !Ref Names]
      Symbols: !Join ["/", [arn, !Ref VPC, !GetAtt VPC.CidrBlock]]
      NoDelimiter: !Join ["", [a, b]]
`);
    assert.deepEqual(result.resources.get('Probe')!.properties, {
      Known: 'x-1-true',
      FromList: 'a,b',
      Symbols: new Concatenation(['arn/', new ResourceRef('VPC'), '/', new ResourceAttribute('VPC', 'CidrBlock')]),
      NoDelimiter: 'ab',
    });
  });

  test('Join over a list known only at deploy time is unknown and keeps its resource dependencies', () => {
    const result = evaluateText(`
Resources:
${VPC}  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Zones: !Join [",", !GetAZs ""]
      Blocks: !Join [",", !GetAtt VPC.CidrBlockAssociations]
`);
    const props = result.resources.get('Probe')!.properties as Record<string, UnknownValue>;
    assert.equal(props.Zones.key, 'join:",":{?azs:us-east-1}');
    assert.deepEqual(props.Blocks.resourceDeps, [new ResourceAttribute('VPC', 'CidrBlockAssociations')]);
  });

  test('Select takes a number or a string index; Split splits known strings', () => {
    const result = evaluateText(`
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Number: !Select [1, [a, b, c]]
      String: !Select ["2", [a, b, c]]
      Split: !Split [",", "a,b,,c"]
      Both: !Select [0, !Split ["|", "x|y"]]
      Zone: !Select [0, !GetAZs ""]
`);
    assert.deepEqual(result.resources.get('Probe')!.properties, {
      Number: 'b',
      String: 'c',
      Split: ['a', 'b', '', 'c'],
      Both: 'x',
      Zone: new UnknownValue('select:0:{?azs:us-east-1}', 'item 0 of !GetAZs us-east-1', [], undefined, '!Select [0, !GetAZs us-east-1]'),
    });
  });

  test('Select out of range is an error in CloudFormation words, at the function', () => {
    const text = 'Resources:\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: !Select [3, [a, b]] }\n';
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [['Template error: Fn::Select cannot select nonexistent value at index 3', '!Select [3, [a, b]]']],
    );
    assert.ok((result.resources.get('Probe')!.properties as Record<string, unknown>).A instanceof UnknownValue);
  });

  test('Split of a symbol is unknown with the symbol as a dependency', () => {
    const result = evaluateText(`Resources:\n${VPC}  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: !Split [".", !GetAtt VPC.CidrBlock] }\n`);
    const a = (result.resources.get('Probe')!.properties as Record<string, UnknownValue>).A;
    assert.ok(a instanceof UnknownValue);
    assert.deepEqual(a.resourceDeps, [new ResourceAttribute('VPC', 'CidrBlock')]);
  });
});

describe('Fn::Base64, Fn::Cidr, Fn::GetAZs, Fn::ImportValue', () => {
  test('Base64 encodes known text; of symbols it is unknown keyed by its input', () => {
    const result = evaluateText(`
Resources:
${VPC}  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Known: !Base64 "#!/bin/bash\\necho hi"
      Symbolic: !Base64 { "Fn::Sub": "vpc=\${VPC}" }
`);
    const props = result.resources.get('Probe')!.properties as Record<string, unknown>;
    assert.equal(props.Known, Buffer.from('#!/bin/bash\necho hi').toString('base64'));
    const symbolic = props.Symbolic as UnknownValue;
    assert.equal(symbolic.key, 'base64:{Cat:"vpc=",{Ref:VPC}}');
    assert.deepEqual(symbolic.resourceDeps, [new ResourceRef('VPC')]);
  });

  test('Cidr computes IPv4 and IPv6 subnets', () => {
    const result = evaluateText(`
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      V4: !Cidr ["10.0.0.0/16", 3, 8]
      V4Strings: !Cidr ["192.168.0.0/24", "2", "6"]
      V6: !Cidr ["2001:db8::/56", 2, 64]
`);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.resources.get('Probe')!.properties, {
      V4: ['10.0.0.0/24', '10.0.1.0/24', '10.0.2.0/24'],
      V4Strings: ['192.168.0.0/26', '192.168.0.64/26'],
      V6: ['2001:db8::/64', '2001:db8:0:1::/64'],
    });
  });

  test('Cidr asking for more subnets than fit is an error; of a symbol it is unknown', () => {
    const text = `Resources:\n${VPC}  Probe:\n    Type: AWS::SNS::Topic\n    Properties:\n      Bad: !Cidr ["10.0.0.0/24", 5, 6]\n      Symbolic: !Cidr [!GetAtt VPC.CidrBlock, 2, 8]\n`;
    const result = evaluateText(text);
    assert.deepEqual(result.errors.map((e) => e.message), ['Template error: Fn::Cidr: 10.0.0.0/24 holds only 4 subnets of /26, not 5']);
    const symbolic = (result.resources.get('Probe')!.properties as Record<string, UnknownValue>).Symbolic;
    assert.deepEqual(symbolic.resourceDeps, [new ResourceAttribute('VPC', 'CidrBlock')]);
  });

  test('GetAZs and ImportValue are unknown, keyed by region and export name', () => {
    const result = evaluateText(`
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Here: !GetAZs ""
      Region: !GetAZs { Ref: AWS::Region }
      There: !GetAZs eu-west-1
      Import: !ImportValue { "Fn::Sub": "\${AWS::StackName}-VpcId" }
`);
    assert.deepEqual(result.resources.get('Probe')!.properties, {
      Here: new UnknownValue('azs:us-east-1', 'the availability zones of us-east-1', [], undefined, '!GetAZs us-east-1'),
      Region: new UnknownValue('azs:us-east-1', 'the availability zones of us-east-1', [], undefined, '!GetAZs us-east-1'),
      There: new UnknownValue('azs:eu-west-1', 'the availability zones of eu-west-1', [], undefined, '!GetAZs eu-west-1'),
      Import: new UnknownValue('import:demo-VpcId', 'Fn::ImportValue demo-VpcId', [], undefined, '!ImportValue demo-VpcId'),
    });
  });
});

describe('Fn::FindInMap', () => {
  const mappings = `
Mappings:
  Regions:
    us-east-1: { Ami: ami-east, Zones: [a, b] }
    eu-west-1: { Ami: ami-west }
`;

  test('looks up by evaluated keys and returns lists as lists', () => {
    const result = evaluateText(`${mappings}
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Ami: !FindInMap [Regions, !Ref AWS::Region, Ami]
      Zones: !FindInMap [Regions, us-east-1, Zones]
`);
    assert.deepEqual(result.resources.get('Probe')!.properties, { Ami: 'ami-east', Zones: ['a', 'b'] });
  });

  test('a missing map, top-level key or second-level key is an error at the missing part', () => {
    const text = `${mappings}
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      A: !FindInMap [Nope, us-east-1, Ami]
      B: !FindInMap [Regions, ap-south-1, Ami]
      C: !FindInMap [Regions, eu-west-1, Zones]
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [
        ['Template error: Unable to get mapping for Nope::us-east-1::Ami', 'Nope'],
        ['Template error: Unable to get mapping for Regions::ap-south-1::Ami', 'ap-south-1'],
        ['Template error: Unable to get mapping for Regions::eu-west-1::Zones', 'Zones'],
      ],
    );
  });

  test('a key known only at deploy time makes the lookup unknown, one of the entries it may select', () => {
    const result = evaluateText(`${mappings}
Parameters:
  Region: { Type: 'AWS::SSM::Parameter::Value<String>', Default: /config/region }
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties: { Ami: !FindInMap [Regions, !Ref Region, Ami] }
`);
    const ami = (result.resources.get('Probe')!.properties as Record<string, UnknownValue>).Ami;
    assert.ok(ami instanceof UnknownValue);
    assert.equal(ami.reason, 'Fn::FindInMap ["Regions", SSM parameter /config/region, "Ami"]: one of "ami-east", "ami-west"');
  });
});

describe('functions that cannot be evaluated here', () => {
  test('an unsupported function is an error in CloudFormation words and evaluates to an unknown', () => {
    const text = 'Resources:\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: { "Fn::Foo": [1] }, B: ok }\n';
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [['Template format error: Encountered unsupported function: Fn::Foo', '{ "Fn::Foo": [1] }']],
    );
    const props = result.resources.get('Probe')!.properties as Record<string, unknown>;
    assert.ok(props.A instanceof UnknownValue);
    assert.equal(props.B, 'ok');
  });

  test('Fn::Length needs the AWS::LanguageExtensions transform', () => {
    const result = evaluateText('Resources:\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: !Length [1, 2] }\n');
    assert.deepEqual(result.errors.map((e) => e.message), ['Template format error: Encountered unsupported function: Fn::Length (it needs Transform: AWS::LanguageExtensions)']);
  });

  test('Fn::Transform inside the template is unknown and noted', () => {
    const result = evaluateText(`
Resources:
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      Fn::Transform:
        Name: AWS::Include
        Parameters: { Location: s3://bucket/snippet.yaml }
`);
    assert.ok(result.resources.get('Probe')!.properties instanceof UnknownValue);
    assert.deepEqual(result.notes.map(({ range: _range, ...note }) => note), [{ kind: 'macro-not-expanded', macros: ['AWS::Include'] }]);
  });

  test('a template-level transform other than AWS::LanguageExtensions is noted, not expanded', () => {
    const result = evaluateText('Transform: AWS::Serverless-2016-10-31\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties: { Handler: index.handler }\n');
    assert.deepEqual(result.notes.map(({ range: _range, ...note }) => note), [{ kind: 'transform-not-expanded', transform: 'AWS::Serverless-2016-10-31' }]);
    assert.deepEqual(result.resources.get('Fn')!.properties, { Handler: 'index.handler' });
  });
});

describe('values keep their written types', () => {
  test('numbers, booleans and null stay as written; Metadata and resource attributes are evaluated too', () => {
    const result = evaluateText(`
Parameters:
  Policy: { Type: String, Default: Retain }
Resources:
  Probe:
    Type: AWS::SQS::Queue
    DeletionPolicy: !Ref Policy
    Metadata:
      Region: !Ref AWS::Region
    Properties: { Delay: 30, Fifo: true, Note: null, Text: "30" }
`);
    const probe = result.resources.get('Probe')!;
    assert.deepEqual(probe.properties, { Delay: 30, Fifo: true, Note: null, Text: '30' });
    assert.deepEqual(probe.metadata, { Region: 'us-east-1' });
    assert.deepEqual(probe.attributes, { DeletionPolicy: 'Retain' });
  });
});
