/**
 * SHA-1 of a string's UTF-8 bytes, as lowercase hex. SAM names generated resources with SHA-1
 * digests (logicalIds.ts); the engine may not import Node's crypto, so this is the algorithm of
 * FIPS 180-4 written out. It is a name generator here, not a security primitive.
 */

/** The SHA-1 digest of `text` encoded as UTF-8, in 40 lowercase hex digits. */
export function sha1Hex(text: string): string {
  const bytes = utf8(text);
  const length = bytes.length;
  // Message, a 1 bit, zeros, and the 64-bit length: a whole number of 64-byte blocks.
  const blockCount = Math.ceil((length + 9) / 64);
  const padded = new Uint8Array(blockCount * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const bitsHigh = Math.floor(length / 0x20000000);
  const bitsLow = (length * 8) >>> 0;
  const end = padded.length;
  padded[end - 8] = bitsHigh >>> 24;
  padded[end - 7] = (bitsHigh >>> 16) & 0xff;
  padded[end - 6] = (bitsHigh >>> 8) & 0xff;
  padded[end - 5] = bitsHigh & 0xff;
  padded[end - 4] = bitsLow >>> 24;
  padded[end - 3] = (bitsLow >>> 16) & 0xff;
  padded[end - 2] = (bitsLow >>> 8) & 0xff;
  padded[end - 1] = bitsLow & 0xff;

  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  const w = new Int32Array(80);
  // The four rounds are written apart, in signed 32-bit arithmetic (`| 0`), so that the loop
  // stays on small integers: the deployment's id hashes the whole API definition on every
  // keystroke that changes it.
  for (let offset = 0; offset < end; offset += 64) {
    for (let i = 0; i < 16; i++) {
      const at = offset + i * 4;
      w[i] = (padded[at]! << 24) | (padded[at + 1]! << 16) | (padded[at + 2]! << 8) | padded[at + 3]!;
    }
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
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
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string; a lone surrogate becomes U+FFFD, as TextEncoder does. */
function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
