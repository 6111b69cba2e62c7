// Draws images/icon.png (128×128): a stack of three layers with an orange change marker.
// Kept as code so the icon can be regenerated without an image editor: node images/make-icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const size = 128;
const samples = 4;

const navy = [35, 47, 62];
const slate = [190, 201, 214];
const orange = [255, 153, 0];
const white = [255, 255, 255];

function inRoundedRect(x, y, left, top, width, height, radius) {
  const cx = Math.min(Math.max(x, left + radius), left + width - radius);
  const cy = Math.min(Math.max(y, top + radius), top + height - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2 && x >= left && x <= left + width && y >= top && y <= top + height;
}

function inCircle(x, y, cx, cy, r) {
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function inTriangle(x, y, [ax, ay], [bx, by], [cx, cy]) {
  const d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by);
  const d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy);
  const d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay);
  const negative = d1 < 0 || d2 < 0 || d3 < 0;
  const positive = d1 > 0 || d2 > 0 || d3 > 0;
  return !(negative && positive);
}

/** The colour at one point, or undefined outside the icon; later shapes paint over earlier ones. */
function colourAt(x, y) {
  let colour;
  if (inRoundedRect(x, y, 4, 4, 120, 120, 22)) colour = navy;
  else return undefined;
  // Three stacked layers: the stack a template describes.
  for (const [index, top] of [26, 50, 74].entries()) {
    if (inRoundedRect(x, y, 18, top, 70, 18, 5)) colour = index === 0 ? orange : slate;
  }
  // A badge with a delta: what the next deployment will change.
  if (inCircle(x, y, 90, 90, 28)) colour = navy;
  if (inCircle(x, y, 90, 90, 23)) colour = orange;
  if (inTriangle(x, y, [90, 74], [105, 101], [75, 101])) colour = white;
  if (inTriangle(x, y, [90, 84], [98, 97], [82, 97])) colour = orange;
  return colour;
}

const raw = Buffer.alloc(size * (size * 4 + 1));
for (let py = 0; py < size; py++) {
  raw[py * (size * 4 + 1)] = 0;
  for (let px = 0; px < size; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const colour = colourAt(px + (sx + 0.5) / samples, py + (sy + 0.5) / samples);
        if (!colour) continue;
        r += colour[0]; g += colour[1]; b += colour[2]; a += 1;
      }
    }
    const offset = py * (size * 4 + 1) + 1 + px * 4;
    if (a > 0) {
      raw[offset] = Math.round(r / a);
      raw[offset + 1] = Math.round(g / a);
      raw[offset + 2] = Math.round(b / a);
    }
    raw[offset + 3] = Math.round((255 * a) / (samples * samples));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`images/icon.png ${png.length} bytes`);
