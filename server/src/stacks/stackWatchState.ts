/**
 * The lifecycle of one stack in the StackWatcher, as a tagged union and one pure transition
 * function. The state says what the watcher has read of the stack and therefore what it must read
 * next, and holds an operation whose end is decided but not yet announced, so that no order in
 * which listings, events and resource listings arrive can lose that decision. What the stack
 * itself is doing (its status, events, resources) lives in its StackState; the status is passed
 * in with each observation and judged by the lifecycle table.
 *
 *   listed ──events──▶ loading ──resources──▶ in-operation (running) / at-rest / deleted (final)
 *   at-rest ──a listing shows a change──▶ changed ──events──▶ in-operation / at-rest / deleted
 *   in-operation, changed ──events that end an operation──▶ loading (the end is announced after it)
 *   any state ──"does not exist"──▶ deleted
 */
import { isFinal, isRunning } from '../cloudformation/stackLifecycle';
import type { OperationSummary } from './stackModel';

/** An operation whose end the watcher decided; announced once the resources are reloaded. */
export interface EndedOperation {
  operation: OperationSummary;
  /** False when the operation had already ended before the watcher looked (history, not news). */
  live: boolean;
}

export type StackWatchState =
  /**
   * Known from listings only. `news`: the stack appeared or changed while the region was being
   * watched, so its events are worth reading even if nobody follows it.
   */
  | { kind: 'listed'; news: boolean }
  /**
   * Events read (the first time, or up to the end of an operation); the resources are to be
   * loaded next, then `ended` is announced. `eventsDue`: a listing showed a change meanwhile.
   */
  | { kind: 'loading'; ended?: EndedOperation; eventsDue: boolean }
  /** Events and resources read; CloudFormation is working on the stack: its events are due every few seconds. */
  | { kind: 'in-operation' }
  /** Events and resources read; the stack rests in a settled status: only listings are read. */
  | { kind: 'at-rest' }
  /** At rest, but a listing (or a refresh) says it changed since: its events are due. */
  | { kind: 'changed' }
  /** CloudFormation no longer knows the stack, or its events ended in DELETE_COMPLETE: never read again (ids are not reused). */
  | { kind: 'deleted' };

export type StackWatchObservation =
  /** A listing showed the stack; `previous` is what the listing before showed, if one did. */
  | { kind: 'listed'; status: string; previous?: { status: string; lastUpdatedTime?: number }; lastUpdatedTime?: number }
  /**
   * New events were folded into the model. `status` is the stack status after them, `operation`
   * the current (or last) operation, `ended` the operation one of them ended, summarised right then.
   */
  | { kind: 'events'; status: string; operation?: OperationSummary; ended?: OperationSummary }
  /** The resources were listed and folded into the model; `status` is the stack status. */
  | { kind: 'resources'; status: string }
  /** Someone asked to read everything now. */
  | { kind: 'refresh'; followed: boolean }
  /** A read about the stack (by its id) answered that it does not exist; `reason` is the answer. */
  | { kind: 'not-found'; reason: string };

export type StackWatchEffect =
  /** Read the stack at once rather than at its next interval. */
  | { kind: 'poll-now' }
  /** Tell listeners that this operation ended. */
  | { kind: 'announce-ended'; ended: EndedOperation }
  /** Mark the stack deleted, with the answer as its reason, and tell listeners. */
  | { kind: 'announce-gone'; reason: string };

export interface StackWatchTransition {
  state: StackWatchState;
  effects: StackWatchEffect[];
}

/** The state of a stack first seen in a listing; `news` when an earlier listing did not show it. */
export function firstListed(news: boolean): StackWatchState {
  return { kind: 'listed', news };
}

/** The one transition function: what an observation of a stack does to the watcher's state of it. */
export function nextWatchState(state: StackWatchState, observation: StackWatchObservation): StackWatchTransition {
  if (state.kind === 'deleted') return stay(state);
  switch (observation.kind) {
    case 'not-found':
      return { state: { kind: 'deleted' }, effects: [{ kind: 'announce-gone', reason: observation.reason }] };
    case 'listed':
      return afterListing(state, observation);
    case 'events':
      return afterEvents(state, observation);
    case 'resources':
      return afterResources(state, observation.status);
    case 'refresh':
      return afterRefresh(state, observation.followed);
  }
}

/** Whether the stack is to be read at all (at its interval): it is news, running, followed, or something is due. */
export function wantsReads(state: StackWatchState, status: string, followed: boolean): boolean {
  switch (state.kind) {
    case 'listed':
      return state.news || followed || isRunning(status);
    case 'loading':
    case 'in-operation':
    case 'changed':
      return true;
    case 'at-rest':
    case 'deleted':
      return false;
  }
}

/** Whether a read of the stack starts with its events (else it only reloads the resources). */
export function wantsEvents(state: StackWatchState, status: string): boolean {
  switch (state.kind) {
    case 'listed':
    case 'in-operation':
    case 'changed':
      return true;
    case 'loading':
      return state.eventsDue || isRunning(status);
    case 'at-rest':
    case 'deleted':
      return false;
  }
}

/** Whether events and resources were read at least once. */
export function isDetailed(state: StackWatchState): boolean {
  return state.kind !== 'listed';
}

/**
 * Whether a stack that a complete listing no longer shows is still kept: it is running, or
 * something about it is still to be read or announced.
 */
export function keptWhenUnlisted(state: StackWatchState, status: string): boolean {
  switch (state.kind) {
    case 'listed':
      return state.news || isRunning(status);
    case 'loading':
      return state.ended !== undefined || state.eventsDue || isRunning(status);
    case 'in-operation':
    case 'changed':
      return true;
    case 'at-rest':
    case 'deleted':
      return false;
  }
}

function stay(state: StackWatchState): StackWatchTransition {
  return { state, effects: [] };
}

function afterListing(state: StackWatchState, listing: Extract<StackWatchObservation, { kind: 'listed' }>): StackWatchTransition {
  const previous = listing.previous;
  if (!previous || (previous.status === listing.status && previous.lastUpdatedTime === listing.lastUpdatedTime)) return stay(state);
  const pollNow: StackWatchEffect[] = [{ kind: 'poll-now' }];
  switch (state.kind) {
    case 'listed':
      // Whatever the stack did since it was first listed happened while the region was watched.
      return { state: { kind: 'listed', news: true }, effects: pollNow };
    case 'loading':
      return { state: { ...state, eventsDue: true }, effects: pollNow };
    case 'at-rest':
    case 'changed':
      return { state: { kind: 'changed' }, effects: pollNow };
    case 'in-operation':
      return { state, effects: pollNow };
    case 'deleted':
      return stay(state);
  }
}

function afterEvents(state: StackWatchState, read: Extract<StackWatchObservation, { kind: 'events' }>): StackWatchTransition {
  if (state.kind === 'listed') {
    // The first read went back to the end of the operation before the newest one. An operation
    // already over by then is announced too, but as history unless the stack changed while watched.
    const over = read.ended ?? (!isRunning(read.status) ? read.operation : undefined);
    const loading: StackWatchState = { kind: 'loading', eventsDue: false };
    if (over) loading.ended = { operation: over, live: state.news };
    return stay(loading);
  }
  if (state.kind === 'deleted' || state.kind === 'at-rest') return stay(state);
  if (read.ended) return stay({ kind: 'loading', ended: { operation: read.ended, live: true }, eventsDue: false });
  if (state.kind === 'loading') return stay({ ...state, eventsDue: false });
  if (state.kind === 'in-operation' && !isRunning(read.status)) {
    // The stack settled without an event that ended the operation being read (its status came
    // from elsewhere): the operation is over all the same, so it is reloaded and announced, never
    // dropped into rest unannounced, where whoever waits for its end would wait for ever.
    const loading: StackWatchState = { kind: 'loading', eventsDue: false };
    if (read.operation) loading.ended = { operation: read.operation, live: true };
    return stay(loading);
  }
  return stay(restingState(read.status));
}

function afterResources(state: StackWatchState, status: string): StackWatchTransition {
  if (state.kind !== 'loading') return stay(state);
  const effects: StackWatchEffect[] = state.ended ? [{ kind: 'announce-ended', ended: state.ended }] : [];
  return { state: state.eventsDue && !isRunning(status) ? { kind: 'changed' } : restingState(status), effects };
}

/** Where a stack whose events and resources are read rests: following an operation, settled, or deleted for good. */
function restingState(status: string): StackWatchState {
  if (isRunning(status)) return { kind: 'in-operation' };
  return isFinal(status) ? { kind: 'deleted' } : { kind: 'at-rest' };
}

function afterRefresh(state: StackWatchState, followed: boolean): StackWatchTransition {
  // A refresh reads again what anybody looks at closely: the events of followed stacks.
  if (!followed) return stay(state);
  if (state.kind === 'at-rest') return stay({ kind: 'changed' });
  if (state.kind === 'loading') return stay({ ...state, eventsDue: true });
  return stay(state);
}
