// Polling with a deadline: every end-to-end step waits on a condition, never on a fixed sleep.
import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  /** Give up after this many milliseconds. */
  timeoutMs?: number;
  /** Pause between two checks. */
  intervalMs?: number;
  /** Said in the error when the deadline passes, so a failure names what never happened. */
  what?: string;
}

/**
 * Calls `check` until it returns a value other than undefined, null or false, and returns that
 * value; throws once the deadline passes, with the last error or value `check` produced.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 200, what = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastProblem: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
      lastProblem = value;
    } catch (error) {
      lastProblem = error;
    }
    if (Date.now() >= deadline) {
      const detail = lastProblem instanceof Error ? lastProblem.message : JSON.stringify(lastProblem);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${detail})`);
    }
    await delay(intervalMs);
  }
}
