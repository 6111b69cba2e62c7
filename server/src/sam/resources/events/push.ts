/**
 * Push event sources: services that invoke the function, each through an
 * `AWS::Lambda::Permission` (push.py, cloudwatchlogs.py): Schedule, CloudWatchEvent and
 * EventBridgeRule, S3, SNS, AlexaSkill, IoTRule, Cognito and CloudWatchLogs.
 */
import type { Origin } from '../../model/generated';
import { invalidEvent, invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { dictOf, IS_BOOL, IS_DICT, IS_STR, listOf, oneOf, PASS_THROUGH, typed, type PropertySpec } from '../../model/properties';
import { deepCopy, isList, isMap, makeConditional, plainEqual, ref, sub, tagList, type PlainMap } from '../../model/values';
import { arnOf, checkDeadLetterConfig, checkEventProperties, eventError, passThrough, permission, type EventInput, type EventTarget } from './eventSource';
import { constructSqsEventSourceMapping } from './pull';
import { logicalIdOf } from '../../model/connectable';
import { resolveParameterRefs } from '../../model/intrinsics';

const LAMBDA_TARGET_SUFFIX = 'LambdaTarget';
const TARGET_ID_MAX_LENGTH = 64;

/** `generate_valid_target_id`: the id, cut so that with its suffix it fits EventBridge's 64 characters. */
export function targetId(logicalId: string, suffix: string): string {
  if (logicalId.length + suffix.length <= TARGET_ID_MAX_LENGTH) return logicalId + suffix;
  return logicalId.slice(0, TARGET_ID_MAX_LENGTH - suffix.length) + suffix;
}

/** The dead-letter queue of a rule target: the given ARN, or a new queue (and its policy) SAM creates. */
export function ruleDeadLetterQueue(input: EventInput, config: PlainMap, ruleArn: unknown, attributes: PlainMap): { arn: unknown; resources: GeneratedResource[] } | SamError {
  if (config.Arn !== undefined) return { arn: config.Arn, resources: [] };
  const queueId = config.QueueLogicalId;
  if (queueId !== undefined && queueId !== null && typeof queueId !== 'string') return invalidEvent(input.logicalId, 'QueueLogicalId must be a string');
  const queue = input.sam.generate((queueId as string | undefined) || `${input.logicalId}Queue`, 'AWS::SQS::Queue', input.origin, attributes);
  const policy = input.sam.generate(`${input.logicalId}QueuePolicy`, 'AWS::SQS::QueuePolicy', input.origin, attributes);
  policy.set('PolicyDocument', {
    Version: '2012-10-17',
    Statement: [{ Action: 'sqs:SendMessage', Effect: 'Allow', Principal: { Service: 'events.amazonaws.com' }, Resource: queue.getAtt('Arn'), Condition: { ArnEquals: { 'aws:SourceArn': ruleArn } } }],
  });
  policy.set('Queues', [queue.ref()]);
  return { arn: queue.getAtt('Arn'), resources: [queue, policy] };
}

const SCHEDULE: Record<string, PropertySpec> = {
  Schedule: typed(IS_STR, true),
  RuleName: typed(IS_STR),
  Input: typed(IS_STR),
  Enabled: typed(IS_BOOL),
  State: typed(IS_STR),
  Name: typed(IS_STR),
  Description: typed(IS_STR),
  DeadLetterConfig: typed(IS_DICT),
  RetryPolicy: typed(IS_DICT),
};

/** `Schedule`: an EventBridge rule on a schedule, targeting the function. */
export function scheduleEvent(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'Schedule', SCHEDULE);
  if (invalid) return invalid;
  const p = input.properties;
  const attributes = passThrough(input);
  const rule = input.sam.generate(input.logicalId, 'AWS::Events::Rule', input.origin, attributes);
  const resources: GeneratedResource[] = [rule];
  rule.set('ScheduleExpression', p.Schedule);
  if (p.State && p.Enabled !== undefined && p.Enabled !== null) return eventError(input, 'State and Enabled Properties cannot both be specified.');
  if (p.State) rule.set('State', p.State);
  if (p.Enabled !== undefined && p.Enabled !== null) rule.set('State', p.Enabled ? 'ENABLED' : 'DISABLED');
  rule.set('Name', p.Name);
  rule.set('Description', p.Description);
  const dlq = ruleDlq(input, rule, attributes, resources);
  if (dlq instanceof SamError) return dlq;
  const ruleTarget: PlainMap = { Arn: arnOf(target), Id: targetId(input.logicalId, LAMBDA_TARGET_SUFFIX) };
  if (p.Input !== undefined && p.Input !== null) ruleTarget.Input = p.Input;
  if (p.DeadLetterConfig !== undefined && p.DeadLetterConfig !== null) ruleTarget.DeadLetterConfig = { Arn: dlq };
  if (p.RetryPolicy !== undefined && p.RetryPolicy !== null) ruleTarget.RetryPolicy = p.RetryPolicy;
  rule.set('Targets', [ruleTarget]);
  resources.push(permission(input, target, { principal: 'events.amazonaws.com', sourceArn: rule.getAtt('Arn') }));
  return resources;
}

function ruleDlq(input: EventInput, rule: GeneratedResource, attributes: PlainMap, resources: GeneratedResource[]): unknown | SamError {
  const config = input.properties.DeadLetterConfig;
  if (config === undefined || config === null) return undefined;
  const invalid = checkDeadLetterConfig(input.logicalId, config as PlainMap);
  if (invalid) return invalid;
  const dlq = ruleDeadLetterQueue(input, config as PlainMap, rule.getAtt('Arn'), attributes);
  if (dlq instanceof SamError) return dlq;
  resources.push(...dlq.resources);
  return dlq.arn;
}

const CLOUDWATCH_EVENT: Record<string, PropertySpec> = {
  EventBusName: typed(IS_STR),
  RuleName: typed(IS_STR),
  Pattern: typed(IS_DICT),
  DeadLetterConfig: typed(IS_DICT),
  RetryPolicy: typed(IS_DICT),
  Input: typed(IS_STR),
  InputPath: typed(IS_STR),
  Target: typed(IS_DICT),
  Enabled: typed(IS_BOOL),
  State: typed(IS_STR),
  InputTransformer: typed(IS_DICT),
};

/** `CloudWatchEvent` and `EventBridgeRule`: an EventBridge rule with a pattern, targeting the function. */
export function eventRuleEvent(input: EventInput, target: EventTarget, type: string): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, type, CLOUDWATCH_EVENT);
  if (invalid) return invalid;
  const p = input.properties;
  const attributes = passThrough(input);
  const rule = input.sam.generate(input.logicalId, 'AWS::Events::Rule', input.origin, attributes);
  rule.set('EventBusName', p.EventBusName);
  rule.set('EventPattern', p.Pattern);
  rule.set('Name', p.RuleName);
  const resources: GeneratedResource[] = [];
  const dlq = ruleDlq(input, rule, attributes, resources);
  if (dlq instanceof SamError) return dlq;
  if (p.State && p.Enabled !== undefined && p.Enabled !== null) return eventError(input, 'State and Enabled Properties cannot both be specified.');
  if (p.State) rule.set('State', p.State);
  if (p.Enabled !== undefined && p.Enabled !== null) rule.set('State', p.Enabled ? 'ENABLED' : 'DISABLED');
  const given = isMap(p.Target) ? p.Target : undefined;
  const ruleTarget: PlainMap = { Arn: arnOf(target), Id: given && 'Id' in given ? given.Id : targetId(input.logicalId, LAMBDA_TARGET_SUFFIX) };
  if (p.Input !== undefined && p.Input !== null) ruleTarget.Input = p.Input;
  if (p.InputPath !== undefined && p.InputPath !== null) ruleTarget.InputPath = p.InputPath;
  if (p.DeadLetterConfig !== undefined && p.DeadLetterConfig !== null) ruleTarget.DeadLetterConfig = { Arn: dlq };
  if (p.RetryPolicy !== undefined && p.RetryPolicy !== null) ruleTarget.RetryPolicy = p.RetryPolicy;
  if (p.InputTransformer !== undefined && p.InputTransformer !== null) ruleTarget.InputTransformer = p.InputTransformer;
  rule.set('Targets', [ruleTarget]);
  resources.push(rule, permission(input, target, { principal: 'events.amazonaws.com', sourceArn: rule.getAtt('Arn') }));
  return resources;
}

/** The entry of a template resource an event edits, copied once and then edited cumulatively. */
function editedEntry(input: EventInput, logicalId: string): PlainMap {
  const edited = input.ctx.edited.get(logicalId);
  if (edited) {
    edited.editors.add(input.sam.logicalId);
    return edited.entry;
  }
  const entry = deepCopy(input.ctx.resources[logicalId]) as PlainMap;
  const by: Origin = { logicalId: input.sam.logicalId, property: input.origin };
  input.ctx.edited.set(logicalId, { entry, by, editors: new Set([input.sam.logicalId]) });
  return entry;
}

/** The logical id of a resource an event must reference with `Ref` in the same template, or an error. */
function referencedResource(input: EventInput, value: unknown, notString: string, missing: string): string | SamError {
  if (isMap(value) && 'Ref' in value) {
    const id = value.Ref;
    // SAM names the event by its generated id here, and by its own id when the resource is missing.
    if (typeof id !== 'string') return invalidEvent(input.logicalId, notString, ['Properties']);
    if (id in input.ctx.resources) return id;
  }
  return invalidEvent(input.eventId, missing);
}

const S3: Record<string, PropertySpec> = {
  Bucket: typed(IS_STR, true),
  Events: { required: true, check: oneOf(IS_STR, listOf(IS_STR)), intrinsics: false },
  Filter: typed(dictOf(IS_STR, IS_STR)),
};

/** `S3.resources_to_link`: the bucket of the same template an S3 event names. */
export function s3BucketOf(input: EventInput): string | SamError {
  return referencedResource(input, input.properties.Bucket, "'Ref' value in S3 events is not a valid string.", 'S3 events must reference an S3 bucket in the same template.');
}

/** `S3`: a notification on a bucket of the same template, the permission it needs, and the bucket's dependency on it. */
export function s3Event(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const bucketId = s3BucketOf(input);
  if (bucketId instanceof SamError) return bucketId;
  const invalid = checkEventProperties(input, 'S3', S3);
  if (invalid) return invalid;
  const bucket = editedEntry(input, bucketId);
  const grant = permission(input, target, { principal: 's3.amazonaws.com', sourceAccount: ref('AWS::AccountId') });
  const condition = grant.attributes.Condition;
  if (condition !== undefined) {
    const properties = (bucket.Properties ??= {}) as PlainMap;
    const tags = properties.Tags ?? [];
    if (!isList(tags)) return invalidResource(bucketId, "Property 'Tags' should be a list.", ['Properties', 'Tags']);
    properties.Tags = [...tags, ...tagList({ [`sam:ConditionalDependsOn:${grant.logicalId}`]: { 'Fn::If': [condition, ref(grant.logicalId), 'no dependency'] } })];
  } else {
    // SAM makes a set of it: a string stands for itself, a map for its keys; null, a number, or a
    // list that holds a map or a list cannot make one.
    const dependsOn = bucket.DependsOn === undefined ? [] : bucket.DependsOn;
    const list = typeof dependsOn === 'string' ? [dependsOn] : isMap(dependsOn) ? Object.keys(dependsOn) : dependsOn;
    if (!isList(list) || list.some((item) => isMap(item) || isList(item))) return invalidResource(input.logicalId, "Invalid type for field 'DependsOn'. Expected a string or list of strings.");
    bucket.DependsOn = [...new Set([...list, grant.logicalId])];
  }
  const mapping: PlainMap = { Function: arnOf(target) };
  if (input.properties.Filter !== undefined && input.properties.Filter !== null) mapping.Filter = input.properties.Filter;
  const events = typeof input.properties.Events === 'string' ? [input.properties.Events] : (input.properties.Events as unknown[]);
  const properties = bucket.Properties ?? {};
  if (!isMap(properties)) return invalidResource(bucketId, 'Properties should be a map.');
  bucket.Properties = properties;
  const notifications = (properties.NotificationConfiguration ??= {});
  if (!isMap(notifications)) return invalidResource(bucketId, "Property 'NotificationConfiguration' should be a map.", ['Properties', 'NotificationConfiguration']);
  const lambdaConfigurations = (notifications.LambdaConfigurations ??= []);
  if (!isList(lambdaConfigurations)) return invalidResource(bucketId, 'Invalid type for LambdaConfigurations. Must be a list.', ['Properties', 'NotificationConfiguration', 'LambdaConfigurations']);
  for (const event of events) {
    let configuration: PlainMap = { ...deepCopy(mapping), Event: event };
    if (target.condition !== undefined) configuration = makeConditional(target.condition, configuration);
    if (!lambdaConfigurations.some((c) => plainEqual(c, configuration))) lambdaConfigurations.push(configuration);
  }
  return [grant];
}

const SNS: Record<string, PropertySpec> = {
  Topic: typed(IS_STR, true),
  Region: typed(IS_STR),
  // A filter policy may nest attribute maps (payload-based filtering), so only its being a map is checked.
  FilterPolicy: typed(IS_DICT),
  FilterPolicyScope: PASS_THROUGH,
  SqsSubscription: typed(oneOf(IS_BOOL, IS_DICT)),
  RedrivePolicy: typed(IS_DICT),
};

/** `_check_fifo_topic`: the `FifoTopic` of the template's topic the event names (parameters resolved). */
function fifoTopic(input: EventInput, topic: unknown): unknown {
  const topicId = logicalIdOf(topic);
  const entry = topicId === undefined ? undefined : input.ctx.resources[topicId];
  const properties = isMap(entry) && isMap(entry.Properties) ? entry.Properties : {};
  return resolveParameterRefs(properties.FifoTopic ?? false, input.ctx.parameters);
}

/** `SNS`: a subscription of the function to a topic, or of a queue (new or given) that the function polls. */
export function snsEvent(input: EventInput, target: EventTarget, role: GeneratedResource | undefined): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'SNS', SNS);
  if (invalid) return invalid;
  const p = input.properties;
  const attributes = passThrough(input);
  const subscription = (protocol: string, endpoint: unknown): GeneratedResource => {
    const s = input.sam.generate(input.logicalId, 'AWS::SNS::Subscription', input.origin, attributes);
    s.set('Protocol', protocol);
    s.set('Endpoint', endpoint);
    s.set('TopicArn', p.Topic);
    s.set('Region', p.Region);
    s.set('FilterPolicy', p.FilterPolicy);
    s.set('FilterPolicyScope', p.FilterPolicyScope);
    s.set('RedrivePolicy', p.RedrivePolicy);
    return s;
  };
  const queuePolicy = (queueArn: unknown, queueUrl: unknown, logicalId?: unknown): GeneratedResource => {
    const policy = input.sam.generate((logicalId as string | undefined) || `${input.logicalId}QueuePolicy`, 'AWS::SQS::QueuePolicy', input.origin, attributes);
    policy.set('PolicyDocument', {
      Version: '2012-10-17',
      Statement: [{ Action: 'sqs:SendMessage', Effect: 'Allow', Principal: '*', Resource: queueArn, Condition: { ArnEquals: { 'aws:SourceArn': p.Topic } } }],
    });
    policy.set('Queues', [queueUrl]);
    return policy;
  };
  if (!p.SqsSubscription) {
    return [permission(input, target, { principal: 'sns.amazonaws.com', sourceArn: p.Topic }), subscription('lambda', arnOf(target))];
  }
  if (typeof p.SqsSubscription === 'boolean') {
    const queue = input.sam.generate(`${input.logicalId}Queue`, 'AWS::SQS::Queue', input.origin, attributes);
    // A FIFO topic of the template delivers only to a FIFO queue.
    const fifo = fifoTopic(input, p.Topic);
    if (fifo) queue.set('FifoQueue', fifo);
    const mapping = constructSqsEventSourceMapping(input, target, role, queue.getAtt('Arn'), undefined, undefined);
    return [...mapping, queue, queuePolicy(queue.getAtt('Arn'), queue.ref()), subscription('sqs', queue.getAtt('Arn'))];
  }
  const sqs = p.SqsSubscription;
  if (!isMap(sqs)) return eventError(input, "Property 'SqsSubscription' should be a map.", ['SqsSubscription']);
  if (!sqs.QueueArn || !sqs.QueueUrl) return invalidEvent(input.eventId, 'No QueueARN or QueueURL provided.');
  const mapping = constructSqsEventSourceMapping(input, target, role, sqs.QueueArn, sqs.BatchSize, sqs.Enabled);
  return [...mapping, queuePolicy(sqs.QueueArn, sqs.QueueUrl, sqs.QueuePolicyLogicalId), subscription('sqs', sqs.QueueArn)];
}

/** `AlexaSkill`: a permission for the Alexa Skills Kit, optionally for one skill. */
export function alexaSkillEvent(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'AlexaSkill', { SkillId: typed(IS_STR) });
  if (invalid) return invalid;
  return [permission(input, target, { principal: 'alexa-appkit.amazon.com', eventSourceToken: input.properties.SkillId })];
}

/** `IoTRule`: an IoT topic rule invoking the function, and its permission. */
export function iotRuleEvent(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'IoTRule', { Sql: typed(IS_STR, true), AwsIotSqlVersion: typed(IS_STR) });
  if (invalid) return invalid;
  const sourceArn = sub(`arn:${input.ctx.partition}:iot:\${AWS::Region}:\${AWS::AccountId}:rule/\${RuleName}`, { RuleName: ref(input.logicalId) });
  const grant = permission(input, target, { principal: 'iot.amazonaws.com', sourceArn, sourceAccount: sub('${AWS::AccountId}') });
  const rule = input.sam.generate(input.logicalId, 'AWS::IoT::TopicRule', input.origin, passThrough(input));
  const payload: PlainMap = { Sql: input.properties.Sql, RuleDisabled: false, Actions: [{ Lambda: { FunctionArn: arnOf(target) } }] };
  if (input.properties.AwsIotSqlVersion) payload.AwsIotSqlVersion = input.properties.AwsIotSqlVersion;
  rule.set('TopicRulePayload', payload);
  return [grant, rule];
}

/** `Cognito.resources_to_link`: the user pool of the same template a Cognito event names. */
export function cognitoPoolOf(input: EventInput): string | SamError {
  return referencedResource(input, input.properties.UserPool, 'Ref in Userpool is not a string.', 'Cognito events must reference a Cognito UserPool in the same template.');
}

/** `Cognito`: triggers on a user pool of the same template, and the permission they need. */
export function cognitoEvent(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const poolId = cognitoPoolOf(input);
  if (poolId instanceof SamError) return poolId;
  const invalid = checkEventProperties(input, 'Cognito', { UserPool: typed(IS_STR, true), Trigger: { required: true, check: oneOf(IS_STR, listOf(IS_STR)), intrinsics: false } });
  if (invalid) return invalid;
  const grant = permission(input, target, { principal: 'cognito-idp.amazonaws.com', sourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] }, prefix: `${target.resource.logicalId}Cognito` });
  const pool = editedEntry(input, poolId);
  const properties = (pool.Properties ??= {}) as PlainMap;
  const config = (properties.LambdaConfig ??= {});
  if (!isMap(config)) return invalidResource(poolId, "Property 'LambdaConfig' should be a map.", ['Properties', 'LambdaConfig']);
  const triggers = typeof input.properties.Trigger === 'string' ? [input.properties.Trigger] : (input.properties.Trigger as string[]);
  for (const trigger of triggers) {
    if (trigger in config) return invalidEvent(input.eventId, `Cognito trigger "${String(input.properties.Trigger)}" defined multiple times.`);
    config[trigger] = arnOf(target);
  }
  return [grant];
}

/** `CloudWatchLogs`: a subscription filter on a log group, and its permission. */
export function cloudWatchLogsEvent(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'CloudWatchLogs', { LogGroupName: typed(IS_STR, true), FilterPattern: typed(IS_STR, true) });
  if (invalid) return invalid;
  const sourceArn = sub(`arn:${input.ctx.partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:\${__LogGroupName__}:*`, { __LogGroupName__: input.properties.LogGroupName });
  const grant = permission(input, target, { principal: 'logs.amazonaws.com', sourceArn });
  const filter = input.sam.generate(input.logicalId, 'AWS::Logs::SubscriptionFilter', input.origin, passThrough(input));
  filter.setAttribute('DependsOn', [grant.logicalId]);
  filter.set('LogGroupName', input.properties.LogGroupName);
  filter.set('FilterPattern', input.properties.FilterPattern);
  filter.set('DestinationArn', arnOf(target));
  return [grant, filter];
}
