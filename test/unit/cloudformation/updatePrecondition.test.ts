import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { STACK_STATUSES } from '../../../server/src/cloudformation/stackLifecycle';
import { canUpdate, updateRejectionMessage } from '../../../server/src/cloudformation/updatePrecondition';

describe('the update precondition', () => {
  test('updates are accepted only from the five settled-success states', () => {
    const updatable = STACK_STATUSES.filter((s) => canUpdate(s));
    assert.deepEqual(updatable.sort(), ['CREATE_COMPLETE', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE']);
    assert.equal(
      updateRejectionMessage('arn:aws:cloudformation:us-east-1:1:stack/app/x', 'ROLLBACK_COMPLETE'),
      'Stack:arn:aws:cloudformation:us-east-1:1:stack/app/x is in ROLLBACK_COMPLETE state and can not be updated.',
    );
  });

  test('a status CloudFormation does not document is not updatable', () => {
    assert.equal(canUpdate('UPDATE_SOMETHING_NEW'), false);
    assert.equal(canUpdate(''), false);
  });
});
