/** core/errors.ts: how a caught error becomes one line for a person. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileReason, messageOf } from "../../../src/core/errors.ts";
import { ROOT } from "../../_helpers.ts";

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

Deno.test("messageOf() keeps a message on one line", () => {
  assertEquals(messageOf(new Error("Unexpected token\n  at line 2")), "Unexpected token at line 2");
  assertEquals(messageOf("a\r\n\tb\u2028c\u0000d"), "a b c d");
  assertEquals(messageOf("  plain  "), "plain");
});

Deno.test("messageOf() gives Deno's module errors in the project's words, on one line", () => {
  // What Deno 2.9.6 threw (NO_COLOR) at a dynamic import from source with --cached-only and a
  // cold cache: tests/fixtures/deno-errors/cold-cache-dynamic-import-2.9.6.txt.
  const captured = Deno.readTextFileSync(
    join(ROOT, "tests", "fixtures", "deno-errors", "cold-cache-dynamic-import-2.9.6.txt"),
  );
  const expected = "its package jsonc-parser@3.3.1 is not in Deno's cache yet (hooks/run " +
    "fetches it in the background; the release binary needs none)";
  assertEquals(messageOf(new TypeError(captured)), expected);
  // On a terminal Deno colours the location.
  const coloured = captured.replace(/(file:\S+?)(:\d+:\d+)$/, "\x1b[0m\x1b[36m$1\x1b[0m$2");
  assertEquals(messageOf(new TypeError(coloured)), expected);
  // Any other module error: its text, without the importer's location.
  assertEquals(
    messageOf(new TypeError('Module not found "file:///x/y.ts".\n    at file:///x/src/z.ts:1:8')),
    'Module not found "file:///x/y.ts".',
  );
  assertEquals(messageOf(new Error("two\nlines")), "two lines");
});
