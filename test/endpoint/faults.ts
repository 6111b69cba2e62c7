/**
 * Fault injection for the local endpoint: the ways a real AWS account misbehaves, placed on the
 * endpoint's clock (time windows) or on the next calls. Plug an injector in with
 * `startEndpoint({ intercept: injector.intercept })`; it counts what it injected, by kind.
 */
import type { InterceptedRequest } from './server';
import { errorXml } from './queryXml';

export type Fault =
  /** 400 Throttling: "Rate exceeded". */
  | { kind: 'throttle' }
  /** A 5xx answer: InternalFailure (500) or ServiceUnavailable (503). */
  | { kind: 'server-error'; code: 'InternalFailure' | 'ServiceUnavailable' }
  /** 403 ExpiredToken: the session credentials ran out. */
  | { kind: 'expired-token' }
  /** Answers only after `ms` of real time, longer than the client waits. */
  | { kind: 'delay'; ms: number }
  /** Sends the headers and half the body, then destroys the socket. */
  | { kind: 'reset' }
  /** 200 with a body that is not the XML asked for (truncated mid-element or not XML at all). */
  | { kind: 'malformed'; body?: 'truncated' | 'garbage' }
  /**
   * The endpoint's clock runs `ms` ahead of the client's (real time): requests signed more than
   * five minutes off are refused with `code` (SignatureDoesNotMatch by default, as CloudFormation
   * answers), and every answer carries the endpoint's Date, from which the SDK corrects its offset.
   */
  | { kind: 'skew'; ms: number; code?: 'SignatureDoesNotMatch' | 'RequestTimeTooSkewed' }
  /** A hostile or verbose endpoint: an error whose message repeats every request header it received. */
  | { kind: 'echo-headers'; code?: string; status?: number };

export type FaultKind = Fault['kind'];

/** A fault active while the endpoint's clock is in [from, to). */
export interface FaultWindow {
  from: number;
  to: number;
  fault: Fault;
}

const SKEW_TOLERANCE_MS = 5 * 60_000;

/** Decides, call by call, whether the endpoint misbehaves, and does it. */
export class FaultInjector {
  /** Faults answered, by kind (a skew window counts only the requests it refused). */
  readonly injected = new Map<FaultKind, number>();
  private readonly windows: FaultWindow[] = [];
  private readonly queued: Fault[] = [];

  /** `now` is the endpoint's clock (the same one its script runs on). */
  constructor(private readonly now: () => number) {}

  /** Makes every call in [from, to) of the endpoint's clock meet the fault. */
  during(from: number, to: number, fault: Fault): this {
    this.windows.push({ from, to, fault });
    return this;
  }

  /** Makes the next `count` calls meet the fault (before any window applies). */
  next(count: number, fault: Fault): this {
    for (let i = 0; i < count; i++) this.queued.push(fault);
    return this;
  }

  /** Forgets every window and queued fault. */
  clear(): void {
    this.windows.length = 0;
    this.queued.length = 0;
  }

  /** The total number of faults injected. */
  get total(): number {
    let sum = 0;
    for (const n of this.injected.values()) sum += n;
    return sum;
  }

  /** The fault the next call meets, if any (without consuming a queued one). */
  active(): Fault | undefined {
    if (this.queued.length > 0) return this.queued[0];
    const now = this.now();
    return this.windows.find((w) => w.from <= now && now < w.to)?.fault;
  }

  /** The endpoint hook: answers the request with the active fault, or lets the endpoint answer. */
  readonly intercept = async ({ req, res, call, requestId }: InterceptedRequest): Promise<boolean> => {
    const fault = this.queued.shift() ?? this.active();
    if (!fault) return false;
    switch (fault.kind) {
      case 'throttle':
        return this.refuse(res, call, requestId, fault.kind, 'Throttling', 'Rate exceeded', 400);
      case 'server-error':
        return fault.code === 'InternalFailure'
          ? this.refuse(res, call, requestId, fault.kind, 'InternalFailure', 'The request processing has failed because of an unknown error, exception or failure.', 500)
          : this.refuse(res, call, requestId, fault.kind, 'ServiceUnavailable', 'Service is unavailable. Please try again later.', 503);
      case 'expired-token':
        return this.refuse(res, call, requestId, fault.kind, 'ExpiredToken', 'The security token included in the request is expired', 403);
      case 'echo-headers': {
        const seen = Object.entries(req.headers)
          .map(([name, value]) => `${name}: ${String(value)}`)
          .join('\n');
        // Both as lines and as JSON: scrubbing must catch `name: value` and `"name":"value"` alike.
        const message = `Could not process the request with headers\n${seen}\nas JSON: ${JSON.stringify(req.headers)}`;
        return this.refuse(res, call, requestId, fault.kind, fault.code ?? 'InternalFailure', message, fault.status ?? 500);
      }
      case 'delay':
        this.count(fault.kind);
        call.outcome = 'delayed';
        // The client gave up long before: the endpoint then answers into a closed socket.
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        return false;
      case 'reset': {
        this.count(fault.kind);
        call.outcome = 'reset';
        const body = '<?xml version="1.0" encoding="UTF-8"?>\n<DescribeStacksResponse><DescribeStacksResult><Stacks><member><StackId>';
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': body.length * 2 });
        res.write(body, () => res.socket?.destroy());
        return true;
      }
      case 'malformed': {
        this.count(fault.kind);
        call.outcome = 'malformed';
        const body =
          fault.body === 'garbage'
            ? '\u0000\u00ff{"not": "xml"} <<<>>'
            : `<?xml version="1.0" encoding="UTF-8"?>\n<${call.action}Response xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><${call.action}Result><StackEvents><member><EventId>`;
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return true;
      }
      case 'skew': {
        const serverNow = Date.now() + fault.ms;
        res.setHeader('date', new Date(serverNow).toUTCString());
        const signed = parseAmzDate(String(req.headers['x-amz-date'] ?? ''));
        if (signed !== undefined && Math.abs(signed - serverNow) <= SKEW_TOLERANCE_MS) return false;
        const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');
        const message =
          signed === undefined
            ? 'Request is missing X-Amz-Date'
            : signed < serverNow
              ? `Signature expired: ${stamp(signed)} is now earlier than ${stamp(serverNow - SKEW_TOLERANCE_MS)} (${stamp(serverNow)} - 5 min.)`
              : `Signature not yet current: ${stamp(signed)} is still later than ${stamp(serverNow + SKEW_TOLERANCE_MS)} (${stamp(serverNow)} + 5 min.)`;
        return this.refuse(res, call, requestId, fault.kind, fault.code ?? 'SignatureDoesNotMatch', message, 403);
      }
    }
  };

  private refuse(
    res: InterceptedRequest['res'],
    call: InterceptedRequest['call'],
    requestId: string,
    kind: FaultKind,
    code: string,
    message: string,
    status: number,
  ): true {
    this.count(kind);
    call.outcome = code;
    const body = errorXml(code, message, requestId, status >= 500 ? 'Receiver' : 'Sender');
    res.writeHead(status, { 'content-type': 'text/xml', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return true;
  }

  private count(kind: FaultKind): void {
    this.injected.set(kind, (this.injected.get(kind) ?? 0) + 1);
  }
}

/** `20240501T100000Z` as epoch milliseconds. */
function parseAmzDate(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : undefined;
}
