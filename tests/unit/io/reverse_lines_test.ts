import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readLinesBackward } from "../../../src/io/reverse_lines.ts";
import { memory } from "./_io.ts";

const decoder = new TextDecoder();

function linesOf(text: string | Uint8Array, chunkSize: number, maxLineBytes?: number) {
  const { source, size } = memory(text);
  const out: { start: number; text: string; oversized: boolean }[] = [];
  const options = maxLineBytes === undefined ? { chunkSize } : { chunkSize, maxLineBytes };
  for (const line of readLinesBackward(source, size, options)) {
    out.push({ start: line.start, text: decoder.decode(line.bytes), oversized: line.oversized });
  }
  return out;
}

Deno.test("readLinesBackward() yields lines last first at every chunk size", async (t) => {
  const text = "alpha\nbeta\n\ngamma delta\nz\n";
  const expected = [
    { start: 24, text: "z", oversized: false },
    { start: 12, text: "gamma delta", oversized: false },
    { start: 6, text: "beta", oversized: false },
    { start: 0, text: "alpha", oversized: false },
  ];
  for (const chunkSize of [1, 2, 3, 5, 7, 11, 64, 65536]) {
    await t.step(`chunk ${chunkSize}`, () => {
      assertEquals(linesOf(text, chunkSize), expected);
    });
  }
});

Deno.test("readLinesBackward() handles awkward boundaries", async (t) => {
  const cases: [string, string, number, string[]][] = [
    ["no trailing newline", "a\nb", 4, ["b", "a"]],
    ["a line split across chunks", "first\nsecond-line\n", 4, ["second-line", "first"]],
    ["a multi-byte character split by a chunk edge", "€uro\n日本語\n", 2, ["日本語", "€uro"]],
    ["CRLF keeps its CR for the JSON parser to ignore", "a\r\nb\r\n", 3, ["b\r", "a\r"]],
    ["empty input", "", 4, []],
    ["only newlines", "\n\n\n", 2, []],
    ["one line, no newline", "solo", 3, ["solo"]],
  ];
  for (const [name, text, chunk, lines] of cases) {
    await t.step(name, () => assertEquals(linesOf(text, chunk).map((l) => l.text), lines));
  }
});

Deno.test("readLinesBackward() assembles a 1 MB line from 64 KiB chunks", () => {
  const big = "x".repeat(1024 * 1024);
  const lines = linesOf(`head\n${big}\ntail\n`, 64 * 1024);
  assertEquals(lines.map((l) => l.text.length), [4, big.length, 4]);
  assertEquals(lines[1]?.text, big);
  assertEquals(lines[1]?.start, 5);
});

Deno.test("readLinesBackward() reports a line over maxLineBytes as oversized, without its bytes", () => {
  const lines = linesOf(`a\n${"y".repeat(100)}\nb\n`, 16, 50);
  assertEquals(lines, [
    { start: 103, text: "b", oversized: false },
    { start: 2, text: "", oversized: true },
    { start: 0, text: "a", oversized: false },
  ]);
});

Deno.test("readLinesBackward() reads only the chunks it needs when stopped early", () => {
  const { source, size } = memory("line\n".repeat(100_000)); // 500 KB
  for (const _ of readLinesBackward(source, size, { chunkSize: 4096 })) break;
  assertEquals(source.reads, 1);
});

Deno.test("readLinesBackward() passes invalid UTF-8 through as bytes", () => {
  const bytes = new Uint8Array([0x61, 0x0a, 0xff, 0xfe, 0x00, 0x0a]);
  const lines = linesOf(bytes, 3);
  assertEquals(lines.length, 2);
  assertEquals(lines[1]?.text, "a");
});

Deno.test("readLinesBackward() stops at maxBytes, even inside a region without newlines", () => {
  const { source, size } = memory("a".repeat(1024 * 1024)); // 1 MiB, no newline at all
  const lines = [...readLinesBackward(source, size, { chunkSize: 4096, maxBytes: 16 * 1024 })];
  assertEquals(lines, []);
  assertEquals(source.reads, 4);
});
