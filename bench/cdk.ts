/**
 * A CDK app's stack, synthesized here by `aws-cdk-lib` (a dev dependency) in two versions, as the
 * comparison CDK users make: our analysis against `@aws-cdk/cloudformation-diff`'s `fullDiff` (what
 * `cdk diff --method=template` runs), both from the JSON text; and the JSON fast path on a 1 MB
 * template of the same shape against its YAML twin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fullDiff } from '@aws-cdk/cloudformation-diff';
import { analyzeUpdate, changesSomething, replacedIds } from '../server/src/impact';
import { changeReason } from '../server/src/present';
import type { ResourceSpec } from '../server/src/spec/types';
import { parseTemplate, parseWithYamlPackage } from '../server/src/template/parse';
import { appFolder, synthesize } from '../test/support/cdkApps';
import { compareReplacements, type ReplacementDisagreement } from './impact';
import { median, timeMs } from './stats';
import { toYaml, type Plain } from './yamlText';

/** Groups of a table, a bucket, a queue and a function granted the table (six resources each). */
function serviceApp(groups: number, version: 1 | 2, resourceLimit?: number): Record<string, string> {
  return {
    'app.js': `
const { App, Stack, Duration } = require('aws-cdk-lib');
const dynamodb = require('aws-cdk-lib/aws-dynamodb');
const lambda = require('aws-cdk-lib/aws-lambda');
const s3 = require('aws-cdk-lib/aws-s3');
const sqs = require('aws-cdk-lib/aws-sqs');
const VERSION = ${version};
const app = new App(${resourceLimit === undefined ? '' : `{ context: { '@aws-cdk/core:stackResourceLimit': ${resourceLimit} } }`});
const stack = new Stack(app, 'Bench');
for (let i = 0; i < ${groups}; i++) {
  // Version 2: every fourth table gets a new partition key, every fifth bucket a name, every queue a longer timeout, every third function more memory.
  const table = new dynamodb.Table(stack, 'Orders' + i, { partitionKey: { name: VERSION === 2 && i % 4 === 0 ? 'orderId' : 'id', type: dynamodb.AttributeType.STRING } });
  const bucket = new s3.Bucket(stack, 'Uploads' + i, VERSION === 2 && i % 5 === 0 ? { bucketName: 'bench-uploads-' + i } : {});
  const queue = new sqs.Queue(stack, 'Jobs' + i, { visibilityTimeout: Duration.seconds(VERSION === 2 ? 60 : 30) });
  const handler = new lambda.Function(stack, 'Handler' + i, {
    runtime: lambda.Runtime.NODEJS_20_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => ' + i),
    memorySize: VERSION === 2 && i % 3 === 0 ? 512 : 256,
    environment: { TABLE: table.tableName, BUCKET: bucket.bucketName, QUEUE: queue.queueUrl },
  });
  table.grantReadWriteData(handler);
}
`,
  };
}

function synthesizedTemplate(groups: number, version: 1 | 2, resourceLimit?: number): string {
  const folder = appFolder(serviceApp(groups, version, resourceLimit));
  const out = synthesize(folder, { entry: 'app.js', stackTraces: false });
  return readFileSync(join(out, 'Bench.template.json'), 'utf8');
}

export interface CdkFigures {
  name: 'cdk';
  resources: number;
  ours_ms: number;
  peer_ms: number;
  runs: number;
  replacement: ReplacementDisagreement;
  /** Resources one tool says change and the other does not, with our reason. */
  changedOnlyOurs: { logicalId: string; reason: string }[];
  changedOnlyPeer: string[];
  /** The 1 MB template: its size, resources, and parse times. */
  parse: { bytes: number; resources: number; json_fast_ms: number; json_yaml_package_ms: number; yaml_twin_ms: number; ratio_to_yaml: number };
}

/** Synthesizes the pair and the 1 MB template, then times both tools and the parsers. */
export function benchCdk(spec: ResourceSpec, options: { runs: number }): CdkFigures {
  // 80 groups: 481 resources with the CDK's own, within CloudFormation's 500.
  const before = synthesizedTemplate(80, 1);
  const after = synthesizedTemplate(80, 2);
  const ours = () => analyzeUpdate({ text: before }, { text: after }, { spec });
  const peer = () => fullDiff(JSON.parse(before), JSON.parse(after));
  ours();
  peer();
  const oursMs: number[] = [];
  const peerMs: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    oursMs.push(timeMs(ours));
    peerMs.push(timeMs(peer));
  }
  const report = ours().report;
  const impacts = new Map<string, string>();
  peer().resources.forEachDifference((logicalId, change) => {
    if (change.isDifferent) impacts.set(logicalId, change.changeImpact ?? 'UNKNOWN');
  });

  const changedOurs = new Map(report.changes.filter(changesSomething).map((c) => [c.logicalId, c]));
  const replaced = replacedIds(report.changes);
  const changedOnlyOurs = [...changedOurs.values()].filter((c) => !impacts.has(c.logicalId)).map((c) => ({ logicalId: c.logicalId, reason: changeReason(c, replaced) }));
  const changedOnlyPeer = [...impacts.keys()].filter((id) => !changedOurs.has(id));

  // About 1 MB: more resources than one stack may hold, which the CDK allows when asked to; the parse does not care.
  const large = synthesizedTemplate(290, 1, 0);
  const twin = toYaml(JSON.parse(large) as { [key: string]: Plain });
  parseTemplate(large);
  parseTemplate(twin);
  const fast: number[] = [];
  const general: number[] = [];
  const yaml: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    fast.push(timeMs(() => parseTemplate(large)));
    yaml.push(timeMs(() => parseTemplate(twin)));
    if (i < 5) general.push(timeMs(() => parseWithYamlPackage(large)));
  }
  const parse = {
    bytes: Buffer.byteLength(large),
    resources: Object.keys((JSON.parse(large) as { Resources: object }).Resources).length,
    json_fast_ms: median(fast),
    json_yaml_package_ms: median(general),
    yaml_twin_ms: median(yaml),
    ratio_to_yaml: median(fast) / median(yaml),
  };
  return {
    name: 'cdk',
    resources: Object.keys((JSON.parse(after) as { Resources: object }).Resources).length,
    ours_ms: median(oursMs),
    peer_ms: median(peerMs),
    runs: options.runs,
    replacement: compareReplacements(report, impacts),
    changedOnlyOurs,
    changedOnlyPeer,
    parse,
  };
}
