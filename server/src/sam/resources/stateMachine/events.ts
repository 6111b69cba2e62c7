/**
 * The events of a state machine (stepfunctions/events.py and the scheduler): each starts an
 * execution through a role of its own (`<StateMachine><Event>Role`, allowed `states:StartExecution`
 * on the state machine, or on its alias with `UseAliasAsEventTarget`). `Schedule`,
 * `CloudWatchEvent` and `EventBridgeRule` are EventBridge rules; `Api` is an `aws` integration of a
 * REST API (with a request template passing the request to the execution); `ScheduleV2` is an
 * EventBridge Scheduler schedule.
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidEvent, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { assumeRolePolicy, singleStatementPolicy } from '../../model/iam';
import { IS_BOOL, IS_DICT, IS_STR, strict, typed, type PropertySpec } from '../../model/properties';
import { PyUnicode, type PlainPyDict, type PyValue } from '../../python/py27Dict';
import { eventItems, IMPLICIT_API_EVENT_TYPES } from '../../model/pyOrder';
import { isMap, type PlainMap } from '../../model/values';
import { addAuth, linkRestApi } from '../api/apiEvent';
import { fromTemplate, isPyMap } from '../../model/pyValues';
import { SwaggerEditor } from '../api/swaggerEditor';
import { checkDeadLetterConfig, checkEventProperties, eventError, unresolvedEvent, type EventInput } from '../events/eventSource';
import { ruleDeadLetterQueue, targetId } from '../events/push';
import { scheduleV2Event } from '../events/scheduleV2';

const STATE_MACHINE_EVENT_TYPES = new Set(['Schedule', 'CloudWatchEvent', 'EventBridgeRule', 'Api', 'ScheduleV2']);

const SCHEDULE: Record<string, PropertySpec> = {
  Schedule: typed(IS_STR, true),
  Input: typed(IS_STR),
  Enabled: typed(IS_BOOL),
  State: typed(IS_STR),
  Name: typed(IS_STR),
  Description: typed(IS_STR),
  DeadLetterConfig: typed(IS_DICT),
  RetryPolicy: typed(IS_DICT),
  Target: strict(IS_DICT),
  RoleArn: typed(IS_STR),
};

const CLOUDWATCH_EVENT: Record<string, PropertySpec> = {
  EventBusName: typed(IS_STR),
  RuleName: typed(IS_STR),
  Pattern: typed(IS_DICT),
  Input: typed(IS_STR),
  InputPath: typed(IS_STR),
  InputTransformer: typed(IS_DICT),
  DeadLetterConfig: typed(IS_DICT),
  RetryPolicy: typed(IS_DICT),
  State: typed(IS_STR),
  Target: strict(IS_DICT),
};

const API: Record<string, PropertySpec> = {
  Path: typed(IS_STR, true),
  Method: typed(IS_STR, true),
  RestApiId: typed(IS_STR, true),
  Stage: typed(IS_STR),
  Auth: typed(IS_DICT),
  UnescapeMappingTemplate: strict(IS_BOOL),
};

/** What the events start: the state machine or its alias, with what the integrations need of it. */
export interface ExecutionTarget {
  resource: GeneratedResource;
  /** The target's ARN: `Ref` of the state machine or of the alias. */
  arn: PlainMap;
  /** The state machine's `Condition`, which wraps an API integration. */
  condition: unknown;
  permissionsBoundary: unknown;
}

/** The events' problems SAM finds before generating anything (`resources_to_link`): an `Api` event's `RestApiId`. */
export function checkStateMachineEvents(ctx: TranslationContext, sam: SamResource): SamError | undefined {
  const events = sam.properties.Events;
  if (!isMap(events)) return undefined;
  for (const [eventId, event] of eventItems(ctx, events, IMPLICIT_API_EVENT_TYPES)) {
    const unresolved = unresolvedEvent(eventId, event, STATE_MACHINE_EVENT_TYPES);
    if (unresolved) return unresolved.inResource(sam.logicalId, ['Properties', 'Events', eventId]);
    if ((event as PlainMap).Type !== 'Api') continue;
    const properties = isMap((event as PlainMap).Properties) ? ((event as PlainMap).Properties as PlainMap) : {};
    const input = eventInput(ctx, sam, eventId, properties);
    const linked = linkRestApi(input, properties.RestApiId);
    if (linked instanceof SamError) return linked.inResource(sam.logicalId, ['Properties', 'Events', eventId]);
  }
  return undefined;
}

function eventInput(ctx: TranslationContext, sam: SamResource, eventId: string, properties: PlainMap): EventInput {
  return { ctx, sam, eventId, logicalId: sam.logicalId + eventId, properties, origin: `Events.${eventId}` };
}

/** Every event of a state machine, translated; an event's error names the event, placed at it. */
export function stateMachineEvents(ctx: TranslationContext, sam: SamResource, target: ExecutionTarget): GeneratedResource[] | SamError {
  const events = sam.properties.Events;
  if (!isMap(events)) return [];
  const resources: GeneratedResource[] = [];
  for (const [eventId, event] of eventItems(ctx, events, IMPLICIT_API_EVENT_TYPES)) {
    const properties = isMap((event as PlainMap).Properties) ? ((event as PlainMap).Properties as PlainMap) : {};
    const input = eventInput(ctx, sam, eventId, properties);
    const result = translateEvent(input, target, (event as PlainMap).Type as string);
    if (result instanceof SamError) {
      // SAM reports a state machine's event errors on their own, not as the state machine's.
      return new SamError(result.subject, result.detail, result.kind === 'event' ? ['Properties', 'Events', eventId, ...result.path] : result.path, result.kind);
    }
    resources.push(...result);
  }
  return resources;
}

function translateEvent(input: EventInput, target: ExecutionTarget, type: string): GeneratedResource[] | SamError {
  switch (type) {
    case 'Schedule':
      return scheduleEvent(input, target);
    case 'CloudWatchEvent':
    case 'EventBridgeRule':
      return eventRuleEvent(input, target, type);
    case 'Api':
      return apiEvent(input, target);
    default:
      return scheduleV2Event(input, { arn: target.arn, stateMachine: true });
  }
}

/** `_construct_role`: the role the service assumes to start executions. */
function executionRole(input: EventInput, target: ExecutionTarget, principal: string): GeneratedResource {
  const roleId = `${input.logicalId}Role`;
  const role = input.sam.generate(roleId, 'AWS::IAM::Role', input.origin, input.sam.passThroughAttributes());
  role.set('AssumeRolePolicyDocument', assumeRolePolicy(principal));
  role.set('Policies', [singleStatementPolicy(`${roleId}StartExecutionPolicy`, 'states:StartExecution', target.arn)]);
  if (target.permissionsBoundary) role.set('PermissionsBoundary', target.permissionsBoundary, 'PermissionsBoundary');
  return role;
}

/** A rule's target: the state machine, started through the role. */
function ruleTarget(input: EventInput, target: ExecutionTarget, roleArn: unknown, dlqArn: unknown): PlainMap {
  const p = input.properties;
  const given = isMap(p.Target) ? p.Target : undefined;
  const out: PlainMap = { Arn: target.arn, Id: given && 'Id' in given ? given.Id : targetId(input.logicalId, 'StepFunctionsTarget'), RoleArn: roleArn };
  if (p.Input !== undefined && p.Input !== null) out.Input = p.Input;
  if (p.InputPath !== undefined && p.InputPath !== null) out.InputPath = p.InputPath;
  if (p.InputTransformer !== undefined && p.InputTransformer !== null) out.InputTransformer = p.InputTransformer;
  if (p.DeadLetterConfig !== undefined && p.DeadLetterConfig !== null) out.DeadLetterConfig = { Arn: dlqArn };
  if (p.RetryPolicy !== undefined && p.RetryPolicy !== null) out.RetryPolicy = p.RetryPolicy;
  return out;
}

/** The rule's dead-letter queue, when the event asks for one. */
function deadLetterQueue(input: EventInput, rule: GeneratedResource, resources: GeneratedResource[]): unknown | SamError {
  const config = input.properties.DeadLetterConfig;
  if (config === undefined || config === null) return undefined;
  const invalid = checkDeadLetterConfig(input.logicalId, config as PlainMap);
  if (invalid) return invalid;
  const dlq = ruleDeadLetterQueue(input, config as PlainMap, rule.getAtt('Arn'), input.sam.passThroughAttributes());
  if (dlq instanceof SamError) return dlq;
  resources.push(...dlq.resources);
  return dlq.arn;
}

function scheduleEvent(input: EventInput, target: ExecutionTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'Schedule', SCHEDULE);
  if (invalid) return invalid;
  const p = input.properties;
  const rule = input.sam.generate(input.logicalId, 'AWS::Events::Rule', input.origin, input.sam.passThroughAttributes());
  rule.set('ScheduleExpression', p.Schedule);
  if (p.State && p.Enabled !== undefined && p.Enabled !== null) return invalidEvent(input.eventId, 'State and Enabled Properties cannot both be specified.');
  if (p.State) rule.set('State', p.State);
  if (p.Enabled !== undefined && p.Enabled !== null) rule.set('State', p.Enabled ? 'ENABLED' : 'DISABLED');
  rule.set('Name', p.Name);
  rule.set('Description', p.Description);
  // A given `RoleArn` is the role the rule uses; SAM creates one otherwise.
  const role = p.RoleArn ? undefined : executionRole(input, target, 'events.amazonaws.com');
  const resources = role ? [rule, role] : [rule];
  const dlq = deadLetterQueue(input, rule, resources);
  if (dlq instanceof SamError) return dlq;
  rule.set('Targets', [ruleTarget(input, target, role ? role.getAtt('Arn') : p.RoleArn, dlq)]);
  return resources;
}

function eventRuleEvent(input: EventInput, target: ExecutionTarget, type: string): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, type, CLOUDWATCH_EVENT);
  if (invalid) return invalid;
  const p = input.properties;
  const rule = input.sam.generate(input.logicalId, 'AWS::Events::Rule', input.origin, input.sam.passThroughAttributes());
  rule.set('EventBusName', p.EventBusName);
  rule.set('EventPattern', p.Pattern);
  rule.set('Name', p.RuleName);
  if (p.State) rule.set('State', p.State);
  const role = executionRole(input, target, 'events.amazonaws.com');
  const resources = [rule, role];
  const dlq = deadLetterQueue(input, rule, resources);
  if (dlq instanceof SamError) return dlq;
  rule.set('Targets', [ruleTarget(input, target, role.getAtt('Arn'), dlq)]);
  return resources;
}

/** `Api`: the role API Gateway assumes, and the integration in a definition SAM manages. */
function apiEvent(input: EventInput, target: ExecutionTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'Api', API);
  if (invalid) return invalid;
  const p = input.properties;
  const role = executionRole(input, target, 'apigateway.amazonaws.com');
  const linked = linkRestApi(input, p.RestApiId);
  if (linked instanceof SamError) return linked;
  const api = linked.api;
  if (!api || !api.__MANAGE_SWAGGER || api.DefinitionBody === undefined || api.DefinitionBody === null) return [role];
  const method = String(p.Method).toLowerCase();
  const path = new PyUnicode(String(p.Path));
  const methodValue = new PyUnicode(method);
  try {
    const editor = new SwaggerEditor(fromTemplate(api.DefinitionBody));
    if (editor.hasIntegration(path, methodValue)) return invalidEvent(input.eventId, `API method "${method}" defined multiple times for path "${String(p.Path)}".`);
    const uri = { 'Fn::Sub': 'arn:${AWS::Partition}:apigateway:${AWS::Region}:states:action/StartExecution' };
    const credentials = { 'Fn::GetAtt': [role.logicalId, 'Arn'] };
    const condition = target.condition !== undefined ? fromTemplate(target.condition) : undefined;
    editor.addStateMachineIntegration(path, methodValue, uri, credentials, requestTemplates(target, p.UnescapeMappingTemplate === true), condition);
    if (p.Auth) {
      const auth = fromTemplate(p.Auth);
      if (!isPyMap(auth)) return eventError(input, "Property 'Auth' should be a map.", ['Auth']);
      const error = addAuth(input, editor, api, linked.apiId as string, auth, path, methodValue, stageOf(p.Stage));
      if (error) return error;
    }
    api.DefinitionBody = editor.swagger;
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
  return [role];
}

/** The event's `Stage` as SAM passes it to a resource policy: `None` (null) for a state machine's event that names none. */
function stageOf(stage: unknown): PyValue {
  return typeof stage === 'string' ? new PyUnicode(stage) : null;
}

/** The mapping template that passes the request body to the execution (unescaping single quotes when asked). */
function requestTemplates(target: ExecutionTarget, unescape: boolean): PlainPyDict {
  const id = target.resource.logicalId;
  const text = unescape
    ? `{"input": "$util.escapeJavaScript($input.json('$')).replaceAll("\\\\'","'")", "stateMachineArn": "\${${id}}"}`
    : `{"input": "$util.escapeJavaScript($input.json('$'))", "stateMachineArn": "\${${id}}"}`;
  return { 'application/json': { 'Fn::Sub': text } };
}
