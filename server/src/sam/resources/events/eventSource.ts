/**
 * What every event source of a function (or state machine) shares: its ids, its properties as
 * checked by SAM, the resource it invokes (the function, or its alias under `AutoPublishAlias`),
 * and the `AWS::Lambda::Permission` that lets a service invoke it (push.py, `_construct_permission`).
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidEvent, type SamError, type SamPath } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { generateLogicalId } from '../../model/logicalIds';
import { checkProperties, type PropertySpec } from '../../model/properties';
import { pyTypeName } from '../../python/pyRepr';
import { isMap, type PlainMap } from '../../model/values';

/** The function (or alias) an event invokes. */
export interface EventTarget {
  /** The generated function, or its alias when the function has `AutoPublishAlias`. */
  resource: GeneratedResource;
  isAlias: boolean;
  /** `Condition` of the target, when it has one (SAM wraps integrations in it). */
  condition: unknown;
  /** The function's logical id (not the alias's). */
  functionLogicalId: string;
}

/** One event of a function or state machine, as its event source reads it. */
export interface EventInput {
  ctx: TranslationContext;
  sam: SamResource;
  /** The event's key under `Events`. */
  eventId: string;
  /** `<SamLogicalId><EventId>`: the base of every logical id the event generates. */
  logicalId: string;
  properties: PlainMap;
  /** The SAM property path of the event, `Events.<EventId>`, for the source map. */
  origin: string;
}

/** `Ref` of the target: a function's name, or an alias's ARN (SAM's `get_runtime_attr("name")` falls back to the ARN). */
export function nameOrArn(target: EventTarget): PlainMap {
  return target.resource.ref();
}

/** The target's ARN (`GetAtt Arn` of a function, `Ref` of an alias). */
export function arnOf(target: EventTarget): PlainMap {
  return target.isAlias ? target.resource.ref() : target.resource.getAtt('Arn');
}

/** The pass-through attributes of the target (Condition, DeletionPolicy, UpdateReplacePolicy). */
export function passThrough(input: EventInput): PlainMap {
  return input.sam.passThroughAttributes();
}

/** Python's `str.isalnum()` for the ASCII and Unicode letters and digits a suffix may hold. */
function isAlnum(text: string): boolean {
  return text.length > 0 && /^[\p{L}\p{N}]+$/u.test(text);
}

/** Options of a permission. */
export interface PermissionOptions {
  principal: string;
  sourceArn?: unknown;
  sourceAccount?: unknown;
  suffix?: string;
  eventSourceToken?: unknown;
  prefix?: string;
}

/** `_construct_permission`: `<prefix>Permission<suffix>` (hashed when the suffix is not alphanumeric). */
export function permission(input: EventInput, target: EventTarget, options: PermissionOptions): GeneratedResource {
  const prefix = options.prefix ?? input.logicalId;
  const suffix = options.suffix ?? '';
  const logicalId = isAlnum(suffix) ? `${prefix}Permission${suffix}` : generateLogicalId(`${prefix}Permission`, suffix);
  const resource = input.sam.generate(logicalId, 'AWS::Lambda::Permission', input.origin, passThrough(input));
  resource.set('Action', 'lambda:InvokeFunction');
  resource.set('FunctionName', nameOrArn(target));
  resource.set('Principal', options.principal);
  resource.set('SourceArn', options.sourceArn);
  resource.set('SourceAccount', options.sourceAccount);
  resource.set('EventSourceToken', options.eventSourceToken);
  return resource;
}

/** Checks an event's properties against its source's declaration (SAM's `from_dict` for events). */
export function checkEventProperties(input: EventInput, type: string, specs: Record<string, PropertySpec>): SamError | undefined {
  return checkProperties(input.logicalId, type, input.properties, specs, ['Properties', 'Events', input.eventId, 'Properties']);
}

/** An event error at a path below the event's Properties. */
export function eventError(input: EventInput, detail: string, path: SamPath = []): SamError {
  return invalidEvent(input.eventId, detail, ['Properties', ...path]);
}

/**
 * Why SAM's event resolver cannot read an event of a resource that takes the event types `known`
 * (`resolve_resource_type`, before anything is translated): it reads the type with `event.get`,
 * which what is not a dict fails, and the type must be one it knows.
 */
export function unresolvedEvent(eventId: string, event: unknown, known: ReadonlySet<string>): SamError | undefined {
  if (!isMap(event)) return invalidEvent(eventId, `'${pyTypeName(event)}' object has no attribute 'get'`);
  const type = event.Type;
  if (typeof type === 'string' && known.has(type)) return undefined;
  return invalidEvent(eventId, `Resource dict has missing or invalid value for key Type. Event Type is: ${type === undefined ? 'None' : String(type)}.`);
}

/** EventBridgeRuleUtils.validate_dlq_config. */
export function checkDeadLetterConfig(eventLogicalId: string, config: PlainMap): SamError | undefined {
  const hasArn = 'Arn' in config;
  const hasType = 'Type' in config;
  if (hasArn && hasType) return invalidEvent(eventLogicalId, "You can either define 'Arn' or 'Type' property of DeadLetterConfig.");
  if (hasType && config.Type !== 'SQS') return invalidEvent(eventLogicalId, "The only valid value for 'Type' property of DeadLetterConfig is 'SQS'.");
  if (!hasArn && !hasType) return invalidEvent(eventLogicalId, "No 'Arn' or 'Type' property provided for DeadLetterConfig.");
  return undefined;
}
