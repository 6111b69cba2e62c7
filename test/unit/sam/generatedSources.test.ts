/**
 * Where resources SAM generates for GraphQL and WebSocket APIs and capacity providers come from
 * (the source map behind `generatedBy`): each is attributed to the SAM resource that produced it
 * and to the SAM property behind it, including what the connectors SAM makes for a GraphQL API
 * generate. Expected names follow SAM's documented naming (*Generated AWS CloudFormation resources
 * for AWS SAM*): `<Api><Name>DynamoDBDataSource`, `<Api><Key>Route`, `<Provider>OperatorRole`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandServerless } from '../../../server/src/sam';
import { parseTemplate, readTemplateModel } from '../../../server/src/template';

function sources(text: string): Map<string, string> {
  const expansion = expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
  assert.deepEqual(expansion.parsed.errors, []);
  return new Map([...expansion.sourceMap.resources].map(([id, source]) => [id, source.property === undefined ? source.logicalId : `${source.logicalId} ${source.property}`]));
}

describe('generated resources name their SAM source', () => {
  test('a GraphQL API: its data source, the data source role and the policy of the connector SAM makes for it come from the data source', () => {
    const generated = sources(`Transform: AWS::Serverless-2016-10-31
Resources:
  Todos:
    Type: AWS::Serverless::GraphQLApi
    Properties:
      SchemaInline: "type Query { todo(id: ID!): String }"
      Auth:
        Type: AWS_IAM
      DataSources:
        DynamoDb:
          Items:
            TableName: items
`);
    assert.equal(generated.get('Todos'), 'Todos');
    assert.equal(generated.get('TodosSchema'), 'Todos SchemaInline');
    assert.equal(generated.get('TodosCloudWatchRole'), 'Todos Logging');
    assert.equal(generated.get('TodosItemsDynamoDBDataSource'), 'Todos DataSources.DynamoDb.Items');
    assert.equal(generated.get('TodosItemsDynamoDBDataSourceRole'), 'Todos DataSources.DynamoDb.Items');
    assert.equal(generated.get('TodosItemsDynamoDBDataSourceToTableConnectorPolicy'), 'Todos DataSources.DynamoDb.Items');
  });

  test('a WebSocket API: each route, its integration and its permission come from the route', () => {
    const generated = sources(`Transform: AWS::Serverless-2016-10-31
Resources:
  Chat:
    Type: AWS::Serverless::WebSocketApi
    Properties:
      RouteSelectionExpression: $request.body.action
      Routes:
        $connect:
          FunctionArn: arn:aws:lambda:us-east-1:123456789012:function:connect
`);
    assert.equal(generated.get('ChatConnectRoute'), 'Chat Routes.$connect');
    assert.equal(generated.get('ChatConnectIntegration'), 'Chat Routes.$connect');
    assert.equal(generated.get('ChatConnectPermission'), 'Chat Routes.$connect');
    assert.equal(generated.get('ChatDefaultStage'), 'Chat StageName');
  });

  test('a capacity provider: the provider and the operator role SAM creates for it', () => {
    const generated = sources(`Transform: AWS::Serverless-2016-10-31
Resources:
  Fleet:
    Type: AWS::Serverless::CapacityProvider
    Properties:
      VpcConfig:
        SubnetIds: [subnet-12345678]
`);
    assert.equal(generated.get('Fleet'), 'Fleet');
    assert.equal(generated.get('FleetOperatorRole'), 'Fleet');
  });
});
