// A lint rule: server/src/sam/ is laid out as the Serverless transform's stages, and each stage
// imports only itself and the stages below it (ARCHITECTURE.md, the code map's sam/ entry).
import { dirname, relative, resolve, sep } from 'node:path';

/** The stages, lowest first; a stage is a folder of sam/ or a file at its top. */
export const SAM_STAGES = [
  { name: 'python', holds: ['python'] },
  { name: 'model', holds: ['model'] },
  { name: 'resources', holds: ['resources'] },
  { name: 'plugins', holds: ['plugins'] },
  { name: 'translate', holds: ['translate.ts'] },
  { name: 'output', holds: ['output'] },
  { name: 'expansion', holds: ['expand.ts', 'index.ts', 'localArtifacts.ts'] },
];

/** The stage of a path inside sam/, or undefined for one outside it. */
function stageOf(samFolder, file) {
  const inside = relative(samFolder, file);
  if (inside.startsWith('..') || inside === '') return undefined;
  const first = inside.split(sep)[0];
  const index = SAM_STAGES.findIndex((stage) => stage.holds.includes(first) || stage.holds.includes(`${first}.ts`));
  return index < 0 ? { index: -1, name: first } : { index, name: SAM_STAGES[index].name };
}

export const samStages = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the stages of server/src/sam/ in order: each imports only itself and the stages below it.' },
    schema: [],
    messages: {
      upward: "sam/'s {{from}} stage imports only itself and the stages below it ({{below}}), not {{to}} (ARCHITECTURE.md, sam/ in the code map).",
      unknown: "{{name}} is in no stage of sam/ ({{stages}}): put it in the stage it belongs to (ARCHITECTURE.md, sam/ in the code map).",
    },
  },
  create(context) {
    const samFolder = resolve(context.cwd, 'server', 'src', 'sam');
    const file = context.filename;
    const own = stageOf(samFolder, file);
    if (own === undefined) return {};
    if (own.index < 0) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unknown', data: { name: own.name, stages: SAM_STAGES.map((s) => s.name).join(', ') } });
        },
      };
    }
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = stageOf(samFolder, resolve(dirname(file), specifier));
      if (target === undefined || target.index <= own.index) return;
      const below = SAM_STAGES.slice(0, own.index).map((s) => s.name).join(', ') || 'none';
      context.report({ node: node.source, messageId: 'upward', data: { from: own.name, to: target.name, below } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
