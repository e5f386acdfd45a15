/**
 * `--help` and `<command> --help` fit the terminal: each line at most its width (80 when it is
 * not known), wrapped at spaces, no word cut; `--timeline` and `--svg` are in both helps that
 * lead to them.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { helpWidthOf } from "../../src/cli/common.ts";
import { renderHelp } from "../../src/cli/help.ts";
import { assertIncludes, cli } from "./_cli.ts";

const HELPS = [
  ["--help"],
  ...["status", "preview", "demo", "doctor", "statusline"].map((c) => [c, "--help"]),
  ["status", "--timeline", "--help"],
];

/** The words of a text, in order: the same at every width unless a word was cut. */
const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");

Deno.test("every --help fits 80 columns when the width is unknown, and the terminal's when known", async () => {
  for (const args of HELPS) {
    const what = args.join(" ");
    const texts = new Map<number, string>();
    for (
      const [columns, width] of [[undefined, 80], ["60", 60], ["72", 72], ["200", 100]] as const
    ) {
      const run = await cli(args, columns ? { COLUMNS: columns } : {});
      assertEquals(run.code, 0, run.stderr);
      for (const line of run.stdout.split("\n")) {
        ok([...line].length <= width, `${what} at ${width}: ${line.length} columns: ${line}`);
      }
      texts.set(width, run.stdout);
    }
    // No word cut: the same words at every width.
    const [first, ...others] = [...texts.values()].map(words);
    for (const other of others) assertEquals(other, first, what);
  }
  // A usage error prints the help the same way, on stderr.
  const wrong = await cli(["status", "--bogus"]);
  assertEquals(wrong.code, 2);
  ok(wrong.stderr.split("\n").slice(1).every((line) => line.length <= 80), wrong.stderr);
});

Deno.test("--timeline and --svg are in --help and in status --help", async () => {
  for (const args of [["--help"], ["status", "--help"]]) {
    const run = await cli(args);
    assertIncludes(run.stdout, "--timeline");
    assertIncludes(run.stdout, "--svg FILE");
  }
});

Deno.test("renderHelp(): prose, usage groups and rows wrap at spaces; verbatim lines stay", () => {
  const source = `Usage: lessons-reinject thing [--transcript PATH | --session ID] [--a [--b B]]

A paragraph written
over lines that is long enough to need wrapping at forty columns.

Options:
  --project DIR  the folder to look at; default: the folder you run it from,
                 a continuation
  -h, --help     this help

  { "kept": "as it is" }
`;
  assertEquals(
    renderHelp(source, 44),
    `Usage: lessons-reinject thing
    [--transcript PATH | --session ID]
    [--a [--b B]]

A paragraph written over lines that is long
enough to need wrapping at forty columns.

Options:
  --project DIR  the folder to look at;
                 default: the folder you run
                 it from, a continuation
  -h, --help     this help

  { "kept": "as it is" }
`,
  );
  // A description column that leaves too little room: the description goes under its term.
  assertEquals(
    renderHelp("  --a-very-long-option-name VALUE  its description here\n", 40),
    "  --a-very-long-option-name VALUE\n      its description here\n",
  );
});

Deno.test("helpWidthOf(): the terminal's, else COLUMNS, else 80; 40 to 100", () => {
  assertEquals(helpWidthOf(undefined, undefined), 80);
  assertEquals(helpWidthOf(undefined, "66"), 66);
  assertEquals(helpWidthOf(90, "66"), 90);
  assertEquals(helpWidthOf(300, undefined), 100);
  assertEquals(helpWidthOf(20, undefined), 40);
  assertEquals(helpWidthOf(undefined, "wide"), 80);
});
