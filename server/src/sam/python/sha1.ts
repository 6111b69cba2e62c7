/**
 * SHA-1 of a string's UTF-8 bytes, as lowercase hex. SAM names generated resources with SHA-1
 * digests (logicalIds.ts); the engine may not import Node's crypto, so this is the algorithm of
 * FIPS 180-4 written out. It is a name generator here, not a security primitive.
 */

/** The SHA-1 digest of `text` encoded as UTF-8, in 40 lowercase hex digits. */
export function sha1Hex(text: string): string {
  const h = Int32Array.of(0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0);
  const w = new Int32Array(80);
  // The encoder writes the bytes at memory speed, and a DataView reads each big-endian word at once:
  // a deployment's id hashes a 50 KB definition on every keystroke that changes it.
  const bytes = utf8(text);
  const length = bytes.length;
  const whole = length - (length % 64);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 0; offset < whole; offset += 64) {
    for (let i = 0, at = offset; i < 16; i++, at += 4) w[i] = view.getInt32(at);
    compress(h, w);
  }
  // The rest, a 1 bit, zeros, and the 64-bit length: one block or two.
  const tail = new Uint8Array(length - whole + 9 > 64 ? 128 : 64);
  tail.set(bytes.subarray(whole));
  tail[length - whole] = 0x80;
  const bitsHigh = Math.floor(length / 0x20000000);
  const bitsLow = (length * 8) >>> 0;
  const end = tail.length;
  tail[end - 8] = bitsHigh >>> 24;
  tail[end - 7] = (bitsHigh >>> 16) & 0xff;
  tail[end - 6] = (bitsHigh >>> 8) & 0xff;
  tail[end - 5] = bitsHigh & 0xff;
  tail[end - 4] = bitsLow >>> 24;
  tail[end - 3] = (bitsLow >>> 16) & 0xff;
  tail[end - 2] = (bitsLow >>> 8) & 0xff;
  tail[end - 1] = bitsLow & 0xff;
  const tailView = new DataView(tail.buffer);
  for (let offset = 0; offset < end; offset += 64) {
    for (let i = 0, at = offset; i < 16; i++, at += 4) w[i] = tailView.getInt32(at);
    compress(h, w);
  }
  return [...h].map((word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
}

/**
 * One block into the state `h`, its 16 words in `w`. The four rounds are written apart, in signed
 * 32-bit arithmetic (`| 0`), so that the loop stays on small integers: the deployment's id hashes
 * the whole API definition on every keystroke that changes it.
 */
function compress(h: Int32Array, w: Int32Array): void {
  for (let i = 16; i < 80; i++) {
    const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
    w[i] = (x << 1) | (x >>> 31);
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  for (let i = 0; i < 20; i++) {
    const t = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 20; i < 40; i++) {
    const t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 40; i < 60; i++) {
    const t = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + (0x8f1bbcdc | 0) + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 60; i < 80; i++) {
    const t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + (0xca62c1d6 | 0) + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string; a lone surrogate becomes U+FFFD, as TextEncoder does. */
function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
