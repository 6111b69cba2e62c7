/**
 * Lengths of time in one format for every face: the tree, the timeline, the watch screen and the
 * CLI's tables (`12s`, `3m 10s`, `1h 15m`). Estimates of time left are rounded differently, as
 * what they are (`~2 min left`, deployments.ts).
 */

/** `12s`, `3m 10s`, `1h 15m`: how long something took or has been running. */
export function durationText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
  return minutes > 0 ? `${minutes}m ${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

/** `+1m 05s`: when an event happened, counted from the start of the operation. */
export function offsetText(ms: number): string {
  return `+${durationText(ms)}`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function ago(time: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}
