/**
 * Turns whatever the AWS SDK throws into a `ReaderError` a person can act on. Messages are
 * scrubbed: access key ids, signatures, session tokens and Authorization headers never leave.
 */
import type { ReaderError, ReaderErrorKind } from './types';

interface ErrorContext {
  region?: string;
  endpoint?: string;
}

const THROTTLING = new Set(['Throttling', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException', 'SlowDown']);
const EXPIRED = new Set(['ExpiredToken', 'ExpiredTokenException', 'RequestExpired', 'TokenRefreshRequired']);
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
    $metadata?: { httpStatusCode?: number };
  };
  const name = e.name ?? '';
  const code = e.Code ?? (name && name !== 'Error' ? name : undefined);
  const raw = redactSecrets(e.message ?? String(error));
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
  if (e.$fault === 'server' || (e.$metadata?.httpStatusCode ?? 0) >= 500) {
    return make('server', `CloudFormation had an internal error: ${raw}`, 'Try again in a moment.');
  }
  return make('other', raw, 'See the message; refresh to try again.');
}

function looksLikeRegion(region: string): boolean {
  return /^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d+$/.test(region);
}

/** Removes access key ids, signatures, session tokens and credential scopes from a message. */
export function redactSecrets(message: string): string {
  return message
    .replace(/\b(AKIA|ASIA)[A-Z0-9]{12,}\b/g, '[redacted key id]')
    .replace(/(Credential=)[^,\s]+/gi, '$1[redacted]')
    .replace(/(Signature=)[0-9a-f]+/gi, '$1[redacted]')
    .replace(/(X-Amz-Security-Token[=:]\s*)[^\s&,]+/gi, '$1[redacted]')
    .replace(/(Authorization[=:]\s*)[^\n]+/gi, '$1[redacted]')
    .replace(/(aws_secret_access_key\s*=\s*)\S+/gi, '$1[redacted]')
    .replace(/(aws_session_token\s*=\s*)\S+/gi, '$1[redacted]');
}
