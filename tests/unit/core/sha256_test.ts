/** sha256Hex() against the FIPS 180-4 vectors and WebCrypto on seeded random strings. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { sha256Hex } from "../../../src/core/sha256.ts";

async function webCrypto(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("sha256Hex() gives the standard vectors", async (t) => {
  const cases: [string, string, string][] = [
    ["empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "two blocks (448 bits)",
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "a million a's",
      "a".repeat(1_000_000),
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    ],
  ];
  for (const [name, text, hex] of cases) {
    await t.step(name, () => assertEquals(sha256Hex(text), hex));
  }
});

Deno.test("sha256Hex() equals WebCrypto on every length around the block edges, any characters", async () => {
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const alphabet = ["a", "Z", "0", "-", "\0", "é", "€", "😀", "\uFFFF"];
  for (let length = 0; length < 300; length++) {
    const text = Array.from({ length }, () => alphabet[next() % alphabet.length]).join("");
    assertEquals(sha256Hex(text), await webCrypto(text), `length ${length}`);
  }
});
