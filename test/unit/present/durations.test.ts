/**
 * One format for lengths of time in every face: seconds alone under a minute, minutes and padded
 * seconds under an hour, hours and padded minutes beyond, rounded to the second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationText, offsetText } from '../../../server/src/present';

test('lengths of time: 12s, 3m 10s, 1h 15m', () => {
  assert.deepEqual(
    [0, 499, 12_000, 59_499, 59_500, 65_000, 190_000, 3_599_000, 3_600_000, 4_500_000, 36_060_000].map(durationText),
    ['0s', '0s', '12s', '59s', '1m 00s', '1m 05s', '3m 10s', '59m 59s', '1h 00m', '1h 15m', '10h 01m'],
  );
  assert.equal(durationText(-5_000), '0s', 'a clock behind the events never gives a negative length');
  assert.equal(offsetText(65_000), '+1m 05s');
});
