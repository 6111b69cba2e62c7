/**
 * Every request handler runs through `runSafe`: a bug answers that one request with an empty
 * result (and a log line), never takes the server down, and a cancelled request is answered as
 * cancelled without doing the work.
 */
import { LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver';

export interface Logger {
  error(message: string): void;
  info(message: string): void;
}

/** Runs a request handler; errors become `fallback` (logged), cancellation becomes a RequestCancelled error. */
export async function runSafe<T>(
  logger: Logger,
  name: string,
  token: CancellationToken | undefined,
  fallback: T,
  handler: () => T | Promise<T>,
): Promise<T | ResponseError<void>> {
  if (token?.isCancellationRequested) return cancelled();
  try {
    const result = await handler();
    if (token?.isCancellationRequested) return cancelled();
    return result;
  } catch (error) {
    logger.error(`${name} failed: ${describeError(error)}`);
    return fallback;
  }
}

/** Runs a notification handler, logging instead of throwing. */
export function runSafeNotification(logger: Logger, name: string, handler: () => void | Promise<void>): void {
  try {
    const result = handler();
    if (result instanceof Promise) result.catch((error: unknown) => logger.error(`${name} failed: ${describeError(error)}`));
  } catch (error) {
    logger.error(`${name} failed: ${describeError(error)}`);
  }
}

/** An error for a log: the stack when there is one, which says where the bug is. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');
}
