// Folding CloudFormation events into one stack's model: which events are the stack's own.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StackState } from '../../../server/src/stacks/stackModel';
import type { StackEvent } from '../../../server/src/stacks/types';

const stackId = 'arn:aws:cloudformation:us-east-1:123456789012:stack/Network/1111';
const nestedId = 'arn:aws:cloudformation:us-east-1:123456789012:stack/Network-Network-ABC/2222';
let clock = Date.UTC(2025, 0, 1);

function event(logicalId: string, status: string, physicalId: string | undefined, resourceType = 'AWS::CloudFormation::Stack'): StackEvent {
  clock += 1000;
  const e: StackEvent = { eventId: `e${clock}`, stackId, stackName: 'Network', logicalId, resourceType, timestamp: clock, status };
  if (physicalId !== undefined) e.physicalId = physicalId;
  return e;
}

describe('stack events and resource events', () => {
  test('a nested stack whose logical id is the stack name is a resource, not the stack', () => {
    const state = new StackState({ stackId, stackName: 'Network', status: 'UPDATE_COMPLETE', creationTime: clock });
    state.applyEvent(event('Network', 'UPDATE_IN_PROGRESS', stackId));
    state.applyEvent(event('Network', 'UPDATE_IN_PROGRESS', nestedId));
    state.applyEvent(event('Network', 'UPDATE_FAILED', nestedId));
    assert.equal(state.status, 'UPDATE_IN_PROGRESS', 'the nested stack\'s events leave the stack status alone');
    assert.deepEqual(
      [...state.resources.values()].map((r) => [r.logicalId, r.status, r.physicalId]),
      [['Network', 'UPDATE_FAILED', nestedId]],
    );
    assert.equal(state.operationSummary()?.rootCause?.physicalId, nestedId, 'the nested stack\'s failure is the root cause');
  });

  test('an event without a physical id is the stack\'s when its logical id is the stack name', () => {
    const state = new StackState({ stackId, stackName: 'Network', status: 'UPDATE_COMPLETE', creationTime: clock });
    state.applyEvent(event('Network', 'UPDATE_IN_PROGRESS', undefined));
    assert.equal(state.status, 'UPDATE_IN_PROGRESS');
  });
});

describe('the history read back when a stack is first read', () => {
  test('history that reaches the previous end: the listed status is forgotten and the replay sets it', () => {
    const state = new StackState({ stackId, stackName: 'Network', status: 'UPDATE_IN_PROGRESS', creationTime: clock });
    const history = [event('Network', 'CREATE_COMPLETE', stackId), event('Network', 'UPDATE_IN_PROGRESS', stackId), event('Bucket', 'UPDATE_IN_PROGRESS', 'b-1', 'AWS::S3::Bucket')];
    state.prepareReplay(history);
    assert.equal(state.status, '');
    const effects = history.map((e) => state.applyEvent(e));
    assert.deepEqual(effects.map((e) => e.statusChange?.to), ['CREATE_COMPLETE', 'UPDATE_IN_PROGRESS', undefined]);
    assert.equal(state.operationSummary()?.startEventId, history[1].eventId);
  });

  test('history of resource events only (a long operation): the listed running status stays, an operation whose start was not read', () => {
    const listedUpdate = clock;
    const state = new StackState({ stackId, stackName: 'Network', status: 'UPDATE_IN_PROGRESS', creationTime: clock - 3_600_000, lastUpdatedTime: listedUpdate });
    const history = [event('Bucket', 'UPDATE_IN_PROGRESS', 'b-1', 'AWS::S3::Bucket'), event('Bucket', 'UPDATE_COMPLETE', 'b-1', 'AWS::S3::Bucket')];
    state.prepareReplay(history);
    assert.equal(state.status, 'UPDATE_IN_PROGRESS');
    assert.deepEqual(history.map((e) => state.applyEvent(e).inOperation), [true, true]);
    state.applyEvent(event('Network', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', stackId));
    const end = state.applyEvent(event('Network', 'UPDATE_COMPLETE', stackId));
    assert.equal(end.ended, true);
    const operation = state.operationSummary()!;
    assert.equal(operation.startStatus, 'UPDATE_IN_PROGRESS');
    assert.equal(operation.startedAt, listedUpdate);
    assert.equal(operation.startEventId, undefined, 'its start was not read');
    assert.equal(operation.eventCount, 4);
  });

  test('history of resource events only for a settled stack: the listed status stays, no operation', () => {
    const state = new StackState({ stackId, stackName: 'Network', status: 'UPDATE_COMPLETE', creationTime: clock });
    state.prepareReplay([event('Bucket', 'UPDATE_COMPLETE', 'b-1', 'AWS::S3::Bucket')]);
    assert.equal(state.status, 'UPDATE_COMPLETE');
    assert.equal(state.operationSummary(), undefined);
  });
});
