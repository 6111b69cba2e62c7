/**
 * What the cache keeps must change nothing (kept translations, the implicit API taken as it was,
 * an expansion started from the last one): over every valid input of SAM's translator suite, the
 * expansion with a cache warmed by the same template, or by a copy with one edit (a function's
 * property, code (also in a function whose event names an API), environment, tags or alias, an
 * event added, removed or moved to another path (an Api or an HttpApi event), a FunctionName or
 * tags given to a function with such an event, an explicit API's CORS, the Description, Metadata,
 * an output, Globals, a parameter's value), or by a run of random edits to one value or key each,
 * or of random keystrokes in the YAML as written, or of keystrokes typed into an Api or HttpApi
 * event's path or method (renamed in the definition without SAM's fold), or of such events pasted
 * after another and taken out (their paths put in the definition or taken out without it), is the
 * expansion without a cache, node for node and range for range, with the same source map, notes
 * and errors. Skipped, with the reason printed, when the folder is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { expandServerless, SamTranslationCache, type SamExpansion } from '../../../server/src/sam';
import { COPIED_ONLY } from '../../../server/src/sam/function/function';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';
import type { MapEntry } from '../../../server/src/template/ast';
import { nodeAtPath } from '../../../server/src/template/tree';
import { seededRandom } from './seededRandom';

const SUITE = join(__dirname, '..', '..', '..', '..', 'shared', 'sam-translator-tests');
const REGION = 'ap-southeast-1';
const PARAMETERS = new Map([
  ['param1', 'value1'],
  ['param2', 'value2'],
]);
const OTHER_PARAMETERS = new Map([
  ['param1', 'other1'],
  ['param2', 'value2'],
]);

type Plain = { [key: string]: unknown };

function expand(text: string, parameters: ReadonlyMap<string, unknown>, cache?: SamTranslationCache): SamExpansion {
  const model = readTemplateModel(parseTemplate(text));
  return expandServerless(model, { parameters, region: REGION, partition: 'aws', ...(cache ? { cache } : {}) });
}

function isMap(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first function of a template, with its properties (made a map when absent). */
function firstFunction(template: Plain): Plain | undefined {
  const resources = isMap(template.Resources) ? template.Resources : {};
  const found = Object.values(resources).find((r) => isMap(r) && r.Type === 'AWS::Serverless::Function' && (r.Properties === undefined || isMap(r.Properties)));
  if (!isMap(found)) return undefined;
  if (found.Properties === undefined) found.Properties = {};
  return found.Properties as Plain;
}

/** The properties of the first event of `type` in a function that `matches` them, with its function's properties. */
function findEvent(template: Plain, type: string, matches: (event: Plain) => boolean): { function: Plain; event: Plain } | undefined {
  for (const resource of isMap(template.Resources) ? Object.values(template.Resources) : []) {
    if (!isMap(resource) || resource.Type !== 'AWS::Serverless::Function' || !isMap(resource.Properties) || !isMap(resource.Properties.Events)) continue;
    for (const event of Object.values(resource.Properties.Events)) {
      if (isMap(event) && event.Type === type && isMap(event.Properties) && matches(event.Properties)) return { function: resource.Properties, event: event.Properties };
    }
  }
  return undefined;
}

/** The properties of the first SAM function a connector connects (a standalone one names it by Id, or it embeds one). */
function connectedFunction(template: Plain): Plain | undefined {
  const resources = isMap(template.Resources) ? template.Resources : {};
  const named = new Set<unknown>();
  for (const resource of Object.values(resources)) {
    if (!isMap(resource) || resource.Type !== 'AWS::Serverless::Connector' || !isMap(resource.Properties)) continue;
    const { Source: source, Destination: destination } = resource.Properties;
    for (const side of [source, ...(Array.isArray(destination) ? destination : [destination])]) if (isMap(side)) named.add(side.Id);
  }
  for (const [id, resource] of Object.entries(resources)) {
    if (!isMap(resource) || resource.Type !== 'AWS::Serverless::Function' || !isMap(resource.Properties)) continue;
    if (named.has(id) || isMap(resource.Connectors)) return resource.Properties;
  }
  return undefined;
}

/** A function's code moved to another S3 object. */
function newCode(properties: Plain): true {
  properties.CodeUri = 's3://cache-probe/edited.zip';
  delete properties.InlineCode;
  delete properties.ImageUri;
  return true;
}

/** An event's path one segment longer. */
function longerPath(event: Plain): true {
  event.Path = `${String(event.Path).replace(/\/$/, '')}/probe`;
  return true;
}

/** The edits a cache is warmed with, each a function from a copy of the template to its edited text (or none when it does not apply). */
const EDITS: Record<string, (template: Plain) => boolean> = {
  'a function property changed': (t) => {
    const properties = firstFunction(t);
    if (!properties) return false;
    properties.Timeout = typeof properties.Timeout === 'number' ? properties.Timeout + 1 : 77;
    return true;
  },
  'an event added': (t) => {
    const properties = firstFunction(t);
    if (!properties || (properties.Events !== undefined && !isMap(properties.Events))) return false;
    properties.Events = { ...((properties.Events as Plain | undefined) ?? {}), CacheProbe: { Type: 'Schedule', Properties: { Schedule: 'rate(1 day)' } } };
    return true;
  },
  'an event removed': (t) => {
    const properties = firstFunction(t);
    if (!properties || !isMap(properties.Events) || Object.keys(properties.Events).length === 0) return false;
    delete properties.Events[Object.keys(properties.Events)[0]!];
    return true;
  },
  // What only the function's own translation reads: an implicit API kept from before is taken again.
  "a function's code changed": (t) => {
    const properties = firstFunction(t);
    return properties !== undefined && newCode(properties);
  },
  // A function whose Api event names an API of the template: its translation reads that API's
  // stage, and the API's definition is the API's own translation, which the edit leaves alone.
  "code changed in a function whose Api event names an API": (t) => {
    const found = findEvent(t, 'Api', (event) => event.RestApiId !== undefined);
    return found !== undefined && newCode(found.function);
  },
  "code changed in a function whose HttpApi event names an API": (t) => {
    const found = findEvent(t, 'HttpApi', (event) => event.ApiId !== undefined);
    return found !== undefined && newCode(found.function);
  },
  // A connector reads what the functions it connects generated, and makes some of it wait for its
  // policy: the connectors linked to the edited function are translated again with it, or the
  // template is expanded in full, its translations kept as they were made.
  "code changed in a function a connector connects": (t) => {
    const properties = connectedFunction(t);
    return properties !== undefined && newCode(properties);
  },
  "the role changed of a function a connector connects": (t) => {
    const properties = connectedFunction(t);
    if (!properties) return false;
    properties.Role = { 'Fn::GetAtt': ['CacheProbeRole', 'Arn'] };
    return true;
  },
  'a connector removed': (t) => {
    const resources = isMap(t.Resources) ? t.Resources : {};
    const standalone = Object.keys(resources).find((id) => isMap(resources[id]) && resources[id].Type === 'AWS::Serverless::Connector');
    if (standalone !== undefined) {
      delete resources[standalone];
      return true;
    }
    const embedding = Object.values(resources).find((r) => isMap(r) && isMap(r.Connectors) && Object.keys(r.Connectors).length > 1) as Plain | undefined;
    if (!embedding) return false;
    const connectors = embedding.Connectors as Plain;
    delete connectors[Object.keys(connectors)[0]!];
    return true;
  },
  // Of an event that is not an Api or HttpApi event, the APIs read only its id and type.
  "an event the APIs do not read changed": (t) => {
    const batched = new Set(['SQS', 'Kinesis', 'DynamoDB', 'MSK', 'MQ', 'SelfManagedKafka', 'DocumentDB']);
    for (const resource of isMap(t.Resources) ? Object.values(t.Resources) : []) {
      if (!isMap(resource) || resource.Type !== 'AWS::Serverless::Function' || !isMap(resource.Properties) || !isMap(resource.Properties.Events)) continue;
      for (const event of Object.values(resource.Properties.Events)) {
        if (!isMap(event) || typeof event.Type !== 'string' || !isMap(event.Properties)) continue;
        if (batched.has(event.Type)) event.Properties.BatchSize = typeof event.Properties.BatchSize === 'number' ? event.Properties.BatchSize + 1 : 7;
        else if (event.Type === 'Schedule') event.Properties.Description = 'cache probe';
        else continue;
        return true;
      }
    }
    return false;
  },
  "a function's environment and policies changed": (t) => {
    const properties = firstFunction(t);
    if (!properties) return false;
    properties.Environment = { Variables: { CACHE_PROBE: 'yes' } };
    properties.Policies = ['AWSLambdaBasicExecutionRole'];
    properties.MemorySize = 1024;
    return true;
  },
  // What the implicit API is made from: it is built again.
  "an Api event's path changed": (t) => {
    const properties = firstFunction(t);
    const events = properties && isMap(properties.Events) ? Object.values(properties.Events) : [];
    const api = events.find((e) => isMap(e) && e.Type === 'Api' && isMap(e.Properties) && typeof e.Properties.Path === 'string') as Plain | undefined;
    return api !== undefined && longerPath(api.Properties as Plain);
  },
  // The API such an event names is rebuilt from its parts.
  "an Api event's path changed in a function whose event names an API": (t) => {
    const found = findEvent(t, 'Api', (event) => event.RestApiId !== undefined && typeof event.Path === 'string');
    return found !== undefined && longerPath(found.event);
  },
  "an HttpApi event's path changed": (t) => {
    const found = findEvent(t, 'HttpApi', (event) => typeof event.Path === 'string');
    return found !== undefined && longerPath(found.event);
  },
  // An explicit REST API's own entry: rebuilt from it as written now, when its stage is the same.
  "an explicit API's CORS changed": (t) => {
    const resources = isMap(t.Resources) ? Object.values(t.Resources) : [];
    const api = resources.find((r) => isMap(r) && r.Type === 'AWS::Serverless::Api' && isMap(r.Properties)) as Plain | undefined;
    if (!api) return false;
    (api.Properties as Plain).Cors = "'https://probe.example'";
    return true;
  },
  "a function's tags changed": (t) => {
    const properties = firstFunction(t);
    if (!properties) return false;
    properties.Tags = { ...(isMap(properties.Tags) ? properties.Tags : {}), CacheProbe: 'edited' };
    properties.PropagateTags = true;
    return true;
  },
  // What leaves a function's routes as they were: its APIs stay, but for a REST API's deployment, which hashes its name.
  "a FunctionName given to a function with an Api event": (t) => {
    const found = findEvent(t, 'Api', () => true);
    if (!found) return false;
    found.function.FunctionName = typeof found.function.FunctionName === 'string' ? `${found.function.FunctionName}-probe` : 'probe-name';
    return true;
  },
  "a FunctionName given to a function with an HttpApi event": (t) => {
    const found = findEvent(t, 'HttpApi', () => true);
    if (!found) return false;
    found.function.FunctionName = typeof found.function.FunctionName === 'string' ? `${found.function.FunctionName}-probe` : 'probe-name';
    return true;
  },
  "tags that no event propagates, on a function with an Api event": (t) => {
    const found = findEvent(t, 'Api', () => true);
    if (!found || found.function.PropagateTags !== undefined) return false;
    found.function.Tags = { ...(isMap(found.function.Tags) ? found.function.Tags : {}), CacheProbe: 'edited' };
    return true;
  },
  "a function's alias changed": (t) => {
    const properties = firstFunction(t);
    if (!properties) return false;
    properties.AutoPublishAlias = typeof properties.AutoPublishAlias === 'string' ? `${properties.AutoPublishAlias}probe` : 'probe';
    return true;
  },
  // Resources the transform passes through as written: when no translation read them, the rest
  // starts from the last expansion.
  'a resource SAM passes through changed': (t) => {
    const resources = isMap(t.Resources) ? Object.values(t.Resources) : [];
    const passed = resources.find((r) => isMap(r) && typeof r.Type === 'string' && !r.Type.startsWith('AWS::Serverless::') && (r.Properties === undefined || isMap(r.Properties))) as Plain | undefined;
    if (!passed) return false;
    passed.Properties = { ...((passed.Properties as Plain | undefined) ?? {}), CacheProbe: 'edited' };
    return true;
  },
  'every resource SAM passes through changed': (t) => {
    let changed = false;
    for (const resource of isMap(t.Resources) ? Object.values(t.Resources) : []) {
      if (!isMap(resource) || typeof resource.Type !== 'string' || resource.Type.startsWith('AWS::Serverless::') || !isMap(resource.Properties)) continue;
      const properties = resource.Properties;
      for (const [name, value] of Object.entries(properties)) {
        if (typeof value !== 'string') continue;
        properties[name] = `${value}-probe`;
        changed = true;
      }
    }
    return changed;
  },
  // Sections the transform passes through: the rest starts from the last expansion.
  'the Description changed': (t) => {
    t.Description = `${typeof t.Description === 'string' ? t.Description : ''} (edited)`;
    return true;
  },
  'Metadata changed': (t) => {
    t.Metadata = { ...(isMap(t.Metadata) ? t.Metadata : {}), CacheProbe: 'edited' };
    return true;
  },
  'an output added': (t) => {
    t.Outputs = { ...(isMap(t.Outputs) ? t.Outputs : {}), CacheProbe: { Value: { 'Fn::Sub': '${AWS::StackName}-probe' } } };
    return true;
  },
  'Globals changed': (t) => {
    const globals = isMap(t.Globals) ? t.Globals : (t.Globals = {});
    const fn = isMap(globals.Function) ? globals.Function : (globals.Function = {});
    fn.MemorySize = typeof fn.MemorySize === 'number' ? fn.MemorySize + 64 : 1536;
    return true;
  },
  // What a function's translation does not read: functions are taken as kept (their section of Globals is the same).
  "Globals' Api changed": (t) => {
    const resources = isMap(t.Resources) ? Object.values(t.Resources) : [];
    if (!resources.some((r) => isMap(r) && r.Type === 'AWS::Serverless::Function')) return false;
    const globals = isMap(t.Globals) ? t.Globals : (t.Globals = {});
    const api = isMap(globals.Api) ? globals.Api : (globals.Api = {});
    api.MinimumCompressionSize = typeof api.MinimumCompressionSize === 'number' ? api.MinimumCompressionSize + 1 : 1024;
    return true;
  },
  'a parameter default changed': (t) => {
    if (!isMap(t.Parameters)) return false;
    const withDefault = Object.values(t.Parameters).find((p) => isMap(p) && typeof p.Default === 'string');
    if (!isMap(withDefault)) return false;
    withDefault.Default = `${String(withDefault.Default)}-edited`;
    return true;
  },
  // Translations that looked none of them up are kept: each that did must be translated again.
  'every parameter default changed': (t) => {
    let changed = false;
    for (const parameter of isMap(t.Parameters) ? Object.values(t.Parameters) : []) {
      if (!isMap(parameter) || !('Default' in parameter)) continue;
      const value = parameter.Default;
      parameter.Default = typeof value === 'number' ? value + 1 : typeof value === 'string' ? `${value}-edited` : 'edited';
      changed = true;
    }
    return changed;
  },
};

function assertSame(actual: SamExpansion, expected: SamExpansion, what: string): void {
  assert.deepStrictEqual(actual.parsed, expected.parsed, `${what}: the processed template`);
  assert.deepStrictEqual(actual.sourceMap, expected.sourceMap, `${what}: the source map`);
  assert.deepStrictEqual(actual.notes, expected.notes, `${what}: the notes`);
}

describe('expansion with kept translations', { skip: existsSync(SUITE) ? false : `${SUITE} is absent` }, () => {
  const names = existsSync(SUITE)
    ? readdirSync(join(SUITE, 'input'))
        .filter((f) => f.endsWith('.yaml') && !f.startsWith('error_'))
        .map((f) => f.slice(0, -'.yaml'.length))
    : [];

  test('is the expansion without a cache, warmed by the same template', () => {
    let again = 0;
    for (const name of names) {
      const text = readFileSync(join(SUITE, 'input', `${name}.yaml`), 'utf8');
      const cache = new SamTranslationCache();
      expand(text, PARAMETERS, cache);
      assertSame(expand(text, PARAMETERS, cache), expand(text, PARAMETERS), name);
      again += cache.reexpansions;
    }
    console.log(`${names.length} valid inputs; expanded again from the last expansion ${again} times`);
    assert.ok(again > 0, 'the same template again starts from the last expansion');
  });

  test('is the expansion without a cache, warmed by an edited copy, either way, and edit after edit in a cache that moves in place', () => {
    const applied = new Map<string, number>();
    const carried = new Map<string, number>();
    let moved = 0;
    const apiHits = new Map<string, number>();
    const again = new Map<string, number>();
    const rebuilt = new Map<string, number>();
    const hits = new Map<string, number>();
    // Expansions that kept the APIs or named a deployment anew, the function's routes as they were (sam/api/sameRoutes.ts).
    const routesKept = new Map<string, number>();
    for (const name of names) {
      const parsed = parseTemplate(readFileSync(join(SUITE, 'input', `${name}.yaml`), 'utf8'));
      if (!isMap(parsed.root ? toPlain(parsed.root) : undefined)) continue;
      // Both sides are written as JSON, so that what the edit leaves alone is the same text on both.
      const original = JSON.stringify(toPlain(parsed.root!), null, 1);
      const uncachedOriginal = expand(original, PARAMETERS);
      for (const [edit, apply] of Object.entries(EDITS)) {
        const copy = JSON.parse(original) as Plain;
        if (!apply(copy)) continue;
        applied.set(edit, (applied.get(edit) ?? 0) + 1);
        const edited = JSON.stringify(copy, null, 1);
        const uncached = new Map([
          [original, uncachedOriginal],
          [edited, expand(edited, PARAMETERS)],
        ]);
        for (const [warm, target] of [
          [edited, original],
          [original, edited],
        ] as const) {
          const cache = new SamTranslationCache();
          expand(warm, PARAMETERS, cache);
          assertSame(expand(target, PARAMETERS, cache), uncached.get(target)!, `${name}, ${edit}`);
          apiHits.set(edit, (apiHits.get(edit) ?? 0) + cache.implicitApiHits);
          again.set(edit, (again.get(edit) ?? 0) + cache.reexpansions);
          rebuilt.set(edit, (rebuilt.get(edit) ?? 0) + cache.apiRebuilds);
          hits.set(edit, (hits.get(edit) ?? 0) + cache.hits);
          carried.set(edit, (carried.get(edit) ?? 0) + cache.recordsCarried);
        }
        // The language server's use: each expansion is read before the next is made, which may move it.
        const cache = new SamTranslationCache({ movesInPlace: true });
        expand(original, PARAMETERS, cache);
        for (const [step, text] of [edited, original, edited].entries()) assertSame(expand(text, PARAMETERS, cache), uncached.get(text)!, `${name}, ${edit}, moved in place, step ${step + 1}`);
        moved += cache.recordsMovedInPlace;
        routesKept.set(edit, (routesKept.get(edit) ?? 0) + cache.apisUnchanged + cache.deploymentsRenamed);
      }
      const cache = new SamTranslationCache();
      expand(original, PARAMETERS, cache);
      assertSame(expand(original, OTHER_PARAMETERS, cache), expand(original, OTHER_PARAMETERS), `${name}, another parameter value`);
    }
    console.log(
      `edits applied (implicit APIs taken from the cache, expansions started from the last, of those the APIs rebuilt from their parts, processed resources an expansion in full took from the last): ${[...applied].map(([edit, count]) => `${edit} ${count} (${apiHits.get(edit) ?? 0}, ${again.get(edit) ?? 0}, ${rebuilt.get(edit) ?? 0}, ${carried.get(edit) ?? 0})`).join(', ')}; processed resources moved in place: ${moved}`,
    );
    // Edits to a function where no API reads start from the last expansion; edits to what the
    // implicit REST API reads do too where it can be rebuilt from its parts.
    assert.ok((again.get('a function property changed') ?? 0) > 0, 'a timeout edit starts from the last expansion');
    for (const edit of ['code changed in a function whose Api event names an API', 'code changed in a function whose HttpApi event names an API']) assert.ok((again.get(edit) ?? 0) > 0, `${edit}: starts from the last expansion`);
    for (const edit of ['an event added', 'an event removed', "an Api event's path changed", "an Api event's path changed in a function whose event names an API", "an HttpApi event's path changed", "an explicit API's CORS changed"]) assert.ok((rebuilt.get(edit) ?? 0) > 0, `${edit}: the APIs rebuilt from their parts`);
    assert.equal(rebuilt.get('a function property changed') ?? 0, 0, 'a timeout edit leaves the implicit API as it was');
    assert.ok((apiHits.get('Globals changed') ?? 0) > 0, 'a memory size in Globals leaves the implicit API as it was');
    // A connected function's edit starts from the last expansion where its connectors can be translated with it alone.
    for (const edit of ['code changed in a function a connector connects', 'the role changed of a function a connector connects']) assert.ok((again.get(edit) ?? 0) > 0, `${edit}: starts from the last expansion`);
    for (const edit of ['the Description changed', 'Metadata changed', 'an output added', 'a resource SAM passes through changed', 'every resource SAM passes through changed']) assert.ok((again.get(edit) ?? 0) > 0, `${edit}: starts from the last expansion`);
    for (const edit of Object.keys(EDITS)) assert.ok((applied.get(edit) ?? 0) > 0, `${edit} applies to some input`);
    // A translation that looked up no parameter is kept across a parameter's new value, and so is an implicit API.
    assert.ok((hits.get("Globals' Api changed") ?? 0) > 0, "Globals' Api changed: functions' translations kept");
    // When none of the values it looked up changed, the expansion starts from the last one.
    for (const edit of ['a parameter default changed', 'every parameter default changed']) {
      assert.ok((hits.get(edit) ?? 0) > 0, `${edit}: translations kept`);
      assert.ok((apiHits.get(edit) ?? 0) > 0, `${edit}: implicit APIs kept`);
      assert.ok((again.get(edit) ?? 0) > 0, `${edit}: starts from the last expansion`);
    }
    assert.ok(moved > 0, 'edits that move what follows them move it in place the second time');
    console.log(`expansions that kept the APIs or named a deployment anew, the function's routes as they were: ${[...routesKept].map(([edit, count]) => `${edit} ${count}`).join(', ')}`);
    for (const edit of ['a FunctionName given to a function with an Api event', 'a FunctionName given to a function with an HttpApi event', 'tags that no event propagates, on a function with an Api event']) assert.ok((routesKept.get(edit) ?? 0) > 0, `${edit}: the APIs kept or their deployment named anew`);
    for (const edit of ['an event added', 'an Api event\'s path changed']) assert.ok((carried.get(edit) ?? 0) > 0, `${edit}: expanded in full, taking what did not change from the last expansion`);
  });

  // A value in Globals that SAM copies to each Lambda function, typed over another: the functions
  // that take it have their Lambda function made again with it, the rest moves (globalsEdit.ts).
  const COPIED: [string, unknown, unknown][] = [
    ['Timeout', 7, 9],
    ['MemorySize', 256, 320],
    ['Runtime', 'python3.11', 'python3.12'],
    ['Architectures', ['x86_64'], ['arm64']],
    ['LoggingConfig', { LogFormat: 'JSON' }, { LogFormat: 'Text' }],
    ['Handler', 'index.first', 'index.second'],
    ['ReservedConcurrentExecutions', 5, 6],
    ['EphemeralStorage', { Size: 1024 }, { Size: 2048 }],
    ['KmsKeyArn', 'arn:aws:kms:us-east-1:123456789012:key/first', 'arn:aws:kms:us-east-1:123456789012:key/second'],
    ['RuntimeManagementConfig', { UpdateRuntimeOn: 'Auto' }, { UpdateRuntimeOn: 'FunctionUpdate' }],
    ['RecursiveLoop', 'Terminate', 'Allow'],
    ['CodeSigningConfigArn', 'arn:aws:lambda:us-east-1:123456789012:code-signing-config:csc-first', 'arn:aws:lambda:us-east-1:123456789012:code-signing-config:csc-second'],
    ['Environment', { Variables: { MODE: 'first' } }, { Variables: { MODE: 'second' } }],
    ['Description', 'first', 'second'],
    ['Layers', ['arn:aws:lambda:us-east-1:123456789012:layer:first:1'], ['arn:aws:lambda:us-east-1:123456789012:layer:second:1']],
    ['VpcConfig', { SecurityGroupIds: ['sg-first'], SubnetIds: ['subnet-first'] }, { SecurityGroupIds: ['sg-second'], SubnetIds: ['subnet-second'] }],
    ['Tracing', 'Active', 'PassThrough'],
    ['Tags', { team: 'first' }, { team: 'second' }],
    ['FileSystemConfigs', [{ Arn: 'arn:aws:elasticfilesystem:us-east-1:123456789012:access-point/fsap-first', LocalMountPath: '/mnt/first' }], [{ Arn: 'arn:aws:elasticfilesystem:us-east-1:123456789012:access-point/fsap-second', LocalMountPath: '/mnt/second' }]],
  ];

  test('is the expansion without a cache after a Globals edit to what SAM copies to each Lambda function, there and back, copied and in place', () => {
    const patched = new Map<string, number>();
    for (const name of names) {
      const parsed = parseTemplate(readFileSync(join(SUITE, 'input', `${name}.yaml`), 'utf8'));
      const template = parsed.root ? toPlain(parsed.root) : undefined;
      if (!isMap(template) || !firstFunction(JSON.parse(JSON.stringify(template)) as Plain)) continue;
      if (template.Globals !== undefined && (!isMap(template.Globals) || (template.Globals.Function !== undefined && !isMap(template.Globals.Function)))) continue;
      for (const [property, first, second] of COPIED) {
        const withValue = (value: unknown) => {
          const copy = JSON.parse(JSON.stringify(template)) as Plain;
          const globals = isMap(copy.Globals) ? copy.Globals : (copy.Globals = {});
          const fn = isMap(globals.Function) ? globals.Function : (globals.Function = {});
          fn[property] = value;
          return JSON.stringify(copy, null, 1);
        };
        const texts = [withValue(first), withValue(second)];
        const uncached = new Map(texts.map((text) => [text, expand(text, PARAMETERS)]));
        // One way and back, through a cache that copies what moves the first time and moves it in place after.
        const cache = new SamTranslationCache({ movesInPlace: true });
        for (const [step, text] of [texts[0]!, texts[1]!, texts[0]!, texts[1]!].entries()) {
          assertSame(expand(text, PARAMETERS, cache), uncached.get(text)!, `${name}, Globals ${property}, step ${step + 1}`);
        }
        patched.set(property, (patched.get(property) ?? 0) + cache.functionsPatched);
      }
    }
    console.log(`Lambda functions made again after a Globals edit instead of translated again: ${[...patched].map(([property, count]) => `${property} ${count}`).join(', ')}`);
    // Every property the transform may make Lambda functions again for is typed over here.
    assert.deepEqual(COPIED.map(([property]) => property).sort(), [...COPIED_ONLY.keys()].sort());
    for (const [property] of COPIED) assert.ok((patched.get(property) ?? 0) > 0, `a Globals ${property} edit makes Lambda functions again`);
  });

  test('is the expansion without a cache after each of a run of random edits to one value or key, in a cache that moves in place', () => {
    // The edits above are the ones thought of; these are not. Each changes one value of Resources,
    // Globals or Parameters (a string gets a letter, a number one more, a boolean flips, a null
    // becomes a string, or it becomes a list of itself or a `Ref`), or renames, removes, copies
    // (a resource, an event, a property) or moves to the front one key of a map there, each edit
    // on top of the one before, from a seed, so a failure replays.
    const random = seededRandom(20261124);
    let edits = 0;
    let again = 0;
    for (const name of names) {
      const parsed = parseTemplate(readFileSync(join(SUITE, 'input', `${name}.yaml`), 'utf8'));
      const template = parsed.root ? toPlain(parsed.root) : undefined;
      if (!isMap(template) || !isMap(template.Resources)) continue;
      const cache = new SamTranslationCache({ movesInPlace: true });
      expand(JSON.stringify(template, null, 1), PARAMETERS, cache);
      for (let i = 0; i < 6; i++) {
        const leaves = ['Resources', 'Globals', 'Parameters'].flatMap((section) => scalarPaths(template[section], [section]));
        if (leaves.length === 0) break;
        const path = leaves[Math.floor(random() * leaves.length)]!;
        // Of the path to a value, one key: renamed or removed (a property, an event, a resource...).
        const keys = path.flatMap((key, at) => (at > 0 && typeof key === 'string' ? [at] : []));
        const roll = random();
        if (keys.length > 0 && roll < 0.3) editKey(template, path.slice(0, keys[Math.floor(random() * keys.length)]! + 1), random() < 0.5);
        else if (keys.length > 0 && roll < 0.45) copyOrMoveKey(template, path.slice(0, keys[Math.floor(random() * keys.length)]! + 1), random() < 0.5);
        else if (roll < 0.55) reshapeValue(template, path, random() < 0.5);
        else editValue(template, path);
        const text = JSON.stringify(template, null, 1);
        assertSame(expand(text, PARAMETERS, cache), expand(text, PARAMETERS), `${name}, ${path.join('.')} edited (edit ${i + 1})`);
        edits++;
      }
      again += cache.reexpansions;
    }
    console.log(`random edits: ${edits}, of which the expansion started from the last ${again}`);
    assert.ok(again > 0);
  });
});

/** The same, for keystrokes typed into the YAML as written: a letter inserted or a character deleted anywhere, comments, anchors and all. */
describe('expansion with kept translations, keystroke after keystroke in the YAML as written', { skip: existsSync(SUITE) ? false : `${SUITE} is absent` }, () => {
  test('is the expansion without a cache after each keystroke', () => {
    const random = seededRandom(112026);
    let keystrokes = 0;
    let again = 0;
    for (const file of readdirSync(join(SUITE, 'input')).filter((f) => f.endsWith('.yaml') && !f.startsWith('error_'))) {
      let text = readFileSync(join(SUITE, 'input', file), 'utf8');
      const cache = new SamTranslationCache({ movesInPlace: true });
      expand(text, PARAMETERS, cache);
      for (let i = 0; i < 4; i++) {
        const at = Math.floor(random() * text.length);
        text = random() < 0.5 ? `${text.slice(0, at)}x${text.slice(at)}` : text.slice(0, at) + text.slice(at + 1);
        assertSame(expand(text, PARAMETERS, cache), expand(text, PARAMETERS), `${file}, keystroke ${i + 1} at ${at}`);
        keystrokes++;
      }
      again += cache.reexpansions;
    }
    console.log(`keystrokes: ${keystrokes}, of which the expansion started from the last ${again}`);
    assert.ok(again > 0);
  });
});

/** The paths of the scalar values in a value, each as the keys and indices that lead to it. */
function scalarPaths(value: unknown, path: (string | number)[]): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => scalarPaths(item, [...path, i]));
  if (isMap(value)) return Object.entries(value).flatMap(([key, item]) => scalarPaths(item, [...path, key]));
  return value === undefined ? [] : [path];
}

/** Renames the key at the end of `path` (a letter added; it moves to the end of its map) or removes it. */
function editKey(template: Plain, path: (string | number)[], remove: boolean): void {
  let parent = template as unknown as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  const value = parent[key];
  delete parent[key];
  if (!remove) parent[`${key}Z`] = value;
}

/** Copies the entry at the end of `path` under a new key beside it, or moves it to the front of its map. */
function copyOrMoveKey(template: Plain, path: (string | number)[], copy: boolean): void {
  let parent = template as unknown as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  if (copy) {
    parent[`${key}Copy`] = JSON.parse(JSON.stringify(parent[key])) as unknown;
    return;
  }
  const entries = Object.entries(parent).filter(([other]) => other !== String(key));
  const value = parent[key];
  for (const [other] of entries) delete parent[other];
  for (const [other, item] of [[String(key), value] as const, ...entries]) {
    delete parent[other];
    parent[other] = item;
  }
}

/** Makes the scalar at `path` a list of itself, or a `Ref` to it. */
function reshapeValue(template: Plain, path: (string | number)[], list: boolean): void {
  let parent = template as unknown as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  const value = parent[key];
  parent[key] = list ? [value] : { Ref: typeof value === 'string' ? value : 'Unknown' };
}

/** Changes the scalar at `path`: a string gets a letter, a number one more, a boolean flips, a null becomes a string. */
function editValue(template: Plain, path: (string | number)[]): void {
  let parent = template as unknown as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  const value = parent[key];
  parent[key] = typeof value === 'string' ? `${value}z` : typeof value === 'number' ? value + 1 : typeof value === 'boolean' ? !value : 'z';
}

/** Each `Api` and `HttpApi` event's entry in a template's text, in order, with its type. */
function apiEventEntries(text: string): { event: MapEntry; type: string }[] {
  const root = parseTemplate(text).root;
  const resources = root && nodeAtPath(root, ['Resources']);
  const out: { event: MapEntry; type: string }[] = [];
  if (resources?.kind !== 'map') return out;
  for (const { value } of resources.entries) {
    const events = nodeAtPath(value, ['Properties', 'Events']);
    if (events?.kind !== 'map') continue;
    for (const event of events.entries) {
      const type = nodeAtPath(event.value, ['Type']);
      if (type?.kind === 'scalar' && (type.value === 'Api' || type.value === 'HttpApi')) out.push({ event, type: type.value });
    }
  }
  return out;
}

/** An event's `Path` or `Method` written on one line: its value, and where its text starts and ends (inside any quotes). */
function routeText(text: string, event: MapEntry, property: 'Path' | 'Method'): { value: string; start: number; end: number } | undefined {
  const node = nodeAtPath(event.value, ['Properties', property]);
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return undefined;
  const written = text.slice(node.range.start, node.range.end);
  if (written.includes('\n') || written.length === 0) return undefined;
  const quoted = (written[0] === "'" || written[0] === '"') && written.endsWith(written[0]!) && written.length > 1;
  return { value: node.value, ...(quoted ? { start: node.range.start + 1, end: node.range.end - 1 } : node.range) };
}

/** Each `Api` and `HttpApi` event's `Path` or `Method` written on one line, in order: its event's type, its value, and where its text starts and ends (inside any quotes). */
function routeTexts(text: string, property: 'Path' | 'Method'): { type: string; value: string; start: number; end: number }[] {
  return apiEventEntries(text).flatMap(({ event, type }) => {
    const route = routeText(text, event, property);
    return route ? [{ type, ...route }] : [];
  });
}

/**
 * The first `Api` or `HttpApi` event's `Path` of a template as written, where keystrokes type into
 * it: the end of its text, inside any quotes, and the start of its first path parameter's name.
 */
function firstEventPath(text: string, eventType: 'Api' | 'HttpApi'): number[] | undefined {
  const path = routeTexts(text, 'Path').find((route) => route.type === eventType);
  if (path === undefined) return undefined;
  const brace = text.slice(path.start, path.end).indexOf('{');
  return [path.end, ...(brace >= 0 ? [path.start + brace + 1] : [])];
}

/** The first `Api` or `HttpApi` event's `Method` of a template as written: where its text starts and ends, inside any quotes. */
function firstEventMethod(text: string, eventType: 'Api' | 'HttpApi'): { start: number; end: number } | undefined {
  return routeTexts(text, 'Method').find((route) => route.type === eventType);
}

/**
 * Expands `text`, then each of `edits` in turn, through one cache that moves in place: each is the
 * expansion without a cache. Returns how many renamed a path or a method without the fold, and how
 * many put in place the path items the function's part makes alone.
 */
function expandedInTurn(file: string, text: string, edits: readonly { text: string; what: string }[]): { renamed: number; itemsChanged: number } {
  const cache = new SamTranslationCache({ movesInPlace: true });
  expand(text, PARAMETERS, cache);
  for (const edit of edits) assertSame(expand(edit.text, PARAMETERS, cache), expand(edit.text, PARAMETERS), `${file}, ${edit.what}`);
  return { renamed: cache.routeRenames, itemsChanged: cache.pathItemsChanged };
}

/**
 * Edits to the first `Api` or `HttpApi` event's path or method of a template, each list expanded
 * in turn through a cache of its own; none when the template has no such event.
 */
const ROUTE_EDITS: readonly { property: 'path' | 'method'; edits: (text: string, eventType: 'Api' | 'HttpApi') => { text: string; what: string }[][] }[] = [
  {
    property: 'path',
    // At the path's end, and in its first parameter's name: typed, then one keystroke taken back.
    edits: (text, eventType) =>
      (firstEventPath(text, eventType) ?? []).map((at) => ['x', 'xy', 'xyz', 'xy'].map((typed) => ({ text: text.slice(0, at) + typed + text.slice(at), what: `the path typed at ${at} to …${typed}` }))),
  },
  {
    property: 'method',
    // Another method, completed at once; any, upper case; one letter of a method typed; the method as written again.
    edits: (text, eventType) => {
      const method = firstEventMethod(text, eventType);
      if (method === undefined) return [];
      return [['put', 'ANY', 'd', 'delete', text.slice(method.start, method.end)].map((now) => ({ text: text.slice(0, method.start) + now + text.slice(method.end), what: `the method made ${now}` }))];
    },
  },
];

/**
 * Each `Api` and `HttpApi` event written in block style whose `Path` is written on one line, as a
 * copy could be pasted after it: its name, its lines (from the start of its key's line to the end
 * of its last line), and its path's text within them (inside any quotes).
 */
function eventBlocks(text: string): { name: string; start: number; end: number; path: { start: number; end: number; value: string } }[] {
  const out: { name: string; start: number; end: number; path: { start: number; end: number; value: string } }[] = [];
  for (const { event } of apiEventEntries(text)) {
    const path = routeText(text, event, 'Path');
    if (path === undefined || text.slice(path.start, path.end) !== path.value) continue;
    const start = text.lastIndexOf('\n', event.keyRange.start) + 1;
    const end = text.indexOf('\n', event.value.range.end - 1);
    // Block style: the key alone at the start of its line, the event's text on lines of its own.
    if (!/^ *$/.test(text.slice(start, event.keyRange.start)) || end < 0 || text.slice(start, end).includes('{')) continue;
    out.push({ name: event.key, start, end, path });
  }
  return out;
}

/** `text` with a copy of the event `block` pasted after it, named `name`, its path `path`. */
function pasted(text: string, block: ReturnType<typeof eventBlocks>[number], name: string, path: string): string {
  const lines = text.slice(block.start, block.path.start) + path + text.slice(block.path.end, block.end);
  const renamed = lines.replace(/^( *)[^:]+:/, `$1${name}:`);
  return `${text.slice(0, block.end)}\n${renamed}${text.slice(block.end)}`;
}

/** `text` without the event `block`'s lines. */
function withoutEvent(text: string, block: ReturnType<typeof eventBlocks>[number]): string {
  return text.slice(0, block.start) + text.slice(block.end + 1);
}

describe("expansion with kept translations, editing an Api or HttpApi event's path or method", { skip: existsSync(SUITE) ? false : `${SUITE} is absent` }, () => {
  for (const { property, edits: editsOf } of ROUTE_EDITS) {
    for (const eventType of ['Api', 'HttpApi'] as const) {
      test(`is the expansion without a cache after each edit to an ${eventType} event's ${property}, whether it is renamed in the definition or the API rebuilt`, () => {
        let editedIn = 0;
        let renamed = 0;
        let itemsChanged = 0;
        let edits = 0;
        for (const file of readdirSync(join(SUITE, 'input')).filter((f) => f.endsWith('.yaml') && !f.startsWith('error_'))) {
          const text = readFileSync(join(SUITE, 'input', file), 'utf8');
          const sequences = editsOf(text, eventType);
          if (sequences.length > 0) editedIn++;
          for (const sequence of sequences) {
            const answered = expandedInTurn(file, text, sequence);
            renamed += answered.renamed;
            itemsChanged += answered.itemsChanged;
            edits += sequence.length;
          }
        }
        console.log(`${eventType} ${property}: inputs edited: ${editedIn}, edits: ${edits}, of which renamed without the fold: ${renamed}, their path's item put in place without it: ${itemsChanged}`);
        assert.ok(renamed > 0, `some edits rename the ${property}`);
      });
    }
  }
});

describe('expansion with kept translations, an Api or HttpApi event pasted into its function and taken out again', { skip: existsSync(SUITE) ? false : `${SUITE} is absent` }, () => {
  test('is the expansion without a cache after each, whether the path is put in the definition and taken out or the API rebuilt', () => {
    let templates = 0;
    let edits = 0;
    let added = 0;
    for (const file of readdirSync(join(SUITE, 'input')).filter((f) => f.endsWith('.yaml') && !f.startsWith('error_'))) {
      const text = readFileSync(join(SUITE, 'input', file), 'utf8');
      const blocks = eventBlocks(text);
      if (blocks.length > 0) templates++;
      for (const block of blocks) {
        // A new path (one segment longer), and the path of the event it copies (shared with it).
        for (const path of [`${block.path.value.replace(/\/$/, '')}/pasted`, block.path.value]) {
          const cache = new SamTranslationCache({ movesInPlace: true });
          expand(text, PARAMETERS, cache);
          for (const [what, now] of [
            ['pasted', pasted(text, block, `${block.name}Pasted`, path)],
            ['taken out', text],
          ] as const) {
            assertSame(expand(now, PARAMETERS, cache), expand(now, PARAMETERS), `${file}, ${block.name} ${what} at ${path}`);
            edits++;
          }
          added += cache.routesAddedOrRemoved;
        }
      }
    }
    console.log(`events pasted and taken out: templates ${templates}, edits ${edits}, of which the path put in or taken out without the fold: ${added}`);
    assert.ok(added > 0, 'some pasted events put their path in the definition without the fold');
  });
});

describe("expansion with kept translations, random edits to any Api or HttpApi event's path or method", { skip: existsSync(SUITE) ? false : `${SUITE} is absent` }, () => {
  test('is the expansion without a cache after each: a character typed or taken away, another event\'s path, another method, an event pasted or taken out, any event taken out and put back', () => {
    const random = seededRandom(24112026);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const methods = ['get', 'put', 'post', 'ANY', 'Get', 'delete', 'options', 'p', 'head'];
    let edits = 0;
    let renamed = 0;
    let added = 0;
    for (const file of readdirSync(join(SUITE, 'input')).filter((f) => f.endsWith('.yaml') && !f.startsWith('error_'))) {
      let text = readFileSync(join(SUITE, 'input', file), 'utf8');
      const cache = new SamTranslationCache({ movesInPlace: true });
      expand(text, PARAMETERS, cache);
      let pastes = 0;
      for (let step = 0; step < 24; step++) {
        // Now and then an event pasted after another, with a path of its own or another's, or a pasted one taken out.
        const blocks = eventBlocks(text);
        const pastedBlocks = blocks.filter((block) => block.name.startsWith('Pasted'));
        const move = random();
        if ((move < 0.1 && blocks.length > 0) || (move < 0.2 && pastedBlocks.length > 0)) {
          const block = move < 0.1 ? pick(blocks) : pick(pastedBlocks);
          const path = random() < 0.8 ? `${block.path.value.replace(/\/$/, '')}/p${step}` : pick(blocks).path.value;
          text = move < 0.1 ? pasted(text, block, `Pasted${pastes++}`, path) : withoutEvent(text, block);
          const before = cache.routesAddedOrRemoved;
          assertSame(expand(text, PARAMETERS, cache), expand(text, PARAMETERS), `${file}, edit ${step}: ${block.name} ${move < 0.1 ? `pasted at ${path}` : 'taken out'}`);
          added += cache.routesAddedOrRemoved - before;
          edits++;
          continue;
        }
        // Now and then any event taken out (a function's only one on its API, maybe) and put back.
        if (move < 0.25 && blocks.length > 0) {
          const block = pick(blocks);
          for (const [what, next] of [['taken out', withoutEvent(text, block)], ['put back', text]] as const) {
            const before = cache.routesAddedOrRemoved;
            assertSame(expand(next, PARAMETERS, cache), expand(next, PARAMETERS), `${file}, edit ${step}: ${block.name} ${what}`);
            added += cache.routesAddedOrRemoved - before;
            edits++;
          }
          continue;
        }
        const paths = routeTexts(text, 'Path');
        // Only text written as its value: an escape would make the edit another one.
        const routes = [...paths.map((route) => ({ ...route, property: 'Path' })), ...routeTexts(text, 'Method').map((route) => ({ ...route, property: 'Method' }))].filter((route) => text.slice(route.start, route.end) === route.value);
        if (routes.length === 0) break;
        const route = pick(routes);
        const at = Math.floor(random() * (route.value.length + 1));
        const dice = random();
        let now: string;
        if (route.property === 'Method') now = dice < 0.7 ? pick(methods) : `${route.value}x`;
        else if (dice < 0.2) now = pick(paths).value;
        else if (dice < 0.6) now = route.value.slice(0, at) + pick(['a', 'x', '/', '-', '_', '.', '1', '{', '}', '/{id}', '{proxy+}']) + route.value.slice(at);
        else now = route.value.slice(0, Math.max(0, at - 1)) + route.value.slice(at);
        // What would make the scalar another YAML node, or no text.
        if (now.length === 0 || /['"\\#:]/.test(now) || /^[-{*&!\[%@|>?,]/.test(now)) continue;
        text = text.slice(0, route.start) + now + text.slice(route.end);
        const before = cache.routeRenames;
        assertSame(expand(text, PARAMETERS, cache), expand(text, PARAMETERS), `${file}, edit ${step}: ${route.property} ${route.value} made ${now}`);
        renamed += cache.routeRenames - before;
        edits++;
      }
    }
    console.log(`random route edits: ${edits}, of which renamed without the fold: ${renamed}, events pasted or taken out without it: ${added}`);
    assert.ok(renamed > 0, 'some edits rename a path or a method');
    assert.ok(added > 0, 'some pasted events put their path in the definition without the fold');
  });
});
