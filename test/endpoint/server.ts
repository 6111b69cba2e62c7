/**
 * A local CloudFormation endpoint: a node HTTP server on 127.0.0.1 speaking the AWS Query
 * protocol (form-encoded POST in, XML out) that serves scripted deployments on a clock the
 * caller controls. It answers only read actions, records every call, and can page, throttle,
 * demand a SigV4 Authorization header and fail every call with a given error.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SCENARIOS, type Scenario, type ScenarioChangeSet, type ScenarioDrift, type ScenarioResourceChange } from './scenarios';
import { ScriptedStack, scriptedStackId, type EndpointEvent, type StackView } from './scriptedStack';
import { el, errorXml, iso, members, responseXml, type XmlNode } from './queryXml';

export interface ScenarioPlacement {
  name: string;
  /** A scenario the test defines (a stack whose template a CDK app synthesized), instead of SCENARIOS[name]. */
  scenario?: Scenario;
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
  pageSize?: { events?: number; stacks?: number; resources?: number; changes?: number; changeSets?: number };
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
  const placements = (options.scenarios ?? []).map((entry) => (typeof entry === 'string' ? { name: entry } : entry));
  // Stack ids are known before any stack is made, so that a parent names its nested stacks by them.
  const ids = new Map(placements.map((p) => [p.name, scriptedStackId(region, accountId, p.stackName ?? (p.scenario ?? SCENARIOS[p.name])?.stackName ?? p.name, p.startAt ?? startAt)]));
  for (const placement of placements) {
    const scenario = placement.scenario ?? SCENARIOS[placement.name];
    if (!scenario) throw new Error(`Unknown scenario ${placement.name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    stacks.push(new ScriptedStack(scenario, placement.startAt ?? startAt, stepMs, { region, accountId, stackName: placement.stackName, stackIdOf: (name) => ids.get(name) }));
  }
  for (let i = 0; i < (options.settledStacks ?? 0); i++) {
    stacks.push(new ScriptedStack(settledScenario(i), startAt, stepMs, { region, accountId }));
  }

  const changeSets = registerChangeSets(stacks, region, accountId);
  const drift: DriftState = { byStack: new Map(stacks.flatMap((s) => (s.scenario.drift ? [[s.stackId, s.scenario.drift] as const] : []))), detections: new Map() };
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
          const result = answer(action, params, stacks, now(), endpoint.options, changeSets, drift);
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

/** Each stack's last drift detection, and the detections DetectStackDrift started. */
interface DriftState {
  byStack: Map<string, ScenarioDrift>;
  detections: Map<string, { stackId: string; polls: number }>;
}

/** `DriftInformation` of a stack: DRIFTED when any resource is MODIFIED or DELETED. */
function stackDriftXml(found: ScenarioDrift | undefined): XmlNode {
  if (!found) return el('DriftInformation', [el('StackDriftStatus', 'NOT_CHECKED')]);
  const drifted = found.resources.some((r) => r.status === 'MODIFIED' || r.status === 'DELETED');
  return el('DriftInformation', [el('StackDriftStatus', drifted ? 'DRIFTED' : 'IN_SYNC'), el('LastCheckTimestamp', iso(found.checkedAt))]);
}

function resourceDriftXml(found: ScenarioDrift | undefined, logicalId: string): XmlNode {
  const resource = found?.resources.find((r) => r.logicalId === logicalId);
  if (!found || !resource || resource.status === 'NOT_CHECKED') return el('DriftInformation', [el('StackResourceDriftStatus', 'NOT_CHECKED')]);
  return el('DriftInformation', [el('StackResourceDriftStatus', resource.status), el('LastCheckTimestamp', iso(found.checkedAt))]);
}

function answer(action: string, params: Record<string, string>, stacks: ScriptedStack[], now: number, options: EndpointOptions, changeSets: RegisteredChangeSet[], drift: DriftState): XmlNode[] {
  const sizes = { events: 100, stacks: 100, resources: 100, changes: 100, changeSets: 100, ...options.pageSize };
  switch (action) {
    case 'DescribeStacks': {
      const views = params.StackName
        ? [findStack(stacks, params.StackName, now)]
        : stacks.map((s) => s.at(now)).filter((v) => v.exists && v.status !== 'DELETE_COMPLETE');
      const p = page(views, params.NextToken, sizes.stacks, (v) => v.stackId);
      const scenarioOf = (v: StackView) => stacks.find((s) => s.stackId === v.stackId)?.scenario;
      return [members('Stacks', p.items.map((v) => stackXml(v, scenarioOf(v), drift.byStack.get(v.stackId)))), el('NextToken', p.nextToken)];
    }
    case 'DescribeStackResourceDrifts': {
      // As the API reference documents it: the stack's resources whose last detection matches the filters, with their property differences.
      const view = findStack(stacks, params.StackName, now);
      const found = drift.byStack.get(view.stackId);
      const filters = Object.entries(params).filter(([key]) => key.startsWith('StackResourceDriftStatusFilters.member.')).map(([, value]) => value);
      const checked = (found?.resources ?? []).filter((r) => r.status !== 'NOT_CHECKED' && (filters.length === 0 || filters.includes(r.status)));
      const size = params.MaxResults ? Number(params.MaxResults) : sizes.resources;
      const p = page(checked, params.NextToken, size, (r) => r.logicalId);
      return [
        members(
          'StackResourceDrifts',
          p.items.map((r) => {
            const resource = view.resources.find((candidate) => candidate.logicalId === r.logicalId);
            return [
              el('StackId', view.stackId),
              el('LogicalResourceId', r.logicalId),
              el('PhysicalResourceId', resource?.physicalId),
              el('ResourceType', resource?.resourceType),
              el('StackResourceDriftStatus', r.status),
              members('PropertyDifferences', (r.differences ?? []).map((d) => [el('PropertyPath', d.path), el('ExpectedValue', d.expected ?? ''), el('ActualValue', d.actual ?? ''), el('DifferenceType', d.difference)])),
              el('Timestamp', iso(found!.checkedAt)),
            ];
          }),
        ),
        el('NextToken', p.nextToken),
      ];
    }
    case 'DetectStackDrift': {
      const view = findStack(stacks, params.StackName, now);
      const stack = stacks.find((s) => s.stackId === view.stackId)!;
      const id = `drift-detection-${drift.detections.size + 1}`;
      drift.detections.set(id, { stackId: view.stackId, polls: 0 });
      const found = stack.scenario.driftFound ?? { resources: view.resources.map((r) => ({ logicalId: r.logicalId, status: 'IN_SYNC' as const })) };
      drift.byStack.set(view.stackId, { checkedAt: now, resources: found.resources });
      return [el('StackDriftDetectionId', id)];
    }
    case 'DescribeStackDriftDetectionStatus': {
      const detection = drift.detections.get(params.StackDriftDetectionId ?? '');
      if (!detection) throw new QueryError('ValidationError', `Drift detection ${params.StackDriftDetectionId ?? ''} does not exist`);
      // The first poll finds the detection running, as a real one is for a while.
      const running = detection.polls++ === 0;
      const found = drift.byStack.get(detection.stackId);
      const drifted = (found?.resources ?? []).filter((r) => r.status === 'MODIFIED' || r.status === 'DELETED').length;
      return [
        el('StackId', detection.stackId),
        el('StackDriftDetectionId', params.StackDriftDetectionId),
        el('DetectionStatus', running ? 'DETECTION_IN_PROGRESS' : 'DETECTION_COMPLETE'),
        el('StackDriftStatus', running ? undefined : drifted > 0 ? 'DRIFTED' : 'IN_SYNC'),
        el('DriftedStackResourceCount', running ? undefined : drifted),
        el('Timestamp', iso(now)),
      ];
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
            stackDriftXml(drift.byStack.get(v.stackId)),
            el('ParentId', v.parentId),
            el('RootId', v.parentId),
            lastOperationsXml(v),
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
            resourceDriftXml(drift.byStack.get(view.stackId), r.logicalId),
          ]),
        ),
        el('NextToken', p.nextToken),
      ];
    }
    case 'GetTemplate': {
      if (params.ChangeSetName) {
        const found = findChangeSet(changeSets, stacks, params, now);
        return [el('TemplateBody', found.changeSet.templateBody ?? ''), el('StagesAvailable', [el('member', 'Original'), el('member', 'Processed')])];
      }
      const view = findStack(stacks, params.StackName, now);
      const stack = stacks.find((s) => s.stackId === view.stackId);
      return [
        el('TemplateBody', stack?.scenario.templateBody ?? ''),
        el('StagesAvailable', [el('member', 'Original'), el('member', 'Processed')]),
      ];
    }
    case 'ListExports': {
      const exports = exportedOutputs(stacks, now);
      const p = page(exports, params.NextToken, sizes.stacks, (e) => e.name);
      return [
        members(
          'Exports',
          p.items.map((e) => [el('ExportingStackId', e.stackId), el('Name', e.name), el('Value', e.value)]),
        ),
        el('NextToken', p.nextToken),
      ];
    }
    case 'ListImports': {
      const exported = exportedOutputs(stacks, now).find((e) => e.name === params.ExportName);
      // CloudFormation answers an export that no stack imports, or that does not exist, with this error.
      if (!exported || exported.importedBy.length === 0) throw new QueryError('ValidationError', `Export '${params.ExportName ?? ''}' is not imported by any stack.`);
      const p = page(exported.importedBy, params.NextToken, sizes.stacks, (name) => name);
      return [el('Imports', p.items.map((name) => el('member', name))), el('NextToken', p.nextToken)];
    }
    case 'ListChangeSets': {
      const view = findStack(stacks, params.StackName, now);
      // Nested change sets belong to their nested stacks: a stack lists only its own.
      const own = changeSets.filter((c) => c.stackId === view.stackId && !c.parentId);
      const p = page(own, params.NextToken, sizes.changeSets, (c) => c.id);
      return [members('Summaries', p.items.map((c) => [...changeSetHead(c), el('Description', c.changeSet.description), el('IncludeNestedStacks', c.includesNested)])), el('NextToken', p.nextToken)];
    }
    case 'DescribeChangeSet': {
      const found = findChangeSet(changeSets, stacks, params, now);
      const p = page(
        found.changeSet.changes.map((change, index) => ({ change, index })),
        params.NextToken,
        sizes.changes,
        (c) => String(c.index),
      );
      const withValues = params.IncludePropertyValues === 'true';
      return [
        ...changeSetHead(found),
        el('Description', found.changeSet.description),
        members('Parameters', Object.entries(found.changeSet.parameters ?? {}).map(([key, value]) => [el('ParameterKey', key), el('ParameterValue', value)])),
        el('NotificationARNs', []),
        el('Capabilities', []),
        el('Tags', []),
        members('Changes', p.items.map(({ change }) => changeXml(change, found, changeSets, withValues))),
        el('NextToken', p.nextToken),
        el('IncludeNestedStacks', found.includesNested),
        el('DeploymentMode', found.changeSet.deploymentMode),
      ];
    }
    default:
      throw new QueryError('InvalidAction', `The action ${action || '(none)'} is not valid for this web service.`);
  }
}

/** The exports of every live stack, with the stacks that import each. */
function exportedOutputs(stacks: ScriptedStack[], now: number): { name: string; value: string; stackId: string; importedBy: string[] }[] {
  const out: { name: string; value: string; stackId: string; importedBy: string[] }[] = [];
  for (const stack of stacks) {
    const view = stack.at(now);
    if (!view.exists || view.status === 'DELETE_COMPLETE') continue;
    for (const o of stack.scenario.outputs ?? []) {
      if (o.exportName !== undefined) out.push({ name: o.exportName, value: o.value, stackId: view.stackId, importedBy: o.importedBy ?? [] });
    }
  }
  return out;
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

function stackXml(v: StackView, scenario: Scenario | undefined, found: ScenarioDrift | undefined): XmlNode[] {
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
    members('Parameters', Object.entries(v.parameters).map(([key, value]) => [el('ParameterKey', key), el('ParameterValue', value)])),
    el('Tags', []),
    el(
      'Outputs',
      (scenario?.outputs ?? []).map((o) => el('member', [el('OutputKey', o.key), el('OutputValue', o.value), el('ExportName', o.exportName)])),
    ),
    el('EnableTerminationProtection', false),
    stackDriftXml(found),
    el('DeploymentConfig', v.deploymentMode ? [el('Mode', v.deploymentMode)] : undefined),
    el('ParentId', v.parentId),
    el('RootId', v.parentId),
    lastOperationsXml(v),
  ];
}

/** `LastOperations`: a list of `OperationEntry` (OperationType, OperationId), newest first. */
function lastOperationsXml(v: StackView): XmlNode {
  return members('LastOperations', v.lastOperations.map((o) => [el('OperationType', o.operationType), el('OperationId', o.operationId)]));
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

/** A change set the endpoint can describe, with the ids CloudFormation gives it and its nested stack's. */
interface RegisteredChangeSet {
  id: string;
  stackId: string;
  stackName: string;
  changeSet: ScenarioChangeSet;
  creationTime: number;
  includesNested: boolean;
  parentId?: string;
  rootId?: string;
}

/** Every change set of every stack, nested ones included, with ARNs as CloudFormation writes them. */
function registerChangeSets(stacks: ScriptedStack[], region: string, accountId: string): RegisteredChangeSet[] {
  const registered: RegisteredChangeSet[] = [];
  const add = (stack: ScriptedStack, changeSet: ScenarioChangeSet, stackName: string, parent?: RegisteredChangeSet): RegisteredChangeSet => {
    const suffix = createHash('sha256').update(`${stackName}/${changeSet.name}`).digest('hex');
    const entry: RegisteredChangeSet = {
      id: `arn:aws:cloudformation:${region}:${accountId}:changeSet/${changeSet.name}/${suffix.slice(0, 8)}-${suffix.slice(8, 12)}-${suffix.slice(12, 16)}-${suffix.slice(16, 20)}-${suffix.slice(20, 32)}`,
      stackId: parent ? `${stack.stackId}-${stackName}` : stack.stackId,
      stackName,
      changeSet,
      creationTime: stack.createdAt + 90 * 60_000,
      includesNested: changeSet.changes.some((c) => c.nestedChangeSet !== undefined) || parent !== undefined,
      parentId: parent?.id,
      rootId: parent ? (parent.rootId ?? parent.id) : undefined,
    };
    registered.push(entry);
    for (const change of changeSet.changes) {
      if (change.nestedChangeSet) add(stack, change.nestedChangeSet, `${stackName}-${change.LogicalResourceId}`, entry);
    }
    return entry;
  };
  for (const stack of stacks) for (const changeSet of stack.scenario.changeSets ?? []) add(stack, changeSet, stack.stackName);
  return registered;
}

/** The change set a DescribeChangeSet names: by ARN, or by name with the stack's name or id. */
function findChangeSet(changeSets: RegisteredChangeSet[], stacks: ScriptedStack[], params: Record<string, string>, now: number): RegisteredChangeSet {
  const name = params.ChangeSetName;
  if (!name) throw new QueryError('ValidationError', 'ChangeSetName must not be empty');
  if (name.startsWith('arn:')) {
    const byId = changeSets.find((c) => c.id === name);
    if (byId) return byId;
  } else {
    if (!params.StackName) throw new QueryError('ValidationError', 'StackName must be specified if ChangeSetName is not specified as an ARN.');
    const view = findStack(stacks, params.StackName, now);
    const byName = changeSets.find((c) => c.stackId === view.stackId && c.changeSet.name === name);
    if (byName) return byName;
  }
  throw new QueryError('ChangeSetNotFound', `ChangeSet [${name}] does not exist`, 404);
}

/** The fields a change set's summary and its description share. */
function changeSetHead(c: RegisteredChangeSet): XmlNode[] {
  return [
    el('StackId', c.stackId),
    el('StackName', c.stackName),
    el('ChangeSetId', c.id),
    el('ChangeSetName', c.changeSet.name),
    el('ExecutionStatus', 'AVAILABLE'),
    el('Status', 'CREATE_COMPLETE'),
    el('CreationTime', iso(c.creationTime)),
    el('ParentChangeSetId', c.parentId),
    el('RootChangeSetId', c.rootId),
  ];
}

/** One `Change` (Type Resource); property values and contexts only when IncludePropertyValues was asked for. */
function changeXml(change: ScenarioResourceChange, owner: RegisteredChangeSet, changeSets: RegisteredChangeSet[], withValues: boolean): XmlNode[] {
  const nested = change.nestedChangeSet ? changeSets.find((c) => c.parentId === owner.id && c.changeSet === change.nestedChangeSet) : undefined;
  const details = (change.Details ?? []).map((d) => {
    const { BeforeValue, AfterValue, Drift, ...target } = d.Target;
    const values = withValues ? [el('BeforeValue', BeforeValue), el('AfterValue', AfterValue)] : [];
    const drift = Drift && withValues ? [el('Drift', [el('PreviousValue', Drift.PreviousValue), el('ActualValue', Drift.ActualValue)])] : [];
    return [
      el('Target', [...Object.entries(target).map(([key, value]) => el(key, value)), ...values, ...drift]),
      el('Evaluation', d.Evaluation),
      el('ChangeSource', d.ChangeSource),
      el('CausingEntity', d.CausingEntity),
    ];
  });
  return [
    el('Type', 'Resource'),
    el('HookInvocationCount', 0),
    el('ResourceChange', [
      el('PolicyAction', change.PolicyAction),
      el('Action', change.Action),
      el('LogicalResourceId', change.LogicalResourceId),
      el('PhysicalResourceId', change.PhysicalResourceId),
      el('ResourceType', change.ResourceType),
      el('Replacement', change.Replacement),
      el('Scope', change.Scope?.map((scope) => el('member', scope)) ?? []),
      el('ResourceDriftStatus', change.ResourceDriftStatus),
      members('Details', details),
      el('ChangeSetId', nested?.id),
      el('BeforeContext', withValues ? change.BeforeContext : undefined),
      el('AfterContext', withValues ? change.AfterContext : undefined),
    ]),
  ];
}
