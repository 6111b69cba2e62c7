/**
 * Small helpers for terminal output: status colours (off when NO_COLOR is set or the output is
 * not a terminal), column padding and the escape codes of a redrawn screen.
 */
import { resourceStatusKind } from '../cloudformation/resourceStatus';
import { stackPhase } from '../cloudformation/stackLifecycle';
import type { CliIo } from './io';

export interface Paint {
  status(status: string, text?: string): string;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, dim: 2, bold: 1 } as const;

/** Colour helpers for this output; plain text when colours are off. */
export function paintFor(io: CliIo): Paint {
  const on = io.isTTY && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
  const wrap = (code: number, text: string) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);
  return {
    status(status, text = status) {
      return wrap(CODES[statusColour(status)], text);
    },
    dim: (text) => wrap(CODES.dim, text),
    bold: (text) => wrap(CODES.bold, text),
    red: (text) => wrap(CODES.red, text),
    yellow: (text) => wrap(CODES.yellow, text),
  };
}

/** The colour of a stack or resource status: blue running, green done, yellow rolled back, red failed. */
export function statusColour(status: string): 'red' | 'green' | 'yellow' | 'blue' | 'dim' {
  if (status === 'DELETE_COMPLETE' || status === 'DELETE_SKIPPED') return 'dim';
  const kind = resourceStatusKind(status);
  if (kind === 'in-progress') return 'blue';
  if (kind === 'failed') return 'red';
  const phase = stackPhase(status);
  if (phase === 'rolled-back' || status.includes('ROLLBACK')) return 'yellow';
  return 'green';
}

/** Pads (or cuts with an ellipsis) to a width, counting characters, not escape codes. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length > width) return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
  return text + ' '.repeat(width - text.length);
}

/** Cuts a line to a width (no padding). */
export function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}

/** Moves the cursor home and clears the screen below it: the start of a redraw. */
export const REDRAW = '\x1b[H\x1b[J';

/** Formats a time as `HH:MM:SS` (UTC), for event lines. */
export function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}
