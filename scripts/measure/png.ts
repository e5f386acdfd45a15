/**
 * Writes small PNG files for the image measurements: RGB, one IDAT chunk, compressed with the
 * platform's deflate. "noise" barely compresses; "flat" (one colour) compresses to almost nothing,
 * so its bytes say nothing of the tokens its pixels cost.
 */
import { deflateSync } from "node:zlib";
import { concatBytes } from "../../tests/_helpers.ts";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A `width` × `height` RGB PNG, seeded noise or one flat colour. */
export function pngOf(width: number, height: number, kind: "noise" | "flat"): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width * 3; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      raw[row + 1 + x] = kind === "noise" ? seed >>> 24 : 200;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array()),
  ];
  return concatBytes(...parts);
}
