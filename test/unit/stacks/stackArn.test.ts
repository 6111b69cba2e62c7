/**
 * A stack id names the Region and the account the stack runs in: what `AWS::Region` and
 * `AWS::AccountId` are for its templates (docs/update-rules.md#account-and-stack-name).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { placeOfStackId } from '../../../server/src/stacks/stackArn';

describe('placeOfStackId', () => {
  test('reads the Region and the account of a stack id, in any partition', () => {
    assert.deepEqual(placeOfStackId('arn:aws:cloudformation:eu-west-1:111122223333:stack/prod-app/1b2c3d4e-0000-0000-0000-000000000000'), { region: 'eu-west-1', accountId: '111122223333' });
    assert.deepEqual(placeOfStackId('arn:aws-cn:cloudformation:cn-north-1:444455556666:stack/app/id'), { region: 'cn-north-1', accountId: '444455556666' });
  });

  test('claims nothing from what is not a stack id: a name, another service, an account that is not twelve digits', () => {
    assert.deepEqual(placeOfStackId('prod-app'), {});
    assert.deepEqual(placeOfStackId('arn:aws:sns:us-east-1:111122223333:topic'), {});
    assert.deepEqual(placeOfStackId('arn:aws:cloudformation:us-east-1:1111:stack/app/id'), { region: 'us-east-1' });
  });
});
