/**
 * Turns whatever the AWS SDK throws into a `ReaderError` a person can act on. Messages are
 * scrubbed: access key ids, signatures, session tokens and Authorization headers never leave.
 */
import type { ReaderError, ReaderErrorKind } from './types';

interface ErrorContext {
  region?: string;
  endpoint?: string;
  /** Credential values in use (key id, secret, session token): removed wherever they appear. */
  secrets?: readonly string[];
}

const THROTTLING = new Set(['Throttling', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException', 'SlowDown']);
const EXPIRED = new Set(['ExpiredToken', 'ExpiredTokenException', 'TokenRefreshRequired']);
/** Errors that mean the request's signing time was too far from AWS's clock. */
const SKEWED = new Set(['RequestTimeTooSkewed', 'RequestExpired', 'RequestInTheFuture']);
const SKEW_MESSAGE = /signature expired|signature not yet current|too skewed|request has expired|is now earlier than|is still later than/i;
const DENIED = new Set([
  'AccessDenied',
  'AccessDeniedException',
  'UnauthorizedOperation',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'UnrecognizedClientException',
  'MissingAuthenticationToken',
  'IncompleteSignature',
  'OptInRequired',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
  'ENOTFOUND',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Describes an SDK error (or any thrown value) as a ReaderError with a fix. */
export function describeAwsError(error: unknown, context: ErrorContext = {}): ReaderError {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as {
    name?: string;
    code?: string;
    Code?: string;
    message?: string;
    $fault?: string;
    $metadata?: { httpStatusCode?: number; clockSkewCorrected?: boolean };
  };
  const name = e.name ?? '';
  const code = e.Code ?? (name && name !== 'Error' ? name : undefined);
  const raw = redactSecrets(withoutSdkHints(e.message ?? String(error)), context.secrets);
  const make = (kind: ReaderErrorKind, message: string, fix: string): ReaderError =>
    code ? { kind, message, fix, code } : { kind, message, fix };

  if (name === 'AbortError' || code === 'AbortError') return make('cancelled', 'The request was cancelled.', 'Nothing to do.');
  if (name === 'RegionMissing' || /region is missing/i.test(raw)) {
    return make(
      'unknown-region',
      'No AWS region is configured.',
      'Choose a region (--region, AWS_REGION, or a region in your AWS profile).',
    );
  }
  if (name === 'CredentialsProviderError' || /could not load credentials/i.test(raw)) {
    return make(
      'no-credentials',
      `No AWS credentials were found: ${raw}`,
      'Sign in (for example `aws sso login`), set AWS_PROFILE to a configured profile, or export credentials in the environment.',
    );
  }
  if (code && THROTTLING.has(code)) {
    return make('throttled', `CloudFormation is throttling requests: ${raw}`, 'Wait; requests are retried with backoff.');
  }
  if ((code && SKEWED.has(code)) || e.$metadata?.clockSkewCorrected === true || (code === 'SignatureDoesNotMatch' && SKEW_MESSAGE.test(raw))) {
    return make(
      'clock-skew',
      `This computer's clock is too far from AWS's for requests to be accepted: ${raw}`,
      'Requests are retried with the clock difference corrected; if this persists, synchronise the system clock.',
    );
  }
  if (code && EXPIRED.has(code)) {
    return make(
      'expired-credentials',
      `The AWS credentials have expired: ${raw}`,
      'Refresh your credentials (for example `aws sso login`) and refresh the view.',
    );
  }
  if (code && DENIED.has(code)) {
    return make(
      'access-denied',
      `Access denied: ${raw}`,
      'Use credentials allowed to call cloudformation:Describe*, List* and GetTemplate (check the profile and its policy).',
    );
  }
  if (code === 'ValidationError' && /does not exist/i.test(raw)) {
    return make('not-found', raw, 'Check the stack name and the region (stacks are regional).');
  }
  const sysCode = e.code ?? '';
  if (NETWORK_CODES.has(sysCode) || name === 'TimeoutError' || /socket hang up|getaddrinfo|connect ECONN/i.test(raw)) {
    if (sysCode === 'ENOTFOUND' && !context.endpoint && context.region && !looksLikeRegion(context.region)) {
      return make(
        'unknown-region',
        `There is no CloudFormation endpoint for region "${context.region}".`,
        'Choose an existing region (for example us-east-1).',
      );
    }
    const where = context.endpoint ? ` at ${context.endpoint}` : context.region ? ` in ${context.region}` : '';
    return make('network', `Could not reach CloudFormation${where}: ${raw}`, 'Check the network connection (and the endpoint override, if one is set).');
  }
  if (/XML parse error|Deserialization error/i.test(e.message ?? '')) {
    return make('server', `CloudFormation sent an answer that could not be read: ${raw}`, 'Try again in a moment; requests are retried with backoff.');
  }
  if (e.$fault === 'server' || (e.$metadata?.httpStatusCode ?? 0) >= 500) {
    return make('server', `CloudFormation had an internal error: ${raw}`, 'Try again in a moment.');
  }
  return make('other', raw, 'See the message; refresh to try again.');
}

function looksLikeRegion(region: string): boolean {
  return /^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d+$/.test(region);
}

/** The SDK's advice to its own developers ("inspect the hidden field {error}.$response") says nothing to a person. */
function withoutSdkHints(message: string): string {
  return message.replace(/\s*Deserialization error: to see the raw response, inspect the hidden field \{error\}\.\$response on this object\./g, '');
}

/**
 * Names whose value is secret, in any of the forms an echoing endpoint or a config dump may use:
 * `name: value`, `name=value`, `"name": "value"`, `'name'='value'`.
 */
const SECRET_FIELD =
  /(["']?\b(?:authorization|x-amz-security-token|x-amz-credential|x-amz-signature|aws_secret_access_key|aws_session_token|aws_security_token|secretAccessKey|sessionToken)\b["']?\s*[=:]\s*)(?:"[^"\n]*"?|'[^'\n]*'?|[^\n]+)/gi;

/**
 * Removes access key ids, signatures, session tokens, Authorization values and credential scopes
 * from a message, and every one of the `known` secret values wherever it appears.
 */
export function redactSecrets(message: string, known: readonly string[] = []): string {
  let text = message;
  for (const secret of known) {
    // Short values could be ordinary words; real key ids, secrets and tokens are long.
    if (secret.length >= 8) text = text.split(secret).join('[redacted]');
  }
  return text
    .replace(/\b(AKIA|ASIA)[A-Z0-9]{12,}\b/g, '[redacted key id]')
    .replace(/(Credential=)[^,\s]+/gi, '$1[redacted]')
    .replace(/(Signature=)[0-9a-f]+/gi, '$1[redacted]')
    .replace(SECRET_FIELD, '$1[redacted]');
}
