/**
 * The only AWS client layer of the project: read-only CloudFormation calls through the real SDK.
 * Nothing here can create, change or delete anything; every method returns a `ReadResult`
 * instead of throwing, with errors described for a person and scrubbed of secrets.
 */
import {
  CloudFormationClient,
  DescribeChangeSetCommand,
  DescribeEventsCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  DescribeStackDriftDetectionStatusCommand,
  DescribeStackResourceDriftsCommand,
  GetTemplateCommand,
  ListExportsCommand,
  ListImportsCommand,
  ListChangeSetsCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  type Change,
  type CloudFormationClientConfig,
  type OperationEntry as SdkOperationEntry,
  type OperationEvent as SdkOperationEvent,
  type Stack,
  type StackEvent as SdkStackEvent,
  type StackSummary as SdkStackSummary,
  type StackStatus as SdkStackStatus,
  type StackResourceDriftStatus,
  type StackDriftInformation,
  type StackDriftInformationSummary,
  type StackResourceDriftInformationSummary,
} from '@aws-sdk/client-cloudformation';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { describeAwsError } from './awsErrors';
import type { ChangeSetDescription, ChangeSetResourceChange, ChangeSetSummary, DriftInformation, OperationEntry, OperationEvent, ReaderError, ReadResult, StackDescription, StackEvent, StackExport, StackResource, StackResourceDrift, StackSummary } from './types';

export interface ReaderOptions {
  region?: string;
  profile?: string;
  /** Sends requests to this URL instead of AWS (LocalStack, the test endpoint). */
  endpoint?: string;
  /** Explicit credentials; without them the SDK's standard provider chain is used. */
  credentials?: CloudFormationClientConfig['credentials'];
  /** Environment to read AWS_REGION / AWS_PROFILE from (defaults to process.env). */
  env?: Record<string, string | undefined>;
  /** SDK attempts per call; 1 leaves retrying to the caller (the watcher backs off itself). */
  maxAttempts?: number;
  /**
   * How long one request may take to connect and to be answered before it fails as a network
   * error (default 10 s): without it a silent endpoint would hold a poll for the SDK's 15 minutes.
   */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface EventReadOptions extends CallOptions {
  /** Stop paging when this event id is reached (it and older events are not returned). */
  until?: string;
  /** Upper bound on pages read in one call, so a stack with a huge history stays cheap. */
  maxPages?: number;
  /** Stop once an event older than this time (epoch ms) was read; that event is still returned. */
  notBefore?: number;
  /** Stop at the first event (newest first) for which this returns true; that event is still returned. */
  stopAt?: (event: StackEvent) => boolean;
  /** Go on with a read that failed part way, from the page after the ones it had read. */
  resume?: EventReadProgress;
}

/**
 * The pages an interrupted event read had read, and where it was to go on. Keeping them lets the
 * next attempt continue rather than start over: a read of many pages that each attempt loses to
 * one throttled page would otherwise never finish.
 */
export interface EventReadProgress {
  /** The events read so far, newest first. */
  events: StackEvent[];
  pages: number;
  nextToken: string;
}

/** An event read: the events, or the error with what was read before it (when a page was). */
export type EventReadResult = { ok: true; value: EventPage } | { ok: false; error: ReaderError; progress?: EventReadProgress };

export interface EventPage {
  /** Newest first, as CloudFormation returns them. */
  events: StackEvent[];
  /** Whether the `until` event was reached. */
  reachedUntil: boolean;
  /** Whether the oldest event of the stack was reached. */
  reachedEnd: boolean;
  /** The event at which `stopAt` stopped the read. */
  stoppedAt?: string;
}

export interface ReaderInfo {
  region: string;
  profile?: string;
  endpoint?: string;
}

const MAX_PAGES = 100;
/** Nested stacks nest at most this deep in the change sets read (CloudFormation allows five levels in practice). */
const MAX_NESTED_CHANGE_SET_DEPTH = 5;
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * An SDK client for the options: the region (option, AWS_REGION, AWS_DEFAULT_REGION, then the
 * profile's region) and credentials (explicit, else the standard provider chain). The reader and
 * the drift detector (driftDetection.ts) are the only users.
 */
export async function createCloudFormationClient(options: ReaderOptions): Promise<ReadResult<{ client: CloudFormationClient; info: ReaderInfo }>> {
  // The SDK warns about Node versions on stderr (and so into the editor's output channel);
  // neither a CLI user nor an extension user can act on that, since the runtime is not theirs.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const env = options.env ?? process.env;
  const profile = options.profile ?? env.AWS_PROFILE ?? undefined;
  const regionOption = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? undefined;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const client = new CloudFormationClient({
      region: regionOption,
      profile,
      endpoint: options.endpoint,
      credentials: options.credentials ?? fromNodeProviderChain({ profile }),
      maxAttempts: options.maxAttempts ?? 1,
      requestHandler: {
        connectionTimeout: timeoutMs,
        requestTimeout: timeoutMs,
        // Without this the SDK only logs a warning when the request timeout passes, and waits on.
        throwOnRequestTimeout: true,
      },
    });
    const region = await client.config.region();
    if (!region) throw Object.assign(new Error('Region is missing'), { name: 'RegionMissing' });
    return { ok: true, value: { client, info: { region, profile, endpoint: options.endpoint } } };
  } catch (error) {
    return { ok: false, error: describeAwsError(error, { region: regionOption, endpoint: options.endpoint }) };
  }
}

/** Read-only access to CloudFormation in one region. */
export class CloudFormationReader {
  private constructor(
    private readonly client: CloudFormationClient,
    readonly info: ReaderInfo,
  ) {}

  /**
   * Creates a reader: resolves the region (option, AWS_REGION, AWS_DEFAULT_REGION, then the
   * profile's region) and sets up credentials (explicit, else the standard provider chain).
   */
  static async create(options: ReaderOptions = {}): Promise<ReadResult<CloudFormationReader>> {
    const made = await createCloudFormationClient(options);
    return made.ok ? { ok: true, value: new CloudFormationReader(made.value.client, made.value.info) } : made;
  }

  /** Releases the SDK client's sockets. */
  dispose(): void {
    this.client.destroy();
  }

  /** Lists stack summaries (all pages), deleted ones included unless a status filter excludes them. */
  listStacks(options: CallOptions & { statusFilter?: string[] } = {}): Promise<ReadResult<StackSummary[]>> {
    return this.guard(async () => {
      const stacks: StackSummary[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await this.client.send(
          new ListStacksCommand({ NextToken: token, StackStatusFilter: options.statusFilter as SdkStackStatus[] | undefined }),
          { abortSignal: options.signal },
        );
        for (const s of out.StackSummaries ?? []) stacks.push(toStackSummary(s, s.TemplateDescription));
        token = out.NextToken;
        if (!token) break;
      }
      return stacks;
    });
  }

  /** Describes one stack (by name or id) or, without a name, every live stack (all pages). */
  describeStacks(options: CallOptions & { stackName?: string } = {}): Promise<ReadResult<StackDescription[]>> {
    return this.guard(async () => {
      const stacks: StackDescription[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await this.client.send(new DescribeStacksCommand({ StackName: options.stackName, NextToken: token }), {
          abortSignal: options.signal,
        });
        for (const s of out.Stacks ?? []) stacks.push(toStackDescription(s));
        token = out.NextToken;
        if (!token) break;
      }
      return stacks;
    });
  }

  /** The stack's current resources (ListStackResources, all pages): works for stacks with many resources. */
  listStackResources(stackName: string, options: CallOptions = {}): Promise<ReadResult<StackResource[]>> {
    return this.guard(async () => {
      const resources: StackResource[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await this.client.send(new ListStackResourcesCommand({ StackName: stackName, NextToken: token }), {
          abortSignal: options.signal,
        });
        for (const r of out.StackResourceSummaries ?? []) {
          resources.push(
            withoutUndefined({
              logicalId: r.LogicalResourceId ?? '',
              physicalId: r.PhysicalResourceId || undefined,
              resourceType: r.ResourceType ?? '',
              status: r.ResourceStatus ?? 'UNKNOWN',
              reason: r.ResourceStatusReason || undefined,
              lastUpdated: time(r.LastUpdatedTimestamp) ?? 0,
              drift: toDriftInformation(r.DriftInformation),
            }),
          );
        }
        token = out.NextToken;
        if (!token) break;
      }
      return resources;
    });
  }

  /**
   * What the last drift detection found on the stack's resources in the given states
   * (DescribeStackResourceDrifts, all pages): each one's property differences, as JSON text.
   */
  describeStackResourceDrifts(stackName: string, options: CallOptions & { statuses?: string[] } = {}): Promise<ReadResult<StackResourceDrift[]>> {
    return this.guard(async () => {
      const drifts: StackResourceDrift[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await this.client.send(
          new DescribeStackResourceDriftsCommand({ StackName: stackName, NextToken: token, StackResourceDriftStatusFilters: options.statuses as StackResourceDriftStatus[] | undefined }),
          { abortSignal: options.signal },
        );
        for (const d of out.StackResourceDrifts ?? []) {
          drifts.push({
            logicalId: d.LogicalResourceId ?? '',
            resourceType: d.ResourceType ?? '',
            status: d.StackResourceDriftStatus ?? 'UNKNOWN',
            checkedAt: time(d.Timestamp) ?? 0,
            differences: (d.PropertyDifferences ?? []).map((p) =>
              withoutUndefined({ path: p.PropertyPath ?? '', expected: p.ExpectedValue, actual: p.ActualValue, difference: p.DifferenceType ?? 'NOT_EQUAL' }),
            ),
          });
        }
        token = out.NextToken;
        if (!token) break;
      }
      return drifts;
    });
  }

  /** Where a drift detection stands (DescribeStackDriftDetectionStatus): running, complete or failed, and what it found. */
  describeStackDriftDetectionStatus(detectionId: string, options: CallOptions = {}): Promise<ReadResult<{ status: string; stackDriftStatus?: string; reason?: string; driftedResources?: number }>> {
    return this.guard(async () => {
      const out = await this.client.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId: detectionId }), { abortSignal: options.signal });
      return withoutUndefined({ status: out.DetectionStatus ?? 'UNKNOWN', stackDriftStatus: out.StackDriftStatus, reason: out.DetectionStatusReason || undefined, driftedResources: out.DriftedStackResourceCount });
    });
  }

  /**
   * Stack events, newest first. Paging stops at the `until` event (exclusive), after `maxPages`,
   * or once an event older than `notBefore` was read, so that incremental reads cost one call.
   */
  describeStackEvents(stackName: string, options: EventReadOptions = {}): Promise<EventReadResult> {
    const events: StackEvent[] = [...(options.resume?.events ?? [])];
    let token = options.resume?.nextToken;
    let page = options.resume?.pages ?? 0;
    return this.guard<EventPage>(async () => {
      const maxPages = Math.min(options.maxPages ?? MAX_PAGES, MAX_PAGES);
      for (; page < maxPages; page++) {
        const out = await this.client.send(new DescribeStackEventsCommand({ StackName: stackName, NextToken: token }), {
          abortSignal: options.signal,
        });
        let olderThanWanted = false;
        for (const e of out.StackEvents ?? []) {
          if (options.until !== undefined && e.EventId === options.until) {
            return { events, reachedUntil: true, reachedEnd: false };
          }
          const event = toStackEvent(e);
          events.push(event);
          if (options.stopAt?.(event)) return { events, reachedUntil: false, reachedEnd: false, stoppedAt: event.eventId };
          if (options.notBefore !== undefined && event.timestamp < options.notBefore) olderThanWanted = true;
        }
        token = out.NextToken;
        if (!token) return { events, reachedUntil: false, reachedEnd: true };
        if (olderThanWanted) break;
      }
      return { events, reachedUntil: false, reachedEnd: false };
    }).then((result): EventReadResult => {
      // Pages already read stay read: only whole pages count, and the token is the one after them.
      if (result.ok || token === undefined || page === 0) return result;
      return { ...result, progress: { events, pages: page, nextToken: token } };
    });
  }

  /**
   * The events of one operation from DescribeEvents, which alone reports early-validation
   * failures; `failedOnly` asks CloudFormation for the failed ones only (its root-cause filter).
   * At most `maxPages` pages (default 5): an operation's failures are few.
   */
  describeEvents(
    stackName: string,
    operationId: string,
    options: CallOptions & { failedOnly?: boolean; maxPages?: number } = {},
  ): Promise<ReadResult<OperationEvent[]>> {
    return this.guard(async () => {
      const events: OperationEvent[] = [];
      let token: string | undefined;
      for (let page = 0; page < (options.maxPages ?? 5); page++) {
        const out = await this.client.send(
          new DescribeEventsCommand({
            StackName: stackName,
            OperationId: operationId,
            Filters: options.failedOnly ? { FailedEvents: true } : undefined,
            NextToken: token,
          }),
          { abortSignal: options.signal },
        );
        for (const e of out.OperationEvents ?? []) events.push(toOperationEvent(e));
        token = out.NextToken;
        if (!token) break;
      }
      return events;
    });
  }

  /** The template as submitted (stage Original): during an update rollback, the one being rolled back to; with `changeSetName`, the change set's. */
  getTemplate(stackName: string, options: CallOptions & { changeSetName?: string; stage?: 'Original' | 'Processed' } = {}): Promise<ReadResult<{ body: string }>> {
    return this.guard(async () => {
      const out = await this.client.send(new GetTemplateCommand({ StackName: stackName, ChangeSetName: options.changeSetName, TemplateStage: options.stage ?? 'Original' }), {
        abortSignal: options.signal,
      });
      return { body: out.TemplateBody ?? '' };
    });
  }

  /** Every export of the Region (ListExports, all pages): what `Fn::ImportValue` reads. */
  listExports(options: CallOptions = {}): Promise<ReadResult<StackExport[]>> {
    return this.guard(async () => {
      const exports: StackExport[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await this.client.send(new ListExportsCommand({ NextToken: token }), { abortSignal: options.signal });
        for (const e of out.Exports ?? []) exports.push({ name: e.Name ?? '', value: e.Value ?? '', exportingStackId: e.ExportingStackId ?? '' });
        token = out.NextToken;
        if (!token) break;
      }
      return exports;
    });
  }

  /** The change sets of a stack (ListChangeSets, all pages). */
  listChangeSets(stackName: string, options: CallOptions = {}): Promise<ReadResult<ChangeSetSummary[]>> {
    return this.guard(async () => {
      const summaries: ChangeSetSummary[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await this.client.send(new ListChangeSetsCommand({ StackName: stackName, NextToken: token }), { abortSignal: options.signal });
        for (const c of out.Summaries ?? []) {
          summaries.push(
            withoutUndefined({
              changeSetId: c.ChangeSetId ?? '',
              changeSetName: c.ChangeSetName ?? '',
              stackName: c.StackName ?? stackName,
              status: c.Status ?? 'UNKNOWN',
              executionStatus: c.ExecutionStatus ?? 'UNAVAILABLE',
              statusReason: c.StatusReason || undefined,
              creationTime: time(c.CreationTime) ?? 0,
              description: c.Description || undefined,
            }),
          );
        }
        token = out.NextToken;
        if (!token) break;
      }
      return summaries;
    });
  }

  /**
   * The names of the stacks that import an export (ListImports, all pages). CloudFormation answers
   * an export nobody imports with a ValidationError ("Export '…' is not imported by any stack."),
   * which is read here as no importer.
   */
  listImports(exportName: string, options: CallOptions = {}): Promise<ReadResult<string[]>> {
    return this.guard(async () => {
      const importers: string[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        let out;
        try {
          out = await this.client.send(new ListImportsCommand({ ExportName: exportName, NextToken: token }), { abortSignal: options.signal });
        } catch (error) {
          if (isNotImported(error)) return importers;
          throw error;
        }
        importers.push(...(out.Imports ?? []));
        token = out.NextToken;
        if (!token) break;
      }
      return importers;
    });
  }

  /**
   * A change set with property values (DescribeChangeSet, all pages), and the changes of the
   * nested change sets its nested stacks point to, each read by its ARN.
   */
  describeChangeSet(stackName: string, changeSetName: string, options: CallOptions = {}): Promise<ReadResult<ChangeSetDescription>> {
    return this.guard(async () => {
      const root = await this.readChangeSet({ ChangeSetName: changeSetName, StackName: changeSetName.startsWith('arn:') ? undefined : stackName }, [], options);
      const pending = root.nested;
      const changes = [...root.changes];
      while (pending.length > 0) {
        const next = pending.shift()!;
        if (next.nestedIn.length > MAX_NESTED_CHANGE_SET_DEPTH) continue;
        const read = await this.readChangeSet({ ChangeSetName: next.changeSetId }, next.nestedIn, options);
        changes.push(...read.changes);
        pending.push(...read.nested);
      }
      return { ...root.summary, changes };
    });
  }

  private async readChangeSet(
    input: { ChangeSetName: string; StackName?: string },
    nestedIn: string[],
    options: CallOptions,
  ): Promise<{ summary: Omit<ChangeSetDescription, 'changes'>; changes: ChangeSetResourceChange[]; nested: { changeSetId: string; nestedIn: string[] }[] }> {
    const changes: ChangeSetResourceChange[] = [];
    const nested: { changeSetId: string; nestedIn: string[] }[] = [];
    let summary: Omit<ChangeSetDescription, 'changes'> | undefined;
    let token: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const out = await this.client.send(new DescribeChangeSetCommand({ ...input, NextToken: token, IncludePropertyValues: true }), { abortSignal: options.signal });
      summary ??= withoutUndefined({
        changeSetId: out.ChangeSetId ?? '',
        changeSetName: out.ChangeSetName ?? input.ChangeSetName,
        stackName: out.StackName ?? input.StackName ?? '',
        status: out.Status ?? 'UNKNOWN',
        executionStatus: out.ExecutionStatus ?? 'UNAVAILABLE',
        statusReason: out.StatusReason || undefined,
        creationTime: time(out.CreationTime) ?? 0,
        description: out.Description || undefined,
        parameters: Object.fromEntries((out.Parameters ?? []).filter((p) => p.ParameterKey).map((p) => [p.ParameterKey!, p.ParameterValue ?? ''])),
        deploymentMode: out.DeploymentMode || undefined,
      });
      for (const change of out.Changes ?? []) {
        const read = toResourceChange(change, nestedIn);
        if (!read) continue;
        changes.push(read);
        const nestedId = change.ResourceChange?.ChangeSetId;
        if (nestedId && read.resourceType === 'AWS::CloudFormation::Stack') nested.push({ changeSetId: nestedId, nestedIn: [...nestedIn, read.logicalId] });
      }
      token = out.NextToken;
      if (!token) break;
    }
    return { summary: summary!, changes, nested };
  }

  private async guard<T>(call: () => Promise<T>): Promise<ReadResult<T>> {
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      const secrets = await this.credentialValues(error);
      return { ok: false, error: describeAwsError(error, { region: this.info.region, endpoint: this.info.endpoint, secrets }) };
    }
  }

  /**
   * The credential values the request was signed with, so that an endpoint echoing them back in
   * an error message cannot make them reach a log. Not asked for when finding them was the error.
   */
  private async credentialValues(error: unknown): Promise<string[]> {
    if ((error as { name?: string } | undefined)?.name === 'CredentialsProviderError') return [];
    try {
      const identity = await this.client.config.credentials();
      return [identity.accessKeyId, identity.secretAccessKey, identity.sessionToken].filter((v): v is string => typeof v === 'string');
    } catch {
      return [];
    }
  }
}

/** Whether an error is CloudFormation's answer for an export that no stack imports. */
function isNotImported(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: string; message?: string };
  return name === 'ValidationError' && typeof message === 'string' && /is not imported by any stack/.test(message);
}

function time(value: Date | undefined): number | undefined {
  return value ? value.getTime() : undefined;
}

/** Drops keys whose value is undefined, so results compare and serialise cleanly. */
function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function toResourceChange(change: Change, nestedIn: string[]): ChangeSetResourceChange | undefined {
  const r = change.ResourceChange;
  if (change.Type !== 'Resource' || !r) return undefined;
  return withoutUndefined({
    logicalId: r.LogicalResourceId ?? '',
    physicalId: r.PhysicalResourceId || undefined,
    resourceType: r.ResourceType ?? '',
    action: r.Action ?? '',
    replacement: r.Replacement || undefined,
    policyAction: r.PolicyAction || undefined,
    scope: r.Scope ?? [],
    driftStatus: r.ResourceDriftStatus || undefined,
    details: (r.Details ?? []).map((d) =>
      withoutUndefined({
        target: withoutUndefined({
          attribute: d.Target?.Attribute ?? '',
          name: d.Target?.Name || undefined,
          path: d.Target?.Path || undefined,
          requiresRecreation: d.Target?.RequiresRecreation || undefined,
          attributeChangeType: d.Target?.AttributeChangeType || undefined,
          beforeValue: d.Target?.BeforeValue,
          afterValue: d.Target?.AfterValue,
          beforeValueFrom: d.Target?.BeforeValueFrom || undefined,
          drift: d.Target?.Drift ? withoutUndefined({ previousValue: d.Target.Drift.PreviousValue, actualValue: d.Target.Drift.ActualValue }) : undefined,
        }),
        evaluation: d.Evaluation || undefined,
        changeSource: d.ChangeSource || undefined,
        causingEntity: d.CausingEntity || undefined,
      }),
    ),
    nestedIn,
  });
}

function toStackEvent(e: SdkStackEvent): StackEvent {
  return withoutUndefined({
    eventId: e.EventId ?? '',
    stackId: e.StackId ?? '',
    stackName: e.StackName ?? '',
    logicalId: e.LogicalResourceId ?? '',
    physicalId: e.PhysicalResourceId || undefined,
    resourceType: e.ResourceType ?? '',
    timestamp: time(e.Timestamp) ?? 0,
    status: e.ResourceStatus ?? 'UNKNOWN',
    reason: e.ResourceStatusReason || undefined,
    operationId: e.OperationId || undefined,
    detailedStatus: e.DetailedStatus || undefined,
  });
}

function toOperationEvent(e: SdkOperationEvent): OperationEvent {
  const event: OperationEvent = withoutUndefined({
    eventId: e.EventId ?? '',
    stackId: e.StackId ?? '',
    operationId: e.OperationId || undefined,
    operationType: e.OperationType || undefined,
    eventType: e.EventType ?? 'UNKNOWN',
    logicalId: e.LogicalResourceId || undefined,
    physicalId: e.PhysicalResourceId || undefined,
    resourceType: e.ResourceType || undefined,
    timestamp: time(e.Timestamp) ?? time(e.StartTime) ?? 0,
    status: e.ResourceStatus || undefined,
    reason: e.ResourceStatusReason || undefined,
    detailedStatus: e.DetailedStatus || undefined,
  });
  if (e.ValidationName) {
    event.validation = withoutUndefined({
      name: e.ValidationName,
      status: e.ValidationStatus ?? 'UNKNOWN',
      reason: e.ValidationStatusReason || undefined,
      path: e.ValidationPath || undefined,
      failureMode: e.ValidationFailureMode || undefined,
    });
  }
  return event;
}

/** The stack-level fields, which ListStacks and DescribeStacks name alike except for the description. */
function toStackSummary(s: SdkStackSummary | Stack, description: string | undefined): StackSummary {
  return withoutUndefined({
    stackId: s.StackId ?? '',
    stackName: s.StackName ?? '',
    status: s.StackStatus ?? 'UNKNOWN',
    statusReason: s.StackStatusReason || undefined,
    creationTime: time(s.CreationTime) ?? 0,
    lastUpdatedTime: time(s.LastUpdatedTime),
    deletionTime: time(s.DeletionTime),
    description: description || undefined,
    deploymentMode: ('DeploymentConfig' in s ? s.DeploymentConfig?.Mode : undefined) || undefined,
    lastOperations: toOperationEntries(s.LastOperations),
    parentId: s.ParentId || undefined,
    drift: toDriftInformation(s.DriftInformation),
  });
}

/** A stack's or resource's `DriftInformation`, absent when CloudFormation sent none. */
function toDriftInformation(info: StackDriftInformation | StackDriftInformationSummary | StackResourceDriftInformationSummary | undefined): DriftInformation | undefined {
  if (!info) return undefined;
  const status = 'StackDriftStatus' in info ? info.StackDriftStatus : 'StackResourceDriftStatus' in info ? info.StackResourceDriftStatus : undefined;
  return withoutUndefined({ status: status ?? 'NOT_CHECKED', checkedAt: time(info.LastCheckTimestamp) });
}

/** `LastOperations`, without entries that lack a type or an id; absent when there are none. */
function toOperationEntries(entries: readonly SdkOperationEntry[] | undefined): OperationEntry[] | undefined {
  const known = (entries ?? []).flatMap((e) => (e.OperationType && e.OperationId ? [{ operationType: e.OperationType, operationId: e.OperationId }] : []));
  return known.length > 0 ? known : undefined;
}

function toStackDescription(s: Stack): StackDescription {
  return withoutUndefined({
    ...toStackSummary(s, s.Description),
    parameters: (s.Parameters ?? []).map((p) =>
      withoutUndefined({ key: p.ParameterKey ?? '', value: p.ParameterValue, resolvedValue: p.ResolvedValue }),
    ),
    outputs: (s.Outputs ?? []).map((o) =>
      withoutUndefined({ key: o.OutputKey ?? '', value: o.OutputValue, description: o.Description, exportName: o.ExportName }),
    ),
    tags: (s.Tags ?? []).map((t) => ({ key: t.Key ?? '', value: t.Value ?? '' })),
    disableRollback: s.DisableRollback,
    rootId: s.RootId || undefined,
  });
}
