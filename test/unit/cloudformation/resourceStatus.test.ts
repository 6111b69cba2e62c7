import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceStatusKind } from '../../../server/src/cloudformation/resourceStatus';

describe('resource statuses', () => {
  test('a status is in progress, complete or failed by its suffix', () => {
    assert.equal(resourceStatusKind('CREATE_IN_PROGRESS'), 'in-progress');
    assert.equal(resourceStatusKind('UPDATE_ROLLBACK_IN_PROGRESS'), 'in-progress');
    assert.equal(resourceStatusKind('UPDATE_COMPLETE'), 'complete');
    assert.equal(resourceStatusKind('IMPORT_COMPLETE'), 'complete');
    assert.equal(resourceStatusKind('CREATE_FAILED'), 'failed');
    assert.equal(resourceStatusKind('DELETE_FAILED'), 'failed');
  });

  test('a deleted resource and a retained one (DELETE_SKIPPED, DeletionPolicy: Retain) both leave the stack, differently', () => {
    assert.equal(resourceStatusKind('DELETE_COMPLETE'), 'deleted');
    assert.equal(resourceStatusKind('DELETE_SKIPPED'), 'skipped');
  });
});
