/**
 * The APIs SAM builds from events (the implicit REST and HTTP APIs, and an `AWS::Serverless::Api`
 * or `AWS::Serverless::HttpApi` that functions' events name) rebuilt from their parts when an edit to a function changes what an API
 * is made of (an event's path, an event added or removed, a FunctionName, a DeletionPolicy): the
 * expansion starts from the last one, and is the expansion in full. SAM's rules the expectations
 * come from: the deployment's logical id ends in a hash of the definition and of the functions'
 * names, so a new path or a new name is a new deployment, which the stage then names; the
 * implicit API takes the DeletionPolicy its functions share; a function's condition makes a path
 * condition, and an API with no event left is no API at all; Globals merge into an API after the
 * events' paths are in its definition, and an event's method takes the API's default authorizer.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandServerless, SamTranslationCache } from '../../../server/src/sam';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';
import { eventYaml, functionYaml } from './samYaml';
import { seededRandom } from './seededRandom';

interface FunctionSpec {
  path?: string;
  method?: string;
  functionName?: string;
  condition?: boolean;
  deletionPolicy?: string;
}

/** Three functions, each with an Api event on the implicit API unless its path is left out. */
function template(specs: Record<'A' | 'B' | 'C', FunctionSpec>, globals = ''): string {
  const fn = (name: string, spec: FunctionSpec) =>
    `  ${name}:
    Type: AWS::Serverless::Function
${spec.condition ? '    Condition: IsProd\n' : ''}${spec.deletionPolicy ? `    DeletionPolicy: ${spec.deletionPolicy}\n` : ''}    Properties:
      CodeUri: s3://bucket/${name}.zip
      Handler: app.handler
      Runtime: python3.12
${spec.functionName ? `      FunctionName: ${spec.functionName}\n` : ''}${
      spec.path
        ? `      Events:
        Read:
          Type: Api
          Properties:
            Path: ${spec.path}
            Method: ${spec.method ?? 'get'}
`
        : ''
    }`;
  return `Transform: AWS::Serverless-2016-10-31
${globals}Parameters:
  Stage:
    Type: String
    Default: prod
Conditions:
  IsProd: !Equals [!Ref Stage, prod]
Resources:
${fn('A', specs.A)}${fn('B', specs.B)}${fn('C', specs.C)}Outputs:
  Url:
    Value: !Sub https://\${ServerlessRestApi}.execute-api.\${AWS::Region}.amazonaws.com/Prod/
`;
}

const BASE = { A: { path: '/a' }, B: { path: '/b' }, C: {} };
const OPTIONS = { parameters: new Map<string, unknown>(), region: 'us-east-1', partition: 'aws' };

function expand(text: string, cache?: SamTranslationCache) {
  return expandServerless(readTemplateModel(parseTemplate(text)), cache ? { ...OPTIONS, cache } : OPTIONS);
}

type Resource = { Type: string; DeletionPolicy?: string; Properties: { Body?: { paths: Record<string, unknown> }; DeploymentId?: { Ref: string } } };

function resources(text: string, cache?: SamTranslationCache): Record<string, Resource> {
  return (toPlain(expand(text, cache).parsed.root!) as { Resources: Record<string, Resource> }).Resources;
}

function deploymentId(processed: Record<string, Resource>): string {
  const ids = Object.keys(processed).filter((id) => processed[id]!.Type === 'AWS::ApiGateway::Deployment');
  assert.equal(ids.length, 1, 'one deployment');
  return ids[0]!;
}

/** The expansion of `edited` through a cache that expanded `before`: the same as without a cache, whether it rebuilt the API from its parts, and the cache. */
function expandAfter(before: string, edited: string): { processed: Record<string, Resource>; rebuilt: boolean; cache: SamTranslationCache } {
  const cache = new SamTranslationCache();
  expand(before, cache);
  const expansion = expand(edited, cache);
  assert.deepStrictEqual(expansion.parsed, expand(edited).parsed, 'the processed template is the expansion in full');
  assert.deepStrictEqual(expansion.sourceMap, expand(edited).sourceMap, 'so is the source map');
  assert.deepStrictEqual(expansion.notes, expand(edited).notes, 'and so are the notes');
  return { processed: (toPlain(expansion.parsed.root!) as { Resources: Record<string, Resource> }).Resources, rebuilt: cache.apiRebuilds > 0, cache };
}

describe('the implicit API rebuilt from its parts', () => {
  test("a new path: a new deployment, named by the stage, with the path in the API's definition", () => {
    const before = resources(template(BASE));
    const { processed, rebuilt } = expandAfter(template(BASE), template({ ...BASE, B: { path: '/b/items' } }));
    assert.ok(rebuilt);
    assert.notEqual(deploymentId(processed), deploymentId(before));
    assert.deepEqual(processed.ServerlessRestApiProdStage?.Properties.DeploymentId, { Ref: deploymentId(processed) });
    assert.deepEqual(Object.keys(processed.ServerlessRestApi!.Properties.Body!.paths).sort(), ['/a', '/b/items']);
  });

  test('an event added to a function that had none: its permission, and its path in the definition', () => {
    const { processed, rebuilt } = expandAfter(template(BASE), template({ ...BASE, C: { path: '/c' } }));
    assert.ok(rebuilt);
    assert.equal(processed.CReadPermissionProd?.Type, 'AWS::Lambda::Permission');
    assert.deepEqual(Object.keys(processed.ServerlessRestApi!.Properties.Body!.paths).sort(), ['/a', '/b', '/c']);
  });

  test("a function's event removed while another's is left: the path goes, with the function's permission", () => {
    const { processed, rebuilt } = expandAfter(template(BASE), template({ ...BASE, B: {} }));
    assert.ok(rebuilt);
    assert.equal(processed.BReadPermissionProd, undefined);
    assert.deepEqual(Object.keys(processed.ServerlessRestApi!.Properties.Body!.paths), ['/a']);
  });

  test('a FunctionName added: the same definition, a new deployment (SAM hashes the names too)', () => {
    const before = resources(template(BASE));
    const { processed, rebuilt } = expandAfter(template(BASE), template({ ...BASE, A: { path: '/a', functionName: 'reader' } }));
    assert.ok(rebuilt);
    assert.deepEqual(processed.ServerlessRestApi!.Properties.Body, before.ServerlessRestApi!.Properties.Body);
    assert.notEqual(deploymentId(processed), deploymentId(before));
  });

  test('a DeletionPolicy of Retain on a function: the implicit API takes it', () => {
    const { processed, rebuilt } = expandAfter(template(BASE), template({ ...BASE, A: { path: '/a', deletionPolicy: 'Retain' } }));
    assert.ok(rebuilt);
    assert.equal(processed.ServerlessRestApi!.DeletionPolicy, 'Retain');
  });

  test('keystroke after keystroke in a cache that moves in place, each the expansion in full', () => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expand(template(BASE), cache);
    for (const path of ['/b/i', '/b/it', '/b/ite', '/b/item', '/b/items']) {
      const text = template({ ...BASE, B: { path } });
      assert.deepStrictEqual(expand(text, cache).parsed, expand(text).parsed, path);
    }
    assert.equal(cache.apiRebuilds, 5);
  });
});

describe('expanded in full instead', () => {
  test("a function's condition: SAM makes a path condition of it", () => {
    const withCondition = { ...BASE, A: { path: '/a', condition: true } };
    const { processed, rebuilt } = expandAfter(template(withCondition), template({ ...withCondition, B: { path: '/b/items' } }));
    assert.equal(rebuilt, false);
    assert.ok(processed.ServerlessRestApi);
  });

  test('the last Api event removed: the implicit API goes', () => {
    const one = { A: { path: '/a' }, B: {}, C: {} };
    const { processed, rebuilt } = expandAfter(template(one), template({ A: {}, B: {}, C: {} }));
    assert.equal(rebuilt, false);
    assert.equal(processed.ServerlessRestApi, undefined);
  });
});

describe('Globals', () => {
  const withGlobals = (function_: string) => template(BASE, `Globals:\n  Function:\n${function_}`);

  // A timeout, or a tracing mode typed over another, makes each Lambda function again from the last
  // expansion (globalsEdit.test.ts); tracing turned off, which takes the X-Ray policy off each
  // function's role too, has every function translated again.
  test("a function's tracing turned off in Globals: every function again, the implicit API as it was (no function's tracing is in it), and every other resource taken as built", () => {
    const { processed, cache } = expandAfter(withGlobals('    Tracing: Active\n'), withGlobals('    Tracing: Disabled\n'));
    assert.equal(cache.implicitApiHits, 1);
    assert.equal(cache.functionsPatched, 0);
    // Only the functions and their roles, which lose the X-Ray policy, are built again; permissions and the API come out the same.
    const rebuilt = Object.values(processed).filter((resource) => resource.Type === 'AWS::Lambda::Function' || resource.Type === 'AWS::IAM::Role').length;
    assert.equal(rebuilt, 6);
    assert.equal(cache.recordsCarried, Object.keys(processed).length - rebuilt);
  });

  test('an alias in Globals: the API is made again, since its integrations name the alias', () => {
    const { processed, cache } = expandAfter(withGlobals('    Timeout: 3\n'), withGlobals('    Timeout: 3\n    AutoPublishAlias: live\n'));
    assert.equal(cache.implicitApiHits, 0);
    assert.match(JSON.stringify(processed.ServerlessRestApi?.Properties.Body), /\$\{AAliaslive\}/);
  });
});

/** An explicit API with a default authorizer and CORS from Globals, named by A's event; B's event is on the implicit API. */
function explicitTemplate({ pathOfA = '/a', methodOfA = 'get', apiOfA = '!Ref Api', pathOfB = '/b', domain = '', stage = 'live', ownCors = '', pastedIntoA = [] as string[], pastedIntoB = [] as string[] } = {}): string {
  const readA = eventYaml('Read', 'Api', { ...(apiOfA ? { RestApiId: apiOfA } : {}), Path: pathOfA, Method: methodOfA });
  return `Transform: AWS::Serverless-2016-10-31
Globals:
  Api:
    Cors: "'*'"
Resources:
  Api:
    Type: AWS::Serverless::Api
    Properties:
      StageName: ${stage}
${ownCors ? `      Cors: "${ownCors}"\n` : ''}      Auth:
        DefaultAuthorizer: TokenAuth
        Authorizers:
          TokenAuth:
            FunctionArn: !GetAtt Authorizer.Arn
${domain}${functionYaml('Authorizer', { code: 's3://bucket/auth.zip' })}${functionYaml('A', { events: [readA, ...pastedIntoA] })}${functionYaml('B', { events: [eventYaml('Read', 'Api', { Path: pathOfB, Method: 'get' }), ...pastedIntoB] })}`;
}

type Body = { paths: Record<string, Record<string, { security?: unknown[] }>> };

function deploymentOf(processed: Record<string, Resource>, apiId: string): string {
  const ids = Object.keys(processed).filter((id) => processed[id]!.Type === 'AWS::ApiGateway::Deployment' && id.startsWith(`${apiId}Deployment`));
  assert.equal(ids.length, 1, `one deployment of ${apiId}`);
  return ids[0]!;
}

describe('an explicit API rebuilt from its parts', () => {
  test("a new path on it: its new deployment, named by its stage, the path in its definition with the default authorizer; the implicit API's deployment as it was", () => {
    const before = resources(explicitTemplate());
    const { processed, rebuilt } = expandAfter(explicitTemplate(), explicitTemplate({ pathOfA: '/a/items' }));
    assert.ok(rebuilt);
    assert.notEqual(deploymentOf(processed, 'Api'), deploymentOf(before, 'Api'));
    assert.deepEqual(processed.ApiliveStage?.Properties.DeploymentId, { Ref: deploymentOf(processed, 'Api') });
    const paths = (processed.Api!.Properties.Body as unknown as Body).paths;
    assert.deepEqual(Object.keys(paths), ['/a/items']);
    assert.deepEqual(paths['/a/items']!.get!.security, [{ TokenAuth: [] }]);
    // Globals' CORS is merged after the paths are in: the path has its OPTIONS method.
    assert.ok('options' in paths['/a/items']!);
    assert.equal(deploymentOf(processed, 'ServerlessRestApi'), deploymentOf(before, 'ServerlessRestApi'));
  });

  test('a new path on the implicit API, with the explicit one beside it: the implicit API is rebuilt, the explicit one comes out as it was', () => {
    const before = resources(explicitTemplate());
    const { processed, rebuilt } = expandAfter(explicitTemplate(), explicitTemplate({ pathOfB: '/b/items' }));
    assert.ok(rebuilt);
    assert.notEqual(deploymentOf(processed, 'ServerlessRestApi'), deploymentOf(before, 'ServerlessRestApi'));
    assert.equal(deploymentOf(processed, 'Api'), deploymentOf(before, 'Api'));
  });

  test("an event moved from the explicit API to the implicit one: its path leaves one definition for the other, and its permission takes the implicit API's stage", () => {
    const { processed, rebuilt } = expandAfter(explicitTemplate(), explicitTemplate({ apiOfA: '' }));
    assert.ok(rebuilt);
    assert.deepEqual(Object.keys((processed.ServerlessRestApi!.Properties.Body as unknown as Body).paths).sort(), ['/a', '/b']);
    assert.deepEqual((processed.Api!.Properties.Body as unknown as Body).paths, {});
    assert.equal(processed.AReadPermissionProd?.Type, 'AWS::Lambda::Permission');
    assert.equal(processed.AReadPermissionlive, undefined);
  });

  test("its own CORS edited: the API is rebuilt from its entry as written now, each path's preflight allows the new origin, and a new deployment", () => {
    const before = resources(explicitTemplate());
    const { processed, rebuilt } = expandAfter(explicitTemplate(), explicitTemplate({ ownCors: "'https://example.com'" }));
    assert.ok(rebuilt);
    assert.notEqual(deploymentOf(processed, 'Api'), deploymentOf(before, 'Api'));
    const preflight = JSON.stringify((processed.Api!.Properties.Body as unknown as Body).paths['/a']!.options);
    assert.match(preflight, /https:\/\/example\.com/);
    assert.deepEqual(processed.AReadPermissionlive?.Type, 'AWS::Lambda::Permission');
  });

  test("its stage edited, which names each event's permission: expanded in full", () => {
    const { processed, rebuilt } = expandAfter(explicitTemplate(), explicitTemplate({ stage: 'next' }));
    assert.equal(rebuilt, false);
    assert.equal(processed.AReadPermissionnext?.Type, 'AWS::Lambda::Permission');
  });

  test('an API whose domain has a Route 53 record (record sets are shared between APIs): expanded in full', () => {
    const domain = '      Domain:\n        DomainName: api.example.com\n        CertificateArn: arn:aws:acm:us-east-1:123456789012:certificate/abc\n        Route53:\n          HostedZoneId: Z1234567890\n';
    const { processed, rebuilt } = expandAfter(explicitTemplate({ domain }), explicitTemplate({ domain, pathOfA: '/a/items' }));
    assert.equal(rebuilt, false);
    assert.ok(Object.values(processed).some((resource) => resource.Type === 'AWS::Route53::RecordSetGroup'));
  });
});

/** HTTP APIs: A serves the explicit API's `$default` route and a path on it, B a path on the implicit API; `settings` are route settings on B's event; each function has the `pasted` events besides. */
function httpTemplate({ pathOfA = '/a', methodOfA = 'get', pathOfB = '/b', methodOfB = 'get', settings = '', pastedIntoA = [] as string[], pastedIntoB = [] as string[] } = {}): string {
  const a = [eventYaml('Default', 'HttpApi', { ApiId: '!Ref Api' }), eventYaml('Read', 'HttpApi', { ApiId: '!Ref Api', Path: pathOfA, Method: methodOfA }), ...pastedIntoA];
  const b = [eventYaml('Read', 'HttpApi', { Path: pathOfB, Method: methodOfB }) + settings, ...pastedIntoB];
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  Api:
    Type: AWS::Serverless::HttpApi
${functionYaml('A', { events: a })}${functionYaml('B', { events: b })}`;
}

type OpenApi = { paths: Record<string, Record<string, unknown>> };

describe('HTTP APIs rebuilt from their parts', () => {
  test("a new path on the explicit API: the route in its definition; A serves the $default route, so the new route needs no permission of its own", () => {
    const { processed, rebuilt } = expandAfter(httpTemplate(), httpTemplate({ pathOfA: '/a/items' }));
    assert.ok(rebuilt);
    assert.deepEqual(Object.keys((processed.Api!.Properties.Body as unknown as OpenApi).paths).sort(), ['$default', '/a/items']);
    const permissions = Object.keys(processed).filter((id) => processed[id]!.Type === 'AWS::Lambda::Permission').sort();
    assert.deepEqual(permissions, ['ADefaultPermission', 'BReadPermission']);
  });

  test('a new path on the implicit API: the route in its definition, the explicit API as it was', () => {
    const before = resources(httpTemplate());
    const { processed, rebuilt } = expandAfter(httpTemplate(), httpTemplate({ pathOfB: '/b/items' }));
    assert.ok(rebuilt);
    assert.deepEqual(Object.keys((processed.ServerlessHttpApi!.Properties.Body as unknown as OpenApi).paths), ['/b/items']);
    assert.deepEqual(processed.Api, before.Api);
  });

  test("an event's route settings, which SAM merges into its API's entry: expanded in full", () => {
    const settings = '            RouteSettings:\n              ThrottlingBurstLimit: 10\n';
    const { rebuilt } = expandAfter(httpTemplate({ settings }), httpTemplate({ settings, pathOfB: '/b/items' }));
    assert.equal(rebuilt, false);
  });
});

/** Expands `texts` in turn, edit after edit, through a cache that moves in place, each expansion the expansion in full; the cache. */
function expandedInTurn(texts: readonly string[]): SamTranslationCache {
  const cache = new SamTranslationCache({ movesInPlace: true });
  expand(texts[0]!, cache);
  for (const text of texts.slice(1)) {
    const expansion = expand(text, cache);
    const full = expand(text);
    assert.deepStrictEqual(expansion.parsed, full.parsed, 'the processed template is the expansion in full');
    assert.deepStrictEqual(expansion.sourceMap, full.sourceMap, 'so is the source map');
    assert.deepStrictEqual(expansion.notes, full.notes, 'and so are the notes');
  }
  return cache;
}

/** How many of a cache's expansions rebuilt the API from its parts, doing SAM's fold again (the others that count as rebuilds answered without it). */
function foldsDone(cache: SamTranslationCache): number {
  return cache.apiRebuilds - cache.routeRenames - cache.routesAddedOrRemoved - cache.deploymentsRenamed - cache.pathItemsChanged;
}

/**
 * Expands `texts` in turn (`expandedInTurn`). Returns how many of them renamed a path or a method
 * without SAM's fold, how many put an event's path in the definition or took it out without it,
 * and how many rebuilt the API from its parts otherwise.
 */
function typed(texts: readonly string[]): { renamed: number; added: number; rebuiltOtherwise: number } {
  const cache = expandedInTurn(texts);
  return { renamed: cache.routeRenames, added: cache.routesAddedOrRemoved, rebuiltOtherwise: foldsDone(cache) };
}

describe('a keystroke in a path renames it in the definition without rebuilding the API', () => {
  test('the implicit API: every keystroke renamed, typed and taken back (the expansion in full kept what a rename needs)', () => {
    const paths = ['/b', '/b/', '/b/i', '/b/it', '/b/ite', '/b/item', '/b/items', '/b/item'];
    const { renamed, rebuiltOtherwise } = typed(paths.map((path) => template({ ...BASE, B: { path } })));
    assert.equal(rebuiltOtherwise, 0);
    assert.equal(renamed, paths.length - 1);
  });

  test('after an edit that put a path in the definition (an event added to a function that had none), the keystrokes in its path are renamed', () => {
    assert.deepEqual(typed([template(BASE), ...['/c', '/cx', '/cxy'].map((path) => template({ ...BASE, C: { path } }))]), { renamed: 2, added: 1, rebuiltOtherwise: 0 });
  });

  test('an explicit API with CORS and a default authorizer: renamed too, each path keeping its preflight and its authorizer', () => {
    const paths = ['/a', '/a/', '/a/x', '/a/xy'];
    const { renamed } = typed(paths.map((pathOfA) => explicitTemplate({ pathOfA })));
    assert.equal(renamed, paths.length - 1);
    const paths3 = (resources(explicitTemplate({ pathOfA: '/a/xy' })).Api!.Properties.Body as unknown as Body).paths;
    assert.ok('options' in paths3['/a/xy']!);
    assert.deepEqual(paths3['/a/xy']!.get!.security, [{ TokenAuth: [] }]);
  });

  test("HTTP APIs: a keystroke in a path on the explicit API or on the implicit one renamed, the route in the API's body under its new path", () => {
    const onExplicit = typed(['/a', '/ax', '/axy'].map((pathOfA) => httpTemplate({ pathOfA })));
    assert.equal(onExplicit.renamed, 2);
    const onImplicit = typed(['/b', '/bx', '/bxy', '/bx'].map((pathOfB) => httpTemplate({ pathOfB })));
    assert.equal(onImplicit.renamed, 3);
    const paths = (resources(httpTemplate({ pathOfB: '/bxy' })).ServerlessHttpApi!.Properties.Body as unknown as Body).paths;
    assert.ok('/bxy' in paths && !('/b' in paths));
  });

  test("an HTTP API's path parameter typed into: rebuilt, since each method declares its path's parameters", () => {
    const { renamed, rebuiltOtherwise } = typed(['/b/{id}', '/b/{iad}', '/b/{iad}/x'].map((pathOfB) => httpTemplate({ pathOfB })));
    // The parameter renamed is rebuilt; the keystroke after it, outside the braces, is a rename.
    assert.equal(rebuiltOtherwise, 1);
    assert.equal(renamed, 1);
  });

  test('a path two events share (two methods under one path): rebuilt, since the rename splits the path in two', () => {
    const shared = (pathOfB: string) => template({ A: { path: '/a' }, B: { path: pathOfB }, C: { path: '/a' } });
    const { renamed } = typed(['/a', '/ax', '/axy'].map(shared));
    assert.equal(renamed, 0);
  });

  test('an API whose resource policy SAM writes for each path (the path is in its statements): rebuilt', () => {
    const globals = 'Globals:\n  Api:\n    Auth:\n      ResourcePolicy:\n        IpRangeWhitelist: [1.2.3.4]\n';
    const { renamed, rebuiltOtherwise } = typed(['/b', '/bx', '/bxy'].map((path) => template({ ...BASE, B: { path } }, globals)));
    assert.equal(renamed, 0);
    assert.equal(rebuiltOtherwise, 2);
  });

  test('a path with a parameter, on an API whose resource policy names each path with its parameters as *: rebuilt, the statements naming the new path', () => {
    const globals = 'Globals:\n  Api:\n    Auth:\n      ResourcePolicy:\n        IpRangeWhitelist: [1.2.3.4]\n';
    const { renamed, rebuiltOtherwise } = typed(['/b/{id}x', '/b/{id}xy', '/b/{id}xyz'].map((path) => template({ ...BASE, B: { path } }, globals)));
    assert.deepEqual({ renamed, rebuiltOtherwise }, { renamed: 0, rebuiltOtherwise: 2 });
  });

  test("a path with a character str() escapes (a quote): rebuilt, since it may be printed elsewhere than it is written", () => {
    const { renamed } = typed(["/b", "/b'", "/b'x"].map((path) => template({ ...BASE, B: { path: `"${path}"` } })));
    assert.equal(renamed, 0);
  });

  test("an edit that changes a path and another of the function's properties at once: rebuilt", () => {
    const { renamed, rebuiltOtherwise } = typed([template({ ...BASE, B: { path: '/b' } }), template({ ...BASE, B: { path: '/bx', functionName: 'reader' } })]);
    assert.equal(renamed, 0);
    assert.equal(rebuiltOtherwise, 1);
  });
});

describe("a change to an event's method alone renames it in its path's item without rebuilding the API", () => {
  test('the implicit API: get made put, then ANY, then post, then typed letter by letter; each renamed and the expansion in full', () => {
    const methods = ['get', 'put', 'ANY', 'post', 'p', 'pa', 'pat', 'patch'];
    const { renamed, rebuiltOtherwise } = typed(methods.map((method) => template({ ...BASE, B: { path: '/b', method } })));
    assert.equal(rebuiltOtherwise, 0);
    assert.equal(renamed, methods.length - 1);
    // SAM writes a method lower case, and ANY as API Gateway's any-method extension; a new definition is a new deployment.
    const any = resources(template({ ...BASE, B: { path: '/b', method: 'ANY' } }));
    assert.deepEqual(Object.keys((any.ServerlessRestApi!.Properties.Body as unknown as Body).paths['/b']!), ['x-amazon-apigateway-any-method']);
    assert.notEqual(deploymentId(any), deploymentId(resources(template(BASE))));
  });

  test('HTTP APIs: a method changed on the explicit API and on the implicit one, renamed', () => {
    const onExplicit = typed(['get', 'post', 'any'].map((methodOfA) => httpTemplate({ methodOfA })));
    assert.deepEqual(onExplicit, { renamed: 2, added: 0, rebuiltOtherwise: 0 });
    const onImplicit = typed(['get', 'delete', 'put'].map((methodOfB) => httpTemplate({ methodOfB })));
    assert.deepEqual(onImplicit, { renamed: 2, added: 0, rebuiltOtherwise: 0 });
  });

  test("a method beside CORS's preflight, whose allowed methods name it: the item the function's part makes alone takes the path's place", () => {
    const texts = ['get', 'put'].map((methodOfA) => explicitTemplate({ methodOfA }));
    const cache = expandedInTurn(texts);
    assert.deepEqual({ pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { pathItemsChanged: 1, foldsDone: 0 });
    const preflight = JSON.stringify((resources(texts[1]!).Api!.Properties.Body as unknown as Body).paths['/a']!.options);
    assert.match(preflight, /PUT/);
    assert.doesNotMatch(preflight, /GET/);
  });

  test("a method on a path another function's event shares (a CRUD API's get and post in two functions): the item the two functions' parts make together takes the path's place", () => {
    const methods = ['post', 'put', 'p', 'head'];
    const texts = methods.map((method) => template({ A: { path: '/a' }, B: { path: '/a', method }, C: { path: '/c' } }));
    const cache = expandedInTurn(texts);
    assert.deepEqual({ pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { pathItemsChanged: methods.length - 1, foldsDone: 0 });
    assert.deepEqual(Object.keys(resources(texts.at(-1)!).ServerlessRestApi!.Properties.Body!.paths['/a']!).sort(), ['get', 'head']);
    // Three functions' methods in one item.
    const three = ['put', 'head'].map((method) => template({ A: { path: '/a' }, B: { path: '/a', method: 'post' }, C: { path: '/a', method } }));
    const threeCache = expandedInTurn(three);
    assert.deepEqual({ pathItemsChanged: threeCache.pathItemsChanged, foldsDone: foldsDone(threeCache) }, { pathItemsChanged: 1, foldsDone: 0 });
    assert.deepEqual(Object.keys(resources(three[1]!).ServerlessRestApi!.Properties.Body!.paths['/a']!).sort(), ['get', 'head', 'post']);
  });

  test("rebuilt instead: a shared path whose item the two parts made together leave still reordered by SAM's deep copies (get and delete), which more copies in the fold may order otherwise", () => {
    const texts = ['post', 'delete'].map((method) => template({ A: { path: '/a' }, B: { path: '/a', method }, C: { path: '/c' } }));
    const cache = expandedInTurn(texts);
    assert.deepEqual({ pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { pathItemsChanged: 0, foldsDone: 1 });
  });

  test("a method on a path another function's event shares, beside CORS's preflight on an explicit API: the preflight names both functions' methods", () => {
    const shared = eventYaml('Write', 'Api', { RestApiId: '!Ref Api', Path: '/a', Method: 'post' });
    const texts = ['get', 'put'].map((methodOfA) => explicitTemplate({ methodOfA, pastedIntoB: [shared] }));
    const cache = expandedInTurn(texts);
    assert.deepEqual({ pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { pathItemsChanged: 1, foldsDone: 0 });
    const preflight = JSON.stringify((resources(texts[1]!).Api!.Properties.Body as unknown as Body).paths['/a']!.options);
    assert.match(preflight, /POST/);
    assert.match(preflight, /PUT/);
    assert.doesNotMatch(preflight, /GET/);
  });

  test("an HTTP API's method on a path another function's route shares: the item the two functions' parts make together takes the path's place", () => {
    const shared = eventYaml('Write', 'HttpApi', { Path: '/b', Method: 'post' });
    const texts = ['get', 'put', 'delete'].map((methodOfB) => httpTemplate({ methodOfB, pastedIntoA: [shared] }));
    const cache = expandedInTurn(texts);
    assert.deepEqual({ renamed: cache.routeRenames, pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { renamed: 0, pathItemsChanged: 2, foldsDone: 0 });
    assert.deepEqual(Object.keys((resources(texts[2]!).ServerlessHttpApi!.Properties.Body as unknown as OpenApi).paths['/b']!).sort(), ['delete', 'post']);
  });

  test("a method beside another of the function's own events on the same path: the item the function's part makes alone, both methods in it, takes the path's place", () => {
    const texts = ['post', 'put'].map((method) => pastedTemplate([write('/a', { method })]));
    const cache = expandedInTurn(texts);
    assert.deepEqual({ pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { pathItemsChanged: 1, foldsDone: 0 });
    assert.deepEqual(Object.keys(resources(texts[1]!).ServerlessRestApi!.Properties.Body!.paths['/a']!).sort(), ['get', 'put']);
  });

  test("an event's own setting SAM writes under its method (its integration's timeout): the item the function's part makes alone takes the path's place", () => {
    const withTimeout = (timeout: string) => template(BASE).replace('            Path: /b\n', `            Path: /b\n            TimeoutInMillis: ${timeout}\n`);
    const texts = [template(BASE), withTimeout('5000'), withTimeout('5500')];
    const cache = expandedInTurn(texts);
    assert.deepEqual({ pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { pathItemsChanged: 2, foldsDone: 0 });
    assert.match(JSON.stringify(resources(texts[2]!).ServerlessRestApi!.Properties.Body!.paths['/b']), /"timeoutInMillis":5500/);
  });

  test('a method the editors treat apart (options) takes its item from the part made alone too; a resource policy that names each path and method is rebuilt', () => {
    const options = expandedInTurn(['get', 'options', 'put'].map((method) => template({ ...BASE, B: { path: '/b', method } })));
    assert.deepEqual({ renamed: options.routeRenames, pathItemsChanged: options.pathItemsChanged, foldsDone: foldsDone(options) }, { renamed: 0, pathItemsChanged: 2, foldsDone: 0 });
    const globals = 'Globals:\n  Api:\n    Auth:\n      ResourcePolicy:\n        IpRangeWhitelist: [1.2.3.4]\n';
    const policy = typed(['get', 'put'].map((method) => template({ ...BASE, B: { path: '/b', method } }, globals)));
    assert.deepEqual(policy, { renamed: 0, added: 0, rebuiltOtherwise: 1 });
    // The statements write the path with its parameters as `*`, and the method upper case.
    const withParameter = typed(['get', 'put'].map((method) => template({ ...BASE, B: { path: '/b/{id}', method } }, globals)));
    assert.deepEqual(withParameter, { renamed: 0, added: 0, rebuiltOtherwise: 1 });
  });

  test('a path renamed after a method was, and a method after a path: each renamed', () => {
    const texts = [template(BASE), template({ ...BASE, B: { path: '/b', method: 'put' } }), template({ ...BASE, B: { path: '/bx', method: 'put' } }), template({ ...BASE, B: { path: '/bx', method: 'post' } })];
    assert.deepEqual(typed(texts), { renamed: 3, added: 0, rebuiltOtherwise: 0 });
  });
});

/** Functions A and B, each with an `Api` event on the implicit API (A's at /a, B's at /b), A with the `pasted` events besides. */
function pastedTemplate(pasted: readonly string[], globals = ''): string {
  return `Transform: AWS::Serverless-2016-10-31
${globals}Resources:
${functionYaml('A', { events: [eventYaml('Read', 'Api', { Path: '/a', Method: 'get' }), ...pasted] })}${functionYaml('B', { events: [eventYaml('Read', 'Api', { Path: '/b', Method: 'get' })] })}`;
}

/** A second event pasted into a function: `Write`, of `type`, at `path` with `method`, with `properties` besides. */
function write(path: string, { type = 'Api', method = 'post', properties = {} as Record<string, string> } = {}): string {
  return eventYaml('Write', type, { ...properties, Path: path, Method: method });
}

describe("an event pasted into a function, or taken out of it, puts its path's item in the definition or takes it out without rebuilding the API", () => {
  test("a function's only event on the implicit API pasted, then taken out: the function's part alone, without it, makes the API with no path", () => {
    const texts = [template(BASE), template({ ...BASE, C: { path: '/c' } }), template(BASE)];
    // SAM meets another function's event first: the implicit API stays attributed to it.
    assert.notEqual(expand(texts[1]!).sourceMap.resources.get('ServerlessRestApi')?.logicalId, 'C');
    assert.deepEqual(typed(texts), { renamed: 0, added: 2, rebuiltOtherwise: 0 });
    assert.deepEqual(Object.keys(resources(texts[1]!).ServerlessRestApi!.Properties.Body!.paths).sort(), ['/a', '/b', '/c']);
  });

  test("a function's only event on an explicit REST or HTTP API pasted, then taken out", () => {
    const onExplicit = write('/b/items', { properties: { RestApiId: '!Ref Api' } });
    assert.deepEqual(typed([explicitTemplate(), explicitTemplate({ pastedIntoB: [onExplicit] }), explicitTemplate()]), { renamed: 0, added: 2, rebuiltOtherwise: 0 });
    assert.ok('/b/items' in (resources(explicitTemplate({ pastedIntoB: [onExplicit] })).Api!.Properties.Body as unknown as Body).paths);
    const onExplicitHttp = write('/b/more', { type: 'HttpApi', properties: { ApiId: '!Ref Api' } });
    assert.deepEqual(typed([httpTemplate(), httpTemplate({ pastedIntoB: [onExplicitHttp] }), httpTemplate()]), { renamed: 0, added: 2, rebuiltOtherwise: 0 });
  });

  test("rebuilt instead: the first event of its API in SAM's order, which the implicit API is attributed to", () => {
    // The functions are met in the order written: A's event comes before B's, the implicit HTTP API's first.
    const first = httpTemplate({ pastedIntoA: [write('/a/more', { type: 'HttpApi' })] });
    assert.deepEqual(typed([httpTemplate(), first]), { renamed: 0, added: 0, rebuiltOtherwise: 1 });
    assert.equal(expand(first).sourceMap.resources.get('ServerlessHttpApi')?.logicalId, 'A');
  });

  test('a function pasted with an HttpApi event, then deleted: its route put in the definition and taken out, with its permission', () => {
    // SAM goes through the functions in the order written (a template with no REST API keeps it): D's event comes after B's.
    const withD = (events: string[]) => `${httpTemplate()}${functionYaml('D', { events })}`;
    const read = eventYaml('Read', 'HttpApi', { Path: '/d', Method: 'get' });
    assert.deepEqual(typed([httpTemplate(), withD([read]), httpTemplate()]), { renamed: 0, added: 2, rebuiltOtherwise: 0 });
    const processed = resources(withD([read]));
    assert.deepEqual(Object.keys((processed.ServerlessHttpApi!.Properties.Body as unknown as OpenApi).paths).sort(), ['/b', '/d']);
    assert.equal(processed.DReadPermission?.Type, 'AWS::Lambda::Permission');
    // Two events on the API: SAM's fold, done again from the parts.
    const both = withD([read, eventYaml('Write', 'HttpApi', { Path: '/d', Method: 'post' })]);
    assert.deepEqual(typed([httpTemplate(), both]), { renamed: 0, added: 0, rebuiltOtherwise: 1 });
  });

  test("a function's logical id typed, where SAM keeps the order written (an HTTP API): its items name the function anew, put in place without the fold", () => {
    const renamed = (id: string) => httpTemplate().replace('  A:\n', `  ${id}:\n`);
    const texts = [httpTemplate(), renamed('Ax'), renamed('Axy')];
    const cache = expandedInTurn(texts);
    assert.deepEqual({ pathItemsChanged: cache.pathItemsChanged, foldsDone: foldsDone(cache) }, { pathItemsChanged: 2, foldsDone: 0 });
    // The route's integration names the function by its new id.
    assert.match(JSON.stringify((resources(texts[2]!).Api!.Properties.Body as unknown as OpenApi).paths['/a']), /Axy\.Arn/);
  });

  test("rebuilt instead: the only event of a function with a DeletionPolicy, which the implicit API takes from its events' functions", () => {
    const retained = template({ ...BASE, C: { path: '/c', deletionPolicy: 'Retain' } });
    assert.deepEqual(typed([template(BASE), retained]), { renamed: 0, added: 0, rebuiltOtherwise: 1 });
    assert.equal(resources(retained).ServerlessRestApi!.DeletionPolicy, 'Retain');
  });

  test('the implicit API: the event pasted, its path typed into, then taken out again; each the expansion in full', () => {
    const texts = [pastedTemplate([]), ...['/a/items', '/a/itemsx', '/a/itemsxy'].map((path) => pastedTemplate([write(path)])), pastedTemplate([])];
    assert.deepEqual(typed(texts), { renamed: 2, added: 2, rebuiltOtherwise: 0 });
    // A new path is a new definition, so a new deployment, which the stage names.
    const before = resources(pastedTemplate([]));
    const after = resources(pastedTemplate([write('/a/items')]));
    assert.notEqual(deploymentId(after), deploymentId(before));
    assert.deepEqual(after.ServerlessRestApiProdStage?.Properties.DeploymentId, { Ref: deploymentId(after) });
    assert.deepEqual(Object.keys((after.ServerlessRestApi!.Properties.Body as unknown as Body).paths['/a/items']!), ['post']);
    assert.equal(after.AWritePermissionProd?.Type, 'AWS::Lambda::Permission');
  });

  test('two events pasted one after the other, then the first taken out: each put in or taken out', () => {
    const both = [write('/a/items'), eventYaml('Delete', 'Api', { Path: '/a/items/{id}', Method: 'delete' })];
    const texts = [pastedTemplate([]), pastedTemplate(both.slice(0, 1)), pastedTemplate(both), pastedTemplate(both.slice(1))];
    assert.deepEqual(typed(texts), { renamed: 0, added: 3, rebuiltOtherwise: 0 });
  });

  test('an explicit API with CORS and a default authorizer: the pasted path has its preflight and its authorizer', () => {
    const pasted = write('/a/items', { properties: { RestApiId: '!Ref Api' } });
    assert.deepEqual(typed([explicitTemplate(), explicitTemplate({ pastedIntoA: [pasted] }), explicitTemplate()]), { renamed: 0, added: 2, rebuiltOtherwise: 0 });
    const item = (resources(explicitTemplate({ pastedIntoA: [pasted] })).Api!.Properties.Body as unknown as Body).paths['/a/items']!;
    assert.ok('options' in item);
    assert.deepEqual(item.post!.security, [{ TokenAuth: [] }]);
  });

  test('HTTP APIs: an event pasted on the explicit API and on the implicit one, then taken out; the route in the body', () => {
    const onExplicit = write('/a/items', { type: 'HttpApi', properties: { ApiId: '!Ref Api' } });
    assert.deepEqual(typed([httpTemplate(), httpTemplate({ pastedIntoA: [onExplicit] }), httpTemplate()]), { renamed: 0, added: 2, rebuiltOtherwise: 0 });
    const onImplicit = write('/b/{id}', { type: 'HttpApi' });
    assert.deepEqual(typed([httpTemplate(), httpTemplate({ pastedIntoB: [onImplicit] }), httpTemplate()]), { renamed: 0, added: 2, rebuiltOtherwise: 0 });
    const paths = (resources(httpTemplate({ pastedIntoB: [onImplicit] })).ServerlessHttpApi!.Properties.Body as unknown as OpenApi).paths;
    assert.deepEqual(Object.keys(paths).sort(), ['/b', '/b/{id}']);
  });

  test("rebuilt instead: a path another event has (their item is shared), and an API whose resource policy SAM writes for each path (outside the path's item)", () => {
    assert.deepEqual(typed([pastedTemplate([]), pastedTemplate([write('/b')])]), { renamed: 0, added: 0, rebuiltOtherwise: 1 });
    const globals = 'Globals:\n  Api:\n    Auth:\n      ResourcePolicy:\n        IpRangeWhitelist: [1.2.3.4]\n';
    assert.deepEqual(typed([pastedTemplate([], globals), pastedTemplate([write('/a/items')], globals), pastedTemplate([], globals)]), { renamed: 0, added: 0, rebuiltOtherwise: 2 });
  });
});

/** A function's entry with `lines` (YAML, indented as its properties) among its properties: A of `pastedTemplate`, or A of `explicitTemplate`. */
function withAProperties(text: string, lines: string): string {
  const anchor = '      CodeUri: s3://bucket/A.zip\n';
  assert.ok(text.includes(anchor));
  return text.replace(anchor, anchor + lines);
}

describe("an edit that leaves a function's routes as they were leaves its APIs so too, but for a REST API's deployment, which hashes the function's name", () => {
  test('a FunctionName typed on the implicit API: each keystroke names the deployment anew, the definition as it was', () => {
    const texts = [pastedTemplate([]), ...['r', 're', 'rea', 'reader'].map((name) => withAProperties(pastedTemplate([]), `      FunctionName: ${name}\n`)), pastedTemplate([])];
    const cache = expandedInTurn(texts);
    assert.deepEqual({ deploymentsRenamed: cache.deploymentsRenamed, foldsDone: foldsDone(cache) }, { deploymentsRenamed: 5, foldsDone: 0 });
    // SAM hashes the function names with the definition: another name, another deployment; the same definition.
    const before = resources(texts[0]!);
    const named = resources(texts[4]!);
    assert.notEqual(deploymentId(named), deploymentId(before));
    assert.deepEqual(named.ServerlessRestApi!.Properties.Body, before.ServerlessRestApi!.Properties.Body);
    assert.deepEqual(named.ServerlessRestApiProdStage?.Properties.DeploymentId, { Ref: deploymentId(named) });
  });

  test('a FunctionName typed on a function whose event names an explicit API: its deployment named anew, the implicit one as it was', () => {
    const texts = [explicitTemplate(), ...['w', 'wr'].map((name) => withAProperties(explicitTemplate(), `      FunctionName: ${name}\n`))];
    const cache = expandedInTurn(texts);
    assert.deepEqual({ deploymentsRenamed: cache.deploymentsRenamed, foldsDone: foldsDone(cache) }, { deploymentsRenamed: 2, foldsDone: 0 });
    const before = resources(texts[0]!);
    const after = resources(texts[2]!);
    assert.notEqual(deploymentOf(after, 'Api'), deploymentOf(before, 'Api'));
    assert.equal(deploymentOf(after, 'ServerlessRestApi'), deploymentOf(before, 'ServerlessRestApi'));
  });

  test("tags that no event propagates, on a function of the implicit API: the APIs as they were, the deployment too", () => {
    const texts = [pastedTemplate([]), withAProperties(pastedTemplate([]), '      Tags:\n        team: x\n'), withAProperties(pastedTemplate([]), '      Tags:\n        team: xy\n')];
    const cache = expandedInTurn(texts);
    assert.deepEqual({ apisUnchanged: cache.apisUnchanged, foldsDone: foldsDone(cache) }, { apisUnchanged: 2, foldsDone: 0 });
    assert.equal(deploymentId(resources(texts[2]!)), deploymentId(resources(texts[0]!)));
  });

  test("an event's own authorizer, its route the same: rebuilt, since the function's part makes another definition (the method's security)", () => {
    const readA = (auth: string) => eventYaml('Read', 'Api', { RestApiId: '!Ref Api', Path: '/a', Method: 'get', ...(auth ? { Auth: auth } : {}) });
    const texts = [explicitTemplate(), explicitTemplate().replace(readA(''), readA('{Authorizer: NONE}'))];
    assert.notEqual(texts[1], texts[0]);
    const cache = expandedInTurn(texts);
    assert.deepEqual({ apisUnchanged: cache.apisUnchanged, deploymentsRenamed: cache.deploymentsRenamed, foldsDone: foldsDone(cache) }, { apisUnchanged: 0, deploymentsRenamed: 0, foldsDone: 1 });
    // No authorizer on the method now: its security is the empty list that opts out of the default one.
    assert.deepEqual((resources(texts[1]!).Api!.Properties.Body as unknown as Body).paths['/a']!.get!.security, [{ NONE: [] }]);
  });
});

describe('CRUD APIs, whose functions share paths: a seeded walk of keystrokes', () => {
  test("methods typed over, events pasted and paths changed in a few functions on a few shared paths, of the implicit API or an explicit one with CORS or not: each answered as the expansion in full, some shared paths' items put in place without the fold", () => {
    const random = seededRandom(20261125);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const paths = ['/items', '/items/{id}', '/users', '/users/{id}/orders'];
    const methods = ['get', 'post', 'put', 'delete', 'patch', 'head', 'any', 'options'];
    type Route = { path: string; method: string };
    const crud = (functions: Route[][], explicit: boolean, cors: boolean): string => {
      const api = explicit ? `  Api:\n    Type: AWS::Serverless::Api\n    Properties:\n      StageName: live\n${cors ? `      Cors: "'*'"\n` : ''}` : '';
      const events = (routes: Route[]) => routes.map((route, i) => eventYaml(`E${i}`, 'Api', { ...(explicit ? { RestApiId: '!Ref Api' } : {}), Path: route.path, Method: route.method }));
      return `Transform: AWS::Serverless-2016-10-31\nResources:\n${api}${functions.map((routes, i) => functionYaml(`F${i}`, { events: events(routes) })).join('')}`;
    };
    let itemsPutInPlace = 0;
    for (let walk = 0; walk < 30; walk++) {
      const explicit = random() < 0.5;
      const cors = explicit && random() < 0.5;
      const functions = Array.from({ length: 2 + Math.floor(random() * 4) }, () => [{ path: pick(paths), method: pick(methods) }]);
      const texts = [crud(functions, explicit, cors)];
      for (let keystroke = 0; keystroke < 6; keystroke++) {
        const routes = pick(functions);
        const choice = random();
        if (choice < 0.6) pick(routes).method = pick(methods);
        else if (choice < 0.8 && routes.length < 3) routes.push({ path: pick(paths), method: pick(methods) });
        else pick(routes).path = pick(paths);
        texts.push(crud(functions, explicit, cors));
      }
      // Each text's expansion from the last one is the expansion in full (expandedInTurn).
      itemsPutInPlace += expandedInTurn(texts).pathItemsChanged;
    }
    console.log(`CRUD walk: ${itemsPutInPlace} items put in place`);
    assert.ok(itemsPutInPlace > 10, `${itemsPutInPlace} edits put a shared path's item in place`);
  });
});
