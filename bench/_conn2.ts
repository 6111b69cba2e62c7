import { generateSamPair } from './generate';
import { parseTemplate, readTemplateModel } from '../server/src/template';
import { expandServerless } from '../server/src/sam';
const O = { parameters: new Map<string, unknown>(), region: 'us-east-1', partition: 'aws' };
const withConnectors = (t: string) => t.replace(/(  Handler(\d+):\n    Type: AWS::Serverless::Function\n)/g, '$1    Connectors:\n      ToJobs:\n        Properties:\n          Destination:\n            Id: Jobs$2\n          Permissions:\n            - Write\n');
const m = readTemplateModel(parseTemplate(withConnectors(generateSamPair(200).before)));
for (let i = 0; i < 5; i++) { const t = performance.now(); expandServerless(m, O); console.log((performance.now() - t).toFixed(1)); }
