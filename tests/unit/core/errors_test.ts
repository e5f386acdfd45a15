/** core/errors.ts: how a caught error becomes one line for a person. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileReason, messageOf, writeReason } from "../../../src/core/errors.ts";
import { ROOT } from "../../_helpers.ts";

const { IsADirectory, NotADirectory, NotCapable, NotFound, PermissionDenied } = Deno.errors;
/** What Deno 2.9.6 printed, captured (NO_COLOR): tests/fixtures/deno-errors. */
const captured = (name: string) =>
  Deno.readTextFileSync(join(ROOT, "tests", "fixtures", "deno-errors", name));

Deno.test("fileReason() says why a file cannot be read without OS codes", () => {
  const cases: [unknown, string][] = [
    [new NotFound("No such file or directory (os error 2): stat '/x'"), "there is no such file"],
    [
      new PermissionDenied("Permission denied (os error 13): open '/x'"),
      "it cannot be read (permission denied)",
    ],
    [new IsADirectory("Is a directory (os error 21)"), "it is a folder, not a file"],
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
  // Thrown at a dynamic import from source with --cached-only and a cold cache.
  const cold = captured("cold-cache-dynamic-import-2.9.6.txt");
  const expected = "its package jsonc-parser@3.3.1 is not in Deno's cache yet (hooks/run " +
    "fetches it in the background; the release binary needs none)";
  assertEquals(messageOf(new TypeError(cold)), expected);
  // On a terminal Deno colours the location.
  const coloured = cold.replace(/(file:\S+?)(:\d+:\d+)$/, "\x1b[0m\x1b[36m$1\x1b[0m$2");
  assertEquals(messageOf(new TypeError(coloured)), expected);
  // Any other module error: its text, without the importer's location.
  assertEquals(
    messageOf(new TypeError('Module not found "file:///x/y.ts".\n    at file:///x/src/z.ts:1:8')),
    'Module not found "file:///x/y.ts".',
  );
});

Deno.test("messageOf(): a package Deno could not fetch says why and what to do, on one line", () => {
  // Printed for a cold cache and no registry.
  const printed = captured("cold-cache-no-registry-2.9.6.txt");
  assertEquals(
    messageOf(new TypeError(printed.replace(/^error: /, ""))),
    "its package jsonc-parser@3.3.1 is not in Deno's cache and could not be fetched from the " +
      "npm registry (connection refused): reach the npm registry (or a mirror named by " +
      "NPM_CONFIG_REGISTRY) and run it again, or use the release binary, which needs none",
  );
});

Deno.test("writeReason() says why a file cannot be written without OS codes or the path", () => {
  const cases: [unknown, string][] = [
    [
      new NotFound("No such file or directory (os error 2): writefile '/x/y'"),
      "its folder does not exist",
    ],
    [new IsADirectory("Is a directory (os error 21): writefile '/tmp'"), "it is a folder"],
    [new NotADirectory("Not a directory (os error 20)"), "a folder on its path is a file"],
    [new PermissionDenied("Permission denied (os error 13)"), "permission denied"],
    [
      new NotCapable('Requires all access to "/proc/x.svg", run again with the --allow-all flag'),
      "it is a system path (under /proc, /dev or /sys) that the hook is not allowed to use",
    ],
    [new Error("No space left on device (os error 28): write '/x'"), "no space left on device"],
  ];
  for (const [error, expected] of cases) assertEquals(writeReason(error), expected);
});
