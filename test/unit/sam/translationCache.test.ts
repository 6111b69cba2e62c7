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
