/** readStdinCapped() reads a reader (Deno.stdin's kind) and refuses more than the cap. */
import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { type ByteReader, readStdinCapped, StdinError } from "../../../src/io/stdin.ts";

/** A reader handing out `text` in pieces of at most `piece` bytes, like a pipe. */
function pipeOf(text: string, piece: number): ByteReader {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return {
    read(buffer) {
      if (at >= bytes.length) return Promise.resolve(null);
      const n = Math.min(piece, buffer.length, bytes.length - at);
      buffer.set(bytes.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
  };
}

Deno.test("readStdinCapped() joins a reader's pieces, multi-byte characters split among them", async () => {
  const text = `{"session_id":"é→🙂","x":"${"a".repeat(100_000)}"}`;
  assertEquals(await readStdinCapped(pipeOf(text, 7)), text);
  assertEquals(await readStdinCapped(pipeOf("", 7)), "");
});

Deno.test("readStdinCapped() refuses a reader over the cap, accepts one at it, and drains one past it, so the writer never meets a closed pipe", async () => {
  assertEquals(await readStdinCapped(pipeOf("x".repeat(11), 4), 10), undefined);
  assertEquals(await readStdinCapped(pipeOf("x".repeat(10), 4), 10), "x".repeat(10));
  let reads = 0;
  const inner = pipeOf("y".repeat(1000), 10);
  const counted: ByteReader = {
    async read(buffer) {
      const n = await inner.read(buffer);
      if (n !== null) reads += n;
      return n;
    },
  };
  assertEquals(await readStdinCapped(counted, 100), undefined);
  assertEquals(reads, 1000);
});

Deno.test("readStdinCapped() turns an unreadable stdin into a StdinError with a plain reason", async () => {
  const failing = (error: Error): ByteReader => ({ read: () => Promise.reject(error) });
  await assertRejects(
    () => readStdinCapped(failing(new Deno.errors.IsADirectory("Is a directory (os error 21)"))),
    (error) =>
      error instanceof StdinError && error.message === "stdin is a directory, not a hook payload",
  );
  await assertRejects(
    () => readStdinCapped(failing(new Deno.errors.BadResource("Bad resource ID"))),
    (error) =>
      error instanceof StdinError && error.message === "cannot read stdin: Bad resource ID",
  );
});
