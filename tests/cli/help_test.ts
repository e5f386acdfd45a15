/**
 * The router (src/cli/dispatch.ts) and the helps: `--version`, `--help` listing every command,
 * `<command> --help` (and `help <command>`) for each; every help fits the terminal: each line at
 * most its width (80 when it is not known), wrapped at spaces, no word cut; `--timeline` and
 * `--svg` are in both helps that lead to them; an unknown command or flag is a usage error.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { helpWidthOf } from "../../src/cli/common.ts";
import { renderHelp } from "../../src/cli/help.ts";
import { VersionJsonSchema } from "../../src/cli/schemas.ts";
import { assertIncludes, cli, cliJson, cliOk, onTerminal } from "./_cli.ts";

const COMMANDS = ["status", "preview", "demo", "doctor", "statusline"];
const HELPS = [["--help"], ...COMMANDS.map((c) => [c, "--help"]), [
  "status",
  "--timeline",
  "--help",
]];

/** The words of a text, in order: the same at every width unless a word was cut. */
const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");

Deno.test("every --help fits 80 columns when the width is unknown, and the terminal's when known; --help lists every command, and says what it is and restates", async () => {
  for (const args of HELPS) {
    const what = args.join(" ");
    const texts = new Map<number, string>();
    for (
      const [columns, width] of [[undefined, 80], ["60", 60], ["72", 72], ["200", 100]] as const
    ) {
      const run = await cliOk(args, columns ? { COLUMNS: columns } : {});
      for (const line of run.stdout.split("\n")) {
        ok([...line].length <= width, `${what} at ${width}: ${line.length} columns: ${line}`);
      }
      texts.set(width, run.stdout);
    }
    const text = texts.get(80)!;
    if (args.length === 2) {
      // Each command's own help, the same as `help <command>`.
      ok(text.startsWith(`Usage: lessons-reinject ${args[0]}`), text);
      assertIncludes(text, "--json");
      assertEquals((await cli(["help", args[0]!])).stdout, text);
    }
    if (args.length === 1) {
      // --help lists every command, and says what it is and restates.
      for (const command of COMMANDS) match(text, new RegExp(`^  ${command} `, "m"));
      const said = text.replace(/\s+/g, " ");
      assertIncludes(said, "run as the hook");
      // Both kinds of rules it restates, not only lessons-learned's.
      assertIncludes(said, "lessons-learned plugin's directives and protocols");
      assertIncludes(said, "CLAUDE.md you mark between <!-- reinject --> and <!-- /reinject -->");
      // Every sentence ends: how to get one command's help is said whole.
      assertIncludes(said, "(`lessons-reinject <command> --help` explains one command)");
      for (const line of text.split("\n")) ok(!/ for a command's$/.test(line), line);
    }
    if (args.length === 1 || args[0] === "status" && args.length === 2) {
      assertIncludes(text, "--timeline");
      assertIncludes(text, "--svg FILE");
    }
    // No word cut: the same words at every width.
    const [first, ...others] = [...texts.values()].map(words);
    for (const other of others) assertEquals(other, first, what);
  }
});

// An unknown command: no_trace_test's row `nonsense` (exit 2, nothing on stdout, the one line).
Deno.test("an unknown flag is a usage error (exit 2), the command's help laid out on stderr", async () => {
  const flag = await cli(["status", "--bogus"]);
  assertEquals(flag.code, 2);
  assertIncludes(flag.stderr, "--bogus");
  assertIncludes(flag.stderr, "Usage: lessons-reinject status");
  ok(flag.stderr.split("\n").slice(1).every((line) => line.length <= 80), flag.stderr);
});

Deno.test("--version prints the version from deno.json", async () => {
  const run = await cli(["--version"]);
  assertEquals([run.code, run.stdout], [0, `lessons-reinject ${denoJson.version}\n`]);
  assertEquals((await cliJson(VersionJsonSchema, ["--version"])).version, denoJson.version);
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
  // A word wider than the line (a path) breaks after a `/` or not at all, never inside a name.
  const name = "rollout-2026-12-07T10-00-00-019af3c2-7d41-7b52.jsonl";
  const path = renderHelp(`at /home/u/.codex/sessions/${name}/x ok\n`, 40);
  assertEquals(path, `at\n/home/u/.codex/sessions/\n${name}/\nx ok\n`);
});

Deno.test("helpWidthOf(): the terminal's, else COLUMNS, else 80; 40 to 100", () => {
  assertEquals(helpWidthOf(undefined, undefined), 80);
  assertEquals(helpWidthOf(undefined, "66"), 66);
  assertEquals(helpWidthOf(90, "66"), 90);
  assertEquals(helpWidthOf(300, undefined), 100);
  assertEquals(helpWidthOf(20, undefined), 40);
  assertEquals(helpWidthOf(undefined, "wide"), 80);
});

Deno.test({
  name: "run by hand on a terminal, the hook names commands that work from a checkout",
  ignore: Deno.build.os !== "linux", // util-linux script(1) gives it a terminal as stdin
  async fn() {
    const text = (await onTerminal([], {})).stdout;
    assertIncludes(text, "it reads a hook payload on stdin");
    assertIncludes(text, "Try `deno task hook --help` or `deno task hook demo`.");
  },
});
