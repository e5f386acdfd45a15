/** whyNotJson() and lineColumn(): where a JSON text goes wrong, on one line. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { lineColumn, whyNotJson } from "../../../src/core/json_syntax.ts";

Deno.test("whyNotJson() places the error on one line, whatever the text holds", async (t) => {
  const at = (where: string) => `it is not valid JSON (line ${where})`;
  const cases: [string, string, string][] = [
    ["cut short", '{"a": 1,\n "b": \n', at("3, column 1: expected a value")],
    ["a missing colon", '{\n  "a" 1\n}', at("2, column 7: expected ':'")],
    ["a trailing comma", "[1, 2,]", at("1, column 7: expected a value")],
    ["a comment", '// note\n{"a": 1}', at("1, column 1: invalid comment")],
    ["text after the value", '{"a":1} x', at("1, column 9: unexpected character")],
    ["a raw newline in a string", '{"a": "b\nc"}', at("1, column 7: unterminated string")],
    ["plain words", "hello", at("1, column 1: unexpected character")],
    ["blank", " \n\t", "it is empty"],
    ["NUL bytes", "\u0000\u0001abc", "it is binary data, not JSON text"],
    ["invalid UTF-8, decoded", "\ufffdPNG\r\n", "it is binary data, not JSON text"],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, async () => {
      let refused = false;
      try {
        JSON.parse(text);
      } catch {
        refused = true;
      }
      assertEquals(refused, true, "the case must be text JSON.parse refuses");
      assertEquals(await whyNotJson(text), expected);
    });
  }
});

Deno.test("lineColumn() counts from 1", () => {
  assertEquals(lineColumn("abc", 0), { line: 1, column: 1 });
  assertEquals(lineColumn('{\n  "a" 1', 8), { line: 2, column: 7 });
  assertEquals(lineColumn("a\n\nb", 3), { line: 3, column: 1 });
});
