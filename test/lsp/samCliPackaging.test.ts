// A SAM function with no CodeUri, as `sam init` writes its starters, in the real server over
// stdio: packaged from the template's folder as `sam deploy` packages it (an information note at
// the function), or, with `cfnImpact.sam.withoutSamCli`, the transform's error at the function
// (docs/update-rules.md#sam-cli-packaging).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { pathToUri, TestServer } from './support/languageServer';

const starter = `AWSTemplateFormatVersion: 2010-09-09
Transform: AWS::Serverless-2016-10-31
Resources:
  SQSPayloadLogger:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: nodejs22.x
      Handler: src/handlers/sqs-payload-logger.sqsPayloadLoggerHandler
      Timeout: 25
`;

const functionLine = starter.split('\n').indexOf('  SQSPayloadLogger:');

describe('a SAM function with no CodeUri, in the editor', () => {
  let folder: string;
  const servers: TestServer[] = [];

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-sam-cli-'));
    writeFileSync(join(folder, 'template.yaml'), starter);
  });

  after(async () => {
    for (const server of servers) await server.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test("by default it is packaged from the template's folder: an information note at the function, no error", async () => {
    const server = await TestServer.start({ workspace: folder });
    servers.push(server);
    const uri = pathToUri(join(folder, 'template.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.open(uri, starter));
    assert.deepEqual(
      diagnostics.map((d) => [d.range.start.line, d.severity, d.code]),
      [[functionLine, DiagnosticSeverity.Information, 'sam-packaged-folder']],
    );
  });

  test("with cfnImpact.sam.withoutSamCli it reaches CloudFormation as written: the transform rejects it, at the function's Properties", async () => {
    const server = await TestServer.start({ workspace: folder, settings: { sam: { withoutSamCli: true } } });
    servers.push(server);
    const uri = pathToUri(join(folder, 'template.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.open(uri, starter));
    const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
    assert.equal(errors.length, 1, JSON.stringify(diagnostics));
    assert.equal(errors[0]!.range.start.line, functionLine + 2);
    const message = errors[0]!.message;
    assert.match(typeof message === 'string' ? message : message.value, /Only one of 'InlineCode' or 'CodeUri' can be set\./);
  });
});
