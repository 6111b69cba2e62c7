/**
 * Edits outside the resources and what each causes (docs/in-the-editor.md#edit-sites): a parameter
 * whose value changed, a mapping entry, a condition, a SAM Globals value. Each names the changed
 * resources that read it, and those that change only because one of them is replaced, through
 * which; the lens says it in at most 90 characters.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { EditSite, ImpactReport } from '../../../server/src/impact/types';
import { editSiteHoverText, editSiteLensTitle } from '../../../server/src/present';
import { replacedIds } from '../../../server/src/impact/claims';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { committedSamApp } from '../../fixtures/samHelloWorld';

const spec = loadResourceSpec();

function report(before: string, after: string): ImpactReport {
  return analyzeUpdate({ text: before }, { text: after }, { spec, stackName: 'app' }).report;
}

/** `kind name: logicalId impact [via X]` for each effect of each site. */
function sites(r: ImpactReport): string[] {
  return (r.editSites ?? []).map((site) => `${site.kind} ${site.name}: ${site.effects.map((e) => `${e.logicalId} ${e.impact}${e.via ? ` via ${e.via}` : ''}`).join(', ')}`);
}

const network = (cidr: string, size: string, extra = '') => `Parameters:
  Size:
    Type: String
    Default: ${size}
Mappings:
  Subnets:
    Public:
      Cidr: ${cidr}
    Private:
      Cidr: 10.0.2.0/24
Conditions:
  Large: !Equals [!Ref Size, large]${extra}
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: 10.0.0.0/16
  PublicSubnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: !FindInMap [Subnets, Public, Cidr]
  Route:
    Type: AWS::EC2::SubnetRouteTableAssociation
    Properties:
      SubnetId: !Ref PublicSubnet
      RouteTableId: rtb-12345678
  Host:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-12345678
      InstanceType: !If [Large, m5.large, t3.small]
      SubnetId: !Ref PublicSubnet
`;

describe('an edit outside the resources', () => {
  test("a mapping entry: the subnet that reads it is replaced, and what reads the subnet follows, through it", () => {
    const r = report(network('10.0.0.0/24', 'small'), network('10.0.8.0/24', 'small'));
    assert.deepEqual(sites(r), ['mapping-entry Subnets.Public.Cidr: PublicSubnet replacement, Route replacement via PublicSubnet, Host replacement via PublicSubnet']);
  });

  test("a parameter's Default: the resources that read it, through the condition that reads it", () => {
    const r = report(network('10.0.0.0/24', 'small'), network('10.0.0.0/24', 'large'));
    assert.deepEqual(sites(r), ['parameter Size: Host some-interruption']);
    const [site] = r.editSites!;
    const text = network('10.0.0.0/24', 'large');
    assert.equal(text.slice(site!.range.start, site!.range.end), 'Size');
  });

  test('a condition: what it guards and what it decides', () => {
    const r = report(network('10.0.0.0/24', 'small'), network('10.0.0.0/24', 'small').replace('!Equals [!Ref Size, large]', '!Equals [!Ref Size, small]'));
    assert.deepEqual(sites(r), ['condition Large: Host some-interruption']);
  });

  test('an edit that changes nothing, or only the resource it is in, is not a site', () => {
    assert.deepEqual(sites(report(network('10.0.0.0/24', 'small'), network('10.0.0.0/24', 'small', '\n  Unused: !Equals [a, b]'))), []);
    const own = network('10.0.0.0/24', 'small').replace('ImageId: ami-12345678', 'ImageId: ami-87654321');
    assert.deepEqual(sites(report(network('10.0.0.0/24', 'small'), own)), []);
  });

  test('a SAM Globals value: the functions that take it, named as written', () => {
    const r = report(committedSamApp, committedSamApp.replace('Timeout: 3', 'Timeout: 10'));
    assert.deepEqual(sites(r), ['globals Function.Timeout: HelloWorldFunction no-interruption']);
  });

  test('a function that sets the property itself does not take the Globals value', () => {
    const own = committedSamApp.replace('      Runtime: python3.12\n', '      Runtime: python3.12\n      Timeout: 5\n');
    assert.deepEqual(sites(report(own, own.replace('Timeout: 3', 'Timeout: 10'))), []);
  });
});

describe("an edit's lens and hover", () => {
  const site = (effects: EditSite['effects']): EditSite => ({ kind: 'parameter', name: 'SubnetName', range: { start: 0, end: 10 }, effects });

  test('the weightiest fate names its resources, the others are counted', () => {
    const title = editSiteLensTitle(
      site([
        { logicalId: 'NetworkInterface', action: 'Modify', impact: 'replacement' },
        { logicalId: 'EIPAssociation', action: 'Modify', impact: 'replacement', via: 'NetworkInterface' },
        { logicalId: 'VirtualMachine', action: 'Modify', impact: 'replacement', via: 'NetworkInterface' },
        { logicalId: 'BackupSelection', action: 'Modify', impact: 'replacement', via: 'VirtualMachine' },
        { logicalId: 'Alarm', action: 'Modify', impact: 'no-interruption', via: 'VirtualMachine' },
        { logicalId: 'Dns', action: 'Modify', impact: 'no-interruption', via: 'NetworkInterface' },
      ]),
    );
    assert.equal(title, '⟳ replaces NetworkInterface, EIPAssociation, VirtualMachine and 1 more · ✎ updates 2');
  });

  test('long names give way to counts: a lens is at most 90 characters', () => {
    const long = (n: number) => `ApplicationLoadBalancerListenerRuleForTenant${n}`;
    const title = editSiteLensTitle(site([1, 2, 3, 4].map((n) => ({ logicalId: long(n), action: 'Modify' as const, impact: 'replacement' as const }))));
    assert.ok(title.length <= 90, title);
    assert.match(title, /^⟳ replaces /);
  });

  test('the hover lists each resource with why, and through which replaced resource it follows', () => {
    const before = network('10.0.0.0/24', 'small');
    const r = report(before, network('10.0.8.0/24', 'small'));
    const hover = editSiteHoverText(r.editSites![0]!, r.changes, replacedIds(r.changes));
    assert.match(hover, /^\*\*Mapping entry Subnets\.Public\.Cidr\*\*: this edit changes 3 resources/);
    assert.match(hover, /- `PublicSubnet` — \*\*⟳ Replace\*\*: CidrBlock changed/);
    assert.match(hover, /- `Route` — \*\*⟳ Replace\*\*: .*\(through PublicSubnet\)/);
  });
});
