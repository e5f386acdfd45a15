import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { DemoJsonSchema } from "../../src/cli/schemas.ts";
import demoSession from "../../src/data/demo_session.jsonl" with { type: "text" };
import { join } from "node:path";
import { assertIncludes, cli, cliJson, cliOk, onTerminal, ROOT, sandbox } from "./_cli.ts";
import { buildDemoLines, RECORDED } from "../../scripts/measure/make_demo_session.ts";

Deno.test("demo injects exactly three times, at 30, 52 and 70 %, whatever the user's own settings", async () => {
  const box = sandbox();
  const demo = await cliJson(DemoJsonSchema, ["demo"], {
    TMPDIR: box.dir,
    HOME: box.dir,
    LESSONS_REINJECT_THRESHOLDS: "10",
    LESSONS_MANIFEST_PATH: "/nonexistent",
    CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "40",
  });
  assertEquals(demo.injections, 3);
  const injected = demo.steps.filter((s) => s.injected);
  assertEquals(injected.map((s) => s.header?.match(/refresh (\d+) ref=/)?.[1]), ["30", "52", "70"]);
  for (const step of injected) {
    assert(step.text !== null && step.chars === step.text.length && step.chars <= 9_500);
    assertIncludes(step.text ?? "", "## Non-Negotiable Directives");
  }
  // Every call before a crossing stays silent, and so does the parallel call after 52 fired.
  assertEquals(demo.steps.map((s) => s.injected ? 1 : 0), [0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
  assertEquals(demo.steps[3]?.event, "PostToolUseFailure");
  assert(demo.steps.every((s) => s.decision.includes("transcript tool_use match")));
  // The same session on Claude Code's default model, 1.5 times the tokens: 60k, 104k and 140k as
  // on 200k, then every 40k.
  const large = demo.defaultModel;
  assertEquals([large.model, large.window, large.injections], ["claude-opus-5-5", 1_000_000, 5]);
  const labels = large.steps.filter((s) => s.injected).map((s) => s.header?.split(" ")[2]);
  assertEquals(labels, ["30", "52", "70", "180k", "220k"]);
  // The temporary folder is gone.
  assertEquals(
    [...Deno.readDirSync(box.dir)].map((e) => e.name).filter((n) => n.includes("demo")),
    [],
  );
});

Deno.test("demo, piped: each decision with its gauge and what went in, told truly, no colour, then what to do", async () => {
  const run = await cliOk(["demo"]);
  assertIncludes(run.stdout, "claude-sonnet-4-6 (200,000-token window)");
  assertIncludes(run.stdout, "62,000 tokens  [############|.........|.......|............] 31%");
  assertIncludes(run.stdout, "refresh: 31% crossed 30%, so 1,329 characters went into");
  assertIncludes(run.stdout, "quiet: 12% is below the next threshold, 30%");
  assertIncludes(run.stdout, "│ [lessons-reinject refresh 70 ref=");
  assertIncludes(run.stdout, "quiet: every threshold has fired in this context");
  assertIncludes(run.stdout, "3 refreshes over 10 tool calls, at 31%, 53% and 71%");
  // Then the same session on the default 1M model: five refreshes, said in tokens.
  assertIncludes(run.stdout, "claude-opus-5-5 (1,000,000-token window)");
  assertIncludes(run.stdout, "refresh: 61,500 tokens crossed 30% (60k), so 1,342 characters");
  assertIncludes(run.stdout, "refresh: 181,500 tokens crossed 180k, so");
  assertIncludes(run.stdout, "5 refreshes over 10 tool calls, at 61,500, 117,000, 144,000");
  assertEquals(run.stdout.split("\n").filter((l) => l.includes("refresh: ")).length, 8);
  // The truth about its session.
  assert(!run.stdout.includes("a real session"), "its token counts were rewritten");
  assertIncludes(run.stdout, "their token counts were rewritten");
  // Piped: no colour codes.
  assert(!run.stdout.includes("\x1b["), "piped output has colour codes");
  // What to do next, with commands that work from where it ran: doctor belongs in the user's
  // project, so a path that runs from any folder. (The rest of the list is demoLines()'s, given
  // these two: demo_view_test's "demoLines() ends with commands that work from where the user is".)
  const next = run.stdout.slice(run.stdout.indexOf("\nNext\n"));
  assertIncludes(next, `${join(ROOT, "hooks", "run")} doctor`);
  assertIncludes(next, "deno task hook --help");
});

/** What `demo` shows on a terminal `columns` wide (or as wide as `script` makes it); exit 0. */
async function demoOnTerminal(env: Record<string, string>, columns?: number): Promise<string> {
  const run = await onTerminal(["demo"], env, columns);
  assertEquals(run.code, 0, run.stdout + run.stderr);
  return run.stdout;
}

Deno.test({
  name: "demo on a terminal is in colour, unless NO_COLOR is set",
  ignore: Deno.build.os !== "linux", // util-linux script(1)
  async fn() {
    const coloured = await demoOnTerminal({});
    assertIncludes(coloured, "\x1b[32m\x1b[1mrefresh:\x1b[0m");
    assertIncludes(coloured, "\x1b[36m############\x1b[0m");
    const plain = await demoOnTerminal({ NO_COLOR: "1" });
    assert(!plain.includes("\x1b["), "NO_COLOR output has colour codes");
    assertIncludes(plain, "refresh: 31% crossed 30%");
    // NO_COLOR set but empty does not count (no-color.org).
    assertIncludes(await demoOnTerminal({ NO_COLOR: "" }), "\x1b[32m");
  },
});

/**
 * The widest line of `text`, in characters, terminal line ends and colour codes not counted. The
 * checkout's own path counts as one character: a command that names it must stay whole to be
 * copied, so its length depends on where the clone sits, not on the layout.
 */
function widest(text: string): number {
  // deno-lint-ignore no-control-regex
  const lines = text.replace(/\x1b\[[0-9;]*m/g, "").split(/\r?\n/);
  return Math.max(...lines.map((l) => [...l.replaceAll(ROOT, "~")].length));
}

Deno.test("demo lays itself out to COLUMNS when piped, else to 100; never under 60; numbers one way", async () => {
  const cases = [["80", 80, true], ["140", 140, true], ["30", 60, true], ["", 100, true]] as const;
  for (const [columns, width, full] of [...cases, ["", 100, false] as const]) {
    const args = full ? ["demo", "--full"] : ["demo"];
    const run = await cliOk(args, columns === "" ? {} : { COLUMNS: columns });
    const max = widest(run.stdout);
    assert(max <= width && max > width - 10, `COLUMNS=${columns} ${args}: widest line ${max}`);
    // Thousands are grouped (24,000), never bare (24000); a percent is written 31%, never 31 %.
    const lines = run.stdout.split("\n");
    assertEquals(lines.filter((l) => /(?<![\w=,])\d{4,}(?![\w,])/.test(l)), [], args.join(" "));
    assertEquals(lines.filter((l) => /\d %/.test(l)), [], args.join(" "));
  }
});

Deno.test({
  name: "demo on a terminal lays itself out to the terminal's width, gauges whole",
  ignore: Deno.build.os !== "linux", // util-linux script(1)
  async fn() {
    // The terminal's own width wins over a stale COLUMNS.
    const text = await demoOnTerminal({ NO_COLOR: "1", COLUMNS: "200" }, 72);
    const max = widest(text);
    assert(max <= 72 && max > 62, `widest line ${max}`);
    const bars = text.split(/\r?\n/).filter((l) => /\[[#.|]{20,}/.test(l));
    assertEquals(bars.length, 20);
    assert(bars.every((l) => /\[[#.|]+\] \d+%( of 1M)?$/.test(l)), bars.join("\n"));
  },
});

Deno.test("demo's closing hint, outside the checkout, names its hooks/run", async () => {
  // There `deno task hook` finds no deno.json: the checkout's hooks/run works.
  const run = join(ROOT, "hooks", "run");
  const away = await cli(["demo"], {}, "", sandbox().dir);
  assertIncludes(away.stdout, `${run} doctor`);
  assertIncludes(away.stdout, `${run} --help`);
  assert(!away.stdout.includes("deno task hook"), away.stdout);
});

Deno.test("the bundled demo session is the one derived from the recorded transcript", () => {
  assertEquals(
    demoSession.trimEnd().split(/\r?\n/),
    buildDemoLines(Deno.readTextFileSync(RECORDED)),
  );
});
