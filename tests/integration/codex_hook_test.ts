/**
 * The real entry point on a Codex session: the rollout written in Codex 0.171.0's measured order
 * (tests/integration/_codex.ts), the payloads Codex sent. The same schedule, once each, with
 * AGENTS.md's marked rules; the restatement after a compaction; receipts; a lost state file.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { SAMPLE_MANIFEST, sandbox } from "../_helpers.ts";
import { codexProject } from "./_codex.ts";

const RULE = "Always answer in haiku (AGENTS-MD-RULE).";

const setup = (window?: number) => codexProject(RULE, sandbox(), window);

const labelOf = (text: string | undefined) => text?.match(/^\[lessons-reinject refresh (\S+)/)?.[1];

Deno.test("Codex: 30, 52 and 70 % of the rollout's window each refresh once, with AGENTS.md's rules", async () => {
  const { env, session } = setup();
  const labels: (string | undefined)[] = [];
  let first: string | undefined;
  // 190,000 is what Codex writes for model_context_window = 200000.
  for (const tokens of [40_000, 56_000, 58_000, 80_000, 100_000, 120_000, 134_000, 140_000]) {
    const run = await session.call(tokens, env);
    assertEquals([run.code, run.stderr], [0, ""]);
    labels.push(labelOf(run.context));
    first ??= run.context;
  }
  assertEquals(labels, [undefined, undefined, "30", undefined, "52", undefined, "70", undefined]);
  ok(first?.includes("of the 190k-token context window"), first?.slice(0, 160));
  ok(first?.includes(RULE) && !first.includes("Not restated."), first);
  ok(first?.includes("## Non-Negotiable Directives"), "the manifest's lessons");
});

Deno.test("Codex: a compaction restarts the schedule, and SessionStart(compact) restates once", async () => {
  const { env, session } = setup();
  assertEquals(labelOf((await session.call(60_000, env)).context), "30");
  const reset = await session.compact(env);
  assertEquals(labelOf(reset.context), "compact");
  // Codex sends AGENTS.md again after a compaction (docs/maintainers/codex-facts.md), as Claude
  // Code does CLAUDE.md: the restatement carries what it does not put back, the manifest's lessons.
  ok(reset.context?.includes("## Non-Negotiable Directives"), reset.context);
  ok(!reset.context?.includes(RULE), reset.context);
  assertEquals((await session.call(20_000, env)).context, undefined);
  assertEquals(labelOf((await session.call(60_000, env)).context), "30");
});

Deno.test("Codex: an answer Codex did not record is sent once more", async () => {
  const { env, session } = setup();
  assertEquals(labelOf((await session.call(60_000, env, { drop: true })).context), "30");
  assertEquals(labelOf((await session.call(61_000, env)).context), "30");
  assertEquals((await session.call(62_000, env)).context, undefined);
});

Deno.test("Codex: with the state file lost, the refreshes in the rollout are not made again", async () => {
  const { box, env, session } = setup();
  assertEquals(labelOf((await session.call(60_000, env)).context), "30");
  Deno.removeSync(box.stateDir, { recursive: true });
  assertEquals((await session.call(64_000, env)).context, undefined);
  assertEquals(labelOf((await session.call(100_000, env)).context), "52");
});

Deno.test("Codex: lessons-learned's manifest is found where Codex installed the plugin", async () => {
  const { box, env, session } = setup();
  const cache = join(env.CODEX_HOME!, "plugins", "cache");
  const data = join(cache, "lessons-learned", "lessons-learned", "2.0.0", "data");
  Deno.mkdirSync(data, { recursive: true });
  Deno.copyFileSync(SAMPLE_MANIFEST, join(data, "lesson-manifest.json"));
  const { LESSONS_MANIFEST_PATH: _, ...unset } = env;
  const text = (await session.call(60_000, { ...unset, CLAUDE_CONFIG_DIR: join(box.dir, "none") }))
    .context;
  ok(text?.includes("## Non-Negotiable Directives"), text?.slice(0, 300));
});

Deno.test("Codex: a crossing call whose response is recorded after its hook started still refreshes", async () => {
  const { env, session } = setup();
  const waiting = { ...env, LESSONS_REINJECT_WAIT_MS: "2000" };
  assertEquals((await session.call(40_000, waiting)).context, undefined);
  const late = await session.call(60_000, waiting, { late: true });
  assertEquals(labelOf(late.context), "30");
  ok(late.context?.includes("31% of the 190k-token context window"), late.context?.slice(0, 120));
});

Deno.test("Codex: gpt-5.5's 258,400 window follows the every-window schedule: 60k, 104k, 140k, then 180k and 220k", async () => {
  const { env, session } = setup(258_400);
  const fired: [number, string | undefined][] = [];
  for (
    const tokens of [59_000, 61_000, 103_000, 105_000, 139_000, 141_000, 179_000, 181_000, 221_000]
  ) {
    const label = labelOf((await session.call(tokens, env)).context);
    if (label) fired.push([tokens, label]);
  }
  assertEquals(fired.map(([tokens]) => tokens), [61_000, 105_000, 141_000, 181_000, 221_000]);
});
