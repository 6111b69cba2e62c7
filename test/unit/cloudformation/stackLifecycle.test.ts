import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STACK_STATES,
  STACK_STATUSES,
  isFinal,
  isOperationAllowed,
  isTerminal,
  isTransitionPossible,
  operationOutcome,
  stackPhase,
  startsOperation,
  type StackStatus,
} from '../../../server/src/cloudformation/stackLifecycle';

// Every arrow of AWS's lifecycle diagram (docs/stack-lifecycle.md#diagram), read off the drawing.
// The box holding CREATE_COMPLETE / UPDATE_COMPLETE / UPDATE_ROLLBACK_COMPLETE is expanded to its
// three states.
const settledBox: StackStatus[] = ['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'];
const diagramEdges: [StackStatus | undefined, StackStatus][] = [
  [undefined, 'REVIEW_IN_PROGRESS'],
  [undefined, 'CREATE_IN_PROGRESS'],
  ['REVIEW_IN_PROGRESS', 'CREATE_IN_PROGRESS'],
  ['CREATE_IN_PROGRESS', 'ROLLBACK_IN_PROGRESS'],
  ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
  ['ROLLBACK_IN_PROGRESS', 'CREATE_FAILED'],
  ['ROLLBACK_IN_PROGRESS', 'ROLLBACK_FAILED'],
  ...settledBox.map((s): [StackStatus, StackStatus] => [s, 'UPDATE_IN_PROGRESS']),
  ...settledBox.map((s): [StackStatus, StackStatus] => [s, 'DELETE_IN_PROGRESS']),
  ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS'],
  ['UPDATE_IN_PROGRESS', 'UPDATE_FAILED'],
  ['UPDATE_IN_PROGRESS', 'UPDATE_ROLLBACK_IN_PROGRESS'],
  ['UPDATE_FAILED', 'UPDATE_IN_PROGRESS'],
  ['UPDATE_FAILED', 'UPDATE_ROLLBACK_IN_PROGRESS'],
  ['UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE'],
  ['UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS'],
  ['UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_FAILED'],
  ['UPDATE_ROLLBACK_FAILED', 'UPDATE_ROLLBACK_IN_PROGRESS'],
  ['UPDATE_ROLLBACK_FAILED', 'DELETE_IN_PROGRESS'],
  ['UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE'],
  ['DELETE_IN_PROGRESS', 'DELETE_FAILED'],
  ['DELETE_IN_PROGRESS', 'DELETE_COMPLETE'],
];

// The actions of the TLA+ model (docs/stack-lifecycle.md#tla-model; its IsCompleted / IsFailed
// sets expanded), except UpdateInProgress from ROLLBACK_COMPLETE and DELETE_COMPLETE, which the
// model allows only because it lumps every *_COMPLETE together; AWS rejects both (run 3:
// ROLLBACK_COMPLETE allows only delete).
const tlaEdges: [StackStatus, StackStatus][] = [
  ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
  ['CREATE_IN_PROGRESS', 'CREATE_FAILED'],
  ...(['CREATE_COMPLETE', 'ROLLBACK_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'] as StackStatus[]).map(
    (s): [StackStatus, StackStatus] => [s, 'DELETE_IN_PROGRESS'],
  ),
  ...(['CREATE_FAILED', 'DELETE_FAILED', 'ROLLBACK_FAILED', 'UPDATE_ROLLBACK_FAILED'] as StackStatus[]).map(
    (s): [StackStatus, StackStatus] => [s, 'DELETE_IN_PROGRESS'],
  ),
  ['DELETE_IN_PROGRESS', 'DELETE_COMPLETE'],
  ['DELETE_IN_PROGRESS', 'DELETE_FAILED'],
  ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE'],
  ['UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE'],
  ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS'],
  ['CREATE_IN_PROGRESS', 'ROLLBACK_IN_PROGRESS'],
  ['ROLLBACK_IN_PROGRESS', 'ROLLBACK_COMPLETE'],
  ['ROLLBACK_IN_PROGRESS', 'ROLLBACK_FAILED'],
  ['UPDATE_IN_PROGRESS', 'UPDATE_ROLLBACK_IN_PROGRESS'],
  ['UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE'],
  ['UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE'],
  ['UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_FAILED'],
  ['UPDATE_ROLLBACK_FAILED', 'UPDATE_ROLLBACK_IN_PROGRESS'],
  ['UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS'],
];

describe('stack lifecycle', () => {
  test('every arrow of AWS\'s lifecycle diagram is a possible transition', () => {
    for (const [from, to] of diagramEdges) assert.ok(isTransitionPossible(from, to), `${from ?? '<nonexistent>'} → ${to}`);
  });

  test('every action of the TLA+ model is a possible transition', () => {
    for (const [from, to] of tlaEdges) assert.ok(isTransitionPossible(from, to), `${from} → ${to}`);
  });

  test('no state deadlocks: running states move on by themselves, settled ones allow an operation, only DELETE_COMPLETE is final', () => {
    for (const status of STACK_STATUSES) {
      const info = STACK_STATES[status];
      if (status === 'DELETE_COMPLETE') {
        assert.ok(isFinal(status));
        continue;
      }
      assert.equal(isFinal(status), false, status);
      if (info.running) assert.ok(info.next.length > 0, `${status} has no automatic successor`);
      else assert.ok(info.operations.length > 0, `${status} allows no operation`);
    }
  });

  test('every state is reachable from a stack that does not exist yet', () => {
    const reached = new Set<StackStatus>();
    const queue: StackStatus[] = ['CREATE_IN_PROGRESS', 'REVIEW_IN_PROGRESS'];
    while (queue.length) {
      const status = queue.pop()!;
      if (reached.has(status)) continue;
      reached.add(status);
      const info = STACK_STATES[status];
      queue.push(...info.next, ...info.operations.map((e) => e.to));
    }
    assert.deepEqual([...reached].sort(), [...STACK_STATUSES].sort());
  });

  test('transitions that skip states are impossible, so a watcher knows it missed polls', () => {
    assert.equal(isTransitionPossible('UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'), false);
    assert.equal(isTransitionPossible('CREATE_IN_PROGRESS', 'UPDATE_COMPLETE'), false);
    assert.equal(isTransitionPossible('ROLLBACK_COMPLETE', 'UPDATE_IN_PROGRESS'), false);
    assert.equal(isTransitionPossible(undefined, 'UPDATE_IN_PROGRESS'), false);
  });

  test('resource operations per in-progress state follow the diagram letters', () => {
    assert.deepEqual(STACK_STATES.CREATE_IN_PROGRESS.resourceOperations, ['create']);
    assert.deepEqual(STACK_STATES.UPDATE_IN_PROGRESS.resourceOperations, ['create', 'update']);
    assert.deepEqual(STACK_STATES.ROLLBACK_IN_PROGRESS.resourceOperations, ['delete']);
    assert.deepEqual(STACK_STATES.UPDATE_ROLLBACK_IN_PROGRESS.resourceOperations, ['update']);
    assert.deepEqual(STACK_STATES.UPDATE_COMPLETE_CLEANUP_IN_PROGRESS.resourceOperations, ['delete']);
    assert.deepEqual(STACK_STATES.UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS.resourceOperations, ['delete']);
    assert.deepEqual(STACK_STATES.DELETE_IN_PROGRESS.resourceOperations, ['delete']);
  });

  test('ROLLBACK_COMPLETE allows only delete; UPDATE_ROLLBACK_FAILED allows continue-rollback or delete', () => {
    assert.deepEqual(STACK_STATES.ROLLBACK_COMPLETE.operations.map((e) => e.operation), ['delete']);
    assert.deepEqual(STACK_STATES.UPDATE_ROLLBACK_FAILED.operations.map((e) => e.operation).sort(), ['continue-update-rollback', 'delete']);
    assert.ok(isOperationAllowed('UPDATE_COMPLETE', 'update'));
    assert.equal(isOperationAllowed('ROLLBACK_COMPLETE', 'update'), false);
  });

  test('phases and outcomes: complete succeeds, failed and rolled back fail, *_IN_PROGRESS runs', () => {
    assert.equal(operationOutcome('UPDATE_COMPLETE'), 'succeeded');
    assert.equal(operationOutcome('DELETE_COMPLETE'), 'succeeded');
    assert.equal(operationOutcome('IMPORT_COMPLETE'), 'succeeded');
    assert.equal(operationOutcome('UPDATE_ROLLBACK_COMPLETE'), 'failed');
    assert.equal(operationOutcome('ROLLBACK_COMPLETE'), 'failed');
    assert.equal(operationOutcome('UPDATE_ROLLBACK_FAILED'), 'failed');
    assert.equal(operationOutcome('UPDATE_COMPLETE_CLEANUP_IN_PROGRESS'), 'in-progress');
    assert.equal(stackPhase('UPDATE_ROLLBACK_COMPLETE'), 'rolled-back');
    assert.equal(stackPhase('UPDATE_FAILED'), 'failed');
    assert.equal(isTerminal('REVIEW_IN_PROGRESS'), false);
    assert.equal(isTerminal('UPDATE_ROLLBACK_FAILED'), true);
  });

  test('an operation starts when CloudFormation starts working on a resting stack', () => {
    assert.ok(startsOperation('UPDATE_COMPLETE', 'UPDATE_IN_PROGRESS'));
    assert.ok(startsOperation('REVIEW_IN_PROGRESS', 'CREATE_IN_PROGRESS'));
    assert.ok(startsOperation('UPDATE_ROLLBACK_FAILED', 'UPDATE_ROLLBACK_IN_PROGRESS'));
    assert.ok(startsOperation(undefined, 'CREATE_IN_PROGRESS'));
    assert.equal(startsOperation('UPDATE_IN_PROGRESS', 'UPDATE_ROLLBACK_IN_PROGRESS'), false);
  });
});
