/**
 * What a SAM resource's update does, in words: the one lens above the SAM resource (what happens
 * to the resource it is, and to what the Serverless transform generated for it) and the hover
 * that names each generated resource and what happens to it.
 */
import { changesSomething } from '../impact/claims';
import type { ResourceChange } from '../impact/types';
import { changeReason, moreLine } from './changes';
import { impactHeading, impactLabel } from './impacts';

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

/** `role`, `2 permissions`; a type with no common name is named as such: `2 AWS::S3::Bucket`. */
function counted(type: string, count: number): string {
  const noun = NOUNS[type];
  if (!noun) return count === 1 ? type : `${count} ${type}`;
  return count === 1 ? noun[0] : `${count} ${noun[1]}`;
}

/** Whether a change does nothing but follow a resource that is recreated under a new logical id (an alias to a new version, a stage to a new deployment). */
function followsOnly(change: ResourceChange, path: string): boolean {
  return change.action === 'Modify' && change.details.length > 0 && change.details.every((d) => d.target.path === path);
}

/**
 * The one lens above a SAM resource: `✎ Update (no interruption) · + new version · ⟳ API deployment`.
 * First what happens to the resource that bears the SAM resource's name, then to what it
 * generated. A new version (SAM publishes one under a new logical id when the code changes) stands
 * for the old one's removal and the alias that moves to it; a new API deployment for the old one's
 * removal and the stage that moves to it. Every other generated resource is counted by what
 * happens to it. `changes` are the changes attributed to the SAM resource (`generatedBy`).
 */
export function samResourceLensTitle(samLogicalId: string, changes: readonly ResourceChange[]): string {
  const shown = changes.filter(changesSomething);
  const parts: string[] = [];
  const own = shown.find((c) => c.logicalId === samLogicalId && c.action !== 'Remove');
  if (own) parts.push(impactHeading(own.impact));
  const newVersion = shown.some((c) => c.action === 'Add' && c.resourceType === 'AWS::Lambda::Version');
  const newDeployment = shown.some((c) => c.action === 'Add' && c.resourceType === 'AWS::ApiGateway::Deployment');
  if (newVersion) parts.push(`${impactLabel('create').symbol} new version`);
  if (newDeployment) parts.push(`${impactLabel('replacement').symbol} API deployment`);
  const counts = new Map<string, { symbol: string; type: string; count: number }>();
  for (const change of shown) {
    if (change === own) continue;
    if (newVersion && change.resourceType === 'AWS::Lambda::Version') continue;
    if (newVersion && change.resourceType === 'AWS::Lambda::Alias' && followsOnly(change, '/Properties/FunctionVersion')) continue;
    if (newDeployment && change.resourceType === 'AWS::ApiGateway::Deployment') continue;
    if (newDeployment && change.resourceType === 'AWS::ApiGateway::Stage' && followsOnly(change, '/Properties/DeploymentId')) continue;
    const symbol = impactLabel(change.impact).symbol;
    const key = `${symbol} ${change.resourceType}`;
    const entry = counts.get(key) ?? { symbol, type: change.resourceType, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  for (const { symbol, type, count } of counts.values()) parts.push(`${symbol} ${counted(type, count)}`);
  if (parts.length <= PARTS_SHOWN) return parts.join(' · ');
  return `${parts.slice(0, PARTS_SHOWN).join(' · ')} · ${parts.length - PARTS_SHOWN} more`;
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
