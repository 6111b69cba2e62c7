/**
 * The watcher's lifecycle of one stack, as a table: state × observation → state, effects. The
 * rows follow the stack lifecycle (docs/stack-lifecycle.md): running
 * statuses are followed through their events, settled ones are only listed, DELETE_COMPLETE is
 * final, and an operation's end is announced once, after the resources it left were read.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { OperationSummary } from '../../../server/src/stacks/stackModel';
import {
  keptWhenUnlisted,
  nextWatchState,
  wantsEvents,
  wantsReads,
  type StackWatchEffect,
  type StackWatchObservation,
  type StackWatchState,
} from '../../../server/src/stacks/stackWatchState';

const T0 = Date.UTC(2024, 4, 1, 10);

/** An operation as the model summarises it: started in `startStatus`, now in `status`. */
function operation(startStatus: string, status: string, startedAt = T0): OperationSummary {
  const outcome = status.endsWith('_IN_PROGRESS') ? 'in-progress' : status.endsWith('_FAILED') || status.includes('ROLLBACK') ? 'failed' : 'succeeded';
  return { startStatus, startedAt, startEventId: `start-${startedAt}`, status, outcome, undeleted: [], eventCount: 5 };
}

const update = operation('UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE');
const updateRunning = operation('UPDATE_IN_PROGRESS', 'UPDATE_IN_PROGRESS');
const nextUpdate = operation('UPDATE_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE', T0 + 60_000);
const deletion = operation('DELETE_IN_PROGRESS', 'DELETE_COMPLETE');

const quiet: StackWatchState = { kind: 'listed', news: false };
const news: StackWatchState = { kind: 'listed', news: true };
const loading: StackWatchState = { kind: 'loading', eventsDue: false };
const ending: StackWatchState = { kind: 'loading', ended: { operation: update, live: true }, eventsDue: false };
const inOperation: StackWatchState = { kind: 'in-operation' };
const atRest: StackWatchState = { kind: 'at-rest' };
const changed: StackWatchState = { kind: 'changed' };
const deleted: StackWatchState = { kind: 'deleted' };

function listing(previous: string | undefined, status: string, updated?: { before?: number; now?: number }): StackWatchObservation {
  const observation: StackWatchObservation = { kind: 'listed', status };
  if (updated?.now !== undefined) observation.lastUpdatedTime = updated.now;
  if (previous !== undefined) observation.previous = updated?.before !== undefined ? { status: previous, lastUpdatedTime: updated.before } : { status: previous };
  return observation;
}

function events(status: string, current?: OperationSummary, ended?: OperationSummary): StackWatchObservation {
  const observation: StackWatchObservation = { kind: 'events', status };
  if (current) observation.operation = current;
  if (ended) observation.ended = ended;
  return observation;
}

const pollNow: StackWatchEffect = { kind: 'poll-now' };
const announced = (op: OperationSummary, live: boolean): StackWatchEffect => ({ kind: 'announce-ended', ended: { operation: op, live } });

type Row = [rule: string, from: StackWatchState, observation: StackWatchObservation, to: StackWatchState, effects: StackWatchEffect[]];

const table: Row[] = [
  // Listings: a settled stack is only listed; any change a listing shows is read from the events at once.
  ['a listing that shows nothing new changes nothing', quiet, listing('CREATE_COMPLETE', 'CREATE_COMPLETE'), quiet, []],
  ['the first listing of a stack has nothing to compare with', quiet, listing(undefined, 'UPDATE_IN_PROGRESS'), quiet, []],
  ['a listed stack that starts an update is news, read at once', quiet, listing('CREATE_COMPLETE', 'UPDATE_IN_PROGRESS'), news, [pollNow]],
  ['a listed stack that moved between settled statuses missed an operation: news', quiet, listing('UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'), news, [pollNow]],
  ['a stack at rest that starts an update has changed', atRest, listing('UPDATE_COMPLETE', 'UPDATE_IN_PROGRESS'), changed, [pollNow]],
  [
    'a stack at rest whose whole update happened between two listings: same status, new update time',
    atRest,
    listing('UPDATE_COMPLETE', 'UPDATE_COMPLETE', { before: T0, now: T0 + 60_000 }),
    changed,
    [pollNow],
  ],
  ['a listing change while an operation is followed makes the next read come at once', inOperation, listing('UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS'), inOperation, [pollNow]],
  [
    'the settled status listed before the resources were reloaded keeps the decided end (the watch that never ended)',
    ending,
    listing('UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE'),
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: true },
    [pollNow],
  ],
  ['a deleted stack never changes again', deleted, listing('UPDATE_COMPLETE', 'UPDATE_IN_PROGRESS'), deleted, []],

  // The first read goes back to the end of the operation before the newest one.
  ['first read of a running stack: its resources are loaded next, nothing ended', quiet, events('UPDATE_IN_PROGRESS', updateRunning), loading, []],
  [
    'first read of a settled stack: its last operation is announced after the resources, as history',
    quiet,
    events('UPDATE_COMPLETE', update),
    { kind: 'loading', ended: { operation: update, live: false }, eventsDue: false },
    [],
  ],
  [
    'first read of a stack that changed while watched: its operation is news',
    news,
    events('UPDATE_COMPLETE', update),
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: false },
    [],
  ],
  [
    'first read whose history ended an operation while it was read: announced as that operation',
    news,
    events('UPDATE_COMPLETE', update, update),
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: false },
    [],
  ],
  ['first read of a stack waiting in review, no operation in its history: nothing to announce', quiet, events('REVIEW_IN_PROGRESS'), loading, []],

  // Reads of a followed operation.
  ['events of a running operation keep it followed', inOperation, events('UPDATE_IN_PROGRESS', updateRunning), inOperation, []],
  [
    'the event that settles the stack ends the operation: resources next, then the announcement',
    inOperation,
    events('UPDATE_COMPLETE', update, update),
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: false },
    [],
  ],
  [
    'a followed operation found settled by a read with no ending event in it still ends: resources, then the announcement',
    inOperation,
    events('UPDATE_COMPLETE', update),
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: false },
    [],
  ],
  [
    'an operation that ended and a next one that started within one read: the ended one is announced',
    inOperation,
    events('UPDATE_IN_PROGRESS', operation('UPDATE_IN_PROGRESS', 'UPDATE_IN_PROGRESS', T0 + 60_000), update),
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: false },
    [],
  ],
  [
    'a changed stack whose events hold a whole operation: it ended while watched',
    changed,
    events('UPDATE_COMPLETE', update, update),
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: false },
    [],
  ],
  ['a changed stack whose events show an update starting is followed', changed, events('UPDATE_IN_PROGRESS', updateRunning), inOperation, []],
  ['a changed stack whose events hold nothing new rests again', changed, events('UPDATE_COMPLETE', update), atRest, []],
  [
    'events read while the resources are due keep the end decided before',
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: true },
    events('UPDATE_COMPLETE', update),
    ending,
    [],
  ],
  [
    'a later end read while the resources are due replaces the earlier one: the newest is announced',
    ending,
    events('UPDATE_ROLLBACK_COMPLETE', nextUpdate, nextUpdate),
    { kind: 'loading', ended: { operation: nextUpdate, live: true }, eventsDue: false },
    [],
  ],

  // Resources: loaded after the first read and after each end; the end is announced then.
  ['resources loaded, settled: the end is announced, the stack rests', ending, { kind: 'resources', status: 'UPDATE_COMPLETE' }, atRest, [announced(update, true)]],
  ['resources loaded while running: the operation is followed', loading, { kind: 'resources', status: 'UPDATE_IN_PROGRESS' }, inOperation, []],
  [
    'resources loaded after a delete: announced, and DELETE_COMPLETE is final',
    { kind: 'loading', ended: { operation: deletion, live: true }, eventsDue: false },
    { kind: 'resources', status: 'DELETE_COMPLETE' },
    deleted,
    [announced(deletion, true)],
  ],
  [
    'resources loaded after a listing showed a change: announced, and the events are read next',
    { kind: 'loading', ended: { operation: update, live: true }, eventsDue: true },
    { kind: 'resources', status: 'UPDATE_COMPLETE' },
    changed,
    [announced(update, true)],
  ],
  ['resources are only read while loading', atRest, { kind: 'resources', status: 'UPDATE_COMPLETE' }, atRest, []],

  // Refresh: the events of followed stacks are read again.
  ['a refresh reads a followed stack at rest again', atRest, { kind: 'refresh', followed: true }, changed, []],
  ['a refresh leaves a stack nobody follows at rest', atRest, { kind: 'refresh', followed: false }, atRest, []],
  ['a refresh reads the events of a followed stack before its resources', ending, { kind: 'refresh', followed: true }, { ...ending, eventsDue: true }, []],
  ['a refresh changes nothing for a followed operation', inOperation, { kind: 'refresh', followed: true }, inOperation, []],

  // Gone: CloudFormation answers that the stack does not exist.
  [
    'a followed operation whose stack vanished: deleted, announced gone',
    inOperation,
    { kind: 'not-found', reason: 'Stack with id x does not exist' },
    deleted,
    [{ kind: 'announce-gone', reason: 'Stack with id x does not exist' }],
  ],
  ['a vanished stack has no end left to announce', ending, { kind: 'not-found', reason: 'gone' }, deleted, [{ kind: 'announce-gone', reason: 'gone' }]],
  ['a deleted stack is gone only once', deleted, { kind: 'not-found', reason: 'gone' }, deleted, []],
];

describe('the watch state of one stack', () => {
  for (const [rule, from, observation, to, effects] of table) {
    test(rule, () => {
      assert.deepEqual(nextWatchState(from, observation), { state: to, effects });
    });
  }

  test('an end is announced exactly once, whatever order listings, refreshes and empty reads come in before the resources', () => {
    const between: StackWatchObservation[] = [
      listing('UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE'),
      { kind: 'refresh', followed: true },
      events('UPDATE_COMPLETE', update),
    ];
    for (const order of permutations(between)) {
      let state: StackWatchState = inOperation;
      const effects: StackWatchEffect[] = [];
      for (const observation of [events('UPDATE_COMPLETE', update, update), ...order, { kind: 'resources', status: 'UPDATE_COMPLETE' } as const]) {
        const step = nextWatchState(state, observation);
        state = step.state;
        effects.push(...step.effects);
      }
      // The reads still due after the announcement are reads, not a second announcement.
      while (wantsEvents(state, 'UPDATE_COMPLETE')) {
        const step = nextWatchState(state, events('UPDATE_COMPLETE', update));
        state = step.state;
        effects.push(...step.effects);
      }
      assert.deepEqual(
        effects.filter((e) => e.kind === 'announce-ended'),
        [announced(update, true)],
        order.map((o) => o.kind).join(' → '),
      );
      assert.equal(state.kind, 'at-rest');
    }
  });
});

describe('what each state reads and keeps', () => {
  const cases: [state: StackWatchState, status: string, followed: boolean, reads: boolean, eventsFirst: boolean, keptUnlisted: boolean][] = [
    [quiet, 'CREATE_COMPLETE', false, false, true, false],
    [quiet, 'CREATE_COMPLETE', true, true, true, false],
    [quiet, 'UPDATE_IN_PROGRESS', false, true, true, true],
    [news, 'UPDATE_COMPLETE', false, true, true, true],
    [loading, 'UPDATE_COMPLETE', false, true, false, false],
    [loading, 'UPDATE_IN_PROGRESS', false, true, true, true],
    [ending, 'UPDATE_COMPLETE', false, true, false, true],
    [{ kind: 'loading', eventsDue: true }, 'UPDATE_COMPLETE', false, true, true, true],
    [inOperation, 'UPDATE_IN_PROGRESS', false, true, true, true],
    [changed, 'UPDATE_COMPLETE', false, true, true, true],
    [atRest, 'UPDATE_COMPLETE', true, false, false, false],
    [deleted, 'DELETE_COMPLETE', true, false, false, false],
  ];
  for (const [state, status, followed, reads, eventsFirst, keptUnlisted] of cases) {
    const name = `${state.kind}${'news' in state && state.news ? ' (news)' : ''}${'ended' in state && state.ended ? ' (ended)' : ''}${'eventsDue' in state && state.eventsDue ? ' (events due)' : ''}`;
    test(`${name} in ${status}${followed ? ', followed' : ''}: ${reads ? `read, ${eventsFirst ? 'events first' : 'resources only'}` : 'not read'}, ${keptUnlisted ? 'kept' : 'dropped'} when no longer listed`, () => {
      assert.equal(wantsReads(state, status, followed), reads);
      if (reads) assert.equal(wantsEvents(state, status), eventsFirst);
      assert.equal(keptWhenUnlisted(state, status), keptUnlisted);
    });
  }
});

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}
