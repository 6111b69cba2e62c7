/**
 * The translation cache the caller owns: an edit to one function translates that function again
 * and takes the others from the cache; the cache keeps at most the number of translations it was
 * given, the least recently used going first.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandServerless, SamTranslationCache } from '../../../server/src/sam';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';

function template(timeoutOfB: number): string {
  const fn = (name: string, timeout: number) => `  ${name}:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/${name}.zip
      Handler: app.handler
      Runtime: python3.12
      Timeout: ${timeout}
      Events:
        Work:
          Type: SQS
          Properties:
            Queue: !GetAtt ${name}Queue.Arn
`;
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  AQueue:
    Type: AWS::SQS::Queue
  BQueue:
    Type: AWS::SQS::Queue
  CQueue:
    Type: AWS::SQS::Queue
${fn('A', 3)}${fn('B', timeoutOfB)}${fn('C', 3)}`;
}

function expand(text: string, cache: SamTranslationCache) {
  return expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws', cache });
}

describe('SamTranslationCache', () => {
  test('an edit to one function translates that function again and takes the other two from the cache', () => {
    const cache = new SamTranslationCache();
    expand(template(3), cache);
    assert.equal(cache.hits, 0);
    assert.equal(cache.size, 3);
    const edited = expand(template(10), cache);
    assert.equal(cache.hits, 2);
    assert.equal(cache.misses, 4);
    const processed = toPlain(edited.parsed.root!) as { Resources: Record<string, { Type: string; Properties: { Timeout?: number } }> };
    assert.equal(processed.Resources.B?.Properties.Timeout, 10, 'the edited function has its new timeout');
    assert.equal(processed.Resources.ARole?.Type, 'AWS::IAM::Role', 'a function taken from the cache still has its role');
  });

  test('keeps at most the number of translations it was given; what it evicted is translated again', () => {
    const cache = new SamTranslationCache(2);
    expand(template(3), cache);
    assert.equal(cache.size, 2);
    // A was evicted for C; translating A again evicts B, which evicts C: in template order, nothing is found.
    expand(template(3), cache);
    assert.equal(cache.size, 2);
    assert.equal(cache.hits, 0);
    const roomy = new SamTranslationCache(3);
    expand(template(3), roomy);
    expand(template(3), roomy);
    assert.equal(roomy.hits, 3);
  });
});

/** Two functions on the implicit API, with what the tests below edit. */
function apiTemplate({ timeoutOfA = 3, codeOfB = 's3://bucket/b.zip', pathOfA = '/a', integrationTimeout = '29000' } = {}): string {
  const fn = (name: string, timeout: number, code: string, path: string) => `  ${name}:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: ${code}
      Handler: app.handler
      Runtime: python3.12
      Timeout: ${timeout}
      Events:
        Get:
          Type: Api
          Properties:
            Path: ${path}
            Method: get
            TimeoutInMillis: ${integrationTimeout}
`;
  return `Transform: AWS::Serverless-2016-10-31
Resources:
${fn('A', timeoutOfA, 's3://bucket/a.zip', pathOfA)}${fn('B', 3, codeOfB, '/b')}Outputs:
  Url:
    Value: !Sub https://\${ServerlessRestApi}.execute-api.\${AWS::Region}.amazonaws.com/Prod/
`;
}

/** The logical id of the implicit API's deployment. */
function deploymentOf(expansion: ReturnType<typeof expand>): string | undefined {
  const processed = toPlain(expansion.parsed.root!) as { Resources: Record<string, { Type: string }> };
  return Object.keys(processed.Resources).find((id) => processed.Resources[id]!.Type === 'AWS::ApiGateway::Deployment');
}

function uncached(text: string) {
  return expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
}

describe('SamTranslationCache: the implicit API', () => {
  test('an edit to a function that leaves its events alone takes the API as it was: the same deployment', () => {
    const cache = new SamTranslationCache();
    const before = expand(apiTemplate(), cache);
    const edited = expand(apiTemplate({ timeoutOfA: 30 }), cache);
    assert.equal(cache.implicitApiHits, 1);
    assert.equal(deploymentOf(edited), deploymentOf(before));
    assert.deepStrictEqual(edited.parsed, uncached(apiTemplate({ timeoutOfA: 30 })).parsed);
  });

  test('an edit to an event path builds the API again: a new deployment', () => {
    const cache = new SamTranslationCache();
    const before = expand(apiTemplate(), cache);
    const edited = expand(apiTemplate({ pathOfA: '/a2' }), cache);
    assert.equal(cache.implicitApiHits, 0);
    assert.notEqual(deploymentOf(edited), deploymentOf(before));
    assert.deepStrictEqual(edited.parsed, uncached(apiTemplate({ pathOfA: '/a2' })).parsed);
  });

  test('an integration timeout written `29000.0` instead of `29000` builds the API again: Python prints it so in the hashed definition', () => {
    const cache = new SamTranslationCache();
    const before = expand(apiTemplate(), cache);
    const text = apiTemplate({ integrationTimeout: '29000.0' });
    const edited = expand(text, cache);
    assert.equal(cache.implicitApiHits, 0);
    assert.notEqual(deploymentOf(edited), deploymentOf(before));
    assert.deepStrictEqual(edited.parsed, uncached(text).parsed);
  });

  test('a function that fails to translate is not in the API kept from before: the expansion is done again without it', () => {
    const cache = new SamTranslationCache();
    const before = expand(apiTemplate(), cache);
    const text = apiTemplate({ codeOfB: '{Bucket: b}' });
    const edited = expand(text, cache);
    assert.equal(cache.implicitApiHits, 0);
    assert.match(edited.parsed.errors.map((e) => e.message).join('\n'), /'CodeUri' requires Bucket and Key/);
    // B's event never reached the definition, so the deployment is not the one kept.
    assert.notEqual(deploymentOf(edited), deploymentOf(before));
    assert.deepStrictEqual(edited.parsed, uncached(text).parsed);
  });
});
