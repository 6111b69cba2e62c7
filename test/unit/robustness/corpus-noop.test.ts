/**
 * Every real template in ../shared/corpus/ parses, evaluates and, compared with itself, is a
 * no-op. Parameters without a Default get a placeholder value that satisfies their
 * constraints, as a parameter file would supply one. Skips with a reason when the corpus is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { analyzeUpdate } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { parseTemplate, readTemplateModel, toPlain } from '../../../server/src/template';
import type { TemplateModel } from '../../../server/src/template/model';

const CORPUS = join(__dirname, '..', '..', '..', '..', 'shared', 'corpus');

/**
 * Files that are not deployable as written, by relative path, with the reason. Rain modules
 * (`!Rain::Module`, `!Rain::Embed`) are expanded by `rain pkg` before CloudFormation sees the
 * template, and two of the module files themselves are fragments; the MacrosExamples event
 * files are Lambda test events that contain a template.
 */
const EXCEPTIONS: Record<string, string> = {
  'aws-cloudformation-templates/CloudFormation/MacrosExamples/Count/event.json': 'a macro Lambda test event, not a template',
  'aws-cloudformation-templates/CloudFormation/MacrosExamples/Count/event_bad.json': 'a macro Lambda test event, not a template',
  'aws-cloudformation-templates/RainModules/api-resource.yml': 'a Rain module: its parameters stand for resources of the template that uses it',
  'aws-cloudformation-templates/RainModules/static-site.yml': 'a Rain module that nests other Rain modules',
  'aws-cloudformation-templates/Solutions/GitLab/GitLabServer.json': 'Rain modules: resources come from rain pkg',
  'aws-cloudformation-templates/Solutions/GitLab/GitLabServer.yaml': 'Rain modules: resources come from rain pkg',
  'aws-cloudformation-templates/Solutions/GitLabAndVSCode/GitLabAndVSCode.json': 'Rain modules: resources come from rain pkg',
  'aws-cloudformation-templates/Solutions/GitLabAndVSCode/GitLabAndVSCode.yaml': 'Rain modules: resources come from rain pkg',
  'aws-cloudformation-templates/Solutions/Gitea/Gitea.json': 'Rain modules: resources come from rain pkg',
  'aws-cloudformation-templates/Solutions/Gitea/Gitea.yaml': 'Rain modules: resources come from rain pkg',
  'aws-cloudformation-templates/Solutions/VSCode/VSCodeServer.json': 'Rain modules: resources come from rain pkg',
  'aws-cloudformation-templates/Solutions/VSCode/VSCodeServer.yaml': 'Rain modules: resources come from rain pkg',
};

/**
 * Parameter values some templates need to be deployable at all. The ADConnector sample's Lambda
 * always references ADConnectorDomainMembersSG, which exists only when this parameter is Yes (its
 * Default is No): CloudFormation rejects it with the defaults, and so does the engine.
 */
const PARAMETER_OVERRIDES: Record<string, Record<string, string>> = {
  'aws-cloudformation-templates/Solutions/ADConnector/templates/ADCONNECTOR.cfn.json': { CreateADConnectorDomainMembersSG: 'Yes' },
  'aws-cloudformation-templates/Solutions/ADConnector/templates/ADCONNECTOR.cfn.yaml': { CreateADConnectorDomainMembersSG: 'Yes' },
};

/** Example values for the AWS-specific parameter types, which CloudFormation checks against the account only at deploy time. */
const AWS_TYPE_EXAMPLES: Record<string, string> = {
  'AWS::EC2::AvailabilityZone::Name': 'us-east-1a',
  'AWS::EC2::Image::Id': 'ami-0123456789abcdef0',
  'AWS::EC2::Instance::Id': 'i-0123456789abcdef0',
  'AWS::EC2::KeyPair::KeyName': 'my-key',
  'AWS::EC2::SecurityGroup::GroupName': 'my-group',
  'AWS::EC2::SecurityGroup::Id': 'sg-0123456789abcdef0',
  'AWS::EC2::Subnet::Id': 'subnet-0123456789abcdef0',
  'AWS::EC2::Volume::Id': 'vol-0123456789abcdef0',
  'AWS::EC2::VPC::Id': 'vpc-0123456789abcdef0',
  'AWS::Route53::HostedZone::Id': 'Z0123456789ABCDEFGHIJ',
};

function templateFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...templateFiles(path));
    else if (/\.(ya?ml|json)$/i.test(name)) files.push(path);
  }
  return files;
}

/** AllowedPattern as the engine reads it (RE2, the whole value must match); patterns RE2 cannot read are ignored. */
function compilePattern(text: unknown): { test: (value: string) => boolean; source: RegExp | undefined } | undefined {
  if (typeof text !== 'string') return undefined;
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(text);
  } catch {
    return undefined;
  }
  let source: RegExp | undefined;
  try {
    source = new RegExp(`^(?:${text})$`);
  } catch {
    source = undefined;
  }
  return { test: (value) => re2.matches(value), source };
}

/** Strings generated from a pattern; none when fast-check cannot read it. */
function fromPattern(pattern: RegExp | undefined): string[] {
  if (pattern === undefined) return [];
  try {
    return fc.sample(fc.stringMatching(pattern), { seed: 1, numRuns: 100 });
  } catch {
    return [];
  }
}

/** A value for every parameter without a Default that satisfies its declared constraints. */
function placeholderParameters(model: TemplateModel): Record<string, string> {
  const values: Record<string, string> = {};
  for (const decl of model.parameters.values()) {
    if (decl.default !== undefined) continue;
    const spec = toPlain(decl.node) as Record<string, unknown>;
    const type = decl.type ?? 'String';
    const allowed = spec.AllowedValues;
    const item = (): string => {
      if (Array.isArray(allowed) && allowed.length > 0) return String(allowed[0]);
      const element = type.match(/^List<(.+)>$/)?.[1] ?? type;
      if (element === 'Number') return String(spec.MinValue ?? spec.MaxValue ?? 1);
      if (AWS_TYPE_EXAMPLES[element] !== undefined) return AWS_TYPE_EXAMPLES[element]!;
      const minLength = Number(spec.MinLength ?? 0);
      const maxLength = Number(spec.MaxLength ?? Infinity);
      const pattern = compilePattern(spec.AllowedPattern);
      const fits = (v: string): boolean => v.length >= minLength && v.length <= maxLength && (pattern === undefined || pattern.test(v));
      // Common shapes first (a name, a host name, a password with every character class), then strings generated from the pattern.
      const common = ['placeholder', 'example.com', 'Placeholder1!', 'user@example.com', '1', '', 'placeholder'.padEnd(minLength, 'x')];
      const fit = common.find(fits) ?? fromPattern(pattern?.source).find(fits);
      assert.ok(fit !== undefined, `no placeholder satisfies the constraints of parameter ${decl.name}`);
      return fit;
    };
    // Lists get six items, because templates pick items by index (Fn::Select [2, !Ref Subnets]).
    const isList = type === 'CommaDelimitedList' || type.startsWith('List<');
    values[decl.name] = isList && !Array.isArray(allowed) ? Array.from({ length: 6 }, item).join(',') : item();
  }
  return values;
}

const present = existsSync(CORPUS);
describe('every corpus template compared with itself is a no-op', { skip: present ? false : `no corpus at ${CORPUS}` }, () => {
  if (!present) return;
  const spec = loadResourceSpec();
  const files = templateFiles(CORPUS);

  test('the corpus holds templates, and every exception still exists', () => {
    assert.ok(files.length > 0);
    const paths = new Set(files.map((f) => relative(CORPUS, f)));
    for (const path of [...Object.keys(EXCEPTIONS), ...Object.keys(PARAMETER_OVERRIDES)]) assert.ok(paths.has(path), `${path} is not in the corpus any more`);
  });

  for (const file of files) {
    const path = relative(CORPUS, file);
    const exception = EXCEPTIONS[path];
    test(path, { skip: exception }, () => {
      const text = readFileSync(file, 'utf8');
      const parameters = { ...placeholderParameters(readTemplateModel(parseTemplate(text))), ...PARAMETER_OVERRIDES[path] };
      const { report, after } = analyzeUpdate({ text, parameters }, { text, parameters }, { spec });
      assert.equal(after.model.isCloudFormation, true, 'not recognised as a CloudFormation template');
      const errors = report.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
      assert.deepEqual(errors, []);
      assert.equal(report.status, 'noop', report.message);
    });
  }
});
