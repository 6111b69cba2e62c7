/**
 * The documentation overlay after its audit (issue 10): "not updatable" comes only from a
 * property's Update requires line, read on the current CloudFormation Template Reference or in
 * the Markdown source of the archived guide, and every such entry keeps the page it was read on
 * (and, for the archive, the file and commit). Read from the overlay file itself and from the
 * index built from it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadResourceSpec } from '../../../server/src/spec/load';

interface AuditedEntry {
  extracted: string;
  updateRequires: string | null;
  confirmedOn?: string;
  lookedUpOn?: string;
  readIn?: { repository: string; path: string; commit: string };
  decision: string;
  note?: string;
}

interface Overlay {
  notUpdatableTypes: Record<string, { confirmedOn: string; basis: string }>;
  behaviours: Record<string, Record<string, string | AuditedEntry>>;
}

const overlay = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'server', 'data', 'update-behaviors-from-docs.json'), 'utf8'),
) as Overlay;
const spec = loadResourceSpec();

/** AWS's documentation sites; a confirmation page must be one of them. */
const DOCUMENTATION_PAGE = /^https:\/\/docs\.(aws\.amazon\.com|amazonaws\.cn)\//;

function entries(): Array<{ key: string; name: string; entry: string | AuditedEntry }> {
  return Object.entries(overlay.behaviours).flatMap(([key, properties]) =>
    Object.entries(properties).map(([name, entry]) => ({ key, name, entry })),
  );
}

/** Whether an entry makes its property not updatable once merged. */
function makesNotUpdatable(entry: string | AuditedEntry): boolean {
  if (typeof entry === 'string') return entry === 'UpdatesNotSupported';
  return entry.updateRequires === 'Updates are not supported' || entry.decision === 'exception';
}

describe('documentation overlay audit', () => {
  test('every not-updatable overlay entry carries the documentation page it was confirmed on', () => {
    const notUpdatable = entries().filter(({ entry }) => makesNotUpdatable(entry));
    assert.ok(notUpdatable.length > 0);
    for (const { key, name, entry } of notUpdatable) {
      assert.ok(typeof entry === 'object', `${key} ${name} is an unaudited UpdatesNotSupported string`);
      assert.match(entry.confirmedOn ?? '', DOCUMENTATION_PAGE, `${key} ${name}`);
    }
  });

  test('every type that cannot be updated at all carries its page and its basis', () => {
    assert.deepEqual(Object.keys(overlay.notUpdatableTypes), ['AWS::CloudFormation::WaitCondition']);
    for (const [type, entry] of Object.entries(overlay.notUpdatableTypes)) {
      assert.match(entry.confirmedOn, DOCUMENTATION_PAGE, type);
      assert.match(entry.basis, /run 32/, type);
    }
  });

  test('an entry whose line could not be read never makes its property will-fail', () => {
    // Top-level entries only: their property path is the property name itself. The second
    // pass read every line the first could not; the rule holds for any entry added unread.
    const unconfirmed = entries().filter(
      ({ key, entry }) =>
        !key.includes(' ') && !(key in overlay.notUpdatableTypes) && typeof entry === 'object' && entry.decision === 'unconfirmed',
    );
    for (const { key, name } of unconfirmed) {
      assert.notEqual(spec.propertyBehavior(key, [name]).behavior, 'not-updatable', `${key} ${name}`);
    }
  });

  test('an archived line never overrides a replacement the spec states: superseded entries leave the replacement', () => {
    const superseded = entries().filter(
      ({ key, entry }) => !key.includes(' ') && typeof entry === 'object' && entry.decision === 'superseded',
    );
    assert.ok(superseded.length > 0);
    for (const { key, name, entry } of superseded) {
      assert.ok(typeof entry === 'object' && entry.readIn, `${key} ${name} was read in the archive`);
      const result = spec.propertyBehavior(key, [name]);
      assert.equal(result.behavior, 'replacement', `${key} ${name}`);
      assert.equal(result.source, 'spec', `${key} ${name}`);
    }
  });

  test('every line read in the archived guide names its file and commit, and is confirmed on that file\'s page', () => {
    const archived = entries().filter(({ entry }) => typeof entry === 'object' && entry.readIn !== undefined);
    assert.ok(archived.length > 0);
    for (const { key, name, entry } of archived) {
      assert.ok(typeof entry === 'object' && entry.readIn);
      const label = `${key} ${name}`;
      assert.equal(entry.readIn.repository, 'awsdocs/aws-cloudformation-user-guide', label);
      assert.match(entry.readIn.commit, /^[0-9a-f]{40}$/, label);
      const page = /^doc_source\/([a-z0-9-]+)\.md$/.exec(entry.readIn.path)?.[1];
      assert.ok(page, label);
      assert.equal(entry.confirmedOn, `https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/${page}.html`, label);
      assert.notEqual(entry.updateRequires, null, label);
    }
  });

  test('an EBS volume\'s availability zone, encryption, key and snapshot: the archived lines say updates are not supported', () => {
    for (const name of ['AvailabilityZone', 'Encrypted', 'KmsKeyId', 'SnapshotId']) {
      const entry = overlay.behaviours['AWS::EC2::Volume'][name] as AuditedEntry;
      assert.equal(entry.updateRequires, 'Updates are not supported', name);
      assert.equal(entry.decision, 'kept', name);
      assert.equal(entry.readIn?.path, 'doc_source/aws-resource-ec2-volume.md', name);
      assert.equal(spec.propertyBehavior('AWS::EC2::Volume', [name]).behavior, 'not-updatable', name);
    }
  });

  test('a line read as "Replacement" over an extracted "not supported" leaves the replacement', () => {
    for (const name of ['Description', 'CodeSha256']) {
      const entry = overlay.behaviours['AWS::Lambda::Version'][name] as AuditedEntry;
      assert.equal(entry.updateRequires, 'Replacement', name);
      assert.equal(entry.decision, 'dropped', name);
      assert.match(entry.confirmedOn ?? '', /aws-resource-lambda-version\.html$/, name);
    }
  });
});
