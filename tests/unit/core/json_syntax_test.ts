/** whyNotJson(), lineColumn() and the file and message helpers of core/errors.ts. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { lineColumn, whyNotJson } from "../../../src/core/json_syntax.ts";
import { fileReason, oneLine } from "../../../src/core/errors.ts";

Deno.test("whyNotJson() places the error on one line, whatever the text holds", async (t) => {
  const cases: [string, string, string][] = [
    [
      "cut short",
      '{"a": 1,\n "b": \n',
      "it is not valid JSON (line 3, column 1: expected a value)",
    ],
    ["a missing colon", '{\n  "a" 1\n}', "it is not valid JSON (line 2, column 7: expected ':')"],
    ["a trailing comma", "[1, 2,]", "it is not valid JSON (line 1, column 7: expected a value)"],
    ["a comment", '// note\n{"a": 1}', "it is not valid JSON (line 1, column 1: invalid comment)"],
    [
      "text after the value",
      '{"a":1} x',
      "it is not valid JSON (line 1, column 9: unexpected character)",
    ],
    [
      "a raw newline in a string",
      '{"a": "b\nc"}',
      "it is not valid JSON (line 1, column 7: unterminated string)",
    ],
    ["plain words", "hello", "it is not valid JSON (line 1, column 1: unexpected character)"],
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

Deno.test("fileReason() says why a file cannot be read without OS codes", () => {
  const cases: [unknown, string][] = [
    [
      new Deno.errors.NotFound("No such file or directory (os error 2): stat '/x'"),
      "there is no such file",
    ],
    [
      new Deno.errors.PermissionDenied("Permission denied (os error 13): open '/x'"),
      "it cannot be read (permission denied)",
    ],
    [new Deno.errors.IsADirectory("Is a directory (os error 21)"), "it is a folder, not a file"],
    [
      new Error("Too many open files (os error 24): open '/x'"),
      "it cannot be read (too many open files)",
    ],
    [new Error("odd\nfailure"), "it cannot be read (odd failure)"],
  ];
  for (const [error, expected] of cases) assertEquals(fileReason(error), expected);
});

Deno.test("oneLine() keeps a message on one line", () => {
  assertEquals(oneLine("Unexpected token\n  at line 2"), "Unexpected token at line 2");
  assertEquals(oneLine("a\r\n\tb\u2028c\u0000d"), "a b c d");
  assertEquals(oneLine("  plain  "), "plain");
});
