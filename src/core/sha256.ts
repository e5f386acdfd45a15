/** SHA-256, synchronously: WebCrypto's is async and costs more on first use than this hash. */

/** The fractional parts of the first 64 primes' cube roots. */
// deno-fmt-ignore
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The fractional parts of the first 8 primes' square roots. */
// deno-fmt-ignore
const H0 = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/**
 * The SHA-256 of `text` (UTF-8), as 64 lowercase hex digits. Every hook call runs it once, cold:
 * plain locals and shifts, no array per round (destructuring cost 3.4M instructions, this 1.9M).
 */
export function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  // Message, a 1 bit, zeros, and the bit length (64-bit big-endian) filling whole 64-byte blocks.
  const end = Math.ceil((data.length + 9) / 64) * 64;
  const bytes = new Uint8Array(end);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const bits = data.length * 8;
  bytes[end - 5] = Math.floor(data.length / 2 ** 29);
  for (let i = 1; i <= 4; i++) bytes[end - i] = bits >>> (8 * (i - 1));
  const h = new Uint32Array(H0);
  const w = new Uint32Array(64);
  for (let at = 0; at < end; at += 64) {
    for (let t = 0, i = at; t < 16; t++, i += 4) {
      w[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = w[t - 16]! + s0 + w[t - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let t = 0; t < 64; t++) {
      const s1 = ((e! >>> 6) | (e! << 26)) ^ ((e! >>> 11) | (e! << 21)) ^ ((e! >>> 25) | (e! << 7));
      const t1 = (k! + s1 + ((e! & f!) ^ (~e! & g!)) + K[t]! + w[t]!) | 0;
      const s0 = ((a! >>> 2) | (a! << 30)) ^ ((a! >>> 13) | (a! << 19)) ^
        ((a! >>> 22) | (a! << 10));
      const t2 = (s0 + ((a! & b!) ^ (a! & c!) ^ (b! & c!))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d! + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, k].forEach((x, i) => h[i]! += x!);
  }
  let hex = "";
  for (const word of h) hex += word.toString(16).padStart(8, "0");
  return hex;
}
