/**
 * The real entry point on a Gemini CLI session: the conversation file written in Gemini CLI
 * 0.61.0's measured order, each line a recorded one (tests/fixtures/gemini/chats) with its figures
 * set, and the AfterTool payload it sent. The same schedule, once each, with GEMINI.md's marked
 * rules; a compression's restatement on the next call; a lost state file.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { RULE, session, snapshot } from "./_gemini.ts";

const labelOf = (text: string | undefined) => text?.match(/^\[lessons-reinject refresh (\S+)/)?.[1];

Deno.test("Gemini CLI: 60k, 104k and 140k refresh once each, with GEMINI.md's rules", async () => {
  const s = session();
  const labels: (string | undefined)[] = [];
  let first: string | undefined;
  for (const tokens of [40_000, 61_000, 80_000, 106_000, 120_000, 142_000, 150_000]) {
    const run = await s.call(tokens);
    assertEquals([run.code, run.stderr], [0, ""]);
    labels.push(labelOf(run.context));
    first ??= run.context;
  }
  assertEquals(labels, [undefined, "30", undefined, "52", undefined, "70", undefined]);
  ok(first?.includes("of the 1049k-token context window"), first?.slice(0, 160));
  ok(first?.includes(RULE) && !first.includes("Not restated."), first);
  ok(first?.includes("## Non-Negotiable Directives"), "the manifest's lessons");
});

Deno.test("Gemini CLI shows a quiet hook's stderr: a bad setting is said on the first call only", async () => {
  const s = session();
  Object.assign(s.env, { LESSONS_REINJECT_THRESHOLDS: "30,abc" });
  const said = [];
  for (const tokens of [40_000, 45_000, 50_000]) said.push((await s.call(tokens)).stderr);
  ok(said[0]!.includes("LESSONS_REINJECT_THRESHOLDS"), said[0]);
  assertEquals(said.slice(1), ["", ""]);
});

Deno.test("Gemini CLI: on Gemma 4's 256,000 window the schedule is its percentages", async () => {
  const s = session({ model: "gemma-4-31b-it" });
  assertEquals(labelOf((await s.call(70_000)).context), "30"); // 27 % of 256k: 60k crossed
  assertEquals(labelOf((await s.call(120_000)).context), "52"); // 104k crossed
});

Deno.test("Gemini CLI: after a compression the next call restates once, and 30 % comes again", async () => {
  const s = session();
  assertEquals(labelOf((await s.call(61_000)).context), "30");
  s.append(snapshot);
  const restated = await s.call(20_000);
  assertEquals(labelOf(restated.context), "compact");
  // Gemini keeps GEMINI.md in the compressed history (gemini-facts.md): the manifest is restated.
  ok(restated.context?.includes("## Non-Negotiable Directives"), restated.context);
  ok(!restated.context?.includes(RULE), restated.context);
  assertEquals((await s.call(30_000)).context, undefined);
  assertEquals(labelOf((await s.call(61_000)).context), "30");
});

Deno.test("Gemini CLI: with the state file lost, refreshes in the file are not made again", async () => {
  const s = session();
  assertEquals(labelOf((await s.call(61_000)).context), "30");
  Deno.removeSync(s.box.stateDir, { recursive: true });
  assertEquals((await s.call(64_000)).context, undefined);
  assertEquals(labelOf((await s.call(106_000)).context), "52");
});

Deno.test("Gemini CLI: with context.fileName naming AGENTS.md, its marked rules are the ones restated", async () => {
  const s = session();
  const settings = { context: { fileName: ["AGENTS.md"] } };
  Deno.writeTextFileSync(join(s.box.dir, ".gemini", "settings.json"), JSON.stringify(settings));
  Deno.writeTextFileSync(
    join(s.project, "AGENTS.md"),
    "<!-- reinject -->\nAGENTS-RULE\n<!-- /reinject -->\n",
  );
  const text = (await s.call(61_000)).context;
  ok(text?.includes("AGENTS-RULE") && !text.includes(RULE), text);
});
