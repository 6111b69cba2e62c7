/**
 * Test helpers shared by the SAM tests: a `Worker` function as the SAM templates of the tests
 * write it, and the resources of a template once the transform expanded it.
 */
import assert from 'node:assert/strict';
import { expandServerless } from '../../../server/src/sam';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';

/** A processed resource, as plain values. */
export interface ProcessedResource {
  Type: string;
  Properties: Record<string, unknown>;
}

/** The `Worker` function entry (two-space indented), with `extra` lines in its Properties. */
export function workerFunction(extra = ''): string {
  return `  Worker:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://artifacts/worker.zip
      Handler: index.handler
      Runtime: nodejs20.x
${extra}`;
}

/** The resources of the processed template, by logical id; the expansion must give no error. */
export function processedResources(text: string): Record<string, ProcessedResource> {
  const expansion = expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'eu-west-1', partition: 'aws' });
  assert.deepEqual(expansion.parsed.errors, []);
  return (toPlain(expansion.parsed.root!) as { Resources: Record<string, ProcessedResource> }).Resources;
}
