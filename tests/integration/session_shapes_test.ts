/**
 * The real entry point as a subprocess on session shapes real Claude Code writes: a fork
 * subagent with a labelled agent id, the compaction summariser's own file of 2.1.30-2.1.80 beside
 * a session, and the first call after `/model`. Transcripts are built from recorded lines by
 * tests/replay/shapes.ts (the recorded 2.1.328 fork is replayed call by call by
 * tests/replay/replay_test.ts).
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { payload, runHook, runPausing, sandbox } from "../_helpers.ts";
import { compactionSummariser, FORK, shapes, SUMMARISER_ID, switchTurn } from "../replay/shapes.ts";

/** A project folder laid out as Claude Code lays it out: `<session>.jsonl`, `<session>/subagents/`. */
function project(box: ReturnType<typeof sandbox>, sessionId: string) {
  const dir = join(box.dir, "projects", "-home-dev-project");
  const subagents = join(dir, sessionId, "subagents");
  Deno.mkdirSync(subagents, { recursive: true });
  return { main: join(dir, `${sessionId}.jsonl`), subagents };
}

/** The lines of `text` up to and including the first one holding `needle`. */
function upTo(text: string, needle: string): string {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.includes(needle));
  if (at < 0) throw new Error(`no line holds ${needle}`);
  return lines.slice(0, at + 1).join("\n") + "\n";
}

/** The assistant entry holding tool call `id` (its `"id":"<id>"` in a tool_use block). */
const callOf = (id: string) => `"type":"tool_use","id":"${id}"`;

Deno.test("a fork with a labelled agent id inherits what its parent refreshed before the fork, not after", async (t) => {
  const generated = shapes();
  const parent = generated[FORK.parent]!;
  const agent = generated[FORK.agent]!;
  const runFork = async (agentText: string, id: string) => {
    const box = sandbox();
    const { main, subagents } = project(box, FORK.sessionId);
    Deno.writeTextFileSync(main, parent);
    Deno.writeTextFileSync(
      join(subagents, `agent-${FORK.agentId}.jsonl`),
      upTo(agentText, callOf(id)),
    );
    return await runHook(
      payload("PostToolUse.fork", {
        session_id: FORK.sessionId,
        transcript_path: main,
        agent_id: FORK.agentId,
        tool_use_id: id,
      }),
      { ...box.env, LESSONS_DEBUG: "1" },
    );
  };
  const lost = agent.replace(/"parentLastUuid":"[^"]+"/, '"parentLastUuid":"gone"');
  const cases = [
    [
      "73 % on a first call: only 70, which the parent refreshed after the fork",
      agent,
      "fa03",
      "70",
    ],
    [
      "a fork point the parent's transcript lacks: the fork refreshes on its own",
      lost,
      "fa01",
      "30,52",
    ],
  ];
  for (const [name, text, id, fired] of cases) {
    await t.step(name!, async () => {
      const run = await runFork(text!, `toolu_${id}`);
      ok(run.context?.startsWith(`[lessons-reinject refresh ${fired} ref=`), run.stderr);
    });
  }
});

Deno.test("the compaction summariser's file (2.1.30-2.1.80) is never read as the session", async (t) => {
  const shape = compactionSummariser();
  const box = sandbox();
  const { main, subagents } = project(box, shape.sessionId);
  Deno.writeTextFileSync(main, shape.session);
  // Written last (newest), and its reading is the compacted conversation's: 167k, 83 %.
  const summariser = join(subagents, `agent-${SUMMARISER_ID}.jsonl`);
  Deno.utimeSync(main, new Date(2026, 0, 1), new Date(2026, 0, 1));
  Deno.writeTextFileSync(summariser, shape.summariser);
  const env = { ...box.env, LESSONS_DEBUG: "1", LESSONS_REINJECT_WAIT_MS: "1" };
  const call = (name: string, fields: Record<string, string>) =>
    runHook(payload(name, { session_id: shape.sessionId, transcript_path: main, ...fields }), env);
  await t.step("the session's call reads the session: 20 %", async () => {
    const run = await call("PostToolUse.Bash", { tool_use_id: "toolu_cs04" });
    equal(run.stdout, "", run.stderr);
    ok(run.stderr.includes("20% of 200000"), run.stderr);
  });
  await t.step("a subagent whose file is missing is not given the summariser's", async () => {
    const run = await call("PostToolUse.subagent", {
      agent_id: "a0123456789abcdef",
      tool_use_id: "toolu_x",
    });
    equal(run.stdout, "", run.stderr);
    ok(!run.stderr.includes("83%") && run.stderr.includes("agent-a0123456789abcdef"), run.stderr);
  });
  assertEquals(Deno.statSync(summariser).isFile, true);
});

Deno.test("the first call after /model to a smaller window waits for its own entry", async () => {
  // The ceiling on this call's reading takes the previous reading's window (1M here): a new turn
  // may have switched the model, so it does not decide whether to wait.
  const turn = switchTurn();
  const box = sandbox();
  const { main } = project(box, turn.sessionId);
  Deno.writeTextFileSync(main, turn.before);
  const run = await runPausing(
    payload("PostToolUse.Bash", {
      session_id: turn.sessionId,
      transcript_path: main,
      tool_use_id: "toolu_st02",
    }),
    { ...box.env, LESSONS_DEBUG: "1", LESSONS_REINJECT_WAIT_MS: "10000" },
    box.dir,
    () => Deno.writeTextFileSync(main, turn.entry, { append: true }),
  );
  ok(run.context?.startsWith("[lessons-reinject refresh 30 ref="), run.stderr);
  ok(run.stderr.includes("35% of 200000"), run.stderr);
});
