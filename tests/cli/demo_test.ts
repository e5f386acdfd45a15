import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { DemoJsonSchema } from "../../src/cli/schemas.ts";
import { DEMO_TRANSCRIPT_LINES } from "../../src/data/demo_session.ts";
import { assertIncludes, cli, parsedAs, sandbox } from "./_cli.ts";
import { buildDemoLines, RECORDED } from "./make_demo_session.ts";

Deno.test("demo injects exactly three times, at 30, 52 and 70 %", async () => {
  const box = sandbox();
  const run = await cli(["demo", "--json"], { TMPDIR: box.dir, HOME: box.dir });
  assertEquals(run.code, 0, run.stderr);
  const demo = parsedAs(DemoJsonSchema, run.stdout);
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
  // The temporary folder is gone.
  assertEquals(
    [...Deno.readDirSync(box.dir)].map((e) => e.name).filter((n) => n.includes("demo")),
    [],
  );
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("demo shows each decision with the gauge and what was injected", async () => {
  const run = await cli(["demo"]);
  assertEquals(run.code, 0, run.stderr);
  assertIncludes(run.stdout, "claude-sonnet-4-6, 200,000-token window");
  assertIncludes(run.stdout, "] 31% of 200k");
  assertIncludes(run.stdout, "hook: fired: 31% of 200000");
  assertIncludes(run.stdout, "INJECTED");
  assertIncludes(run.stdout, "| [lessons-reinject refresh 70 ref=");
  assertIncludes(run.stdout, "every threshold has fired in this context");
  assertIncludes(run.stdout, "3 refreshes injected over 10 tool calls (at 31%, 53%, 71%)");
  assertEquals(run.stdout.split("\n").filter((l) => l.includes("INJECTED")).length, 3);
});

Deno.test("demo ignores the user's own settings", async () => {
  const run = await cli(["demo", "--json"], {
    LESSONS_REINJECT_THRESHOLDS: "10",
    LESSONS_MANIFEST_PATH: "/nonexistent",
    CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "40",
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(parsedAs(DemoJsonSchema, run.stdout).injections, 3);
});

Deno.test("the bundled demo session is the one derived from the recorded transcript", () => {
  assertEquals([...DEMO_TRANSCRIPT_LINES], buildDemoLines(Deno.readTextFileSync(RECORDED)));
});
