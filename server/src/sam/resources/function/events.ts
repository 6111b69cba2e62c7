/**
 * A function's `Events`, each translated by its source type, in SAM's order: sorted by the event's
 * `Path` (or its id when it has none), so that an HttpApi `$default` route comes first.
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidEvent, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { NotCovered } from '../../model/notCovered';
import { eventItems, IMPLICIT_API_EVENT_TYPES } from '../../model/pyOrder';
import { isMap, type PlainMap } from '../../model/values';
import { apiEvent, linkRestApi } from '../api/apiEvent';
import { httpApiEvent } from '../api/httpApiEvent';
import { unresolvedEvent, type EventInput, type EventTarget } from '../events/eventSource';
import { alexaSkillEvent, cloudWatchLogsEvent, cognitoEvent, cognitoPoolOf, eventRuleEvent, iotRuleEvent, s3BucketOf, s3Event, scheduleEvent, snsEvent } from '../events/push';
import { isPullEventType, pullEvent } from '../events/pull';
import { scheduleV2Event } from '../events/scheduleV2';

/** The event types a function accepts, as SAM's event resolver knows them. */
const FUNCTION_EVENT_TYPES = new Set([
  'Schedule', 'CloudWatchEvent', 'EventBridgeRule', 'S3', 'SNS', 'Api', 'AlexaSkill', 'IoTRule', 'Cognito', 'HttpApi', 'CloudWatchLogs', 'ScheduleV2',
  'SQS', 'Kinesis', 'DynamoDB', 'MQ', 'MSK', 'SelfManagedKafka', 'DocumentDB',
]);

/** The sort key SAM orders events by (`order_events`). */
function orderKey([id, event]: [string, unknown]): string {
  if (!isMap(event)) return id;
  const properties = event.Properties;
  const path = isMap(properties) ? properties.Path : undefined;
  return typeof path === 'string' ? path : id;
}

/**
 * The events' problems SAM finds before it translates the function (`resources_to_link`, in the
 * order of the events' ids): an event that is not a map, names no type SAM knows, or whose
 * Properties are not a map, and the resources an `Api`, `S3` or `Cognito` event names (an API's
 * entry, read for its stage; a bucket; a user pool).
 */
export function checkFunctionEvents(ctx: TranslationContext, sam: SamResource): SamError | undefined {
  const events = sam.properties.Events;
  if (!isMap(events)) return undefined;
  for (const [eventId, event] of eventItems(ctx, events, IMPLICIT_API_EVENT_TYPES)) {
    const unresolved = unresolvedEvent(eventId, event, FUNCTION_EVENT_TYPES);
    if (unresolved) return wrap(sam, eventId, unresolved);
    const type = (event as PlainMap).Type as string;
    const properties = (event as PlainMap).Properties ?? {};
    if (!isMap(properties)) return wrap(sam, eventId, invalidEvent(eventId, 'Properties of a resource must be an object.'));
    const input: EventInput = { ctx, sam, eventId, logicalId: sam.logicalId + eventId, properties, origin: `Events.${eventId}` };
    // An Api event reads the API it names as its integration does.
    const linked =
      type === 'Api'
        ? apiLinkError(input)
        : type === 'S3'
          ? s3BucketOf(input)
          : type === 'Cognito'
            ? cognitoPoolOf(input)
            : undefined;
    if (linked instanceof SamError) return wrap(sam, eventId, linked);
  }
  return undefined;
}

/** Why an `Api` event cannot be linked to the API it names, if it cannot. */
function apiLinkError(input: EventInput): SamError | undefined {
  const linked = linkRestApi(input, input.properties.RestApiId);
  return linked instanceof SamError ? linked : undefined;
}

/** Every event of a function, translated; `checkFunctionEvents` has found each a map of a known type, with Properties a map. */
export function functionEvents(
  ctx: TranslationContext,
  sam: SamResource,
  targetResource: GeneratedResource,
  isAlias: boolean,
  role: GeneratedResource | undefined,
): GeneratedResource[] | SamError | NotCovered {
  const events = sam.properties.Events;
  if (!isMap(events)) return [];
  const target: EventTarget = { resource: targetResource, isAlias, condition: sam.condition, functionLogicalId: sam.logicalId };
  const ordered = eventItems(ctx, events, IMPLICIT_API_EVENT_TYPES).sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
  const resources: GeneratedResource[] = [];
  for (const [eventId, event] of ordered) {
    const type = (event as PlainMap).Type as string;
    const properties = ((event as PlainMap).Properties ?? {}) as PlainMap;
    const input: EventInput = { ctx, sam, eventId, logicalId: sam.logicalId + eventId, properties, origin: `Events.${eventId}` };
    const result = translateEvent(input, target, role, type);
    if (result instanceof SamError) return wrap(sam, eventId, result);
    if (result instanceof NotCovered) return result;
    resources.push(...result);
  }
  return resources;
}

function translateEvent(input: EventInput, target: EventTarget, role: GeneratedResource | undefined, type: string): GeneratedResource[] | SamError | NotCovered {
  if (isPullEventType(type)) return pullEvent(input, target, role, type);
  switch (type) {
    case 'Schedule':
      return scheduleEvent(input, target);
    case 'CloudWatchEvent':
    case 'EventBridgeRule':
      return eventRuleEvent(input, target, type);
    case 'S3':
      return s3Event(input, target);
    case 'SNS':
      return snsEvent(input, target, role);
    // An Api or HttpApi event edits the definition of the API it names.
    case 'Api':
      return apiEvent(input, target);
    case 'HttpApi':
      return httpApiEvent(input, target);
    case 'AlexaSkill':
      return alexaSkillEvent(input, target);
    case 'IoTRule':
      return iotRuleEvent(input, target);
    case 'Cognito':
      return cognitoEvent(input, target);
    case 'CloudWatchLogs':
      return cloudWatchLogsEvent(input, target);
    case 'ScheduleV2':
      return scheduleV2Event(input, { arn: target.isAlias ? target.resource.ref() : target.resource.getAtt('Arn'), stateMachine: false });
    default:
      return new NotCovered(`the ${type} event`);
  }
}

/** An event's error as SAM reports it: for the function, naming the event, at the event's property. */
function wrap(sam: SamResource, eventId: string, error: SamError): SamError {
  return error.inResource(sam.logicalId, ['Properties', 'Events', eventId]);
}
