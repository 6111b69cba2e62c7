/**
 * Derives the statements of SAM's policy templates from SAM's own translator suite, into
 * server/src/sam/model/policyTemplateDefinitions.json, which the transform ships with.
 *
 *   npm run build:policy-templates    (needs ../shared/sam-translator-tests)
 *
 * Wherever a valid input of the suite gives a function (or state machine) a policy template, its
 * output holds the role policy the template became (`<Id>RolePolicy<index>`, in an `Fn::If` when
 * the template is in one). SAM puts a parameter's value where the template's definition says
 * `{"Ref": "<Parameter>"}`, and every template passes its parameters to `Fn::Sub` as a variable
 * named after the parameter (`queueName` for `QueueName`): the definition is the output with each
 * such variable's value put back as that `Ref`. A use the script cannot invert that way (the value
 * found anywhere else, a parameter found nowhere) is left out and named; two uses of one template
 * that give different definitions stop the script, so a change in the suite cannot slip a wrong
 * definition in. Templates the suite never uses are left out (the transform keeps them symbolic).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isPolicyTemplateName } from '../src/sam/model/policyTemplates';
import { isMap, validSuiteCases, type Json, type JsonMap } from './samSuite';

const OUTPUT = join(__dirname, '..', 'src', 'sam', 'model', 'policyTemplateDefinitions.json');
/** The resource types whose generated role takes `Policies` (policy templates included). */
const WITH_ROLE = new Set(['AWS::Serverless::Function', 'AWS::Serverless::StateMachine']);

/** The definition of one template: its document with each parameter's value put back as a `Ref` to the parameter. */
function definitionOf(parameters: JsonMap, document: Json): Json | string {
  const placed = new Set<string>();
  const literals = new Set(Object.values(parameters).filter((v) => typeof v === 'string'));
  let problem: string | undefined;
  const invert = (value: Json, variable?: string): Json => {
    if (variable !== undefined) {
      const parameter = Object.keys(parameters).find((p) => p.toLowerCase() === variable.toLowerCase());
      if (parameter !== undefined && isDeepStrictEqual(parameters[parameter], value)) {
        placed.add(parameter);
        return { Ref: parameter };
      }
    }
    if (Array.isArray(value)) return value.map((item) => invert(item));
    if (isMap(value)) {
      const sub = value['Fn::Sub'];
      if (Object.keys(value).length === 1 && Array.isArray(sub) && sub.length === 2 && isMap(sub[1])) {
        const variables = Object.fromEntries(Object.entries(sub[1]).map(([key, v]) => [key, invert(v, key)]));
        return { 'Fn::Sub': [invert(sub[0]!), variables] };
      }
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, invert(v)]));
    }
    if (typeof value === 'string' && literals.has(value)) problem ??= `the value ${JSON.stringify(value)} appears where no parameter's variable is`;
    return value;
  };
  const definition = invert(document);
  const unplaced = Object.keys(parameters).filter((p) => !placed.has(p));
  if (unplaced.length > 0) problem ??= `parameters ${unplaced.join(', ')} appear nowhere in the output`;
  return problem ?? definition;
}

/** A policy template use: the template's name and parameters, and the document SAM made of it. */
interface Use {
  name: string;
  parameters: JsonMap;
  document: Json;
  where: string;
}

/** The policy template uses of one input, each with the document its output holds for it. */
function usesIn(input: JsonMap, output: JsonMap, file: string): Use[] {
  const uses: Use[] = [];
  const outputResources = isMap(output.Resources) ? output.Resources : {};
  for (const [id, resource] of Object.entries(isMap(input.Resources) ? input.Resources : {})) {
    if (!isMap(resource) || typeof resource.Type !== 'string' || !WITH_ROLE.has(resource.Type) || !isMap(resource.Properties)) continue;
    const policies = resource.Properties.Policies;
    const role = outputResources[`${id}Role`];
    const rolePolicies = isMap(role) && isMap(role.Properties) && Array.isArray(role.Properties.Policies) ? role.Properties.Policies : [];
    if (!Array.isArray(policies)) continue;
    const policyName = `${id}RolePolicy`;
    const documentNamed = (entry: Json, name: string) => (isMap(entry) && entry.PolicyName === name ? entry.PolicyDocument : undefined);
    policies.forEach((policy, index) => {
      const name = `${policyName}${index}`;
      const template = (value: Json): [string, JsonMap] | undefined => {
        if (!isMap(value) || Object.keys(value).length !== 1) return undefined;
        const [key] = Object.keys(value);
        const parameters = value[key!];
        return isPolicyTemplateName(key!) ? [key!, isMap(parameters) ? parameters : {}] : undefined;
      };
      const direct = template(policy);
      if (direct) {
        const document = rolePolicies.map((entry) => documentNamed(entry, name)).find((d) => d !== undefined);
        if (document !== undefined) uses.push({ name: direct[0], parameters: direct[1], document, where: `${file} ${id}` });
        return;
      }
      const branches = isMap(policy) && Array.isArray(policy['Fn::If']) ? policy['Fn::If'] : undefined;
      if (!branches || branches.length !== 3) return;
      const conditional = rolePolicies.find((entry) => isMap(entry) && Array.isArray(entry['Fn::If']) && entry['Fn::If'].some((b) => documentNamed(b, name) !== undefined));
      const outputBranches = isMap(conditional) ? (conditional['Fn::If'] as Json[]) : [];
      for (const b of [1, 2]) {
        const used = template(branches[b]!);
        const document = outputBranches[b] === undefined ? undefined : documentNamed(outputBranches[b]!, name);
        if (used && document !== undefined) uses.push({ name: used[0], parameters: used[1], document, where: `${file} ${id}` });
      }
    });
  }
  return uses;
}

function main(): void {
  const templates = new Map<string, { definition: Json; where: string }>();
  for (const { file, input, output } of validSuiteCases()) {
    for (const use of usesIn(input, output, file)) {
      const definition = definitionOf(use.parameters, use.document);
      if (typeof definition === 'string') {
        console.log(`left out: ${use.name} in ${use.where}: ${definition}`);
        continue;
      }
      const known = templates.get(use.name);
      if (known && !isDeepStrictEqual(known.definition, definition)) throw new Error(`${use.name}: ${use.where} and ${known.where} give different definitions`);
      if (!known) templates.set(use.name, { definition, where: use.where });
    }
  }
  const sorted = [...templates.keys()].sort();
  const data = {
    source: "Derived by server/scripts/derive-policy-templates.ts from the AWS SAM translator's test suite (tests/translator), Apache License 2.0.",
    templates: Object.fromEntries(sorted.map((name) => [name, templates.get(name)!.definition])),
  };
  writeFileSync(OUTPUT, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`${sorted.length} policy templates written to ${OUTPUT}`);
}

main();
