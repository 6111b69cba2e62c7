/**
 * The SHA-1 SAM names generated resources with (a version's and a deployment's logical ids): the
 * digests FIPS 180-4's examples give, the padding's edges (a message that leaves no room for the
 * length in its last block), and text beyond ASCII, hashed as its UTF-8 bytes (SAM hashes
 * Python strings encoded so), checked against Node's own SHA-1.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sha1Hex } from '../../../server/src/sam/python/sha1';

const nodeSha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

test('the examples of FIPS 180-4 give their published digests', () => {
  assert.equal(sha1Hex(''), 'da39a3ee5e6b4b0d3255bfef95601890afd80709');
  assert.equal(sha1Hex('abc'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.equal(sha1Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '84983e441c3bd26ebaae4aa1f95129e5e54670f1');
  assert.equal(sha1Hex('a'.repeat(1_000_000)), '34aa973cd4c4daa4f61eeb2bdbad27316534016f');
});

test('messages around a block boundary are padded into one block or two', () => {
  for (const length of [54, 55, 56, 57, 63, 64, 65, 119, 120, 128]) assert.equal(sha1Hex('x'.repeat(length)), nodeSha1('x'.repeat(length)), `${length} bytes`);
});

test('text beyond ASCII is hashed as its UTF-8 bytes', () => {
  for (const text of ['café', '€100', 'G clef 𝄞', "u'caf\\xe9' and café"]) assert.equal(sha1Hex(text), nodeSha1(text), text);
});

test('long texts, ASCII or not, across block boundaries, give Node\'s digest', () => {
  for (const length of [1000, 4095, 4096, 50_000]) {
    const ascii = Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 7) % 95))).join('');
    assert.equal(sha1Hex(ascii), nodeSha1(ascii), `${length} ASCII characters`);
    const mixed = `${ascii.slice(0, length - 3)}é€𝄞`;
    assert.equal(sha1Hex(mixed), nodeSha1(mixed), `${length} characters, the last beyond ASCII`);
  }
});
