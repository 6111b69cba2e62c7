/**
 * A local CloudFormation endpoint: a node HTTP server on 127.0.0.1 speaking the AWS Query
 * protocol (form-encoded POST in, XML out) that serves scripted deployments on a clock the
 * caller controls. It answers only read actions, records every call, and can page, throttle,
 * demand a SigV4 Authorization header and fail every call with a given error.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCENARIOS, type Scenario } from './scenarios';
import { ScriptedStack, type EndpointEvent, type StackView } from './scriptedStack';
import { el, errorXml, iso, members, responseXml, type XmlNode } from './queryXml';

export interface ScenarioPlacement {
  name: string;
  /** When the first step happens (default: the endpoint's startAt). */
  startAt?: number;
  stackName?: string;
}

export interface EndpointOptions {
  scenarios?: (string | ScenarioPlacement)[];
  /** Adds this many settled stacks (CREATE_COMPLETE, three resources each, no operation). */
  settledStacks?: number;
  /** The clock the script runs on (default Date.now). */
  now?: () => number;
  /** When scripted operations start (default: now() at start-up). */
  startAt?: number;
  /** Time between two steps of a script (default 1000 ms). */
  stepMs?: number;
  pageSize?: { events?: number; stacks?: number; resources?: number };
  throttle?: { everyNth?: number; burst?: { afterCalls: number; count: number } };
  /** Answer every call with this error (e.g. ExpiredToken). */
  fail?: { code: string; message: string; status: number };
  /** Reject requests without a SigV4 Authorization header (default true; any credentials pass). */
  requireSignature?: boolean;
  region?: string;
  accountId?: string;
  port?: number;
  /** Real time to wait before answering, to have requests in flight. */
  latencyMs?: number;
  /**
   * Called for every request once it is recorded; when it resolves to true it has answered the
   * request itself and the endpoint does nothing more (fault injection: see faults.ts).
   */
  intercept?: (request: InterceptedRequest) => boolean | Promise<boolean>;
}

/** A request as the `intercept` hook sees it: the raw request and response, and its record. */
export interface InterceptedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  call: RecordedCall;
  /** 1 for the first request the endpoint received. */
  callNumber: number;
  requestId: string;
}

export interface RecordedCall {
  action: string;
  params: Record<string, string>;
  at: number;
  /** 'ok' or the error code answered. */
  outcome: string;
}

export interface LocalEndpoint {
  url: string;
  calls: RecordedCall[];
  stacks: ScriptedStack[];
  /** Live options: tests may change throttling or failures while the endpoint runs. */
  options: EndpointOptions;
  close(): Promise<void>;
}

const VERSION = '2010-05-15';
const SIGV4 = /^AWS4-HMAC-SHA256 Credential=\S+\/\d{8}\/[\w-]+\/cloudformation\/aws4_request, ?SignedHeaders=[\w;-]+, ?Signature=[0-9a-f]{64}$/;

class QueryError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Starts the endpoint on 127.0.0.1 (a random port unless one is given). */
export async function startEndpoint(options: EndpointOptions = {}): Promise<LocalEndpoint> {
  const now = options.now ?? Date.now;
  const startAt = options.startAt ?? now();
  const stepMs = options.stepMs ?? 1000;
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '123456789012';
  const stacks: ScriptedStack[] = [];
  for (const entry of options.scenarios ?? []) {
    const placement = typeof entry === 'string' ? { name: entry } : entry;
    const scenario = SCENARIOS[placement.name];
    if (!scenario) throw new Error(`Unknown scenario ${placement.name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    stacks.push(new ScriptedStack(scenario, placement.startAt ?? startAt, stepMs, { region, accountId, stackName: placement.stackName }));
  }
  for (let i = 0; i < (options.settledStacks ?? 0); i++) {
    stacks.push(new ScriptedStack(settledScenario(i), startAt, stepMs, { region, accountId }));
  }

  const calls: RecordedCall[] = [];
  let requestCounter = 0;
  const endpoint: LocalEndpoint = { url: '', calls, stacks, options, close: async () => undefined };

  const server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        if (endpoint.options.latencyMs) await new Promise((resolve) => setTimeout(resolve, endpoint.options.latencyMs));
        const params = Object.fromEntries(new URLSearchParams(body));
        const action = params.Action ?? '';
        const call: RecordedCall = { action, params, at: now(), outcome: 'ok' };
        calls.push(call);
        const requestId = `req-${++requestCounter}`;
        const intercept = endpoint.options.intercept;
        if (intercept && (await intercept({ req, res, call, callNumber: calls.length, requestId }))) return;
        try {
          checkRequest(req, params, endpoint.options, calls.length);
          const result = answer(action, params, stacks, now(), endpoint.options);
          send(res, 200, responseXml(action, result, requestId));
        } catch (error) {
          const e = error instanceof QueryError ? error : new QueryError('InternalFailure', String(error), 500);
          call.outcome = e.code;
          send(res, e.status, errorXml(e.code, e.message, requestId, e.status >= 500 ? 'Receiver' : 'Sender'));
        }
      })
      .catch(() => send(res, 400, errorXml('MalformedQueryString', 'Could not read the request body', 'req-0')));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  endpoint.url = `http://127.0.0.1:${port}`;
  endpoint.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return endpoint;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function checkRequest(req: IncomingMessage, params: Record<string, string>, options: EndpointOptions, callNumber: number): void {
  if (req.method !== 'POST') throw new QueryError('InvalidAction', 'Only POST is supported here');
  if (options.requireSignature !== false) {
    const auth = req.headers.authorization ?? '';
    if (!auth) throw new QueryError('MissingAuthenticationToken', 'Request is missing Authentication Token', 403);
    if (!SIGV4.test(auth)) throw new QueryError('IncompleteSignature', 'The request signature does not conform to AWS standards', 403);
  }
  if (params.Version !== VERSION) throw new QueryError('InvalidParameterValue', `Unsupported Version: ${params.Version ?? '(none)'}`);
  if (options.fail) throw new QueryError(options.fail.code, options.fail.message, options.fail.status);
  const throttle = options.throttle;
  if (throttle) {
    const burst = throttle.burst;
    const inBurst = burst !== undefined && callNumber > burst.afterCalls && callNumber <= burst.afterCalls + burst.count;
    const nth = throttle.everyNth !== undefined && throttle.everyNth > 0 && callNumber % throttle.everyNth === 0;
    if (inBurst || nth) throw new QueryError('Throttling', 'Rate exceeded');
  }
}

function findStack(stacks: ScriptedStack[], nameOrId: string | undefined, now: number): StackView {
  if (!nameOrId) throw new QueryError('ValidationError', 'StackName must not be empty');
  for (const stack of stacks) {
    const view = stack.at(now);
    if (!view.exists) continue;
    if (view.stackId === nameOrId) return view;
    if (view.stackName === nameOrId && view.status !== 'DELETE_COMPLETE') return view;
  }
  throw new QueryError('ValidationError', `Stack with id ${nameOrId} does not exist`);
}

interface Page<T> {
  items: T[];
  nextToken?: string;
}

function page<T>(items: T[], token: string | undefined, size: number, keyOf: (item: T) => string): Page<T> {
  let start = 0;
  if (token) {
    const after = Buffer.from(token, 'base64url').toString('utf8');
    const index = items.findIndex((item) => keyOf(item) === after);
    if (index < 0) throw new QueryError('ValidationError', 'Invalid NextToken');
    start = index + 1;
  }
  const slice = items.slice(start, start + size);
  const more = start + size < items.length;
  return { items: slice, nextToken: more ? Buffer.from(keyOf(slice[slice.length - 1]), 'utf8').toString('base64url') : undefined };
}

function answer(action: string, params: Record<string, string>, stacks: ScriptedStack[], now: number, options: EndpointOptions): XmlNode[] {
  const sizes = { events: 100, stacks: 100, resources: 100, ...options.pageSize };
  switch (action) {
    case 'DescribeStacks': {
      const views = params.StackName
        ? [findStack(stacks, params.StackName, now)]
        : stacks.map((s) => s.at(now)).filter((v) => v.exists && v.status !== 'DELETE_COMPLETE');
      const p = page(views, params.NextToken, sizes.stacks, (v) => v.stackId);
      return [members('Stacks', p.items.map(stackXml)), el('NextToken', p.nextToken)];
    }
    case 'ListStacks': {
      const filter = Object.entries(params)
        .filter(([key]) => key.startsWith('StackStatusFilter.member.'))
        .map(([, value]) => value);
      const views = stacks
        .map((s) => s.at(now))
        .filter((v) => v.exists && (filter.length === 0 || filter.includes(v.status)));
      const p = page(views, params.NextToken, sizes.stacks, (v) => v.stackId);
      return [
        members(
          'StackSummaries',
          p.items.map((v) => [
            el('StackId', v.stackId),
            el('StackName', v.stackName),
            el('CreationTime', iso(v.creationTime)),
            el('LastUpdatedTime', iso(v.lastUpdatedTime)),
            el('DeletionTime', iso(v.deletionTime)),
            el('StackStatus', v.status),
            el('StackStatusReason', v.reason),
            el('DriftInformation', [el('StackDriftStatus', 'NOT_CHECKED')]),
          ]),
        ),
        el('NextToken', p.nextToken),
      ];
    }
    case 'DescribeStackEvents': {
      const view = findStack(stacks, params.StackName, now);
      const p = page(view.events, params.NextToken, sizes.events, (e) => e.eventId);
      return [
        members(
          'StackEvents',
          p.items.map((e) => [
            el('StackId', view.stackId),
            el('EventId', e.eventId),
            el('StackName', view.stackName),
            el('LogicalResourceId', e.logicalId),
            el('PhysicalResourceId', e.physicalId),
            el('ResourceType', e.resourceType),
            el('Timestamp', iso(e.timestamp)),
            el('ResourceStatus', e.status),
            el('ResourceStatusReason', e.reason),
            el('OperationId', e.operationId),
            el('DetailedStatus', e.detailedStatus),
          ]),
        ),
        el('NextToken', p.nextToken),
      ];
    }
    case 'DescribeEvents': {
      // One of StackName, ChangeSetName and OperationId is required; this endpoint knows no change sets.
      if (!params.StackName && !params.OperationId) throw new QueryError('ValidationError', 'One of StackName, ChangeSetName or OperationId must be specified');
      const views = params.StackName ? [findStack(stacks, params.StackName, now)] : stacks.map((s) => s.at(now)).filter((v) => v.exists);
      const failedOnly = params['Filters.FailedEvents'] === 'true';
      const events = views
        .flatMap((v) => v.operationEvents.map((e) => ({ view: v, e })))
        .filter(({ e }) => params.OperationId === undefined || e.operationId === params.OperationId)
        .filter(({ e }) => !failedOnly || isFailedEvent(e));
      const p = page(events, params.NextToken, sizes.events, ({ e }) => e.eventId);
      return [members('OperationEvents', p.items.map(({ view, e }) => operationEventXml(view, e))), el('NextToken', p.nextToken)];
    }
    case 'DescribeStackResources': {
      const view = findStack(stacks, params.StackName, now);
      return [
        members(
          'StackResources',
          view.resources.map((r) => [
            el('StackId', view.stackId),
            el('StackName', view.stackName),
            el('LogicalResourceId', r.logicalId),
            el('PhysicalResourceId', r.physicalId),
            el('ResourceType', r.resourceType),
            el('Timestamp', iso(r.timestamp)),
            el('ResourceStatus', r.status),
            el('ResourceStatusReason', r.reason),
            el('DriftInformation', [el('StackResourceDriftStatus', 'NOT_CHECKED')]),
          ]),
        ),
      ];
    }
    case 'ListStackResources': {
      const view = findStack(stacks, params.StackName, now);
      const p = page(view.resources, params.NextToken, sizes.resources, (r) => r.logicalId);
      return [
        members(
          'StackResourceSummaries',
          p.items.map((r) => [
            el('LogicalResourceId', r.logicalId),
            el('PhysicalResourceId', r.physicalId),
            el('ResourceType', r.resourceType),
            el('LastUpdatedTimestamp', iso(r.timestamp)),
            el('ResourceStatus', r.status),
            el('ResourceStatusReason', r.reason),
            el('DriftInformation', [el('StackResourceDriftStatus', 'NOT_CHECKED')]),
          ]),
        ),
        el('NextToken', p.nextToken),
      ];
    }
    case 'GetTemplate': {
      const view = findStack(stacks, params.StackName, now);
      const stack = stacks.find((s) => s.stackId === view.stackId);
      return [
        el('TemplateBody', stack?.scenario.templateBody ?? ''),
        el('StagesAvailable', [el('member', 'Original'), el('member', 'Processed')]),
      ];
    }
    default:
      throw new QueryError('InvalidAction', `The action ${action || '(none)'} is not valid for this web service.`);
  }
}

/** Whether DescribeEvents' FailedEvents filter keeps an event: failed statuses and failed validations. */
function isFailedEvent(e: EndpointEvent): boolean {
  return e.validation ? e.validation.status === 'FAILED' : e.status.endsWith('_FAILED') || e.detailedStatus === 'VALIDATION_FAILED';
}

/** An OperationEvent as the API reference lists its members. */
function operationEventXml(view: StackView, e: EndpointEvent): XmlNode[] {
  const isStack = e.physicalId === view.stackId;
  const eventType = e.validation ? 'VALIDATION_ERROR' : isStack ? 'STACK_EVENT' : e.status.endsWith('_FAILED') ? 'PROVISIONING_ERROR' : 'PROGRESS_EVENT';
  return [
    el('EventId', e.eventId),
    el('StackId', view.stackId),
    el('OperationId', e.operationId),
    el('OperationType', e.operationType),
    el('EventType', eventType),
    el('LogicalResourceId', e.logicalId),
    el('PhysicalResourceId', e.validation ? undefined : e.physicalId),
    el('ResourceType', e.resourceType),
    el('Timestamp', iso(e.timestamp)),
    el('ResourceStatus', e.validation ? undefined : e.status),
    el('ResourceStatusReason', e.validation ? undefined : e.reason),
    el('DetailedStatus', e.detailedStatus),
    el('ValidationFailureMode', e.validation?.failureMode),
    el('ValidationName', e.validation?.name),
    el('ValidationStatus', e.validation?.status),
    el('ValidationStatusReason', e.validation?.reason),
    el('ValidationPath', e.validation?.path),
  ];
}

function stackXml(v: StackView): XmlNode[] {
  return [
    el('StackId', v.stackId),
    el('StackName', v.stackName),
    el('CreationTime', iso(v.creationTime)),
    el('LastUpdatedTime', iso(v.lastUpdatedTime)),
    el('DeletionTime', iso(v.deletionTime)),
    el('StackStatus', v.status),
    el('StackStatusReason', v.reason),
    el('DisableRollback', false),
    el('NotificationARNs', []),
    el('Parameters', []),
    el('Tags', []),
    el('Outputs', []),
    el('EnableTerminationProtection', false),
    el('DriftInformation', [el('StackDriftStatus', 'NOT_CHECKED')]),
  ];
}

function settledScenario(index: number): Scenario {
  const n = String(index).padStart(3, '0');
  return {
    name: `settled-${n}`,
    description: 'A stack at rest.',
    stackName: `service-${n}`,
    types: {},
    existing: {
      status: 'CREATE_COMPLETE',
      resources: [
        { logicalId: 'Bucket', type: 'AWS::S3::Bucket', physicalId: `service-${n}-bucket` },
        { logicalId: 'Queue', type: 'AWS::SQS::Queue', physicalId: `https://sqs.us-east-1.amazonaws.com/123456789012/service-${n}` },
        { logicalId: 'Topic', type: 'AWS::SNS::Topic', physicalId: `arn:aws:sns:us-east-1:123456789012:service-${n}` },
      ],
    },
    templateBody: 'Resources:\n  Bucket: { Type: AWS::S3::Bucket }\n  Queue: { Type: AWS::SQS::Queue }\n  Topic: { Type: AWS::SNS::Topic }\n',
    steps: [],
  };
}
