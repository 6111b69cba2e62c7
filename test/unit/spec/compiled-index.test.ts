/**
 * The index file format and the path-walking rules, on a small inline index: cases the real
 * spec has only in a few obscure places, stated here so that they keep holding.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  decodeSpecIndex,
  encodeSpecIndex,
  type CompiledResourceType,
  type CompiledSpecIndex,
  type CompiledTypeDefinition,
} from '../../../server/src/spec/compiled-index';
import { createResourceSpec } from '../../../server/src/spec/index';

const definitions: CompiledTypeDefinition[] = [
  { n: 'Engine', p: { Version: { b: 'some-interruption', o: 1, d: 'Engine version.' }, Mode: { d: 'Engine mode.' } } },
  { n: 'LegacyEngine', p: { Mode: { b: 'replacement' } } },
];
const types = new Map<string, CompiledResourceType>([
  [
    'Test::Demo::Thing',
    {
      a: ['Arn'],
      d: 'A thing for tests.',
      p: {
        // "maybe" in the spec, refined per nested property by the documentation overlay.
        Engine: { b: 'conditional-replacement', t: [0] },
        // A union of two object types that both have a `Mode`.
        Runtime: { t: [0, 1] },
        Name: { b: 'replacement' },
        // "maybe" in the spec, "some interruptions" in the documentation.
        Size: { b: 'some-interruption', o: 1, s: 'conditional-replacement' },
      },
      e: ['Name'],
    },
  ],
]);

/** Encodes the inline index and reads it back the way the loader does. */
function decoded(): CompiledSpecIndex {
  const index = decodeSpecIndex(encodeSpecIndex({ specVersion: 'test', overlaySource: 'inline' }, types, definitions));
  assert.ok(typeof index !== 'string', String(index));
  return index;
}

describe('file format', () => {
  test('the file is plain JSON with the header first', () => {
    const bytes = encodeSpecIndex({ specVersion: 'test', overlaySource: 'inline' }, types, definitions);
    const whole = JSON.parse(new TextDecoder().decode(bytes)) as { header: { specVersion: string }; body: unknown[] };
    assert.equal(whole.header.specVersion, 'test');
    assert.equal(whole.body.length, 3);
  });

  test('bytes that are not an index are an error value', () => {
    assert.equal(typeof decodeSpecIndex(new TextEncoder().encode('{"types":{}}')), 'string');
  });

  test('an index of another format version is an error value', () => {
    const text = new TextDecoder().decode(encodeSpecIndex({ specVersion: 'test', overlaySource: 'inline' }, types, definitions));
    const older = text.replace(/"formatVersion":\d+/, '"formatVersion":0');
    assert.match(String(decodeSpecIndex(new TextEncoder().encode(older))), /format 0/);
  });
});

describe('path rules', () => {
  const spec = createResourceSpec(decoded());

  test('a stated nested behaviour refines a conditional replacement', () => {
    const result = spec.propertyBehavior('Test::Demo::Thing', ['Engine', 'Version']);
    assert.equal(result.behavior, 'some-interruption');
    assert.equal(result.source, 'docs');
    assert.deepEqual(result.decidedAt, ['Engine', 'Version']);
  });

  test('an unstated nested property leaves the conditional replacement standing', () => {
    const result = spec.propertyBehavior('Test::Demo::Thing', ['Engine', 'Mode']);
    assert.equal(result.behavior, 'conditional-replacement');
    assert.deepEqual(result.decidedAt, ['Engine']);
  });

  test('in a union of object types the worst stated behaviour of a name wins', () => {
    assert.equal(spec.propertyBehavior('Test::Demo::Thing', ['Runtime', 'Mode']).behavior, 'replacement');
  });

  test('RequiresRecreation keeps the spec\'s own statement where the documentation refined the behaviour', () => {
    const result = spec.propertyBehavior('Test::Demo::Thing', ['Size']);
    assert.equal(result.behavior, 'some-interruption');
    assert.equal(result.requiresRecreation, 'Conditionally');
  });

  test('a nested level the spec says nothing about keeps the enclosing "maybe" for RequiresRecreation', () => {
    // Engine/Version is stated only by the documentation overlay.
    assert.equal(spec.propertyBehavior('Test::Demo::Thing', ['Engine', 'Version']).requiresRecreation, 'Conditionally');
    assert.equal(spec.propertyBehavior('Test::Demo::Thing', ['Name']).requiresRecreation, 'Always');
  });

  test('the attributes echoing a property are part of the type information', () => {
    assert.deepEqual(spec.typeInfo('Test::Demo::Thing').propertyEchoes, ['Name']);
  });

  test('documentation is found through nested definitions', () => {
    assert.equal(spec.propertyDocs('Test::Demo::Thing', ['Engine', 'Mode'])?.description, 'Engine mode.');
  });
});
