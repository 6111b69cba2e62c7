/**
 * The translation cache the caller owns: an edit to one function translates that function again
 * and takes the others from the cache; the cache keeps at most the number of translations it was
 * given, the least recently used going first.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandServerless, SamTranslationCache } from '../../../server/src/sam';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';
import type { MapNode, TemplateNode } from '../../../server/src/template/ast';
import { eventYaml, functionYaml } from './samYaml';
import { seededRandom } from './seededRandom';

/** Three functions with an SQS event each, with what the tests below edit. */
function template({ timeoutOfB = 3, batchOfB = 10, queueTimeout = 30, extraQueues = 0, nightlyB = false } = {}): string {
  // B may also run on a schedule: a second event.
  const nightly = (name: string) => (name === 'B' && nightlyB ? '        Nightly:\n          Type: Schedule\n          Properties:\n            Schedule: rate(1 day)\n' : '');
  const fn = (name: string, timeout: number, batch: number) => `  ${name}:
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
            BatchSize: ${batch}
${nightly(name)}`;
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  AQueue:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: ${queueTimeout}
  BQueue:
    Type: AWS::SQS::Queue
  CQueue:
    Type: AWS::SQS::Queue
${['DQueue', 'EQueue'].slice(0, extraQueues).map((id) => `  ${id}:\n    Type: AWS::SQS::Queue\n`).join('')}${fn('A', 3, 10)}${fn('B', timeoutOfB, batchOfB)}${fn('C', 3, 10)}`;
}

function expand(text: string, cache: SamTranslationCache) {
  return expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws', cache });
}

/**
 * A resource's `Condition` made a map after an expansion in which it was a string: the expansion
 * is the expansion in full, and SAM rejects the template.
 */
function assertConditionMadeAMapRejected(withCondition: (condition: string) => string): void {
  const cache = new SamTranslationCache();
  expand(withCondition('IsProd'), cache);
  const text = withCondition('{Ref: IsProd}');
  const edited = expand(text, cache);
  assert.deepStrictEqual(edited, uncached(text));
  assert.match(edited.parsed.errors.map((error) => error.message).join('\n'), /Every Condition member must be a string/);
}

function uncached(text: string) {
  return expandServerless(readTemplateModel(parseTemplate(text)), { parameters: new Map(), region: 'us-east-1', partition: 'aws' });
}

type Processed = { Resources: Record<string, { Type: string; Properties: { Timeout?: number; BatchSize?: number } }> };

/** The logical ids of an expansion's processed template. */
function resourceIds(expansion: ReturnType<typeof expand>): string[] {
  return Object.keys((toPlain(expansion.parsed.root!) as unknown as Processed).Resources);
}

describe('SamTranslationCache', () => {
  test("an event added to one function translates that function again and takes the other two from the cache", () => {
    const cache = new SamTranslationCache();
    expand(template(), cache);
    assert.equal(cache.hits, 0);
    assert.equal(cache.size, 3);
    // The plugins go through a function's events in the order of their ids: a new one is expanded in full.
    const edited = expand(template({ batchOfB: 5, nightlyB: true }), cache);
    assert.equal(cache.reexpansions, 0);
    assert.equal(cache.hits, 2);
    assert.equal(cache.misses, 4);
    const processed = toPlain(edited.parsed.root!) as Processed;
    assert.equal(processed.Resources.BWork?.Properties.BatchSize, 5, 'the edited event has its new batch size');
    assert.equal(processed.Resources.BNightly?.Type, 'AWS::Events::Rule', 'the new event has its rule');
    assert.equal(processed.Resources.ARole?.Type, 'AWS::IAM::Role', 'a function taken from the cache still has its role');
    assert.deepStrictEqual(edited.parsed, uncached(template({ batchOfB: 5, nightlyB: true })).parsed);
  });

  test("an edit to Globals' Api section keeps every function's translation: a function reads only Globals' Function section", () => {
    const withGlobals = (api: number, tracing: string) => template().replace('Resources:\n', `Globals:\n  Api:\n    MinimumCompressionSize: ${api}\n  Function:\n    Tracing: ${tracing}\nResources:\n`);
    const cache = new SamTranslationCache();
    expand(withGlobals(1024, 'Active'), cache);
    const apiEdited = withGlobals(2048, 'Active');
    const edited = expand(apiEdited, cache);
    assert.equal(cache.hits, 3);
    assert.deepStrictEqual(edited.parsed, uncached(apiEdited).parsed);
    assert.deepStrictEqual(edited.sourceMap, uncached(apiEdited).sourceMap);
    const functionEdited = withGlobals(2048, 'Disabled');
    const again = expand(functionEdited, cache);
    assert.equal(cache.hits, 3, "an edit to Globals' Function section (tracing turned off, which a function's role reads) translates every function again");
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(again.parsed, uncached(functionEdited).parsed);
  });

  test("a value Globals no longer merges into a function's stands where the function writes it: Globals' Environment taken away, the Lambda function's is the function's own text", () => {
    const withGlobals = (environment: boolean) =>
      `Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Tags: {team: payments}
${environment ? '    Environment: {Variables: {STAGE: prod}}\n' : ''}Resources:
${functionYaml('A', { properties: { Environment: '{Variables: {STAGE: prod}}', Tags: '{team: payments}' } })}`;
    const cache = new SamTranslationCache();
    expand(withGlobals(true), cache);
    const text = withGlobals(false);
    const edited = expand(text, cache);
    assert.deepStrictEqual(edited, uncached(text));
    const valueOf = (map: TemplateNode, key: string) => (map as MapNode).entries.find((entry) => entry.key === key)!.value;
    const environment = valueOf(valueOf(valueOf(valueOf(edited.parsed.root!, 'Resources'), 'A'), 'Properties'), 'Environment');
    const written = text.indexOf('{Variables: {STAGE: prod}}');
    assert.deepStrictEqual(environment.range, { start: written, end: written + '{Variables: {STAGE: prod}}'.length });
  });

  test("a function copied with its route, whose settings the implicit HTTP API's stage takes, places them at the copy's text: a stage like the last is built again when its values stand for other text", () => {
    const route = eventYaml('Get', 'HttpApi', { Path: '/sub', Method: 'get', RouteSettings: '{ThrottlingBurstLimit: 200}' });
    const withCopy = (copy: boolean) => `Transform: AWS::Serverless-2016-10-31
Conditions:
  IsProd: !Equals [a, a]
Resources:
${functionYaml('A', { attributes: '    Condition: IsProd\n', events: [route] })}${copy ? functionYaml('B', { attributes: '    Condition: IsProd\n', events: [route] }) : ''}`;
    const cache = new SamTranslationCache();
    expand(withCopy(false), cache);
    const text = withCopy(true);
    const edited = expand(text, cache);
    // SAM rejects the second route, and still takes the copy's settings, the last it read.
    assert.match(edited.parsed.errors.map((error) => error.message).join('\n'), /defined multiple times for path '\/sub'/);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test('an edit that makes a queue\'s Condition a map is expanded in full: SAM rejects the template, whose every Condition must be a string', () => {
    const withCondition = (condition: string) => template().replace('Resources:\n', 'Conditions:\n  IsProd: !Equals [a, a]\nResources:\n').replace('  BQueue:\n    Type: AWS::SQS::Queue\n', `  BQueue:\n    Type: AWS::SQS::Queue\n    Condition: ${condition}\n`);
    assertConditionMadeAMapRejected(withCondition);
  });

  test("a map a parameter's default gives a function stands at that default after the parameters are reordered: no translation holding it is kept from another text", () => {
    const parameter = (name: string, value: string) => `  ${name}:\n    Type: String\n    Default: ${value}\n`;
    const withParameters = (first: string, second: string) => `Transform: AWS::Serverless-2016-10-31
Parameters:
${first}${second}Globals:
  Function:
    AutoPublishAlias: live
    EventInvokeConfig:
      DestinationConfig:
        OnSuccess: {Type: S3Bucket, Destination: !Ref Success}
Resources:
${functionYaml('A')}`;
    const success = parameter('Success', '{Ref: SuccessBucketArn}');
    const other = parameter('Other', 'other');
    const cache = new SamTranslationCache();
    expand(withParameters(success, other), cache);
    const text = withParameters(other, success);
    assert.deepStrictEqual(expand(text, cache), uncached(text));
  });

  test('a parameter with no value at hand that names an alias, given a default, then declared no more, expands each time as in full: the alias takes the value, then SAM rejects the Ref', () => {
    const withStage = (declaration: string) => `Transform: AWS::Serverless-2016-10-31
Parameters:
  Other:
    Type: String
${declaration}Resources:
${functionYaml('A', { properties: { AutoPublishAlias: '!Ref Stage' } })}${functionYaml('B')}`;
    const cache = new SamTranslationCache();
    const first = expand(withStage('  Stage:\n    Type: String\n'), cache);
    assert.ok(resourceIds(first).includes('AAliasStage'), resourceIds(first).join(', '));
    for (const declaration of ['  Stage:\n    Type: String\n    Default: prod\n', '  Stage:\n    Type: String\n', '']) {
      const text = withStage(declaration);
      assert.deepStrictEqual(expand(text, cache), uncached(text), declaration);
    }
    assert.ok(resourceIds(expand(withStage('  Stage:\n    Type: String\n    Default: prod\n'), cache)).includes('AAliasprod'));
    assert.match(uncached(withStage('')).parsed.errors.map((e) => e.message).join('\n'), /'AutoPublishAlias' must be a string or a Ref to a template parameter/);
  });

  test('keeps at most the number of translations it was given; what it evicted is translated again', () => {
    // The second expansion adds two queues, so that it cannot start from the last one (reexpand.ts).
    const cache = new SamTranslationCache({ maxEntries: 2 });
    expand(template(), cache);
    assert.equal(cache.size, 2);
    // A was evicted for C; translating A again evicts B, which evicts C: in template order, nothing is found.
    expand(template({ extraQueues: 2 }), cache);
    assert.equal(cache.size, 2);
    assert.equal(cache.hits, 0);
    const roomy = new SamTranslationCache({ maxEntries: 3 });
    expand(template(), roomy);
    expand(template({ extraQueues: 2 }), roomy);
    assert.equal(roomy.hits, 3);
  });
});

describe('SamTranslationCache: starting from the last expansion', () => {
  test('an edit to a function where no API reads translates that function alone; the rest is the last expansion, moved', () => {
    const cache = new SamTranslationCache();
    expand(template(), cache);
    const edited = expand(template({ timeoutOfB: 10 }), cache);
    assert.equal(cache.reexpansions, 1);
    assert.equal(cache.hits, 0, 'the other functions are not translated again');
    assert.equal(cache.misses, 4);
    assert.equal((toPlain(edited.parsed.root!) as Processed).Resources.B?.Properties.Timeout, 10);
    assert.deepStrictEqual(edited, uncached(template({ timeoutOfB: 10 })));
  });

  test('a keystroke in YAML that does not parse is expanded in full: the tree YAML recovers from it does not nest as the text does', () => {
    // Two resources on one line: the recovered tree holds the second inside the first's type.
    const broken = (indent: string) => `Resources:
${indent}MinimalTable:    Type: AWS::Serverless::SimpleTable
  CompleteTable:
    Type: AWS::Serverless::SimpleTable
    Properties:
      PrimaryKey:
        Name: member-number
        Type Number
     ProvisionedThroughput:
        ReadCapacityUnits: 20
`;
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(broken('  '), cache);
    const text = broken(' ');
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test('keystroke after keystroke, each starting from the one before, is the expansion in full', () => {
    const cache = new SamTranslationCache();
    expand(template(), cache);
    const texts = [
      template({ timeoutOfB: 1 }),
      template({ timeoutOfB: 12 }),
      template({ timeoutOfB: 123 }),
      // A comment between resources moves everything after it.
      template({ timeoutOfB: 123 }).replace('  BQueue:', '  # the second queue\n  BQueue:'),
    ];
    for (const text of texts) assert.deepStrictEqual(expand(text, cache), uncached(text));
    assert.equal(cache.reexpansions, texts.length);
  });

  test('an edit to a YAML anchor that resources use is expanded in full, though their text did not change', () => {
    const withAnchor = (stage: string) => `Transform: AWS::Serverless-2016-10-31
Metadata:
  Shared: &shared
    STAGE: ${stage}
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/fn.zip
      Handler: app.handler
      Runtime: python3.12
      Environment:
        Variables: *shared
`;
    const cache = new SamTranslationCache();
    expand(withAnchor('prod'), cache);
    const edited = expand(withAnchor('test'), cache);
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(edited, uncached(withAnchor('test')));
    assert.match(JSON.stringify(toPlain(edited.parsed.root!)), /"STAGE":"test"/);
  });

  test('an edit to a resource the transform passes through as written, which no translation read, starts from the last expansion', () => {
    const cache = new SamTranslationCache();
    expand(template(), cache);
    const edited = expand(template({ queueTimeout: 45 }), cache);
    assert.equal(cache.reexpansions, 1);
    assert.equal(cache.misses, 3, 'no function is translated again');
    assert.deepStrictEqual(edited, uncached(template({ queueTimeout: 45 })));
  });

  test('an edit to a resource a translation read is expanded in full: a layer that publishes new versions of the functions using it', () => {
    // SAM hashes a layer's properties into the version id of a function that publishes on any change, when the layer asks for it.
    const withLayer = (description: string) => `Transform: AWS::Serverless-2016-10-31
Resources:
  Libs:
    Type: AWS::Lambda::LayerVersion
    Properties:
      Content:
        S3Bucket: bucket
        S3Key: libs.zip
      Description: ${description}
      PublishLambdaVersion: true
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/fn.zip
      Handler: app.handler
      Runtime: python3.12
      AutoPublishAlias: live
      AutoPublishAliasAllProperties: true
      Layers:
        - !Ref Libs
`;
    const versionOf = (expansion: ReturnType<typeof expand>) => Object.keys((toPlain(expansion.parsed.root!) as Processed).Resources).find((id) => id.startsWith('FnVersion'));
    const cache = new SamTranslationCache();
    const before = expand(withLayer('first'), cache);
    const edited = expand(withLayer('second'), cache);
    assert.equal(cache.reexpansions, 0);
    assert.notEqual(versionOf(edited), versionOf(before), 'a new version id');
    assert.deepStrictEqual(edited, uncached(withLayer('second')));
  });

  test("a keystroke inside an event the APIs do not read (an SQS event's batch size) translates that function alone", () => {
    const cache = new SamTranslationCache();
    expand(template(), cache);
    for (const text of [template({ batchOfB: 5 }), template({ batchOfB: 50 })]) assert.deepStrictEqual(expand(text, cache), uncached(text));
    assert.equal(cache.reexpansions, 2);
  });

  test('an event added or removed, whose id the implicit APIs read, is expanded in full', () => {
    const cache = new SamTranslationCache();
    expand(template(), cache);
    for (const text of [template({ nightlyB: true }), template()]) assert.deepStrictEqual(expand(text, cache), uncached(text));
    assert.equal(cache.reexpansions, 0);
  });

  test('a resource the transform passes through as written, added, renamed, then taken out, starts from the last expansion each time: the queue stands where it is written', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(template(), cache);
    const texts = [
      template({ extraQueues: 1 }),
      // A logical id typed, keystroke by keystroke.
      template({ extraQueues: 1 }).replace('  DQueue:', '  DQueueX:'),
      template({ extraQueues: 1 }).replace('  DQueue:', '  DQueueXY:'),
      template(),
      // Added above everything, taken out, then added below everything.
      template().replace('Resources:\n', 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n'),
      template(),
      `${template()}  Topic:\n    Type: AWS::SNS::Topic\n`,
    ];
    const ids = texts.map((text) => {
      const edited = expand(text, cache);
      assert.deepStrictEqual(edited, uncached(text));
      return resourceIds(edited);
    });
    assert.deepStrictEqual(ids[0]!.slice(0, 5), ['AQueue', 'BQueue', 'CQueue', 'DQueue', 'A']);
    assert.deepStrictEqual(ids[4]![0], 'Topic');
    assert.deepStrictEqual(ids[6]!.at(-1), 'Topic');
    assert.equal(cache.reexpansions, texts.length);
    assert.equal(cache.misses, 3, 'no function is translated again');
  });

  test('a function pasted between two others, then deleted, starts from the last expansion each time: it alone is translated, what it generates stands where it is written', () => {
    const pasted = (code: string, properties: Record<string, string> = {}) => template().replace('  B:\n', `${functionYaml('D', { code, properties, events: [eventYaml('Work', 'SQS', { Queue: '!GetAtt CQueue.Arn' })] })}  B:\n`);
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(template(), cache);
    const texts = [pasted('s3://bucket/d.zip'), template(), pasted('s3://bucket/d.zip', { AutoPublishAlias: 'live' })];
    const ids = texts.map((text) => {
      const edited = expand(text, cache);
      assert.deepStrictEqual(edited, uncached(text));
      return resourceIds(edited);
    });
    assert.equal(cache.reexpansions, texts.length);
    assert.equal(cache.misses, 3 + 2, 'the pasted function alone is translated, each time its text is new');
    const ofD = ids[0]!.flatMap((id, i) => (id.startsWith('D') ? [i] : []));
    assert.deepStrictEqual(ofD, Array.from({ length: ofD.length }, (_, k) => ofD[0]! + k), 'together');
    assert.ok(ofD.length >= 2 && ofD.at(-1)! < ids[0]!.indexOf('B'), 'before the function written after it');
    assert.ok(!ids[1]!.includes('D'));
    assert.ok(ids[2]!.includes('DAliaslive'));
  });

  test("a function pasted whose alias the text names (`!Ref D.Alias`) is expanded in full: SAM resolves the reference to the alias it makes", () => {
    const withOutput = (text: string) => `${text}Outputs:\n  Alias:\n    Value: !Ref D.Alias\n`;
    const pasted = withOutput(template().replace('  B:\n', `${functionYaml('D', { properties: { AutoPublishAlias: 'live' } })}  B:\n`));
    const cache = new SamTranslationCache();
    expand(withOutput(template()), cache);
    const edited = expand(pasted, cache);
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(edited, uncached(pasted));
    assert.match(JSON.stringify(toPlain(edited.parsed.root!)), /"Ref":"DAliaslive"/);
  });

  test("a function pasted with its code in a local folder: its note goes among the others' in the order SAM translates the functions, the order written", () => {
    const local = (text: string) => text.replace(/s3:\/\/bucket\/(\w)\.zip/g, './$1');
    const pasted = local(template().replace('  B:\n', `${functionYaml('D')}  B:\n`));
    const cache = new SamTranslationCache();
    expand(local(template()), cache);
    const edited = expand(pasted, cache);
    assert.equal(cache.reexpansions, 1);
    assert.deepStrictEqual(edited, uncached(pasted));
    assert.deepStrictEqual(edited.notes.map((note) => note.logicalId), ['A', 'D', 'B', 'C']);
  });

  test("a resource's type typed over another that is not SAM's starts from the last expansion; typed into one of SAM's, or given connectors, it is expanded in full", () => {
    const typed = (type: string) => template().replace('  CQueue:\n    Type: AWS::SQS::Queue', `  CQueue:\n    Type: ${type}`);
    const cache = new SamTranslationCache();
    expand(template(), cache);
    for (const type of ['AWS::SQS::Q', 'AWS::SNS::Topic', 'AWS::SQS::Queue']) assert.deepStrictEqual(expand(typed(type), cache), uncached(typed(type)));
    assert.equal(cache.reexpansions, 3);
    // SAM translates its own types, and the connectors embedded in any resource.
    const table = typed('AWS::Serverless::SimpleTable');
    assert.deepStrictEqual(expand(table, cache), uncached(table));
    assert.ok(resourceIds(expand(table, cache)).includes('CQueue'), 'the table keeps its id');
    expand(template(), cache);
    const reexpansions = cache.reexpansions;
    const connected = template().replace('  AQueue:\n    Type: AWS::SQS::Queue\n', '  AQueue:\n    Type: AWS::SQS::Queue\n    Connectors:\n      ToB:\n        Properties:\n          Destination:\n            Id: B\n          Permissions:\n            - Write\n');
    const edited = expand(connected, cache);
    assert.deepStrictEqual(edited, uncached(connected));
    assert.equal(cache.reexpansions, reexpansions, 'the edit with connectors is expanded in full');
  });

  test("an edit that takes away the condition SAM made of a function's role takes that condition away", () => {
    // SAM makes the role only when the function's Role is an Fn::If with AWS::NoValue, under the negated condition.
    const withRole = (role: string) => `Transform: AWS::Serverless-2016-10-31
Parameters:
  RoleArn:
    Type: String
    Default: ''
Conditions:
  RoleGiven: !Not [!Equals ['', !Ref RoleArn]]
Resources:
${functionYaml('Fn', { properties: { Role: role } })}`;
    const cache = new SamTranslationCache();
    const conditional = expand(withRole('!If [RoleGiven, !Ref RoleArn, !Ref AWS::NoValue]'), cache);
    assert.deepStrictEqual(Object.keys((toPlain(conditional.parsed.root!) as { Conditions: object }).Conditions), ['RoleGiven', 'NOTRoleGiven']);
    const text = withRole('!If [RoleGiven, !Ref RoleArn, arn:aws:iam::123456789012:role/fallback]');
    const edited = expand(text, cache);
    assert.deepStrictEqual(Object.keys((toPlain(edited.parsed.root!) as { Conditions: object }).Conditions), ['RoleGiven']);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test("a layer whose type is mistyped no longer renames a function's reference to it: nothing is carried over from the expansion that renamed it", () => {
    // A layer SAM translates gets a hashed id, and references to it follow; one left as written keeps its id.
    const withLayer = (type: string) => `Transform: AWS::Serverless-2016-10-31
Resources:
${functionYaml('Fn', { properties: { Layers: '[!Ref Libs]' } })}  Libs:
    Type: ${type}
    Properties:
      ContentUri: s3://bucket/libs.zip
`;
    const cache = new SamTranslationCache();
    const layersOf = (expansion: ReturnType<typeof expand>) => (toPlain(expansion.parsed.root!) as { Resources: Record<string, { Properties: { Layers?: unknown } }> }).Resources.Fn?.Properties.Layers;
    const renamed = expand(withLayer('AWS::Serverless::LayerVersion'), cache);
    assert.match(JSON.stringify(layersOf(renamed)), /"Ref":"Libs[0-9a-f]{10}"/);
    const text = withLayer('AWS::Serverless::LayerVersio');
    const edited = expand(text, cache);
    assert.deepStrictEqual(layersOf(edited), [{ Ref: 'Libs' }]);
    assert.deepStrictEqual(edited, uncached(text));
  });
});

/** Two functions on the implicit API, with what the tests below edit. */
function apiTemplate({ timeoutOfA = 3, codeOfB = 's3://bucket/b.zip', pathOfA = '/a', integrationTimeout = '29000', withLayer = false, nightlyOfB = '', workerTeam = '' } = {}): string {
  // A worker with no API event, tagged with its team.
  const worker = workerTeam
    ? functionYaml('Worker', { properties: { AutoPublishAlias: 'live', Tags: `{team: ${workerTeam}}` }, events: [eventYaml('Nightly', 'Schedule', { Schedule: 'rate(1 day)' })] })
    : '';
  // B may also run on a schedule, an event the API does not read.
  const nightly = (name: string) => (name === 'B' && nightlyOfB ? `        Nightly:\n          Type: Schedule\n          Properties:\n            Schedule: ${nightlyOfB}\n` : '');
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
${nightly(name)}`;
  // A layer's id is renamed by the transform, so no expansion starts from the last one (reexpand.ts).
  const layer = withLayer ? '  Libs:\n    Type: AWS::Serverless::LayerVersion\n    Properties:\n      ContentUri: s3://bucket/libs.zip\n' : '';
  return `Transform: AWS::Serverless-2016-10-31
Resources:
${layer}${fn('A', timeoutOfA, 's3://bucket/a.zip', pathOfA)}${fn('B', 3, codeOfB, '/b')}${worker}Outputs:
  Url:
    Value: !Sub https://\${ServerlessRestApi}.execute-api.\${AWS::Region}.amazonaws.com/Prod/
`;
}

/** The logical id of the implicit API's deployment. */
function deploymentOf(expansion: ReturnType<typeof expand>): string | undefined {
  const processed = toPlain(expansion.parsed.root!) as { Resources: Record<string, { Type: string }> };
  return Object.keys(processed.Resources).find((id) => processed.Resources[id]!.Type === 'AWS::ApiGateway::Deployment');
}

/**
 * Expands a text and then its edit, each pair made without and with a layer (whose renamed id
 * makes every expansion one in full), and holds that the API was taken as it was: the expansion
 * started from the last one and rebuilt nothing, or, in full, took the kept API; the same
 * deployment, and the expansion without a cache. The edited expansions.
 */
function expandsKeepingTheApi(pair: (withLayer: boolean) => [string, string]): ReturnType<typeof expand>[] {
  return [false, true].map((withLayer) => {
    const [from, to] = pair(withLayer);
    const cache = new SamTranslationCache();
    const before = expand(from, cache);
    const edited = expand(to, cache);
    assert.equal(cache.reexpansions, withLayer ? 0 : 1);
    assert.equal(cache.apiRebuilds, 0);
    assert.equal(cache.implicitApiHits, withLayer ? 1 : 0);
    assert.equal(deploymentOf(edited), deploymentOf(before));
    assert.deepStrictEqual(edited.parsed, uncached(to).parsed);
    return edited;
  });
}

describe('SamTranslationCache: resources SAM passes through, in a template it converts for Python 2.7', () => {
  // Functions with Api events: SAM keeps the Resources section in a Python 2.7 dict, whose order a key added or taken away can change.
  const functions = (count: number) =>
    Array.from(
      { length: count },
      (_, n) => `  Fn${n}:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/fn${n}.zip
      Handler: app.handler
      Runtime: python3.12
      Events:
        Read:
          Type: Api
          Properties:
            Path: /items${n}
            Method: get
`,
    ).join('');
  // After the functions, queues (`Q…`) and functions pasted (`F…`, with an Api event when their number is even).
  const pastedEntry = (id: string) =>
    id.startsWith('Q')
      ? `  ${id}:\n    Type: AWS::SQS::Queue\n`
      : functionYaml(id, { events: Number(id.slice(1)) % 2 === 0 ? [eventYaml('Read', 'Api', { Path: `/f/${id}`, Method: 'get' })] : [] });
  const withQueues = (count: number, queues: readonly string[]) => `Transform: AWS::Serverless-2016-10-31\nResources:\n${functions(count)}${queues.map(pastedEntry).join('')}`;

  test('a queue added that makes SAM visit the functions in another order is expanded in full: the implicit API is attributed to the event SAM meets first', () => {
    const base = withQueues(4, []);
    const origin = (expansion: ReturnType<typeof expand>) => expansion.sourceMap.resources.get('ServerlessRestApi')?.logicalId;
    const first = origin(uncached(base));
    // The first queue name, in order, that moves another function to the front.
    const name = Array.from({ length: 200 }, (_, n) => `Queue${n}`).find((id) => origin(uncached(withQueues(4, [id]))) !== first);
    assert.ok(name !== undefined, 'some key reorders the section');
    const cache = new SamTranslationCache();
    expand(base, cache);
    const reordered = expand(withQueues(4, [name]), cache);
    assert.deepStrictEqual(reordered, uncached(withQueues(4, [name])));
    assert.notEqual(origin(reordered), first);
    assert.equal(cache.reexpansions, 0);
  });

  test("a function with an Api event renamed again and again, each new id moving it in SAM's order or not: each is the expansion without a cache, and its path is taken out under the old id and put in under the new one without SAM's fold", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(withQueues(9, ['F0']), cache);
    for (let n = 2; n <= 40; n += 2) {
      const text = withQueues(9, [`F${n}`]);
      assert.deepStrictEqual(expand(text, cache), uncached(text), `F${n - 2} renamed F${n}`);
    }
    const foldsDone = cache.apiRebuilds - cache.routeRenames - cache.routesAddedOrRemoved - cache.deploymentsRenamed - cache.pathItemsChanged;
    assert.ok(cache.routesAddedOrRemoved > 0, `${cache.routesAddedOrRemoved} of 20 renames took the path out and put it back, ${foldsDone} did the fold again`);
  });

  test('each of a run of seeded queues and functions pasted, renamed, retyped and deleted is the expansion without a cache; most start from the last expansion', () => {
    const random = seededRandom(1124);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const queues: string[] = [];
    let text = withQueues(9, queues);
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(text, cache);
    let edits = 0;
    for (let step = 0; step < 120; step++) {
      const name = `${pick(['Q', 'F'])}${Math.floor(random() * 100000)}`;
      const op = queues.length === 0 ? 'add' : pick(['add', 'rename', 'retype', 'remove']);
      const at = Math.floor(random() * (queues.length + (op === 'add' ? 1 : 0)));
      if (op === 'add' && !queues.includes(name)) queues.splice(at, 0, name);
      else if (op === 'rename' && !queues.includes(name)) queues[at] = name;
      else if (op === 'remove') queues.splice(at, 1);
      const typed = op === 'retype' ? text.replace(`  ${queues[at]}:\n    Type: AWS::SQS::Queue\n`, `  ${queues[at]}:\n    Type: ${pick(['AWS::SNS::Topic', 'AWS::SQS::Q'])}\n`) : withQueues(9, queues);
      if (typed === text) continue;
      text = typed;
      edits++;
      assert.deepStrictEqual(expand(text, cache), uncached(text), `edit ${edits}: ${op}`);
    }
    assert.ok(cache.reexpansions > edits / 2 && cache.reexpansions < edits, `${cache.reexpansions} of ${edits} edits started from the last expansion: some reordered SAM's visits`);
  });
});

describe('SamTranslationCache: the implicit API', () => {
  test('an edit to a function that leaves its events alone takes the API as it was: the same deployment', () => {
    const cache = new SamTranslationCache();
    const before = expand(apiTemplate({ withLayer: true }), cache);
    const edited = expand(apiTemplate({ timeoutOfA: 30, withLayer: true }), cache);
    assert.equal(cache.reexpansions, 0);
    assert.equal(cache.implicitApiHits, 1);
    assert.equal(deploymentOf(edited), deploymentOf(before));
    assert.deepStrictEqual(edited.parsed, uncached(apiTemplate({ timeoutOfA: 30, withLayer: true })).parsed);
  });

  test('the same edit starts from the last expansion when it can: the same deployment', () => {
    const cache = new SamTranslationCache();
    const before = expand(apiTemplate(), cache);
    const edited = expand(apiTemplate({ timeoutOfA: 30 }), cache);
    assert.equal(cache.reexpansions, 1);
    assert.equal(deploymentOf(edited), deploymentOf(before));
    assert.deepStrictEqual(edited, uncached(apiTemplate({ timeoutOfA: 30 })));
  });

  test("an edit inside an event the API does not read (a schedule) takes the API as it was: the same deployment", () => {
    expandsKeepingTheApi((withLayer) => [apiTemplate({ nightlyOfB: 'rate(1 day)', withLayer }), apiTemplate({ nightlyOfB: 'rate(2 days)', withLayer })]);
  });

  test("an edit to the tags of a function with no API event takes the API as it was: the plugins read them for an API event only", () => {
    const edited = expandsKeepingTheApi((withLayer) => [apiTemplate({ workerTeam: 'billing', withLayer }), apiTemplate({ workerTeam: 'payments', withLayer })]);
    for (const expansion of edited) assert.deepStrictEqual(resourcesOf(expansion).Worker?.Properties.Tags, [{ Key: 'lambda:createdBy', Value: 'SAM' }, { Key: 'team', Value: 'payments' }]);
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

/** An explicit REST API, whose definition SAM builds from the events of two functions that name it. */
function explicitApiTemplate({ codeOfA = 's3://bucket/a.zip', pathOfA = '/a', stage = 'live', queueTimeout = 30 } = {}): string {
  const get = (path: string) => [eventYaml('Get', 'Api', { RestApiId: '!Ref Api', Path: path, Method: 'get' })];
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: ${stage}
      Cors: "'*'"
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: ${queueTimeout}
${functionYaml('A', { code: codeOfA, events: get(pathOfA) })}${functionYaml('B', { events: get('/b') })}`;
}

/** The generated resources of an expansion, by logical id. */
function resourcesOf(expansion: ReturnType<typeof expand>): Record<string, { Type: string; Properties: Record<string, unknown>; DependsOn?: unknown }> {
  return (toPlain(expansion.parsed.root!) as { Resources: Record<string, { Type: string; Properties: Record<string, unknown>; DependsOn?: unknown }> }).Resources;
}

describe('SamTranslationCache: an explicit API that functions\' events name', () => {
  test("a keystroke in a function's code starts from the last expansion: the function alone is translated, with the API's stage for its permission; the API is as it was", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    const before = expand(explicitApiTemplate(), cache);
    expand(explicitApiTemplate({ codeOfA: 's3://bucket/a2.zip' }), cache);
    const text = explicitApiTemplate({ codeOfA: 's3://bucket/a23.zip' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 2);
    assert.deepStrictEqual(edited, uncached(text));
    const resources = resourcesOf(edited);
    assert.deepStrictEqual(resources.A?.Properties.Code, { S3Bucket: 'bucket', S3Key: 'a23.zip' });
    // The permission is for the API's stage, which SAM reads from the API's entry.
    assert.equal(resources.AGetPermissionlive?.Type, 'AWS::Lambda::Permission');
    assert.equal(deploymentOf(edited), deploymentOf(before));
  });

  test('an edit to a queue SAM passes through starts from the last expansion: the API read nothing but its own entry and the function names', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(explicitApiTemplate(), cache);
    const text = explicitApiTemplate({ queueTimeout: 45 });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 1);
    assert.deepStrictEqual(edited, uncached(text));
    assert.equal(resourcesOf(edited).Jobs?.Properties.VisibilityTimeout, 45);
  });

  test("an edit to the API's stage is expanded in full: each permission takes the new stage", () => {
    const cache = new SamTranslationCache();
    expand(explicitApiTemplate(), cache);
    const text = explicitApiTemplate({ stage: 'next' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(edited.parsed, uncached(text).parsed);
    assert.deepStrictEqual(Object.keys(resourcesOf(edited)).filter((id) => id.includes('Permission')).sort(), ['AGetPermissionnext', 'BGetPermissionnext']);
  });

  test("an edit to the stage of an API whose type is mistyped, which the transform passes through as written, still names each permission: the events read the stage", () => {
    const mistyped = (stage: string) => explicitApiTemplate({ stage }).replace('Type: AWS::Serverless::Api\n', 'Type: AWS::Serverles::Api\n');
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(mistyped('live'), cache);
    const text = mistyped('next');
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(edited, uncached(text));
    assert.deepStrictEqual(Object.keys(resourcesOf(edited)).filter((id) => id.includes('Permission')).sort(), ['AGetPermissionnext', 'BGetPermissionnext']);
  });

  test("a list a parameter's default gives the API stands at that default after an event's path is edited", () => {
    const withTypes = (pathOfA: string) =>
      explicitApiTemplate({ pathOfA })
        .replace('Resources:\n', 'Parameters:\n  Types:\n    Type: String\n    Default: [image~1png]\nGlobals:\n  Api:\n    BinaryMediaTypes: [!Ref Types]\nResources:\n');
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(withTypes('/a'), cache);
    const text = withTypes('/a2');
    assert.deepStrictEqual(expand(text, cache), uncached(text));
  });

  test("an API no function names, given a list by a parameter's default, stands at that default after its own entry is edited", () => {
    const withCors = (origin: string) => `Transform: AWS::Serverless-2016-10-31
Parameters:
  Types:
    Type: String
    Default: [image~1png]
Globals:
  Api:
    BinaryMediaTypes: [!Ref Types]
Resources:
  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: live
      Cors: "'${origin}'"
`;
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(withCors('a'), cache);
    const text = withCors('ab');
    assert.deepStrictEqual(expand(text, cache), uncached(text));
  });

  test("an edit that makes the API's Condition a map is expanded in full: SAM rejects the template, whose every Condition must be a string", () => {
    const withCondition = (condition: string) =>
      explicitApiTemplate().replace('Resources:\n', 'Conditions:\n  IsProd: !Equals [a, a]\nResources:\n').replace('    Type: AWS::Serverless::Api\n', `    Type: AWS::Serverless::Api\n    Condition: ${condition}\n`);
    assertConditionMadeAMapRejected(withCondition);
  });

  test("an edit to the path of an event on the API rebuilds the API from its parts: its definition changes, so does its deployment", () => {
    const cache = new SamTranslationCache();
    const before = expand(explicitApiTemplate(), cache);
    const text = explicitApiTemplate({ pathOfA: '/a2' });
    const edited = expand(text, cache);
    assert.equal(cache.apiRebuilds, 1);
    assert.deepStrictEqual(edited, uncached(text));
    assert.notEqual(deploymentOf(edited), deploymentOf(before));
    assert.ok('/a2' in (resourcesOf(edited).Api?.Properties.Body as { paths: Record<string, unknown> }).paths);
  });
});

/** An explicit HTTP API; A serves its `$default` route and one path, B another path. */
function httpApiTemplate({ codeOfA = 's3://bucket/a.zip', queueTimeout = 30 } = {}): string {
  const route = (name: string, path: string, method: string) => eventYaml(name, 'HttpApi', { ApiId: '!Ref Api', Path: path, Method: method });
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  Api:
    Type: AWS::Serverless::HttpApi
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: ${queueTimeout}
${functionYaml('A', { code: codeOfA, events: [route('Default', '$default', 'any'), route('Get', '/a', 'get')] })}${functionYaml('B', { events: [route('Get', '/b', 'get')] })}`;
}

describe("SamTranslationCache: an explicit HTTP API that functions' events name", () => {
  test("a keystroke in the code of the function that serves the $default route starts from the last expansion, with SAM's permissions: one for the $default route, none for the path it covers", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(httpApiTemplate(), cache);
    expand(httpApiTemplate({ codeOfA: 's3://bucket/a2.zip' }), cache);
    const text = httpApiTemplate({ codeOfA: 's3://bucket/a23.zip' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 2);
    assert.deepStrictEqual(edited, uncached(text));
    const permissions = Object.entries(resourcesOf(edited)).filter(([, resource]) => resource.Type === 'AWS::Lambda::Permission').map(([id]) => id).sort();
    assert.deepStrictEqual(permissions, ['ADefaultPermission', 'BGetPermission']);
  });

  test('an edit to a queue SAM passes through starts from the last expansion: the API read nothing but its own entry', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(httpApiTemplate(), cache);
    const text = httpApiTemplate({ queueTimeout: 45 });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 1);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test("a keystroke in the second of two functions serving the $default route of a definition the template writes is expanded in full: the first translated holds the route, which alone the second would take", () => {
    const route = (name: string, properties: Record<string, string>) => eventYaml(name, 'HttpApi', { ApiId: '!Ref Api', ...properties });
    const written = (codeOfB: string) => `Transform: AWS::Serverless-2016-10-31
Resources:
  Api:
    Type: AWS::Serverless::HttpApi
    Properties:
      DefinitionBody:
        openapi: '3.0.1'
        info: {title: api, version: '1'}
        paths: {}
${functionYaml('A', { events: [route('Default', {}), route('Get', { Path: '/a', Method: 'get' })] })}${functionYaml('B', { code: codeOfB, events: [route('Default', {}), route('Get', { Path: '/b', Method: 'get' })] })}`;
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(written('s3://bucket/b.zip'), cache);
    const text = written('s3://bucket/b2.zip');
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(edited, uncached(text));
    // A's integration holds the route, so A's path needs no permission of its own; B's does.
    const permissions = Object.entries(resourcesOf(edited)).filter(([, resource]) => resource.Type === 'AWS::Lambda::Permission').map(([id]) => id).sort();
    assert.deepStrictEqual(permissions, ['ADefaultPermission', 'BDefaultPermission', 'BGetPermission']);
  });

  test("a keystroke that mistypes the API's type gives the route the $default route covered a permission of its own: no definition SAM manages routes it to the function", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(httpApiTemplate(), cache);
    const text = httpApiTemplate().replace('Type: AWS::Serverless::HttpApi\n', 'Type: AWS::Serverless::HttpAp\n');
    const edited = expand(text, cache);
    assert.ok(cache.hits > 0, "the functions' translations are taken from the cache, their events' steps done again");
    assert.deepStrictEqual(edited, uncached(text));
    const permissions = Object.entries(resourcesOf(edited)).filter(([, resource]) => resource.Type === 'AWS::Lambda::Permission').map(([id]) => id).sort();
    assert.deepStrictEqual(permissions, ['ADefaultPermission', 'AGetPermission', 'BGetPermission']);
  });
});

/** A function fed by a queue, with a connector that lets the queue invoke it, and one that lets it write to a second queue. */
function connectorTemplate({ codeOfWorker = 's3://bucket/worker.zip', runRole = false, jobsConnector = true } = {}): string {
  const jobsToWorker = `  JobsToWorker:
    Type: AWS::Serverless::Connector
    Properties:
      Source:
        Id: Jobs
      Destination:
        Id: Worker
      Permissions:
        - Read
        - Write
`;
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  Jobs:
    Type: AWS::SQS::Queue
  Results:
    Type: AWS::SQS::Queue
  WorkerRunRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {}
${functionYaml('Worker', { code: codeOfWorker, properties: runRole ? { Role: '!GetAtt WorkerRunRole.Arn' } : {}, events: [eventYaml('Work', 'SQS', { Queue: '!GetAtt Jobs.Arn' })] })}${jobsConnector ? jobsToWorker : ''}  WorkerToResults:
    Type: AWS::Serverless::Connector
    Properties:
      Source:
        Id: Worker
      Destination:
        Id: Results
      Permissions:
        - Write
`;
}

describe('SamTranslationCache: connectors, which read and edit what the resources they connect generated', () => {
  test("a keystroke in a function's code starts from the last expansion, with the connectors that name it: its event source mapping still waits for the connector's policy", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(connectorTemplate(), cache);
    expand(connectorTemplate({ codeOfWorker: 's3://bucket/worker-v.zip' }), cache);
    const text = connectorTemplate({ codeOfWorker: 's3://bucket/worker-v2.zip' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 2);
    // SAM's connector profile for a queue that invokes a function: the mapping from the queue to the function waits for the policy.
    assert.deepStrictEqual(resourcesOf(edited).WorkerWork?.DependsOn, ['JobsToWorkerPolicy']);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test("an edit to the function's role gives the connector's policy that role: the role SAM made before is gone", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(connectorTemplate(), cache);
    const text = connectorTemplate({ runRole: true });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 1);
    assert.equal(resourcesOf(edited).WorkerRole, undefined);
    assert.deepStrictEqual(resourcesOf(edited).WorkerToResultsPolicy?.Properties.Roles, [{ Ref: 'WorkerRunRole' }]);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test("the function's translation is kept as it was made, not as a connector edited it: without the connector, its mapping waits for nothing", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    const connected = expand(connectorTemplate(), cache);
    assert.deepStrictEqual(resourcesOf(connected).WorkerWork?.DependsOn, ['JobsToWorkerPolicy']);
    const text = connectorTemplate({ jobsConnector: false });
    const edited = expand(text, cache);
    assert.equal(cache.hits, 1, "the function's translation is taken from the cache");
    assert.equal(resourcesOf(edited).WorkerWork?.DependsOn, undefined);
    assert.deepStrictEqual(edited, uncached(text));
  });
});

/** Two functions, each with a connector embedded in it that lets it write to its own queue (and, with `pathOfA`, each with an `Api` event). */
function embeddedConnectorTemplate({ codeOfA = 's3://bucket/a.zip', destinationOfA = 'AJobs', connectorsOfA = ['ToJobs'], dependsOnOfA = '', pathOfA = '' } = {}): string {
  const api = (path: string) => (pathOfA ? [eventYaml('Get', 'Api', { Path: path, Method: 'get' })] : []);
  const connectors = (names: readonly string[], destination: string) =>
    `    Connectors:\n${names.map((name) => `      ${name}:\n        Properties:\n          Destination:\n            Id: ${destination}\n          Permissions:\n            - Write\n`).join('')}`;
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  AJobs:
    Type: AWS::SQS::Queue
  BJobs:
    Type: AWS::SQS::Queue
  Table:
    Type: AWS::Serverless::SimpleTable
${functionYaml('A', { code: codeOfA, events: api(pathOfA), attributes: `${dependsOnOfA ? `    DependsOn: ${dependsOnOfA}\n` : ''}${connectors(connectorsOfA, destinationOfA)}` })}${functionYaml('B', { events: api('/b'), attributes: connectors(['ToJobs'], 'BJobs') })}`;
}

describe('SamTranslationCache: connectors embedded in functions', () => {
  test("a keystroke in a function's code starts from the last expansion: the connector embedded in it is translated again with it, its policy on the function's role", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(embeddedConnectorTemplate(), cache);
    expand(embeddedConnectorTemplate({ codeOfA: 's3://bucket/a2.zip' }), cache);
    const text = embeddedConnectorTemplate({ codeOfA: 's3://bucket/a23.zip' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 2);
    assert.deepStrictEqual(resourcesOf(edited).AToJobsPolicy?.Properties.Roles, [{ Ref: 'ARole' }]);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test("a keystroke in a function whose connector names a SAM resource (a table, another function) starts from the last expansion: the connector sees what that resource generated", () => {
    for (const destination of ['Table', 'B']) {
      const cache = new SamTranslationCache({ movesInPlace: true });
      expand(embeddedConnectorTemplate({ destinationOfA: destination }), cache);
      expand(embeddedConnectorTemplate({ destinationOfA: destination, codeOfA: 's3://bucket/a2.zip' }), cache);
      const text = embeddedConnectorTemplate({ destinationOfA: destination, codeOfA: 's3://bucket/a23.zip' });
      const edited = expand(text, cache);
      assert.equal(cache.reexpansions, 2, destination);
      // SAM's resolver sees the table as the DynamoDB table it became, the function as its Lambda function.
      assert.ok(JSON.stringify(resourcesOf(edited).AToJobsPolicy?.Properties.PolicyDocument).includes(`{"Fn::GetAtt":["${destination}","Arn"]}`), destination);
      assert.deepStrictEqual(edited, uncached(text));
    }
  });

  test("a connector's destination changed to another queue starts from the last expansion: its policy is on that queue", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(embeddedConnectorTemplate(), cache);
    const text = embeddedConnectorTemplate({ destinationOfA: 'BJobs' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 1);
    const policy = JSON.stringify(resourcesOf(edited).AToJobsPolicy?.Properties.PolicyDocument);
    assert.ok(policy.includes('{"Fn::GetAtt":["BJobs","Arn"]}') && !policy.includes('AJobs'), policy);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test("a keystroke in an Api event's path of a function with a connector rebuilds the implicit API from its parts, the connector translated again with the function", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(embeddedConnectorTemplate({ pathOfA: '/a' }), cache);
    expand(embeddedConnectorTemplate({ pathOfA: '/a1' }), cache);
    const text = embeddedConnectorTemplate({ pathOfA: '/a12' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 2);
    assert.equal(cache.apiRebuilds, 2);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test('a connector added to a function is expanded in full', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(embeddedConnectorTemplate(), cache);
    const text = embeddedConnectorTemplate({ connectorsOfA: ['ToJobs', 'AlsoToJobs'] });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 0);
    assert.ok(resourcesOf(edited).AAlsoToJobsPolicy);
    assert.deepStrictEqual(edited, uncached(text));
  });

  test("a function that waits for another function's connector is expanded in full: its Lambda function waits for that connector's policy", () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(embeddedConnectorTemplate({ dependsOnOfA: 'BToJobs' }), cache);
    const text = embeddedConnectorTemplate({ dependsOnOfA: 'BToJobs', codeOfA: 's3://bucket/a2.zip' });
    const edited = expand(text, cache);
    assert.equal(cache.reexpansions, 0);
    assert.deepStrictEqual(resourcesOf(edited).A?.DependsOn, ['BToJobsPolicy']);
    assert.deepStrictEqual(edited, uncached(text));
  });
});

/**
 * Functions linked by connectors every way the cache tells apart: two embedded in one function
 * (one with two destinations), a standalone one from a queue that makes the other function's
 * event source mapping wait for its policy, and a function that may wait for that connector.
 */
const CONNECTED = `Transform: AWS::Serverless-2016-10-31
Resources:
  Q1:
    Type: AWS::SQS::Queue
  Q2:
    Type: AWS::SQS::Queue
  T1:
    Type: AWS::DynamoDB::Table
    Properties:
      KeySchema: []
  T2:
    Type: AWS::Serverless::SimpleTable
  A:
    Type: AWS::Serverless::Function
    Connectors:
      ToQ:
        Properties:
          Destination:
            Id: Q1
          Permissions:
            - Write
      ToT:
        Properties:
          Destination:
            - Id: T1
            - Id: Q2
          Permissions:
            - Write
    Properties:
      CodeUri: s3://bucket/a.zip
      Handler: a.handler
      Runtime: python3.12
      Timeout: 3
      Events:
        Work:
          Type: SQS
          Properties:
            Queue: !GetAtt Q2.Arn
        Get:
          Type: Api
          Properties:
            Path: /a
            Method: get
  B:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/b.zip
      Handler: b.handler
      Runtime: python3.12
      Events:
        Work:
          Type: SQS
          Properties:
            Queue: !GetAtt Q1.Arn
  Q1ToB:
    Type: AWS::Serverless::Connector
    Properties:
      Source:
        Id: Q1
      Destination:
        Id: B
      Permissions:
        - Read
        - Write
  C:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/c.zip
      Handler: c.handler
      Runtime: python3.12
Outputs:
  Api:
    Value: !Ref A
`;

describe('SamTranslationCache: connectors, edit after edit', () => {
  test('each of a run of seeded edits to functions and connectors is the expansion without a cache', () => {
    const random = seededRandom(2411);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const waiting = '  C:\n    Type: AWS::Serverless::Function\n    DependsOn: Q1ToB\n';
    const alone = '  C:\n    Type: AWS::Serverless::Function\n';
    const alsoQ = '      AlsoQ:\n        Properties:\n          Destination:\n            Id: Q2\n          Permissions:\n            - Write\n';
    const edits: ((text: string) => string)[] = [
      (t) => t.replace(/a\d*\.zip/, `a${Math.floor(random() * 100)}.zip`),
      (t) => t.replace(/b\d*\.zip/, `b${Math.floor(random() * 100)}.zip`),
      (t) => t.replace(/c\d*\.zip/, `c${Math.floor(random() * 100)}.zip`),
      (t) => t.replace(/Timeout: \d+/, `Timeout: ${1 + Math.floor(random() * 30)}`),
      // A destination that SAM passes through, or a SAM table or function (what the connector then sees is what SAM generated).
      (t) => t.replace(/(ToQ:\n        Properties:\n          Destination:\n            Id: )\w+/, `$1${pick(['Q1', 'Q2', 'T1', 'T2', 'B', 'C'])}`),
      (t) => t.replace(/Path: \/a\w*/, `Path: /a${pick(['', 'x', 'yy'])}`),
      (t) => t.replace(/(Q1ToB:[\s\S]*?Permissions:\n)((?:        - \w+\n)+)/, (_match, head: string) => head + pick(['        - Read\n', '        - Read\n        - Write\n'])),
      (t) => t.replace(/(Source:\n        Id: )\w+/, `$1${pick(['Q1', 'Q2'])}`),
      (t) => t.replace(/(  B:\n[\s\S]*?Queue: !GetAtt )\w+/, `$1${pick(['Q1', 'Q2'])}`),
      (t) => (t.includes(waiting) ? t.replace(waiting, alone) : t.replace(alone, waiting)),
      (t) => (t.includes(alsoQ) ? t.replace(alsoQ, '') : t.replace('      ToT:\n', `${alsoQ}      ToT:\n`)),
    ];
    let started = 0;
    for (let run = 0; run < 150; run++) {
      const cache = new SamTranslationCache({ movesInPlace: true });
      let text = CONNECTED;
      expand(text, cache);
      for (let step = 0; step < 10; step++) {
        text = pick(edits)(text);
        const before = cache.reexpansions;
        const expansion = expand(text, cache);
        started += cache.reexpansions - before;
        const expected = uncached(text);
        assert.deepStrictEqual(expansion.parsed, expected.parsed, `run ${run}, edit ${step}: the processed template`);
        assert.deepStrictEqual(expansion.sourceMap, expected.sourceMap, `run ${run}, edit ${step}: the source map`);
        assert.deepStrictEqual(expansion.notes, expected.notes, `run ${run}, edit ${step}: the notes`);
      }
    }
    assert.ok(started > 300, `${started} of 1,500 edits started from the last expansion`);
  });
});

describe('SamTranslationCache that moves in place (the language server reads each expansion only until the next)', () => {
  const keystrokes = [
    template({ timeoutOfB: 1 }),
    template({ timeoutOfB: 12 }),
    template({ timeoutOfB: 123 }),
    // A comment above every function moves them all, then another below the first.
    template({ timeoutOfB: 123 }).replace('  AQueue:', '  # the queues\n  AQueue:'),
    template({ timeoutOfB: 123 }).replace('  AQueue:', '  # the queues\n  AQueue:').replace('  B:\n', '  # B\n  B:\n'),
    template({ timeoutOfB: 12 }).replace('  AQueue:', '  # the queues\n  AQueue:').replace('  B:\n', '  # B\n  B:\n'),
  ];

  test('keystroke after keystroke, each is the expansion in full when it is made', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(template(), cache);
    const roleOfC: unknown[] = [];
    for (const text of keystrokes) {
      const expansion = expand(text, cache);
      assert.deepStrictEqual(expansion, uncached(text));
      const root = expansion.parsed.root;
      const resources = root?.kind === 'map' ? root.entries.find((e) => e.key === 'Resources')?.value : undefined;
      roleOfC.push(resources?.kind === 'map' ? resources.entries.find((e) => e.key === 'CRole') : undefined);
    }
    assert.equal(cache.reexpansions, keystrokes.length);
    assert.ok(cache.recordsMovedInPlace > 0, 'what moved the second time was moved in place');
    // C's role moved with the comment above every resource (copied), then with the one above B: the same entry, moved in place.
    assert.ok(roleOfC[4] !== undefined && roleOfC[4] === roleOfC[3]);
  });

  test('a document as it opens, its baseline kept: the first keystroke moves every generated resource in place, and the baseline stays as it was', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    const options = { parameters: new Map(), region: 'us-east-1', partition: 'aws', cache };
    const text = template();
    const baselineModel = readTemplateModel(parseTemplate(text));
    const baselineRoot = structuredClone(baselineModel.root);
    const baseline = expandServerless(baselineModel, { ...options, kept: true });
    // The document's first analysis: the baseline's text again, through the same cache.
    assert.deepStrictEqual(expand(text, cache), uncached(text));
    const movedBefore = cache.recordsMovedInPlace;
    // A comment above every resource moves all of them.
    const keystroke = text.replace('  AQueue:', '  #\n  AQueue:');
    assert.deepStrictEqual(expand(keystroke, cache), uncached(keystroke));
    // Each of the three functions generates its Lambda function, its role and its queue's event source mapping.
    assert.equal(cache.recordsMovedInPlace - movedBefore, 9);
    assert.deepStrictEqual(baseline, uncached(text));
    assert.deepStrictEqual(baselineModel.root, baselineRoot);
  });

  test('a document that differs from its baseline as it opens: the first keystroke above everything moves in place what the edit left as it was', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    const options = { parameters: new Map(), region: 'us-east-1', partition: 'aws', cache };
    const baseline = template();
    expandServerless(readTemplateModel(parseTemplate(baseline)), { ...options, kept: true });
    // The document as it opens: C's timeout edited at the bottom, then a comment typed above every resource.
    const opened = template().replace(/(  C:[\s\S]*?Timeout: )3/, '$17');
    assert.notEqual(opened, baseline);
    assert.deepStrictEqual(expand(opened, cache), uncached(opened));
    const movedBefore = cache.recordsMovedInPlace;
    const keystroke = opened.replace('  AQueue:', '  #\n  AQueue:');
    assert.deepStrictEqual(expand(keystroke, cache), uncached(keystroke));
    // A's and B's Lambda functions, roles and event source mappings; C's, made anew when the document opened, are copied the first time they move.
    assert.equal(cache.recordsMovedInPlace - movedBefore, 6);
  });

  test('an expansion its caller keeps is left as it is by the ones after it, and so is the template it was made from', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    const options = { parameters: new Map(), region: 'us-east-1', partition: 'aws', cache };
    expand(keystrokes[0]!, cache);
    expand(keystrokes[3]!, cache);
    const keptModel = readTemplateModel(parseTemplate(keystrokes[4]!));
    const keptModelBefore = structuredClone(keptModel.root);
    const kept = expandServerless(keptModel, { ...options, kept: true });
    const movedBefore = cache.recordsMovedInPlace;
    for (const text of [keystrokes[5]!, keystrokes[2]!, keystrokes[1]!]) expand(text, cache);
    assert.ok(cache.recordsMovedInPlace > movedBefore, 'the expansions after the kept one moved in place');
    assert.deepStrictEqual(kept, uncached(keystrokes[4]!));
    assert.deepStrictEqual(keptModel.root, keptModelBefore);
  });
});

describe('SamTranslationCache: parameter values', () => {
  // SAM resolves a parameter in an alias name (and a few other properties); a Ref elsewhere stays as written.
  const withDefaults = (alias: string, stage: string, region = 'eu-west-1') => `Transform: AWS::Serverless-2016-10-31
Mappings:
  Regions:
    Primary:
      Name: ${region}
Parameters:
  AliasName:
    Type: String
    Default: ${alias}
  Stage:
    Type: String
    Default: ${stage}
Resources:
  Published:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/published.zip
      Handler: app.handler
      Runtime: python3.12
      AutoPublishAlias: !Ref AliasName
  Plain:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/plain.zip
      Handler: app.handler
      Runtime: python3.12
      Environment:
        Variables:
          STAGE: !Ref Stage
      Events:
        Read:
          Type: Api
          Properties:
            Path: /items
            Method: get
`;

  test("a parameter's default typed, which nothing looked up, starts from the last expansion", () => {
    const cache = new SamTranslationCache();
    expand(withDefaults('live', 'prod'), cache);
    const translated = cache.hits + cache.misses;
    const typed = withDefaults('live', 'production');
    const expansion = expand(typed, cache);
    assert.equal(cache.reexpansions, 1);
    assert.equal(cache.hits + cache.misses, translated, 'no function is translated again');
    assert.deepStrictEqual(expansion.parsed, uncached(typed).parsed);
    assert.deepStrictEqual(expansion.sourceMap, uncached(typed).sourceMap);
    // A value typed over one of the same length moves nothing after it.
    const sameLength = withDefaults('live', 'productive');
    const again = expand(sameLength, cache);
    assert.equal(cache.reexpansions, 2);
    assert.deepStrictEqual(again.parsed, uncached(sameLength).parsed);
    assert.deepStrictEqual(again.sourceMap, uncached(sameLength).sourceMap);
  });

  test("expanded in full, a parameter's new value translates again only the functions that looked it up, and keeps the implicit API when it looked none up", () => {
    const cache = new SamTranslationCache();
    expand(withDefaults('live', 'prod'), cache);
    // Mappings edited too, which the expansion does not start from the last one for.
    const stageTyped = withDefaults('live', 'production', 'eu-central-1');
    const afterStage = expand(stageTyped, cache);
    assert.equal(cache.reexpansions, 0);
    assert.equal(cache.hits, 2, 'neither function looked the stage up');
    assert.equal(cache.implicitApiHits, 1, 'nor did the implicit API');
    assert.deepStrictEqual(afterStage.parsed, uncached(stageTyped).parsed);
    const hits = cache.hits;
    const aliasTyped = withDefaults('current', 'production', 'eu-central-1');
    const afterAlias = expand(aliasTyped, cache);
    assert.equal(cache.reexpansions, 0, 'the alias name was looked up');
    assert.equal(cache.hits - hits, 1, 'the function whose alias the parameter names is translated again, the other is kept');
    const processed = toPlain(afterAlias.parsed.root!) as Processed;
    assert.equal(processed.Resources.PublishedAliascurrent?.Type, 'AWS::Lambda::Alias', 'the alias takes its new name');
    assert.equal(processed.Resources.PublishedAliaslive, undefined);
    assert.deepStrictEqual(afterAlias.parsed, uncached(aliasTyped).parsed);
  });
});
