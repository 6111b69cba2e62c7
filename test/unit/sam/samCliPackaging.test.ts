/**
 * Templates as the SAM CLI deploys them (docs/update-rules.md#sam-cli-packaging): `sam build` and
 * `sam deploy` package a zip function that names no code from the template's folder, as if its
 * `CodeUri` were `.`, and a layer with no `ContentUri` likewise (aws-sam-cli's
 * packageable_resources.py: `PACKAGE_NULL_PROPERTY` is true for both; artifact_exporter.py copies
 * `Globals.Function.CodeUri` in first). `sam init` writes starters of this form (its Node.js
 * `sqs`, `sns`, `s3`, `web` starters among them), and CloudFormation never sees them without
 * their code. The starters below are written here in the forms of `sam init`'s sqs, web, s3
 * (nodejs20.x) and web-conn (python3.12) starters, with names of their own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, type AnalyzeOptions } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { noteText } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

/** A starter with a function that consumes a queue, its code in the template's folder (`src/handlers/...`), no CodeUri. */
const sqsStarter = `AWSTemplateFormatVersion: 2010-09-09
Description: a queue and a function that logs its messages
Transform:
- AWS::Serverless-2016-10-31
Resources:
  SimpleQueue:
    Type: AWS::SQS::Queue
  SQSPayloadLogger:
    Type: AWS::Serverless::Function
    Properties:
      Description: A Lambda function that logs the payload of messages sent to an associated SQS queue.
      Runtime: nodejs22.x
      Architectures:
        - x86_64
      Handler: src/handlers/sqs-payload-logger.sqsPayloadLoggerHandler
      Events:
        SQSQueueEvent:
          Type: SQS
          Properties:
            Queue: !GetAtt SimpleQueue.Arn
      MemorySize: 128
      Timeout: 25
      Policies:
        - AWSLambdaBasicExecutionRole
`;

/** A web starter: three functions with Api events and a table, their Runtime and Timeout in Globals, no CodeUri anywhere. */
const webStarter = `AWSTemplateFormatVersion: 2010-09-09
Transform:
- AWS::Serverless-2016-10-31
Globals:
  Function:
    Runtime: nodejs22.x
    Timeout: 100
    MemorySize: 128
Resources:
  getAllItemsFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: src/handlers/get-all-items.getAllItemsHandler
      Policies:
        - DynamoDBCrudPolicy:
            TableName: !Ref SampleTable
      Environment:
        Variables:
          SAMPLE_TABLE: !Ref SampleTable
      Events:
        Api:
          Type: Api
          Properties:
            Path: /
            Method: GET
  putItemFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: src/handlers/put-item.putItemHandler
      Policies:
        - DynamoDBCrudPolicy:
            TableName: !Ref SampleTable
      Events:
        Api:
          Type: Api
          Properties:
            Path: /
            Method: POST
  SampleTable:
    Type: AWS::Serverless::SimpleTable
    Properties:
      PrimaryKey:
        Name: id
        Type: String
  SharedLibs:
    Type: AWS::Serverless::LayerVersion
    Properties:
      CompatibleRuntimes:
        - nodejs22.x
Outputs:
  WebEndpoint:
    Value: !Sub "https://\${ServerlessRestApi}.execute-api.\${AWS::Region}.amazonaws.com/Prod/"
`;

/** The s3 starter's form: a bucket named by a parameter with no Default, a function its new objects trigger, a policy template. */
const s3Starter = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Parameters:
  UploadsBucketName:
    Type: String
    Description: Name of the bucket whose uploads are logged
Resources:
  ObjectLogger:
    Type: AWS::Serverless::Function
    Properties:
      Handler: src/handlers/log-object.handler
      Runtime: nodejs20.x
      Architectures:
        - x86_64
      MemorySize: 128
      Timeout: 60
      Policies:
        S3ReadPolicy:
          BucketName: !Ref UploadsBucketName
      Events:
        Uploaded:
          Type: S3
          Properties:
            Bucket: !Ref UploadsBucket
            Events: s3:ObjectCreated:*
            Filter:
              S3Key:
                Rules:
                  - Name: suffix
                    Value: ".json"
  UploadsBucket:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Ref UploadsBucketName
      VersioningConfiguration:
        Status: Enabled
`;

/** The Python web-conn starter's form: functions behind an API, reaching a table through connectors. */
const webConnStarter = `AWSTemplateFormatVersion: 2010-09-09
Transform:
  - AWS::Serverless-2016-10-31
Resources:
  ListItemsReadsTable:
    Type: AWS::Serverless::Connector
    Properties:
      Source:
        Id: listItems
      Destination:
        Id: ItemsTable
      Permissions:
        - Read
  AddItemWritesTable:
    Type: AWS::Serverless::Connector
    Properties:
      Source:
        Id: addItem
      Destination:
        Id: ItemsTable
      Permissions:
        - Write
  listItems:
    Type: AWS::Serverless::Function
    Properties:
      Handler: app/list_items.handler
      Runtime: python3.12
      MemorySize: 128
      Timeout: 100
      Environment:
        Variables:
          ITEMS_TABLE: !Ref ItemsTable
      Events:
        Api:
          Type: Api
          Properties:
            Path: /
            Method: GET
  addItem:
    Type: AWS::Serverless::Function
    Properties:
      Handler: app/add_item.handler
      Runtime: python3.12
      MemorySize: 128
      Timeout: 100
      Environment:
        Variables:
          ITEMS_TABLE: !Ref ItemsTable
      Events:
        Api:
          Type: Api
          Properties:
            Path: /
            Method: POST
  ItemsTable:
    Type: AWS::Serverless::SimpleTable
    Properties:
      PrimaryKey:
        Name: id
        Type: String
Outputs:
  ApiUrl:
    Value: !Sub "https://\${ServerlessRestApi}.execute-api.\${AWS::Region}.amazonaws.com/Prod/"
`;

function impact(before: string, after: string, options: Partial<AnalyzeOptions> = {}): ImpactReport {
  return analyzeUpdate({ text: before }, { text: after }, { spec, stackName: 'sam-app', ...options }).report;
}

describe('a function with no CodeUri, packaged from the template folder as sam deploy packages it', () => {
  for (const [name, starter] of [
    ['the sqs starter', sqsStarter],
    ['the web starter (functions in Globals, a layer with no ContentUri)', webStarter],
    ['the s3 starter (a bucket named by a parameter with no value)', s3Starter],
    ['the web-conn starter (connectors to a table)', webConnStarter],
  ] as const) {
    test(`${name} compared with itself is a no-op with no error`, () => {
      const report = impact(starter, starter);
      assert.equal(report.status, 'noop', report.message);
      assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), []);
    });
  }

  test("in the s3 and web-conn starters too, an edit to a function's Timeout is that function's update alone", () => {
    const s3 = impact(s3Starter, s3Starter.replace('Timeout: 60', 'Timeout: 90'));
    assert.deepEqual(s3.changes.filter((c) => c.impact !== 'none').map((c) => [c.logicalId, c.details.map((d) => d.target.path)]), [['ObjectLogger', ['/Properties/Timeout']]]);
    const conn = impact(webConnStarter, webConnStarter.replace('Timeout: 100', 'Timeout: 30'));
    assert.deepEqual(conn.changes.filter((c) => c.impact !== 'none').map((c) => [c.logicalId, c.details.map((d) => d.target.path)]), [['listItems', ['/Properties/Timeout']]]);
  });

  test("a note at each function says its code is the template's folder, which the comparison cannot see into", () => {
    const report = impact(webStarter, webStarter);
    const notes = report.notes.filter((n): n is Extract<typeof n, { kind: 'sam-packaged-folder' }> => n.kind === 'sam-packaged-folder');
    assert.deepEqual(notes.map((n) => `${n.logicalId}.${n.property}`), ['getAllItemsFunction.CodeUri', 'putItemFunction.CodeUri', 'SharedLibs.ContentUri']);
    assert.equal(noteText(notes[0]!), "getAllItemsFunction: no CodeUri: sam build and sam deploy package the template's folder (CodeUri defaults to .), so a change to the files there is not visible to this comparison");
    // Not a second note for the same folder as a local path written.
    assert.equal(report.notes.filter((n) => n.kind === 'sam-local-artifact').length, 0);
  });

  test("an edit to a function's Timeout is that function's update, without interruption", () => {
    const report = impact(sqsStarter, sqsStarter.replace('Timeout: 25', 'Timeout: 30'));
    assert.equal(report.status, 'update');
    const changed = report.changes.filter((c) => c.impact !== 'none');
    assert.deepEqual(changed.map((c) => [c.logicalId, c.action, c.impact]), [['SQSPayloadLogger', 'Modify', 'no-interruption']]);
    assert.deepEqual(changed[0]!.details.map((d) => d.target.path), ['/Properties/Timeout']);
  });

  test('a CodeUri in Globals is what the functions take: no folder is packaged for them', () => {
    const withGlobalCode = webStarter.replace('    MemorySize: 128\n', '    MemorySize: 128\n    CodeUri: s3://bucket/app.zip\n');
    const report = impact(withGlobalCode, withGlobalCode);
    assert.equal(report.status, 'noop', report.message);
    assert.deepEqual(report.notes.filter((n) => n.kind === 'sam-packaged-folder').map((n) => n.logicalId), ['SharedLibs']);
  });

  test("inline code, or an image, is not packaged from the folder; an image without PackageType: Image is a zip function, rejected for its missing Runtime and Handler; a function with neither code nor image still is rejected as the transform rejects it when there is no SAM CLI step", () => {
    const inline = sqsStarter.replace('      MemorySize: 128\n', "      MemorySize: 128\n      InlineCode: exports.handler = async () => 'ok';\n");
    assert.equal(impact(inline, inline).status, 'noop');
    assert.deepEqual(impact(inline, inline).notes.filter((n) => n.kind === 'sam-packaged-folder'), []);
    const image = sqsStarter
      .replace('      Runtime: nodejs22.x\n', '      PackageType: Image\n      ImageUri: 123456789012.dkr.ecr.us-east-1.amazonaws.com/logger:1\n')
      .replace('      Handler: src/handlers/sqs-payload-logger.sqsPayloadLoggerHandler\n', '');
    assert.equal(impact(image, image).status, 'noop', impact(image, image).message);
    assert.deepEqual(impact(image, image).notes.filter((n) => n.kind === 'sam-packaged-folder'), []);
    const imageWithoutPackageType = image.replace('      PackageType: Image\n', '');
    const zip = impact(imageWithoutPackageType, imageWithoutPackageType);
    assert.equal(zip.status, 'error');
    assert.match(zip.message ?? '', /Resource with id \[SQSPayloadLogger\] is invalid\. Runtime and Handler needs to be present when PackageType is of type `Zip`/);
    const ignored = zip.notes.find((n) => n.kind === 'sam-image-uri-ignored');
    assert.equal(noteText(ignored!), 'SQSPayloadLogger: ImageUri is read only with PackageType: Image; without it the function is a Zip function (PackageType defaults to Zip), which needs code, a Runtime and a Handler');
    const asWritten = impact(sqsStarter, sqsStarter, { withoutSamCli: true });
    assert.equal(asWritten.status, 'error');
    assert.match(asWritten.message ?? '', /Resource with id \[SQSPayloadLogger\] is invalid\. Only one of 'InlineCode' or 'CodeUri' can be set\./);
  });
});
