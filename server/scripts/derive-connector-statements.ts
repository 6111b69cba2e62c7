/**
 * Derives the IAM statements of SAM's connector profiles from SAM's own translator suite, into
 * server/src/sam/resources/connector/profileStatements.json, which the transform ships with.
 *
 *   npm run build:connector-statements    (needs ../shared/sam-translator-tests)
 *
 * Wherever a valid input of the suite has a connector (`AWS::Serverless::Connector`, or one
 * embedded in a resource's `Connectors`) whose profile writes a policy (a role's managed policy,
 * a queue policy, a topic policy), its output holds that policy's statements: those of each
 * access category granted, in the profile's order. SAM writes a category's statements from its
 * profile by replacing each `%{Source.Arn}`-like variable: a string that is one variable becomes
 * the variable's value, variables inside a longer string become `Fn::Sub` variables
 * (`${SourceArn}`). The script works the other way, with the variables' values the transform
 * computes for the connector's two sides (connector/reference.ts) on the resources of the output,
 * and keeps a category's statements only when replacing their variables again gives the output
 * back exactly. A policy of several categories is split where the statements of all but one are
 * known, and kept whole, under the categories joined by `+` in the profile's order, where not. Two uses that give different statements for a category stop the script; what cannot be
 * derived is named and left out (the transform keeps those categories symbolic).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { PROFILES, PROFILE_VARIABLES as VARIABLES, type ProfileVariable } from '../src/sam/resources/connector/profiles';
import { profileReplace, profileVariables } from '../src/sam/resources/connector/profileReplace';
import { ConnectorResourceError, resourceReference, type ConnectableResource, type ResourceResolver } from '../src/sam/model/connectable';
import { isMap, listsSorted, validSuiteCases, type Json, type JsonMap } from './samSuite';

const OUTPUT = join(__dirname, '..', 'src', 'sam', 'resources', 'connector', 'profileStatements.json');
/** The generated policy's id suffix for each kind of policy a profile writes. */
const POLICY_SUFFIX: Record<string, string> = { AWS_IAM_ROLE_MANAGED_POLICY: 'Policy', AWS_SQS_QUEUE_POLICY: 'QueuePolicy', AWS_SNS_TOPIC_POLICY: 'TopicPolicy' };


/** One connector's policy in an output: its pair of types, the categories granted and the statements written. */
interface PolicyUse {
  sourceType: string;
  destinationType: string;
  categories: string[];
  statements: Json[];
  values: Record<ProfileVariable, unknown>;
  where: string;
}

/** Why a statement's variables cannot be put back. */
class NotInvertible extends Error {}

/** A statement with each variable's value put back as its `%{...}` string. */
function withVariables(statement: Json, values: Record<ProfileVariable, unknown>): Json {
  const known = VARIABLES.filter((v) => values[v] !== undefined && values[v] !== null);
  const invert = (value: Json): Json => {
    const matching = known.filter((v) => isDeepStrictEqual(values[v], value));
    if (matching.length > 1) throw new NotInvertible(`the value ${JSON.stringify(value)} is ${matching.join(' and ')}`);
    if (matching.length === 1) return `%{${matching[0]}}`;
    if (Array.isArray(value)) return value.map(invert);
    if (!isMap(value)) return value;
    const sub = value['Fn::Sub'];
    if (Object.keys(value).length === 1 && typeof sub === 'string') return sub;
    if (Object.keys(value).length === 1 && Array.isArray(sub) && sub.length === 2 && typeof sub[0] === 'string' && isMap(sub[1])) {
      let text = sub[0];
      for (const [name, v] of Object.entries(sub[1])) {
        const variable = VARIABLES.find((candidate) => candidate.replace('.', '') === name);
        if (variable === undefined || !isDeepStrictEqual(values[variable], v)) throw new NotInvertible(`the Fn::Sub variable ${name} is no variable of the profile`);
        text = text.split(`\${${name}}`).join(`%{${variable}}`);
      }
      return text;
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, invert(v)]));
  };
  return invert(statement);
}

/** A connector of an input, embedded ones included: its id, its two sides, whether `Destination` is a list, what it grants. */
interface ConnectorUse {
  logicalId: string;
  source: JsonMap;
  destinations: JsonMap[];
  multi: boolean;
  permissions: string[];
}

function connectorsOf(resources: JsonMap): ConnectorUse[] {
  const out: ConnectorUse[] = [];
  const permissionsOf = (p: JsonMap) => (Array.isArray(p.Permissions) ? p.Permissions.map(String) : []);
  const destinationsOf = (p: JsonMap) => (Array.isArray(p.Destination) ? p.Destination.filter(isMap) : isMap(p.Destination) ? [p.Destination] : []);
  for (const [id, resource] of Object.entries(resources)) {
    if (!isMap(resource)) continue;
    const properties = isMap(resource.Properties) ? resource.Properties : {};
    if (resource.Type === 'AWS::Serverless::Connector' && isMap(properties.Source)) {
      out.push({ logicalId: id, source: properties.Source, destinations: destinationsOf(properties), multi: Array.isArray(properties.Destination), permissions: permissionsOf(properties) });
    }
    if (isMap(resource.Connectors)) {
      for (const [name, connector] of Object.entries(resource.Connectors)) {
        const p = isMap(connector) && isMap(connector.Properties) ? connector.Properties : {};
        const source = { ...(isMap(p.SourceReference) ? p.SourceReference : {}), Id: id };
        out.push({ logicalId: `${id}${name}`, source, destinations: destinationsOf(p), multi: Array.isArray(p.Destination), permissions: permissionsOf(p) });
      }
    }
  }
  return out;
}

/** The policies the connectors of one input wrote, with what each is about. */
function usesIn(input: JsonMap, output: JsonMap, file: string): PolicyUse[] {
  const generated = isMap(output.Resources) ? output.Resources : {};
  const resolver: ResourceResolver = {
    get: (logicalId) => {
      const resource = generated[logicalId];
      if (!isMap(resource)) return undefined;
      const connectable: ConnectableResource = { type: resource.Type, properties: isMap(resource.Properties) ? resource.Properties : {}, dependsOn: () => resource.DependsOn, setDependsOn: () => {} };
      return connectable;
    },
    all: () => [],
    dependentsOf: () => [],
  };
  const uses: PolicyUse[] = [];
  for (const { logicalId, source: sourceSpec, destinations, multi, permissions } of connectorsOf(isMap(input.Resources) ? input.Resources : {})) {
    destinations.forEach((destinationSpec, index) => {
      const source = resourceReference(sourceSpec, resolver, destinationSpec);
      const destination = resourceReference(destinationSpec, resolver, sourceSpec);
      if (source instanceof ConnectorResourceError || destination instanceof ConnectorResourceError) return;
      const profile = PROFILES[source.resourceType]?.[destination.resourceType];
      const suffix = profile && POLICY_SUFFIX[profile.type];
      if (!profile || !suffix) return;
      const policy = generated[multi ? `${logicalId}${suffix}Destination${index}` : `${logicalId}${suffix}`];
      const document = isMap(policy) && isMap(policy.Properties) ? policy.Properties.PolicyDocument : undefined;
      if (!isMap(document) || !Array.isArray(document.Statement)) return;
      const categories = Object.keys(profile.categories).filter((c) => permissions.includes(c));
      uses.push({ sourceType: source.resourceType, destinationType: destination.resourceType, categories, statements: document.Statement, values: profileVariables(source, destination), where: `${file} ${logicalId}` });
    });
  }
  return uses;
}

function main(): void {
  const uses = validSuiteCases().flatMap(({ file, input, output }) => usesIn(input, output, file));
  // statements[source][destination][category], and where each was first derived.
  const statements = new Map<string, { statements: Json[]; where: string }>();
  /** The key of one category's statements, or of a combination's (`Read+Write`). */
  const key = (use: PolicyUse, category: string) => `${use.sourceType}\u0000${use.destinationType}\u0000${category}`;
  const record = (use: PolicyUse, category: string, written: Json[]): boolean => {
    let templates: Json[];
    try {
      templates = written.map((statement) => withVariables(statement, use.values));
    } catch (error) {
      if (!(error instanceof NotInvertible)) throw error;
      console.log(`left out: ${use.sourceType} → ${use.destinationType} ${category} (${use.where}): ${error.message}`);
      return false;
    }
    // Replacing the variables again must give the output back.
    if (!isDeepStrictEqual(templates.map((t) => profileReplace(t, use.values)), written)) {
      console.log(`left out: ${use.sourceType} → ${use.destinationType} ${category} (${use.where}): replacing its variables does not give the output back`);
      return false;
    }
    // The suite's harness sorts lists before comparing, and some outputs were written sorted:
    // statements and their lists are compared sorted, and an order that is not sorted is SAM's.
    const known = statements.get(key(use, category));
    if (known && !isDeepStrictEqual(listsSorted(known.statements), listsSorted(templates))) throw new Error(`${key(use, category)}: ${use.where} and ${known.where} give different statements`);
    if (!known || (isDeepStrictEqual(known.statements, listsSorted(known.statements)) && !isDeepStrictEqual(templates, listsSorted(templates)))) statements.set(key(use, category), { statements: templates, where: use.where });
    return true;
  };
  // Single categories first; then policies of several, the statements of each known category
  // taken out of them (in any order) and the rest given to the one category not known yet.
  let pending = uses.filter((use) => use.categories.length > 0);
  for (let progress = true; progress; ) {
    progress = false;
    const next: PolicyUse[] = [];
    for (const use of pending) {
      const unknown = use.categories.filter((c) => !statements.has(key(use, c)));
      if (unknown.length > 1) {
        next.push(use);
        continue;
      }
      const rest = [...use.statements];
      const taken = use.categories.every((category) => {
        const known = statements.get(key(use, category));
        if (!known) return true;
        return known.statements.every((template) => {
          const written = JSON.stringify(listsSorted(profileReplace(template, use.values) as Json));
          const at = rest.findIndex((statement) => JSON.stringify(listsSorted(statement)) === written);
          if (at < 0) return false;
          rest.splice(at, 1);
          return true;
        });
      });
      if (!taken) console.log(`left out: ${use.where}: the statements of the categories known are not all in its policy`);
      else if (unknown.length === 1) progress = record(use, unknown[0]!, rest) || progress;
      else if (rest.length > 0) console.log(`left out: ${use.where}: statements no category of it accounts for`);
    }
    pending = next;
  }
  // A combination no category of which is known alone is kept as that combination.
  for (const use of pending) record(use, use.categories.join('+'), use.statements);
  const data: { source: string; statements: Record<string, Record<string, Record<string, Json[]>>> } = {
    source: "Derived by server/scripts/derive-connector-statements.ts from the AWS SAM translator's test suite (tests/translator), Apache License 2.0.",
    statements: {},
  };
  for (const [k, { statements: s }] of [...statements].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [source, destination, category] = k.split('\u0000') as [string, string, string];
    ((data.statements[source] ??= {})[destination] ??= {})[category] = s;
  }
  writeFileSync(OUTPUT, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`${statements.size} connector access categories written to ${OUTPUT}`);
}

main();
