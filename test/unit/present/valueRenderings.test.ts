/**
 * The golden table of value renderings: a changed value as every face shows it, one renderer for
 * all (present/values.ts). Values only the deployment knows read as the template writes them, in
 * CloudFormation's short form (`!ImportValue "${ParentVPCStack}-SubnetAPublic"`,
 * `!FindInMap [Sizes, !Ref Size, Type]`, `{{resolve:ssm:/app/version}}`); a long value keeps its
 * beginning and is shortened in the middle, never cut inside a piece of notation; a path is a JSON
 * pointer as RFC 6901 writes it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { main } from '../../../server/src/cli/main';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ChangeDetail } from '../../../server/src/impact/types';
import { changedValueLine, focusOnDifference } from '../../../server/src/present';
import { buildHover } from '../../../server/src/lsp/hover';
import { encodeOutline, readOutline } from '../../../server/src/lsp/worker/outline';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importedSubnet } from '../../fixtures/changedValues';
import { sizedInstance } from '../../fixtures/sizedInstance';

const spec = loadResourceSpec();

/** The first changed value of `logicalId`, as the engine gives it. */
function detailOf(before: string, after: string, logicalId: string): ChangeDetail {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const detail = report.changes.find((c) => c.logicalId === logicalId)?.details[0];
  assert.ok(detail, `a changed value of ${logicalId}`);
  return detail;
}

const subnet = importedSubnet;

const tagged = (value: string) => `Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      Tags: [{ Key: version, Value: '${value}' }]
`;

const api = (path: string) => `Resources:
  Api:
    Type: AWS::ApiGateway::RestApi
    Properties:
      Name: items
      Body:
        paths:
          /items~v2: { get: { summary: ${path} } }
`;

const zone = (index: number) => `Resources:
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: vpc-12345678
      CidrBlock: 10.0.1.0/24
      AvailabilityZone: !Select [${index}, !GetAZs '']
`;

describe('the golden table of changed values', () => {
  const table: [string, ChangeDetail, string][] = [
    ['an import of a Fn::Sub over a parameter with no value', detailOf(subnet('SubnetAPublic'), subnet('SubnetBPublic'), 'Nic'), '/Properties/SubnetId: !ImportValue "${ParentVPCStack}-SubnetAPublic" → !ImportValue "${ParentVPCStack}-SubnetBPublic"'],
    ['a lookup keyed by a parameter with no value', detailOf(sizedInstance('m5.large'), sizedInstance('m5.xlarge'), 'Instance'), '/Properties/InstanceType: "m5.large" → "m5.xlarge" if Size is large'],
    ['a dynamic reference', detailOf(tagged('{{resolve:ssm:/app/version:1}}'), tagged('{{resolve:ssm:/app/version:2}}'), 'Queue'), '/Properties/Tags/0/Value: {{resolve:ssm:/app/version:1}} → {{resolve:ssm:/app/version:2}}'],
    ['a nested unknown: a zone of the Region only the deployment knows', detailOf(zone(0), zone(1), 'Subnet'), '/Properties/AvailabilityZone: !Select [0, !GetAZs !Ref AWS::Region] → !Select [1, !GetAZs !Ref AWS::Region]'],
    ['a key with / and ~ in a pointer', detailOf(api('old'), api('new'), 'Api'), '/Properties/Body/paths/~1items~0v2/get/summary: "old" → "new"'],
  ];
  for (const [name, detail, line] of table) {
    test(name, () => assert.equal(changedValueLine(detail), line));
  }
});

describe('a long value, shortened', () => {
  test('keeps its beginning and its difference, shortened in the middle', () => {
    const arn = 'arn:aws:lambda:us-east-1:123456789012:function:provider-for-the-seeding-of-tables';
    assert.deepEqual(focusOnDifference(`${arn}-v1`, `${arn}-v2`), ['arn:aws:lambda:us-…on:provider-for-the-seeding-of-tables-v1', 'arn:aws:lambda:us-…on:provider-for-the-seeding-of-tables-v2']);
  });

  test('is never cut inside a piece of notation, and a piece the beginning ends in stays whole', () => {
    const value = (last: string) => `"\${ParentVPCStack}-SubnetAPublic-\${AWS::Region}-\${AWS::AccountId}-some-more-text-here-and-${last}"`;
    assert.deepEqual(focusOnDifference(value('here'), value('there')), ['"${ParentVPCStack}…-some-more-text-here-and-here"', '"${ParentVPCStack}…-some-more-text-here-and-there"']);
  });

  test('a piece too long to keep whole keeps its delimiters at either end', () => {
    const reference = (version: string) => `{{resolve:ssm:/application/production/configuration/database/connection-string-${version}}}`;
    assert.deepEqual(focusOnDifference(reference('v1'), reference('v2')), ['{{resolve:ssm:/app…guration/database/connection-string-v1}}', '{{resolve:ssm:/app…guration/database/connection-string-v2}}']);
  });

  test('a difference near the beginning shows the beginning, and elides what follows', () => {
    assert.deepEqual(focusOnDifference(`x${'a'.repeat(70)}`, `y${'a'.repeat(70)}`), [`x${'a'.repeat(58)}…`, `y${'a'.repeat(58)}…`]);
  });

  test('short values are left as they are', () => {
    assert.deepEqual(focusOnDifference('short', 'other'), ['short', 'other']);
  });
});

describe('every face renders a value the same way', () => {
  test('the CLI, its JSON and the hover show the import as the template writes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-values-'));
    const [before, after] = [subnet('SubnetAPublic'), subnet('SubnetBPublic')];
    writeFileSync(join(dir, 'before.yaml'), before);
    writeFileSync(join(dir, 'after.yaml'), after);
    const run = async (...args: string[]) => {
      let out = '';
      await main(['diff', ...args, join(dir, 'before.yaml'), join(dir, 'after.yaml')], { stdout: (s) => (out += s), stderr: () => undefined, isTTY: false, env: {} });
      return out;
    };
    const rendered = '!ImportValue "${ParentVPCStack}-SubnetAPublic" → !ImportValue "${ParentVPCStack}-SubnetBPublic"';
    assert.ok((await run()).includes(rendered));
    const json = JSON.parse(await run('--json')) as { changes: { details: { target: { beforeValue: string; afterValue: string } }[] }[] };
    assert.deepEqual(Object.values(json.changes[0]!.details[0]!.target).filter((v) => typeof v === 'string' && v.startsWith('!')), ['!ImportValue "${ParentVPCStack}-SubnetAPublic"', '!ImportValue "${ParentVPCStack}-SubnetBPublic"']);
    const analysed = analyzeUpdate({ text: before }, { text: after }, { spec });
    const document = TextDocument.create('file:///stack.yaml', 'yaml', 1, after);
    const hover = buildHover(document, readOutline(encodeOutline(analysed.after)), analysed.report, spec, after.indexOf('SubnetId') + 1);
    const text = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    assert.ok(text.includes('!ImportValue "${ParentVPCStack}-SubnetAPublic"'), text);
  });
});
