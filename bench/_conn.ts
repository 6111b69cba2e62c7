import { generateSamPair } from './generate';
import { parseTemplate, readTemplateModel } from '../server/src/template';
import { expandServerless, SamTranslationCache } from '../server/src/sam';
const O = { parameters: new Map<string, unknown>(), region: 'us-east-1', partition: 'aws' };
// Each function gets a connector to its queue (SQS write), embedded in the function.
const withConnectors = (t: string) => t.replace(/(  Handler(\d+):\n    Type: AWS::Serverless::Function\n)/g, '$1    Connectors:\n      ToJobs:\n        Properties:\n          Destination:\n            Id: Jobs$2\n          Permissions:\n            - Write\n');
for (const n of [30, 200]) {
  const before = withConnectors(generateSamPair(n).before);
  const out: string[] = [];
  for (const [name, from, to] of [['code', '/handler1.zip', '/handler1-v2.zip'], ['queue', 'VisibilityTimeout: 65\n', 'VisibilityTimeout: 650\n']]) {
    const cache = new SamTranslationCache({ movesInPlace: true });
    const e = expandServerless(readTemplateModel(parseTemplate(before)), { ...O, cache, kept: true });
    const a = readTemplateModel(parseTemplate(before.replace(from, to)));
    const b = readTemplateModel(parseTemplate(before.replace(from, to.replace('v2', 'v3').replace('650', '651'))));
    const ts: number[] = [];
    for (let i = 0; i < 20; i++) { const t = performance.now(); expandServerless(i % 2 ? a : b, { ...O, cache }); ts.push(performance.now() - t); }
    ts.sort((x, y) => x - y);
    out.push(`${name} ${ts[10]!.toFixed(2)} (re ${cache.reexpansions}, hits ${cache.hits}, errors ${e.parsed.errors.length}, notes ${e.notes.length})`);
  }
  console.log(n, out.join(' | '));
}
