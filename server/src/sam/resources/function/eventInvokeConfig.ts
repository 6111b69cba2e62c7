/**
 * `EventInvokeConfig`: an `AWS::Lambda::EventInvokeConfig` for the function (or its alias), with
 * destinations (a queue, topic, event bus, function or S3 bucket); an SQS or SNS destination without an ARN is a queue or topic SAM creates, also when
 * `Destination` is an `Fn::If` with an `AWS::NoValue` branch (then under that condition).
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidResource, malformedIf, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { rolePolicies } from '../../model/iam';
import { resolveParameterRefs } from '../../model/intrinsics';
import { pyList } from '../../python/pyRepr';
import { generateLogicalId } from '../../model/logicalIds';
import { isIntrinsicIf, isMap, isNoValue, makeConditional, type PlainMap } from '../../model/values';
import type { AliasName } from './version';

const ACCEPTED_TYPES = ['SQS', 'SNS', 'EventBridge', 'Lambda', 'S3Bucket'];
const AUTO_CREATED = ['SQS', 'SNS'];
const CONDITION_NAME_LIMIT = 255;

/** The event invoke config, the destinations SAM creates, and the policies the function's role needs for them. */
export function constructEventInvokeConfig(
  ctx: TranslationContext,
  sam: SamResource,
  functionId: string,
  aliasName: AliasName,
  alias: GeneratedResource | undefined,
): { resources: GeneratedResource[]; policies: PlainMap[] } | SamError {
  const config = resolveParameterRefs(sam.properties.EventInvokeConfig, ctx.parameters) as PlainMap;
  const logicalId = `${functionId}EventInvokeConfig`;
  const resources: GeneratedResource[] = [];
  const policies: PlainMap[] = [];
  const invoke = sam.generate(logicalId, 'AWS::Lambda::EventInvokeConfig', 'EventInvokeConfig', sam.attributes());
  if (alias) invoke.setAttribute('DependsOn', [alias.logicalId]);
  const destinationConfig: PlainMap = {};
  const given = config.DestinationConfig;
  if (given) {
    if (!isMap(given)) return invalidResource(sam.logicalId, "Property 'EventInvokeConfig.DestinationConfig' should be a map.", ['Properties', 'EventInvokeConfig', 'DestinationConfig']);
    for (const name of ['OnSuccess', 'OnFailure']) {
      const value = given[name];
      if (value === undefined || value === null) continue;
      if (!isMap(value)) return invalidResource(sam.logicalId, `Property 'EventInvokeConfig.DestinationConfig.${name}' should be a map.`, ['Properties', 'EventInvokeConfig', 'DestinationConfig', name]);
      const destination = injectDestination(ctx, sam, value, name, logicalId);
      if (destination instanceof SamError) return destination;
      destinationConfig[name] = { Destination: destination.destination };
      if (destination.resource) resources.push(destination.resource);
      if (destination.policy) policies.push(destination.policy);
    }
  }
  invoke.set('FunctionName', { Ref: functionId });
  invoke.set('Qualifier', typeof aliasName === 'string' ? aliasName || '$LATEST' : aliasName.value);
  invoke.set('DestinationConfig', destinationConfig, 'EventInvokeConfig.DestinationConfig');
  invoke.set('MaximumEventAgeInSeconds', config.MaximumEventAgeInSeconds, 'EventInvokeConfig.MaximumEventAgeInSeconds');
  invoke.set('MaximumRetryAttempts', config.MaximumRetryAttempts, 'EventInvokeConfig.MaximumRetryAttempts');
  resources.push(invoke);
  return { resources, policies };
}

function injectDestination(
  ctx: TranslationContext,
  sam: SamResource,
  config: PlainMap,
  event: string,
  logicalId: string,
): { resource?: GeneratedResource; destination: unknown; policy?: PlainMap } | SamError {
  const type = config.Type;
  if (typeof type !== 'string' || !ACCEPTED_TYPES.includes(type)) {
    return invalidResource(sam.logicalId, `'Type: ${type === undefined || type === null ? 'None' : String(type)}' must be one of ${pyList(ACCEPTED_TYPES)}`, ['Properties', 'EventInvokeConfig']);
  }
  const malformed = malformedIf(logicalId, 'Destination', config.Destination, ['Properties', 'EventInvokeConfig', 'DestinationConfig', event, 'Destination']);
  if (malformed) return malformed;
  const resourceId = logicalId + event;
  let destination = config.Destination;
  let resource: GeneratedResource | undefined;
  let policy: PlainMap | undefined;
  const { condition, otherwise } = destinationCondition(ctx, destination, logicalId);
  if (destination === undefined || destination === null || condition !== undefined) {
    const combined = combinedCondition(ctx, sam, sam.passThroughAttributes().Condition, condition);
    if (!AUTO_CREATED.includes(type)) return invalidResource(sam.logicalId, "Destination is required if Type is not ['SQS', 'SNS']", ['Properties', 'EventInvokeConfig']);
    resource = sam.generate(resourceId + (type === 'SQS' ? 'Queue' : 'Topic'), type === 'SQS' ? 'AWS::SQS::Queue' : 'AWS::SNS::Topic', 'EventInvokeConfig');
    if (combined) resource.setAttribute('Condition', combined);
    const arn = type === 'SQS' ? resource.getAtt('Arn') : resource.ref();
    destination = condition !== undefined ? makeConditional(condition, arn, otherwise) : arn;
    policy = destinationPolicy(type, resourceId, destination);
  }
  if (config.Destination !== undefined && config.Destination !== null && condition === undefined) policy = destinationPolicy(type, resourceId, config.Destination);
  return { resource, destination, policy };
}

function destinationPolicy(type: string, logicalId: string, arn: unknown): PlainMap {
  if (type === 'SQS') return rolePolicies.sqsSendMessage(arn, logicalId);
  if (type === 'SNS') return rolePolicies.snsPublish(arn, logicalId);
  if (type === 'EventBridge') return rolePolicies.eventBusPutEvents(arn, logicalId);
  if (type === 'S3Bucket') return rolePolicies.s3SendEventPayload(arn, logicalId);
  return rolePolicies.lambdaInvoke(arn, logicalId);
}

/** `_get_or_make_condition`: the condition under which SAM creates the destination, for an `Fn::If` with a NoValue branch. */
function destinationCondition(ctx: TranslationContext, destination: unknown, logicalId: string): { condition?: string; otherwise?: unknown } {
  if (!isIntrinsicIf(destination)) return {};
  const [condition, then, otherwise] = destination['Fn::If'];
  if (isNoValue(then) && isNoValue(otherwise)) return {};
  if (isNoValue(then)) return { condition: condition as string, otherwise };
  if (isNoValue(otherwise)) {
    const name = generatedConditionName(`NOT${String(condition)}`, logicalId);
    ctx.conditions[name] = { 'Fn::Not': [{ Condition: condition }] };
    return { condition: name, otherwise: then };
  }
  return {};
}

function combinedCondition(ctx: TranslationContext, sam: SamResource, resourceCondition: unknown, propertyCondition: string | undefined): unknown {
  if (resourceCondition === undefined) return propertyCondition;
  if (propertyCondition === undefined) return resourceCondition;
  const name = generatedConditionName(`${String(resourceCondition)}AND${propertyCondition}`, sam.logicalId);
  ctx.conditions[name] = { 'Fn::And': [{ Condition: resourceCondition }, { Condition: propertyCondition }] };
  return name;
}

function generatedConditionName(name: string, hashInput: string): string {
  const full = name + generateLogicalId('', hashInput);
  return full.length > CONDITION_NAME_LIMIT ? full.slice(0, CONDITION_NAME_LIMIT) : full;
}
