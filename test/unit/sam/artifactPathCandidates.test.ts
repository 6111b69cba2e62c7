/**
 * The local artifact paths the language server looks for on every keystroke, read off the text
 * without parsing it: whenever the reading answers, it holds every path the parse finds
 * (`localArtifactPaths`); when the YAML is written so that only a parse can tell where a value
 * ends or what it is, it does not answer. Expectations from YAML 1.2's rules for plain, quoted and
 * block scalars, anchors, aliases and tags.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { artifactPathCandidates, localArtifactPaths } from '../../../server/src/sam';
import { samInitApp } from '../../fixtures/samHelloWorld';

/** A SAM template with one function whose properties are `properties` (YAML lines under `Properties:`). */
function samFunction(properties: string): string {
  return `Transform: AWS::Serverless-2016-10-31\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n${properties}      Handler: app.handler\n      Runtime: python3.12\n`;
}

describe('read off the text', () => {
  test("the hello-world template's CodeUri", () => {
    assert.deepEqual(artifactPathCandidates(samInitApp), ['hello_world/']);
  });

  const answered: [string, string, string[]][] = [
    ['a plain path', samFunction('      CodeUri: src/\n'), ['src/']],
    ['a comment after it', samFunction('      CodeUri: src/   # built by make\n'), ['src/']],
    ['single quotes', samFunction("      CodeUri: 'my code/'\n"), ['my code/']],
    ['double quotes', samFunction('      CodeUri: "my code/"\n'), ['my code/']],
    ['an S3 URI, which is no local path', samFunction('      CodeUri: s3://bucket/code.zip\n'), []],
    ['an S3 location map below the key', samFunction('      CodeUri:\n        Bucket: artifacts\n        Key: code.zip\n'), []],
    ['a flow map of the location', samFunction('      CodeUri: {Bucket: artifacts, Key: code.zip}\n'), []],
    ['an intrinsic function', samFunction('      CodeUri: !Sub "s3://${Bucket}/code.zip"\n'), []],
  ];
  for (const [name, text, paths] of answered) {
    test(`${name}: the parse's paths`, () => {
      assert.deepEqual(localArtifactPaths(text), paths, 'the parse');
      assert.deepEqual(artifactPathCandidates(text), paths);
    });
  }

  test('JSON, the key and its value on one line', () => {
    const text = JSON.stringify({ Transform: 'AWS::Serverless-2016-10-31', Resources: { Layer: { Type: 'AWS::Serverless::LayerVersion', Properties: { ContentUri: 'layer/' } } } }, null, 2);
    assert.deepEqual(artifactPathCandidates(text), ['layer/']);
  });

  test('a flow map with the path inside: the path is among the candidates', () => {
    const text = 'Transform: AWS::Serverless-2016-10-31\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties: {CodeUri: src/, Handler: app.handler, Runtime: python3.12}\n';
    assert.deepEqual(localArtifactPaths(text), ['src/']);
    assert.ok(artifactPathCandidates(text)?.includes('src/'));
  });

  test('a blank line after the value, then the next key: the value ended there', () => {
    const text = 'Transform: AWS::Serverless-2016-10-31\nGlobals:\n  Function:\n    CodeUri: src/\n\nResources: {}\n';
    assert.deepEqual(localArtifactPaths(text), ['src/']);
    assert.deepEqual(artifactPathCandidates(text), ['src/']);
  });

  test('a text that is not SAM, or names no artifact property, names no path', () => {
    assert.deepEqual(artifactPathCandidates('Resources:\n  Q:\n    Type: AWS::SQS::Queue\n'), []);
    assert.deepEqual(artifactPathCandidates('Transform: AWS::Serverless-2016-10-31\nResources: {}\n'), []);
  });
});

describe('left to the parse', () => {
  const unanswered: [string, string][] = [
    ['an alias', 'Transform: AWS::Serverless-2016-10-31\nMetadata:\n  Code: &code src/\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: *code\n      Handler: app.handler\n'],
    ['a folded block scalar', samFunction('      CodeUri: >-\n        src/\n')],
    ['a plain scalar on the next line', samFunction('      CodeUri:\n        src/\n')],
    ['a plain scalar going on over the next line', samFunction('      CodeUri: src/\n        more/\n')],
    ['a plain scalar going on after a blank line', samFunction('      CodeUri: src/\n\n        more/\n')],
    ['an anchored value', samFunction('      CodeUri: &code src/\n')],
    ['a YAML core tag', samFunction('      CodeUri: !!str src/\n')],
    ['an escape in a double-quoted string', samFunction('      CodeUri: "src\\u002fone"\n')],
    ['the JSON key apart from its colon', `{"Transform": "AWS::Serverless-2016-10-31", "Resources": {"Fn": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri"\n : "src/", "Handler": "a.b"}}}}`],
  ];
  for (const [name, text] of unanswered) {
    test(`${name}`, () => {
      assert.equal(localArtifactPaths(text).length, 1, 'the parse finds the path');
      assert.equal(artifactPathCandidates(text), undefined);
    });
  }

  test("the property's name in a sentence", () => {
    const text = samFunction('      Description: set CodeUri to the folder\n      CodeUri: src/\n');
    assert.equal(artifactPathCandidates(text), undefined);
  });
});

test('every line looked at once: a megabyte of keys in comments, each with nothing after it, is read in bounded time', () => {
  const hostile = `Transform: AWS::Serverless-2016-10-31\n${'# CodeUri:\n'.repeat(90_000)}${'CodeUri: x\n'.repeat(10_000)}`;
  const started = performance.now();
  artifactPathCandidates(hostile);
  artifactPathCandidates(hostile.replace(/# CodeUri:\n/g, 'CodeUri:\n  Bucket: b\n'));
  assert.ok(performance.now() - started < 2000, `${Math.round(performance.now() - started)} ms`);
});

test('a template written on one line (minified JSON) is read in bounded time, its paths found', () => {
  const resources = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`Fn${i}`, { Type: 'AWS::Serverless::Function', Properties: { CodeUri: `src/fn${i}/`, Handler: 'app.handler', Runtime: 'python3.12' } }]));
  const text = JSON.stringify({ Transform: 'AWS::Serverless-2016-10-31', Resources: resources });
  const started = performance.now();
  const candidates = artifactPathCandidates(text);
  assert.ok(performance.now() - started < 2000, `${Math.round(performance.now() - started)} ms`);
  assert.equal(candidates?.length, 5000);
  assert.ok(candidates?.includes('src/fn4999/'));
  // A megabyte on one line, a key every 17 characters: each is read within its own reach.
  const dense = `Transform: AWS::Serverless-2016-10-31\n${'{"CodeUri": "x", '.repeat(60_000)}`;
  const denseStarted = performance.now();
  assert.deepEqual(artifactPathCandidates(dense), ['x']);
  assert.ok(performance.now() - denseStarted < 2000, `${Math.round(performance.now() - denseStarted)} ms`);
});

const SHARED = join(__dirname, '..', '..', '..', '..', 'shared');
const FOLDERS = [join(SHARED, 'sam-translator-tests', 'input'), join(SHARED, 'corpus')];

/** Every YAML and JSON file under a folder. */
function templatesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ya?ml|json|template)$/.test(name))
    .map((name) => join(folder, name));
}

describe("every template of SAM's suite and the corpus", { skip: FOLDERS.every(existsSync) ? false : `${FOLDERS.join(' or ')} is absent` }, () => {
  test('whenever the reading answers, it holds every path the parse finds', () => {
    let answered = 0;
    let naming = 0;
    let namingAnswered = 0;
    for (const file of FOLDERS.flatMap(templatesUnder)) {
      const text = readFileSync(file, 'utf8');
      const paths = localArtifactPaths(text);
      if (paths.length > 0) naming++;
      const candidates = artifactPathCandidates(text);
      if (candidates === undefined) continue;
      answered++;
      if (paths.length > 0) namingAnswered++;
      for (const path of paths) assert.ok(candidates.includes(path), `${file}: ${path}`);
    }
    console.log(`the reading answered for ${answered} templates, ${namingAnswered} of the ${naming} that name a local path among them`);
    assert.ok(namingAnswered > 0);
  });
});
