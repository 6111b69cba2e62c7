/**
 * The layer invariants of ARCHITECTURE.md are enforced by lint: each rule is shown to fire on a
 * probe written as if it were a file in the real folder (linted from text, nothing is written),
 * and to stay quiet on the imports the architecture allows.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const repository = join(__dirname, '..', '..', '..');
let eslint: ESLint;

/** What lint reports for `code` as the file `path` (relative to the repository), as `rule: message` lines. */
async function lintAs(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repository, path) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** Asserts that lint reports exactly one problem, from `rule`, whose message holds every one of `phrases`. */
async function assertRefused(path: string, code: string, rule: string, ...phrases: string[]): Promise<void> {
  const messages = await lintAs(path, code);
  assert.equal(messages.length, 1, `one problem for ${path}:\n${code}\ngot:\n${messages.join('\n')}`);
  assert.ok(messages[0]!.startsWith(`${rule}: `), messages[0]);
  for (const phrase of phrases) assert.ok(messages[0]!.includes(phrase), `"${phrase}" in ${messages[0]}`);
}

async function assertAccepted(path: string, code: string): Promise<void> {
  assert.deepEqual(await lintAs(path, code), [], `${path}:\n${code}`);
}

const ENGINE_ONLY = 'The engine imports only the engine (template/, evaluate/, spec/, sam/, impact/, cdk/, cloudformation/) and the packages yaml and re2js';
const NO_BUILTIN = 'The engine is pure: it imports no Node built-in module';
const NO_CLOCK = 'The engine is pure: the clock and timers are passed in by the caller';
const NO_RANDOMNESS = 'The engine is pure: it uses no randomness';
const NO_ENVIRONMENT = 'The engine is pure: the environment is passed in by the caller';
const STACKS_SERVES = 'stacks/ serves the language server and the CLI and imports neither';
const GIT_SERVES = 'git/ and assemblies/ serve the language server and the CLI and import neither';
const FACES_APART = 'lsp/ and cli/ are two faces over the same modules and import neither each other';

before(async () => {
  eslint = new ESLint({ cwd: repository });
});

describe('the engine (template, evaluate, spec, sam, impact, cdk) imports only the engine, yaml and re2js', () => {
  const probe = 'server/src/impact/__lint_probe__.ts';

  test('an impact file may not import stacks/, whose reader talks to AWS', async () => {
    await assertRefused(probe, "import '../stacks/cloudFormationReader';\n", 'no-restricted-imports', "'../stacks/cloudFormationReader'", ENGINE_ONLY);
    await assertRefused(probe, "import '../stacks/lifecycle';\n", 'no-restricted-imports', "'../stacks/lifecycle'", ENGINE_ONLY);
  });

  test('nor the AWS SDK', async () => {
    await assertRefused(probe, "import '@aws-sdk/client-cloudformation';\n", 'no-restricted-imports', "'@aws-sdk/client-cloudformation'", ENGINE_ONLY);
  });

  test('nor the faces over it: lsp/ and cli/', async () => {
    await assertRefused(probe, "import '../lsp/analysis';\n", 'no-restricted-imports', "'../lsp/analysis'", ENGINE_ONLY);
    await assertRefused('server/src/evaluate/__lint_probe__.ts', "export { runDiff } from '../cli/diff';\n", 'no-restricted-imports', "'../cli/diff'", ENGINE_ONLY);
  });

  test('nor vscode, LSP packages or any other package', async () => {
    await assertRefused(probe, "import 'vscode-languageserver';\n", 'no-restricted-imports', ENGINE_ONLY);
    await assertRefused('server/src/template/__lint_probe__.ts', "import 'js-yaml';\n", 'no-restricted-imports', "'js-yaml'", ENGINE_ONLY);
  });

  test('nor a Node built-in module, with or without the node: prefix', async () => {
    await assertRefused(probe, "import 'node:fs';\n", 'no-restricted-imports', "'node:fs'", NO_BUILTIN);
    await assertRefused('server/src/spec/__lint_probe__.ts', "import 'fs/promises';\n", 'no-restricted-imports', "'fs/promises'", NO_BUILTIN);
    await assertRefused(probe, "import { isDeepStrictEqual } from 'node:util';\nexport const same = isDeepStrictEqual;\n", 'no-restricted-imports', NO_BUILTIN);
  });

  test('a path that climbs out of its folder is refused even when it ends in an engine folder name', async () => {
    await assertRefused('server/src/impact/deeper/__lint_probe__.ts', "import '../../stacks/types';\n", 'no-restricted-imports', ENGINE_ONLY);
    await assertRefused(probe, "import './../stacks/types';\n", 'no-restricted-imports', ENGINE_ONLY);
    await assertRefused(probe, "import '../evaluate/../stacks/types';\n", 'no-restricted-imports', ENGINE_ONLY);
  });

  test('a subfolder of an engine folder reaches its folder through ../ and the other engine folders through ../../', async () => {
    const deeper = 'server/src/sam/model/__lint_probe__.ts';
    await assertAccepted(deeper, ["import './values';", "import '../python/py27Dict';", "import '../../evaluate/value';", ''].join('\n'));
    await assertRefused(deeper, "import '../../stacks/types';\n", 'no-restricted-imports', ENGINE_ONLY);
    await assertRefused(deeper, "import '../../../client/src/extension';\n", 'no-restricted-imports', ENGINE_ONLY);
    await assertRefused(deeper, "import 'node:crypto';\n", 'no-restricted-imports', NO_BUILTIN);
  });

  test('two levels down, its folder through ../ or ../../ and the other engine folders through ../../../', async () => {
    const deeper = 'server/src/sam/resources/api/__lint_probe__.ts';
    await assertAccepted(deeper, ["import './apiEvent';", "import '../events/eventSource';", "import '../../model/values';", "import '../../../evaluate/value';", ''].join('\n'));
    await assertRefused(deeper, "import '../../../stacks/types';\n", 'no-restricted-imports', ENGINE_ONLY);
    await assertRefused(deeper, "import '../../../../client/src/extension';\n", 'no-restricted-imports', ENGINE_ONLY);
  });

  test('nor load modules at run time', async () => {
    await assertRefused(probe, "export const load = () => import('./types');\n", 'no-restricted-syntax', 'The engine imports statically');
  });

  test('imports within the engine and of yaml and re2js are accepted', async () => {
    await assertAccepted(
      probe,
      [
        "import './types';",
        "import '../evaluate/value';",
        "import '../template';",
        "import '../spec/types';",
        "import '../cloudformation/stackLifecycle';",
        "import 'yaml';",
        "import 're2js';",
        '',
      ].join('\n'),
    );
  });

  test('the engine reads the stack lifecycle from cloudformation/, never from stacks/', async () => {
    await assertAccepted('server/src/impact/rejections.ts', "import '../cloudformation/updatePrecondition';\n");
    await assertRefused('server/src/impact/rejections.ts', "import '../stacks/stackModel';\n", 'no-restricted-imports', ENGINE_ONLY);
  });

  test('spec/load.ts, the adapter that reads the compiled index from disk, may use the file system', async () => {
    await assertAccepted('server/src/spec/load.ts', "import 'node:fs';\n");
  });
});

describe('the engine uses no clock, randomness, timers or environment', () => {
  test('new Date() and Date() read the clock', async () => {
    await assertRefused('server/src/evaluate/__lint_probe__.ts', 'export const now = new Date();\n', 'no-restricted-syntax', NO_CLOCK);
    await assertRefused('server/src/evaluate/__lint_probe__.ts', 'export const now = Date();\n', 'no-restricted-syntax', NO_CLOCK);
  });

  test('Date.now() reads the clock', async () => {
    await assertRefused('server/src/template/__lint_probe__.ts', 'export const now = Date.now();\n', 'no-restricted-properties', NO_CLOCK);
  });

  test('performance and timers', async () => {
    await assertRefused('server/src/impact/__lint_probe__.ts', 'export const now = performance.now();\n', 'no-restricted-globals', NO_CLOCK);
    await assertRefused('server/src/impact/__lint_probe__.ts', 'setTimeout(() => undefined, 1);\n', 'no-restricted-globals', NO_CLOCK);
  });

  test('Math.random() and crypto', async () => {
    await assertRefused('server/src/spec/__lint_probe__.ts', 'export const dice = Math.random();\n', 'no-restricted-properties', NO_RANDOMNESS);
    await assertRefused('server/src/spec/__lint_probe__.ts', 'export const id = crypto.randomUUID();\n', 'no-restricted-globals', NO_RANDOMNESS);
  });

  test('process and the global object', async () => {
    await assertRefused('server/src/impact/__lint_probe__.ts', 'export const region = process.env.AWS_REGION;\n', 'no-restricted-globals', NO_ENVIRONMENT);
    await assertRefused('server/src/impact/__lint_probe__.ts', 'export const now = globalThis.Date.now();\n', 'no-restricted-globals', NO_ENVIRONMENT);
  });

  test('dates from given values are fine', async () => {
    await assertAccepted('server/src/evaluate/__lint_probe__.ts', "export const epoch = Date.parse('2020-01-01T00:00:00Z');\n");
  });
});

describe('cloudformation/ is pure knowledge that imports only itself', () => {
  const probe = 'server/src/cloudformation/__lint_probe__.ts';
  const ONLY_ITSELF = 'cloudformation/ is pure knowledge and imports nothing outside its folder';

  test('not the engine, the stacks module, a package or a Node built-in', async () => {
    await assertRefused(probe, "import '../impact/types';\n", 'no-restricted-imports', ONLY_ITSELF);
    await assertRefused(probe, "import '../stacks/stackModel';\n", 'no-restricted-imports', ONLY_ITSELF);
    await assertRefused(probe, "import 'yaml';\n", 'no-restricted-imports', ONLY_ITSELF);
    await assertRefused(probe, "import 'node:fs';\n", 'no-restricted-imports', NO_BUILTIN);
  });

  test("and no clock: the engine's purity rules hold there too", async () => {
    await assertRefused(probe, 'export const now = Date.now();\n', 'no-restricted-properties', NO_CLOCK);
  });

  test('its own modules are fine', async () => {
    await assertAccepted(probe, "import './stackLifecycle';\n");
  });
});

describe('present/ words what the engine finds, and talks to nothing', () => {
  const probe = 'server/src/present/__lint_probe__.ts';
  const ONLY_ENGINE = 'present/ imports only itself and the engine';

  test('not the stacks module, the faces, a package or a Node built-in', async () => {
    await assertRefused(probe, "import '../stacks/stackWatcher';\n", 'no-restricted-imports', ONLY_ENGINE);
    await assertRefused(probe, "import '../lsp/protocol';\n", 'no-restricted-imports', ONLY_ENGINE);
    await assertRefused(probe, "import '../cli/terminal';\n", 'no-restricted-imports', ONLY_ENGINE);
    await assertRefused(probe, "import 'vscode-languageserver';\n", 'no-restricted-imports', ONLY_ENGINE);
    await assertRefused(probe, "import 'node:fs';\n", 'no-restricted-imports', 'present/ is pure');
  });

  test('the engine, and itself, are fine', async () => {
    await assertAccepted(probe, "import '../impact/types';\nimport '../evaluate/modules';\nimport '../cloudformation/stackLifecycle';\nimport './lists';\n");
  });

  test('the engine may not import present/: words come after the facts', async () => {
    await assertRefused('server/src/impact/__lint_probe__.ts', "import '../present';\n", 'no-restricted-imports', ENGINE_ONLY);
  });
});

describe('stacks/, lsp/ and cli/ point one way', () => {
  test('stacks/ imports neither lsp/ nor cli/', async () => {
    await assertRefused('server/src/stacks/__lint_probe__.ts', "import '../lsp/protocol';\n", 'no-restricted-imports', "'../lsp/protocol'", STACKS_SERVES);
    await assertRefused('server/src/stacks/__lint_probe__.ts', "import '../cli/terminal';\n", 'no-restricted-imports', "'../cli/terminal'", STACKS_SERVES);
  });

  test('git/ imports neither lsp/ nor cli/', async () => {
    await assertRefused('server/src/git/__lint_probe__.ts', "import '../lsp/protocol';\n", 'no-restricted-imports', "'../lsp/protocol'", GIT_SERVES);
    await assertRefused('server/src/git/__lint_probe__.ts', "import '../cli/terminal';\n", 'no-restricted-imports', "'../cli/terminal'", GIT_SERVES);
  });

  test('assemblies/ imports neither lsp/ nor cli/', async () => {
    await assertRefused('server/src/assemblies/__lint_probe__.ts', "import '../lsp/protocol';\n", 'no-restricted-imports', "'../lsp/protocol'", GIT_SERVES);
    await assertRefused('server/src/assemblies/__lint_probe__.ts', "import '../cli/diff';\n", 'no-restricted-imports', "'../cli/diff'", GIT_SERVES);
  });

  test('lsp/ does not import cli/, from any depth', async () => {
    await assertRefused('server/src/lsp/__lint_probe__.ts', "import '../cli/renderReport';\n", 'no-restricted-imports', "'../cli/renderReport'", FACES_APART);
    await assertRefused('server/src/lsp/worker/__lint_probe__.ts', "import '../../cli/io';\n", 'no-restricted-imports', "'../../cli/io'", FACES_APART);
  });

  test('cli/ does not import lsp/', async () => {
    await assertRefused('server/src/cli/__lint_probe__.ts', "import '../lsp/wording';\n", 'no-restricted-imports', "'../lsp/wording'", FACES_APART);
  });

  test('each may import the engine and stacks/ as today', async () => {
    await assertAccepted('server/src/stacks/__lint_probe__.ts', "import './stackModel';\nimport '../cloudformation/stackLifecycle';\nimport '@aws-sdk/client-cloudformation';\n");
    await assertAccepted('server/src/lsp/__lint_probe__.ts', "import '../impact';\nimport '../stacks/stackWatcher';\nimport 'vscode-languageserver/node';\n");
    await assertAccepted('server/src/cli/__lint_probe__.ts', "import '../impact';\nimport '../stacks/stackWatcher';\nimport 'node:fs';\n");
    await assertAccepted('server/src/cli/__lint_probe__.ts', "import '../git/changedFiles';\n");
    await assertAccepted('server/src/lsp/__lint_probe__.ts', "import '../git/repository';\n");
  });

  test('only client/ imports vscode', async () => {
    await assertRefused('server/src/lsp/__lint_probe__.ts', "import 'vscode';\n", 'no-restricted-imports', 'Only client/ may import vscode');
    await assertRefused('server/src/stacks/__lint_probe__.ts', "import 'vscode';\n", 'no-restricted-imports', 'Only client/ may import vscode');
  });
});

describe('no import cycle among the project\'s modules, type-only imports included', () => {
  const CYCLE = 'This import closes a cycle';
  const readOwn = (path: string) => readFileSync(join(repository, path), 'utf8');

  test('a module that imports one of the modules that import it is refused, with the cycle named', async () => {
    // sam/model/properties.ts imports sam/model/errors.ts: errors.ts importing properties.ts back closes a cycle.
    const probe = `import type { PropertySpec } from './properties';\nexport type Probe = PropertySpec;\n${readOwn('server/src/sam/model/errors.ts')}`;
    await assertRefused('server/src/sam/model/errors.ts', probe, 'project/no-import-cycle', CYCLE, 'server/src/sam/model/errors.ts → server/src/sam/model/properties.ts');
  });

  test('a longer cycle through another folder is refused too', async () => {
    // impact/analyze.ts reaches template/model.ts through the template index.
    const probe = `import '../impact/analyze';\n${readOwn('server/src/template/model.ts')}`;
    await assertRefused('server/src/template/model.ts', probe, 'project/no-import-cycle', CYCLE, 'server/src/template/model.ts → server/src/impact/analyze.ts');
  });

  test('the modules as they are close no cycle', async () => {
    await assertAccepted('server/src/sam/model/values.ts', readOwn('server/src/sam/model/values.ts'));
    await assertAccepted('server/src/lsp/analysis.ts', readOwn('server/src/lsp/analysis.ts'));
  });
});

describe("sam/ is laid out as the transform's stages, each importing only itself and those below", () => {

  test('the model may not import a resource translator, nor a translator a plugin', async () => {
    await assertRefused('server/src/sam/model/__lint_probe__.ts', "import '../resources/function/function';\n", 'project/sam-stages', "sam/'s model stage", 'python', 'not resources');
    await assertRefused('server/src/sam/resources/api/__lint_probe__.ts', "import '../../plugins/implicitHttpApi';\n", 'project/sam-stages', "sam/'s resources stage", 'not plugins');
    await assertRefused('server/src/sam/python/__lint_probe__.ts', "import '../model/values';\n", 'project/sam-stages', "sam/'s python stage", '(none)');
  });

  test('the output is not read by what it outputs', async () => {
    await assertRefused('server/src/sam/__lint_probe__.ts', "export {};\n", 'project/sam-stages', 'in no stage of sam/');
    await assertRefused('server/src/sam/plugins/__lint_probe__.ts', "import '../output/sourceMap';\n", 'project/sam-stages', "sam/'s plugins stage", 'not output');
  });

  test('a stage imports itself and the stages below it', async () => {
    await assertAccepted('server/src/sam/plugins/__lint_probe__.ts', "import '../resources/api/apiEvent';\nimport '../model/values';\nimport '../python/py27Dict';\nimport './globals';\n");
    await assertAccepted('server/src/sam/output/__lint_probe__.ts', "import '../translate';\nimport '../../template/tree';\n");
  });
});
