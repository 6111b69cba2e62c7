/**
 * A keystroke in Globals to a value SAM copies to each Lambda function and reads nowhere else:
 * the expansion starts from the last one and makes again only the Lambda functions that take the
 * value, and is the expansion in full. SAM's rules the expectations come from: a function takes
 * a Globals property it does not set itself (its own scalar wins); `AutoPublishAlias` hashes the
 * memory size and the environment into its version's id; a function needs a `Handler` and a
 * `Runtime` for zip code; `Environment` must be a map of maps; `Tracing` becomes the function's
 * `TracingConfig` mode and, but for `Disabled`, gives its role the X-Ray write policy; `Tags` go,
 * after `lambda:createdBy: SAM`, to the function and the role SAM makes for it, merged with the
 * function's own, and with `PropagateTags` to what its events generate too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandServerless, SamTranslationCache } from '../../../server/src/sam';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';

const OPTIONS = { parameters: new Map<string, unknown>(), region: 'us-east-1', partition: 'aws' };

/** Three functions taking Globals: A and B as they are, C with its own timeout; `extra` goes into C's properties. */
function template(globals: string, extra = ''): string {
  const fn = (name: string, own: string) => `  ${name}:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/${name}.zip
${own}`;
  return `Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Handler: app.handler
${globals}Resources:
${fn('A', '')}${fn('B', '')}${fn('C', `      Timeout: 3\n${extra}`)}`;
}

function expand(text: string, cache?: SamTranslationCache) {
  return expandServerless(readTemplateModel(parseTemplate(text)), cache ? { ...OPTIONS, cache } : OPTIONS);
}

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** The expansion of `edited` through a cache that expanded `before`, checked to be the expansion in full, and the cache. */
function expandAfter(before: string, edited: string): { processed: Resources; cache: SamTranslationCache } {
  const cache = new SamTranslationCache({ movesInPlace: true });
  expand(before, cache);
  const expansion = expand(edited, cache);
  const full = expand(edited);
  assert.deepStrictEqual(expansion.parsed, full.parsed, 'the processed template is the expansion in full');
  assert.deepStrictEqual(expansion.sourceMap, full.sourceMap, 'so is the source map');
  assert.deepStrictEqual(expansion.notes, full.notes, 'and so are the notes');
  return { processed: (toPlain(expansion.parsed.root!) as { Resources: Resources }).Resources, cache };
}

describe('a Globals edit to what SAM copies to each Lambda function', () => {
  test('a timeout: the functions that take it have it, the one with its own keeps its own', () => {
    const { processed, cache } = expandAfter(template('    Runtime: python3.12\n    Timeout: 10\n'), template('    Runtime: python3.12\n    Timeout: 15\n'));
    assert.equal(cache.functionsPatched, 2, 'A and B made again');
    assert.equal(cache.reexpansions, 1, 'from the last expansion');
    assert.equal(processed.A!.Properties.Timeout, 15);
    assert.equal(processed.B!.Properties.Timeout, 15);
    assert.equal(processed.C!.Properties.Timeout, 3);
    // The source map points at Globals for A's timeout, at C's own line for C's.
    const text = template('    Runtime: python3.12\n    Timeout: 15\n');
    const sources = expand(text, cache).sourceMap.properties;
    const line = (id: string) => text.slice(0, sources.get(id)!.get('Timeout')!.range.start).split('\n').length;
    assert.equal(text.split('\n')[line('A') - 1], '    Timeout: 15');
    assert.equal(text.split('\n')[line('C') - 1], '      Timeout: 3');
  });

  test('two values typed over in turn, through a cache that moves in place, stay the expansion in full', () => {
    const texts = ['10', '1', '15', '150'].map((timeout) => template(`    Runtime: python3.12\n    Timeout: ${timeout}\n    Architectures: [arm64]\n`));
    const cache = new SamTranslationCache({ movesInPlace: true });
    for (const text of texts) assert.deepStrictEqual(expand(text, cache).parsed, expand(text).parsed);
    assert.equal(cache.functionsPatched, 3 * 2);
  });

  test('a memory size under AutoPublishAlias is in the version hash: a new version, expanded in full', () => {
    const before = template('    Runtime: python3.12\n    MemorySize: 128\n', '      AutoPublishAlias: live\n');
    const { processed, cache } = expandAfter(before, template('    Runtime: python3.12\n    MemorySize: 256\n', '      AutoPublishAlias: live\n'));
    assert.equal(cache.functionsPatched, 0);
    const versions = (resources: Resources) => Object.keys(resources).filter((id) => resources[id]!.Type === 'AWS::Lambda::Version');
    const earlier = (toPlain(expand(before).parsed.root!) as { Resources: Resources }).Resources;
    assert.notDeepEqual(versions(processed), versions(earlier), "C's version id changes with the memory size");
  });

  test('a runtime emptied: a zip function needs one, so it is expanded in full and is an error', () => {
    const { cache } = expandAfter(template('    Runtime: python3.12\n'), template("    Runtime: ''\n"));
    assert.equal(cache.functionsPatched, 0);
    assert.ok(expand(template("    Runtime: ''\n")).parsed.errors.some((error) => /Runtime and Handler needs to be present/.test(error.message)));
  });

  test('an environment variable: the functions without a version take it', () => {
    const environment = (mode: string, extra = '') => template(`    Runtime: python3.12\n    Environment:\n      Variables:\n        MODE: ${mode}\n`, extra);
    const { processed, cache } = expandAfter(environment('a'), environment('b'));
    assert.equal(cache.functionsPatched, 3);
    assert.deepEqual(processed.A!.Properties.Environment, { Variables: { MODE: 'b' } });
    // A version's id hashes the environment: C's is new, and the expansion is done in full.
    const versioned = expandAfter(environment('a', '      AutoPublishAlias: live\n'), environment('b', '      AutoPublishAlias: live\n'));
    assert.equal(versioned.cache.functionsPatched, 0);
  });

  test("an environment the translator rejects: expanded in full, and its error", () => {
    const { cache } = expandAfter(template('    Runtime: python3.12\n    Environment:\n      Variables: {}\n'), template('    Runtime: python3.12\n    Environment: none\n'));
    assert.equal(cache.functionsPatched, 0);
    assert.ok(expand(template('    Runtime: python3.12\n    Environment: none\n')).parsed.errors.some((error) => /Environment/.test(error.message)));
  });

  test("a tracing mode typed over another: each function's TracingConfig takes it, their roles keep the X-Ray policy", () => {
    const { processed, cache } = expandAfter(template('    Runtime: python3.12\n    Tracing: Active\n'), template('    Runtime: python3.12\n    Tracing: PassThrough\n'));
    assert.equal(cache.functionsPatched, 3, 'A, B and C made again: C sets its own timeout, not its own tracing');
    for (const id of ['A', 'B', 'C']) assert.deepStrictEqual(processed[id]!.Properties.TracingConfig, { Mode: 'PassThrough' });
    assert.ok(JSON.stringify(processed.ARole!.Properties.ManagedPolicyArns).includes('AWSXrayWriteOnlyAccess'));
  });

  test('tracing Disabled turns tracing off, and the X-Ray policy with it: expanded in full', () => {
    const { processed, cache } = expandAfter(template('    Runtime: python3.12\n    Tracing: Active\n'), template('    Runtime: python3.12\n    Tracing: Disabled\n'));
    assert.equal(cache.functionsPatched, 0);
    assert.equal(processed.A!.Properties.TracingConfig, undefined);
    assert.ok(!JSON.stringify(processed.ARole!.Properties.ManagedPolicyArns).includes('AWSXrayWriteOnlyAccess'));
  });

  test("a tag's value in Globals: each function and the role SAM made for it take it, after SAM's own lambda:createdBy", () => {
    const { processed, cache } = expandAfter(template('    Runtime: python3.12\n    Tags:\n      team: core\n'), template('    Runtime: python3.12\n    Tags:\n      team: platform\n'));
    assert.equal(cache.functionsPatched, 3);
    assert.equal(cache.reexpansions, 1);
    const tags = [
      { Key: 'lambda:createdBy', Value: 'SAM' },
      { Key: 'team', Value: 'platform' },
    ];
    for (const id of ['A', 'B', 'C']) {
      assert.deepStrictEqual(processed[id]!.Properties.Tags, tags);
      assert.deepStrictEqual(processed[`${id}Role`]!.Properties.Tags, tags);
    }
  });

  test("tags that merge with a function's own, or propagate to what its events generate: expanded in full", () => {
    const own = expandAfter(template('    Runtime: python3.12\n    Tags:\n      team: core\n', '      Tags:\n        owner: me\n'), template('    Runtime: python3.12\n    Tags:\n      team: platform\n', '      Tags:\n        owner: me\n'));
    assert.equal(own.cache.functionsPatched, 0);
    assert.deepStrictEqual(own.processed.C!.Properties.Tags, [
      { Key: 'lambda:createdBy', Value: 'SAM' },
      { Key: 'team', Value: 'platform' },
      { Key: 'owner', Value: 'me' },
    ]);
    const propagated = expandAfter(template('    Runtime: python3.12\n    PropagateTags: true\n    Tags:\n      team: core\n'), template('    Runtime: python3.12\n    PropagateTags: true\n    Tags:\n      team: platform\n'));
    assert.equal(propagated.cache.functionsPatched, 0);
  });

  test('a timeout added to Globals: a new key, so expanded in full', () => {
    const { processed, cache } = expandAfter(template('    Runtime: python3.12\n'), template('    Runtime: python3.12\n    Timeout: 20\n'));
    assert.equal(cache.functionsPatched, 0);
    assert.equal(processed.A!.Properties.Timeout, 20);
  });
});
