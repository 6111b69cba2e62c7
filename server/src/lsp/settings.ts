/**
 * The `cfnImpact.*` settings the server reads per document, checked before use: a settings file is
 * user input like any other, so a wrong type falls back to the default instead of breaking analysis.
 */

/** Settings that apply to one template document. */
export interface DocumentSettings {
  /** Quiet time after the last keystroke before analysing, in milliseconds. */
  debounceMs: number;
  /** The baseline of a template that no stack is linked to. */
  defaultBaseline: 'git' | 'none';
  /** Template glob (relative to the workspace folder) → stack name. */
  links: Record<string, string>;
  /** Template glob (relative to the workspace folder) → parameters file (relative to the workspace folder). */
  parameterFiles: Record<string, string>;
  /** The template (relative to the workspace folder) whose nested stack passes this one its parameter values; undefined to find it. */
  parentTemplate: string | undefined;
  /** SAM templates reach CloudFormation as written, with no `sam build`/`sam deploy` packaging them first. */
  withoutSamCli: boolean;
  /** Template glob (relative to the workspace folder) → the Region the template deploys to. */
  regions: Record<string, string>;
  /** Linked stacks whose updates are previewed as drift-aware change sets in REVERT_DRIFT mode. */
  revertDrift: string[];
  /** What a CDK app's stacks are compared with: `deployed`, or a folder (relative to the app's) holding a baseline cloud assembly. */
  cdkBaseline: string;
}

export const defaultSettings: DocumentSettings = {
  debounceMs: 150,
  defaultBaseline: 'git',
  links: {},
  parameterFiles: {},
  parentTemplate: undefined,
  withoutSamCli: false,
  regions: {},
  cdkBaseline: 'deployed',
  revertDrift: [],
};

/** Reads the `cfnImpact` settings section as a client returned it, keeping only well-typed values. */
export function readDocumentSettings(section: unknown): DocumentSettings {
  const root = isRecord(section) ? section : {};
  const analysis = isRecord(root.analysis) ? root.analysis : {};
  const baseline = isRecord(root.baseline) ? root.baseline : {};
  const parameters = isRecord(root.parameters) ? root.parameters : {};
  const nested = isRecord(root.nested) ? root.nested : {};
  const sam = isRecord(root.sam) ? root.sam : {};
  const cdk = isRecord(root.cdk) ? root.cdk : {};
  const debounce = analysis.debounceMs;
  return {
    debounceMs:
      typeof debounce === 'number' && Number.isFinite(debounce) ? Math.min(Math.max(Math.round(debounce), 0), 5000) : defaultSettings.debounceMs,
    defaultBaseline: baseline.default === 'none' ? 'none' : 'git',
    links: stringMap(baseline.links),
    parameterFiles: stringMap(parameters.files),
    parentTemplate: typeof nested.parentTemplate === 'string' && nested.parentTemplate.trim() !== '' ? nested.parentTemplate.trim() : undefined,
    withoutSamCli: sam.withoutSamCli === true,
    regions: stringMap(analysis.regions),
    revertDrift: Array.isArray(baseline.revertDrift) ? baseline.revertDrift.filter((name): name is string => typeof name === 'string' && name.trim() !== '') : [],
    cdkBaseline: typeof cdk.baseline === 'string' && cdk.baseline.trim() !== '' ? cdk.baseline.trim() : defaultSettings.cdkBaseline,
  };
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === 'string' && entry.trim() !== '') out[key] = entry;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
