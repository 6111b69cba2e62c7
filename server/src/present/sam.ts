/**
 * What a SAM resource's update does, in words: the one lens above the SAM resource (what happens
 * to the resource it is, and to what the Serverless transform generated for it) and the hover
 * that names each generated resource and what happens to it.
 */
import { changesSomething } from '../impact/claims';
import type { ResourceChange } from '../impact/types';
import { changeReason, moreLine } from './changes';
import { impactHeading, impactLabel } from './impacts';
import { fittedLens } from './lens';
import { listSome } from './lists';
import { rolloutLensPart } from './rollouts';

/** Parts of a SAM lens shown before the rest are counted. */
const PARTS_SHOWN = 5;

/** What people call the resources SAM generates, one and several. */
const NOUNS: Record<string, readonly [string, string]> = {
  'AWS::Lambda::Function': ['function', 'functions'],
  'AWS::Lambda::Version': ['version', 'versions'],
  'AWS::Lambda::Alias': ['alias', 'aliases'],
  'AWS::Lambda::Permission': ['permission', 'permissions'],
  'AWS::Lambda::EventSourceMapping': ['event source mapping', 'event source mappings'],
  'AWS::Lambda::Url': ['function URL', 'function URLs'],
  'AWS::Lambda::EventInvokeConfig': ['invoke config', 'invoke configs'],
  'AWS::Lambda::LayerVersion': ['layer version', 'layer versions'],
  'AWS::IAM::Role': ['role', 'roles'],
  'AWS::IAM::Policy': ['policy', 'policies'],
  'AWS::IAM::ManagedPolicy': ['managed policy', 'managed policies'],
  'AWS::ApiGateway::RestApi': ['API', 'APIs'],
  'AWS::ApiGateway::Deployment': ['API deployment', 'API deployments'],
  'AWS::ApiGateway::Stage': ['stage', 'stages'],
  'AWS::ApiGatewayV2::Api': ['HTTP API', 'HTTP APIs'],
  'AWS::ApiGatewayV2::Stage': ['stage', 'stages'],
  'AWS::Events::Rule': ['event rule', 'event rules'],
  'AWS::SNS::Subscription': ['subscription', 'subscriptions'],
  'AWS::SQS::Queue': ['queue', 'queues'],
  'AWS::SNS::Topic': ['topic', 'topics'],
  'AWS::CodeDeploy::Application': ['CodeDeploy application', 'CodeDeploy applications'],
  'AWS::CodeDeploy::DeploymentGroup': ['deployment group', 'deployment groups'],
  'AWS::DynamoDB::Table': ['table', 'tables'],
  'AWS::StepFunctions::StateMachine': ['state machine', 'state machines'],
  'AWS::CloudFormation::Stack': ['nested stack', 'nested stacks'],
};

/** What people call a resource SAM generates (`role`, `API deployment`); a type with no common name is named as such. */
export function generatedNoun(type: string): string {
  return NOUNS[type]?.[0] ?? type;
}

/** `role`, `2 permissions`; a type with no common name is named as such: `2 AWS::S3::Bucket`. */
function counted(type: string, count: number): string {
  const noun = NOUNS[type];
  if (!noun) return count === 1 ? type : `${count} ${type}`;
  return count === 1 ? noun[0] : `${count} ${noun[1]}`;
}

/** Whether a change only points at a resource recreated under a new logical id (an alias at a new version, a stage at a new deployment). */
function followsOnly(change: ResourceChange, path: string): boolean {
  return change.action === 'Modify' && change.details.length > 0 && change.details.every((d) => d.target.path === path);
}

/** What a change that only follows a recreated resource follows: the type whose recreation it is part of. */
const FOLLOWS: Record<string, { type: string; path: string }> = {
  'AWS::Lambda::Alias': { type: 'AWS::Lambda::Version', path: '/Properties/FunctionVersion' },
  'AWS::ApiGateway::Stage': { type: 'AWS::ApiGateway::Deployment', path: '/Properties/DeploymentId' },
};

/**
 * The one lens above a SAM resource: `✎ Update (no interruption) · + new version · ⟳ API deployment`.
 * First what happens to the resource that bears the SAM resource's name, then to what it
 * generated. SAM recreates some resources under a new logical id (a hash of what they hold) to
 * force a new one: an addition and a removal of the same type are one recreation, `⟳ API
 * deployment`, or `+ new version` when the old one is kept (SAM retains Lambda and layer
 * versions); an alias or a stage that only moves to the new one is part of it. Every other
 * generated resource is counted by what happens to it. `changes` are the changes attributed to
 * the SAM resource (`generatedBy`).
 */
export function samResourceLensTitle(samLogicalId: string, changes: readonly ResourceChange[]): string {
  const shown = changes.filter(changesSomething);
  const own = shown.find((c) => c.logicalId === samLogicalId && c.action !== 'Remove');
  const generated = shown.filter((c) => c !== own);
  const parts: string[] = own ? [impactHeading(own.impact)] : [];

  // Recreations: each addition paired with a removal of the same type.
  const paired = new Set<ResourceChange>();
  const recreated = new Set<string>();
  for (const added of generated) {
    if (added.action !== 'Add' || recreated.has(added.resourceType)) continue;
    const adds = generated.filter((c) => c.action === 'Add' && c.resourceType === added.resourceType);
    const removes = generated.filter((c) => c.action === 'Remove' && c.resourceType === added.resourceType);
    const pairs = Math.min(adds.length, removes.length);
    if (pairs === 0) continue;
    recreated.add(added.resourceType);
    for (const change of [...adds.slice(0, pairs), ...removes.slice(0, pairs)]) paired.add(change);
    const kept = removes.slice(0, pairs).every((c) => c.policyAction === 'Retain');
    parts.push(kept ? `${impactLabel('create').symbol} new ${counted(added.resourceType, pairs)}` : `${impactLabel('replacement').symbol} ${counted(added.resourceType, pairs)}`);
  }

  // How the alias reaches its new version comes next: a canary takes minutes and may fail the update.
  for (const change of generated) if (change.rollout) parts.push(rolloutLensPart(change.rollout));

  const counts = new Map<string, { symbol: string; type: string; count: number }>();
  // Changes that only point at a recreated resource: part of the recreation, not an edit of their own.
  const following = new Set<ResourceChange>();
  for (const change of generated) {
    if (paired.has(change)) continue;
    const follows = FOLLOWS[change.resourceType];
    if (follows && recreated.has(follows.type) && followsOnly(change, follows.path)) {
      following.add(change);
      continue;
    }
    const symbol = impactLabel(change.impact).symbol;
    const key = `${symbol} ${change.resourceType}`;
    const entry = counts.get(key) ?? { symbol, type: change.resourceType, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  for (const { symbol, type, count } of counts.values()) parts.push(`${symbol} ${counted(type, count)}`);
  // What was edited leads (`Timeout, Path → …`); then the parts give way to a count until the lens fits.
  const edited = editedSamProperties(shown.filter((change) => !following.has(change)));
  const what = (count: number) => (count === parts.length ? parts.join(' · ') : `${parts.slice(0, count).join(' · ')} · ${parts.length - count} more`);
  const named = (names: string, count: number) => (names ? `${names} → ${what(count)}` : what(count));
  // Every part with the edit named, then with fewer names, then the parts alone, then fewer parts.
  const candidates = [named(listSome(edited, 2), parts.length), named(listSome(edited, 1), parts.length)];
  for (let count = Math.min(parts.length, PARTS_SHOWN); count >= 1; count--) candidates.push(named('', count));
  return fittedLens(edited.length > 0 ? candidates : candidates.slice(2));
}

/**
 * The SAM properties whose values the changes come from, each once, by the name a person edits:
 * an event's property by its own name (`Path`), another by its path (`Timeout`, `Events.Hello`).
 */
function editedSamProperties(changes: readonly ResourceChange[]): string[] {
  const names = new Set<string>();
  for (const change of changes) {
    for (const detail of change.details) {
      // What follows a recreated resource (a new version's id, a new role's ARN) was not edited.
      const editedHere = (detail.changeSource === 'DirectModification' || detail.changeSource === 'ParameterReference') && detail.evaluation === 'Static';
      if (detail.samProperty === undefined || detail.keepsValue || !editedHere) continue;
      const inner = detail.samProperty.lastIndexOf('.Properties.');
      names.add(inner < 0 ? detail.samProperty : detail.samProperty.slice(inner + '.Properties.'.length));
    }
  }
  return [...names];
}

/** One resource the Serverless transform generated, as a hover lists it. */
export interface GeneratedResourceFacts {
  logicalId: string;
  type: string;
  /** Its change in this update, if any (a removal included). */
  change?: ResourceChange;
}

/** One generated resource in a hover: `` `HelloWorldFunctionRole` · AWS::IAM::Role — unchanged ``. */
function generatedLine(facts: GeneratedResourceFacts, replaced: ReadonlySet<string>): string {
  const { change } = facts;
  const fate = change && changesSomething(change) ? `**${impactHeading(change.impact)}**: ${changeReason(change, replaced)}` : 'unchanged';
  return `- \`${facts.logicalId}\` · ${facts.type} — ${fate}`;
}

/** Generated resources listed in a hover before the rest are counted. */
const GENERATED_SHOWN = 12;

/**
 * The hover on a SAM resource, one of its properties or a property of Globals (`name`, as the
 * person reads it: `HelloWorldFunction`, `CodeUri`, `Globals.Function.Timeout`): which resources
 * the Serverless transform generates from it and what this update does to each.
 */
export function samHoverText(name: string, samType: string, generated: readonly GeneratedResourceFacts[], replaced: ReadonlySet<string>): string {
  const lines = [`**${name}** · \`${samType}\``, ''];
  if (generated.length === 0) {
    lines.push('The Serverless transform generates nothing from it.');
    return lines.join('\n');
  }
  lines.push('The Serverless transform generates from it:');
  lines.push(...generated.slice(0, GENERATED_SHOWN).map((facts) => generatedLine(facts, replaced)));
  if (generated.length > GENERATED_SHOWN) lines.push(`- ${moreLine(generated.length - GENERATED_SHOWN)}`);
  return lines.join('\n');
}
