/**
 * Invalid SAM is a template error at the offending SAM property, worded like the translator's
 * message ("Resource with id [X] is invalid. ..."), whether or not the resource is expanded yet;
 * and no shape of invalid SAM makes the transform throw. The rules are SAM's documented
 * constraints (AWS SAM resource and property reference) and what the services behind them accept.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandServerless } from '../../../server/src/sam';
import { parseTemplate, readTemplateModel, toPlain, type TemplateError } from '../../../server/src/template';

const PREFIX = 'Invalid Serverless Application Specification document: ';

function samErrors(text: string): TemplateError[] {
  const model = readTemplateModel(parseTemplate(text));
  const expansion = expandServerless(model, { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
  return expansion.parsed.errors.filter((e) => e.code === 'sam-invalid');
}

/** The one SAM error of a template: its wording, and the text its range covers. */
function onlyError(text: string): { wording: string; at: string } {
  const errors = samErrors(text);
  assert.equal(errors.length, 1, errors.map((e) => e.message).join('\n'));
  const error = errors[0]!;
  assert.ok(error.message.startsWith(PREFIX), error.message);
  return { wording: error.message.slice(PREFIX.length), at: text.slice(error.range.start, error.range.end) };
}

const template = (resources: string, head = '') => `Transform: AWS::Serverless-2016-10-31\n${head}Resources:\n${resources}`;

const fn = `  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      CodeUri: s3://bucket/key
`;

describe('invalid SAM is an error at the offending property, worded as the translator words it', () => {
  test('a WebSocket API route key other than $connect, $disconnect, $default or an alphanumeric name', () => {
    const { wording, at } = onlyError(
      template(`${fn}  Chat:
    Type: AWS::Serverless::WebSocketApi
    Properties:
      RouteSelectionExpression: $request.body.action
      Routes:
        $nonsense:
          FunctionArn: !GetAtt Fn.Arn
`),
    );
    assert.equal(wording, "Resource with id [Chat] is invalid. Route key '$nonsense' must be alphanumeric. Only $connect, $disconnect, and $default special routes are supported.");
    assert.equal(at, '$nonsense');
  });

  test('WebSocket API authorization without a $connect route', () => {
    const { wording, at } = onlyError(
      template(`${fn}  Chat:
    Type: AWS::Serverless::WebSocketApi
    Properties:
      RouteSelectionExpression: $request.body.action
      Auth:
        AuthType: AWS_IAM
      Routes:
        send:
          FunctionArn: !GetAtt Fn.Arn
`),
    );
    assert.equal(wording, 'Resource with id [Chat] is invalid. Authorization is only available if there is a $connect route.');
    assert.equal(at, 'Auth');
  });

  test('a valid WebSocket API gives no error', () => {
    const errors = samErrors(
      template(`${fn}  Chat:
    Type: AWS::Serverless::WebSocketApi
    Properties:
      RouteSelectionExpression: $request.body.action
      Auth:
        AuthType: CUSTOM
        AuthArn: !GetAtt Fn.Arn
      Routes:
        $connect:
          FunctionArn: !GetAtt Fn.Arn
        send:
          FunctionArn: !GetAtt Fn.Arn
`),
    );
    assert.deepEqual(errors, []);
  });

  test('a function with tenant isolation and an event source other than Api or HttpApi', () => {
    const { wording, at } = onlyError(
      template(`  Queue:
    Type: AWS::SQS::Queue
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      CodeUri: s3://bucket/key
      TenancyConfig:
        TenantIsolationMode: PER_TENANT
      Events:
        Work:
          Type: SQS
          Properties:
            Queue: !GetAtt Queue.Arn
`),
    );
    assert.equal(wording, "Resource with id [Fn] is invalid. Event source 'SQS' is not supported for functions enabled with tenancy configuration. Only Api and HttpApi event sources are supported.");
    assert.equal(at, 'Type');
  });

  test('an AutoPublishAlias that Lambda would not take as an alias name', () => {
    const { wording, at } = onlyError(template(`${fn}      AutoPublishAlias: live*1\n`));
    assert.equal(wording, "Resource with id [Fn] is invalid. AutoPublishAlias name ('live*1') must contain only alphanumeric characters, hyphens, or underscores matching (?!^[0-9]+$)([a-zA-Z0-9-_]+) pattern.");
    assert.equal(at, 'AutoPublishAlias');
  });

  test('a generated resource that would take the logical id of another resource of the template', () => {
    const { wording, at } = onlyError(
      template(`${fn}  FnRole:
    Type: AWS::SNS::Topic
`),
    );
    assert.equal(
      wording,
      'Transforming resource with id [Fn] attempts to create a new resource with id [FnRole] and type "AWS::IAM::Role". A resource with that id already exists within this template. Please use a different id for that resource.',
    );
    assert.equal(at, 'Fn');
  });

  test('a capacity provider reports every failure of its nested settings at once', () => {
    const { wording, at } = onlyError(
      template(`  Provider:
    Type: AWS::Serverless::CapacityProvider
    Properties:
      VpcConfig:
        SecurityGroupIds: sg-1
      ScalingConfig:
        MaxVCpuCount: many
`),
    );
    assert.equal(
      wording,
      "Resource with id [Provider] is invalid. Property 'VpcConfig.SecurityGroupIds' value must be dictionary or list. Property 'VpcConfig.SubnetIds' is required. Property 'ScalingConfig.MaxVCpuCount' value must be dictionary or integer.",
    );
    assert.equal(at, 'SecurityGroupIds');
  });

  test('a GraphQL API pipeline function whose data source the API does not define names the function', () => {
    const { wording, at } = onlyError(
      template(`  Graph:
    Type: AWS::Serverless::GraphQLApi
    Properties:
      SchemaInline: 'type Query { a: String }'
      Auth:
        Type: AWS_IAM
      Functions:
        Lookup:
          DataSource: Missing
          CodeUri: s3://bucket/code.js
`),
    );
    assert.equal(
      wording,
      "Resource with id [Lookup] is invalid. Either define DataSource 'Missing' in 'DataSources' or use intrinsic function like GetAtt, ImportValue, Sub or another one to reference a DataSource defined outside of this GraphQLApi resource.",
    );
    assert.equal(at, 'DataSource');
  });

  test('an Fn::Sub that names a parameter whose value is a list', () => {
    const { wording, at } = onlyError(
      template(
        `${fn}      Environment:
        Variables:
          NAMES: !Sub '\${Names}'
`,
        `Parameters:
  Names:
    Type: List<String>
    Default: [a, b]
`,
      ),
    );
    assert.equal(wording, "Structure of the SAM template is invalid. Invalid Fn::Sub variable value ['a', 'b']. Fn::Sub expects all variables to be strings.");
    assert.equal(at, '!Sub');
  });

  test('an application id that is not a Serverless Application Repository ARN', () => {
    const { wording, at } = onlyError(
      template(`  App:
    Type: AWS::Serverless::Application
    Properties:
      Location:
        ApplicationId: my-app
        SemanticVersion: 1.0.0
`),
    );
    assert.equal(wording, 'Resource with id [App] is invalid. Cannot access application: my-app.');
    assert.equal(at, 'ApplicationId');
  });

  test("an S3 event's bucket whose DependsOn is empty, or lists a map: SAM cannot add the function's permission to it", () => {
    for (const dependsOn of ['', '\n      - Other: Bucket']) {
      const { wording } = onlyError(
        template(`  Uploads:
    Type: AWS::S3::Bucket
    DependsOn:${dependsOn}
${fn}      Events:
        Upload:
          Type: S3
          Properties:
            Bucket: !Ref Uploads
            Events: s3:ObjectCreated:*
`),
      );
      assert.equal(wording, "Resource with id [FnUpload] is invalid. Invalid type for field 'DependsOn'. Expected a string or list of strings.");
    }
  });

  test("an HTTP API whose Auth is written with no value, named by an event with an authorizer: its Auth is not a map", () => {
    const { wording, at } = onlyError(
      template(`  Api:
    Type: AWS::Serverless::HttpApi
    Properties:
      Auth:
${fn}      Events:
        Get:
          Type: HttpApi
          Properties:
            ApiId: !Ref Api
            Path: /get
            Method: GET
            Auth:
              Authorizer: NONE
`),
    );
    assert.equal(wording, "Resource with id [Api] is invalid. Property 'Auth' should be a map.");
    assert.equal(at, 'Auth');
  });

  test("an Api event naming an API whose Properties are not a map: SAM reads the API's entry before the function's own checks, so the API's error is the only one", () => {
    const { wording, at } = onlyError(
      template(`  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Events:
        Get:
          Type: Api
          Properties:
            RestApiId: Api
            Path: /items
            Method: GET
  Api:
    Type: AWS::Serverless::Api
    Properties: 123
`),
    );
    assert.equal(wording, "Resource with id [Api] is invalid. Attribute 'Properties' should be a map.");
    assert.equal(at, 'Api');
  });

  test("an event written with no value fails where SAM's event resolver reads its type, for a function and a state machine alike", () => {
    const { wording, at } = onlyError(template(`${fn}      Events:\n        Upload:\n`));
    assert.equal(wording, "Resource with id [Fn] is invalid. Event with id [Upload] is invalid. 'NoneType' object has no attribute 'get'");
    assert.equal(at, 'Upload');
    const machine = onlyError(
      template(`  Machine:
    Type: AWS::Serverless::StateMachine
    Properties:
      Definition:
        StartAt: Done
        States:
          Done:
            Type: Succeed
      Events:
        Nightly:
`),
    );
    assert.equal(machine.wording, "Resource with id [Machine] is invalid. Event with id [Nightly] is invalid. 'NoneType' object has no attribute 'get'");
  });

  test("an event whose request model the API does not define leaves no integration behind: the next event on that path and method gets its own error", () => {
    const withModel = (name: string, model: string) => `  ${name}:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      CodeUri: s3://bucket/key
      Events:
        Get:
          Type: Api
          Properties:
            RestApiId: !Ref Api
            Path: /
            Method: get
            RequestModel:
              Model: ${model}
`;
    const errors = samErrors(
      template(`  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: prod
      Models:
        User:
          type: object
${withModel('First', 'Missing')}${withModel('Second', 'AlsoMissing')}`),
    );
    // SAM's message lists the causes by resource id.
    assert.deepStrictEqual(
      errors.map((e) => e.message.slice(PREFIX.length)).sort(),
      ['First', 'Second'].map((id, i) => `Resource with id [${id}] is invalid. Event with id [Get] is invalid. Unable to set RequestModel [${['Missing', 'AlsoMissing'][i]}] on API method [get] for path [/] because it wasn't defined in the API's Models.`),
    );
  });

  test("authorization scopes on an event with no authorizer, of its own or the API's default, have no authorizer to narrow", () => {
    const scoped = (api: string) =>
      template(`${api}${fn}      Events:
        Get:
          Type: Api
          Properties:
            ${api ? 'RestApiId: !Ref Api\n            ' : ''}Path: /items
            Method: get
            Auth:
              AuthorizationScopes:
                - items/read
`);
    const { wording, at } = onlyError(scoped(''));
    assert.equal(wording, 'Resource with id [Fn] is invalid. Event with id [Get] is invalid. AuthorizationScopes works only when Authorizer is set');
    assert.equal(at, 'AuthorizationScopes');
    // SAM's documentation: the method's scopes override the scopes of the API's DefaultAuthorizer.
    const withDefault = `  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: prod
      Auth:
        DefaultAuthorizer: Users
        Authorizers:
          Users:
            UserPoolArn: arn:aws:cognito-idp:us-east-1:123456789012:userpool/us-east-1_abc
`;
    assert.deepStrictEqual(samErrors(scoped(withDefault)), []);
  });

  test("a method whose security is written with no value, under an API's default authorizer, is an error of the definition alone: a function's own error is dropped", () => {
    const { wording } = onlyError(
      template(`  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: prod
      Auth:
        DefaultAuthorizer: AWS_IAM
      DefinitionBody:
        swagger: '2.0'
        paths:
          /test:
            get:
              x-amazon-apigateway-integration:
                type: aws_proxy
                httpMethod: POST
                uri: arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/arn/invocations
              security:
  Broken:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/key
      Handler: index.handler
`),
    );
    assert.equal(wording, 'Structure of the SAM template is invalid. Type of security for path /test method get must be a list');
  });

  test('a template without a Resources section is rejected as a whole, and nothing else is reported', () => {
    const { wording } = onlyError('Transform: AWS::Serverless-2016-10-31\nResource:\n  Fn:\n    Type: AWS::Serverless::Function\n');
    assert.equal(wording, "Structure of the SAM template is invalid. 'Resources' section is required");
  });
});

describe('no shape of invalid SAM makes the transform throw', () => {
  const shapes: [string, string][] = [
    ['Properties as a list', '  Fn:\n    Type: AWS::Serverless::Function\n    Properties: [a, b]\n'],
    ['Properties with no value', '  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n'],
    ['Events as a list', `${fn}      Events: [a]\n`],
    ['an event with no Type', `${fn}      Events:\n        E:\n          Properties: {}\n`],
    ['Routes as a string', '  Ws:\n    Type: AWS::Serverless::WebSocketApi\n    Properties:\n      RouteSelectionExpression: x\n      Routes: all\n'],
    ['a route as a list', '  Ws:\n    Type: AWS::Serverless::WebSocketApi\n    Properties:\n      RouteSelectionExpression: x\n      Routes:\n        $connect: [a]\n'],
    ['Auth as a number', '  G:\n    Type: AWS::Serverless::GraphQLApi\n    Properties:\n      Auth: 3\n'],
    ['Resolvers of lists', '  G:\n    Type: AWS::Serverless::GraphQLApi\n    Properties:\n      Auth: {Type: AWS_IAM}\n      SchemaInline: x\n      Resolvers:\n        Query: [a]\n'],
    ['nested settings as strings', '  P:\n    Type: AWS::Serverless::CapacityProvider\n    Properties:\n      VpcConfig: none\n      ScalingConfig: none\n'],
    ['a Condition as a map', '  Fn:\n    Type: AWS::Serverless::Function\n    Condition: {Ref: C}\n    Properties: {}\n'],
    ['Globals as a list', ''],
  ];
  for (const [name, resources] of shapes) {
    test(name, () => {
      const text = name === 'Globals as a list' ? `Transform: AWS::Serverless-2016-10-31\nGlobals: [a]\nResources:\n${fn}` : template(resources);
      const errors = samErrors(text);
      assert.ok(errors.length > 0, 'the invalid template gives an error');
    });
  }
});

describe('keys a template may hold that JavaScript objects treat apart', () => {
  test("a definition's path named __proto__ stays a path of the processed API", () => {
    const text = template(`  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: prod
      DefinitionBody:
        swagger: '2.0'
        paths:
          __proto__:
            get:
              responses: {}
`);
    const expansion = expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
    const body = (toPlain(expansion.parsed.root!) as { Resources: { Api: { Properties: { Body: { paths: object } } } } }).Resources.Api.Properties.Body;
    assert.deepStrictEqual(Object.keys(body.paths), ['__proto__']);
    assert.equal(Object.getPrototypeOf(body.paths), Object.prototype);
  });

  test("a function's environment variable named __proto__ merges with those of Globals", () => {
    const text = `Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Environment:
      Variables:
        SHARED: from-globals
Resources:
${fn}      Environment:
        Variables:
          __proto__: from-function
`;
    const expansion = expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
    const variables = (toPlain(expansion.parsed.root!) as { Resources: { Fn: { Properties: { Environment: { Variables: object } } } } }).Resources.Fn.Properties.Environment.Variables;
    assert.deepStrictEqual(Object.entries(variables), [
      ['SHARED', 'from-globals'],
      ['__proto__', 'from-function'],
    ]);
  });

  test("an API that fails after the events' plugin gave it a definition stays as it was written, with that definition in plain values", () => {
    const text = template(`  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: Prod
      Domain:
        DomainName: api.example.com
        CertificateArn: arn:aws:acm:us-east-1:123456789012:certificate/abc
        EndpointConfiguration: SIDEWAYS
${fn}      Events:
        Read:
          Type: Api
          Properties:
            RestApiId: !Ref Api
            Path: /items
            Method: get
`);
    assert.match(onlyError(text).wording, /EndpointConfiguration for Custom Domains must be one of/);
    const expansion = expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
    const api = (toPlain(expansion.parsed.root!) as { Resources: { Api: { Type: string; Properties: { DefinitionBody?: { paths?: object } } } } }).Resources.Api;
    assert.equal(api.Type, 'AWS::Serverless::Api');
    // What the plugin added is SAM's swagger, not the workings of its Python 2.7 dicts.
    assert.deepEqual(Object.keys(api.Properties.DefinitionBody ?? {}).sort(), ['info', 'paths', 'swagger']);
    assert.deepEqual(Object.keys(api.Properties.DefinitionBody?.paths ?? {}), ['/items']);
  });
});
