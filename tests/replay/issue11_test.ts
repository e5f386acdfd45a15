/**
 * Windows and compactions on real data where it exists: the v2.1.112 session refreshes at
 * 30/52/70 % of 200k before its compaction; a 1M session still refreshes at 30/52/70 % of 1M;
 * without its event, a compaction is found on the first call after it; a gateway's zero usage
 * ends the wait; a nested workflow agent's file is found and remembered.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  appendTranscript,
  entries,
  payload,
  recordAnswer,
  sandbox,
  sandboxSession,
  skeletonTranscript,
} from "../_helpers.ts";
import { callHook, type HookDecision } from "./_adapter.ts";
import { replay } from "./_replay.ts";

const BOUNDARY_LINE = 830;
/** The last tool call of v2.1.212-newest.jsonl reads 176,969 tokens, every one in input_tokens. */
const LAST_212 = 176_969; // line 831 of v2.1.112-compact-boundary.jsonl, 0-based

/** `Context refresh at 31% of the 200k-token` → [31, "200k"]. */
function stated(decision: HookDecision): [number, string] | undefined {
  const match = /refresh at (\d+)% of the (\S+)-token/.exec(decision.header) ??
    /refresh at [\d,]+ tokens \((\d+)% of the (\S+)-token/.exec(decision.header);
  return match ? [Number(match[1]), match[2]!] : undefined;
}

for (const withEvents of [true, false]) {
  const mode = withEvents ? "with" : "without";
  Deno.test(`v2.1.112 (opus-4-7, 2.1.112) refreshes at 30, 52, 70 % of 200k before its compaction, ${mode} compaction events`, async () => {
    const rows = await replay("v2.1.112-compact-boundary.jsonl", withEvents);
    const fired = rows.filter((r) => r.hook.kind !== "none");
    const before = fired.filter((r) => r.call.line < BOUNDARY_LINE);
    deepStrictEqual(before.map((r) => r.hook.thresholds), [[30], [52], [70]]);
    deepStrictEqual(before.map((r) => stated(r.hook)?.[1]), ["200k", "200k", "200k"]);
    // Before this branch it read 3-17 % of 1M all session and never refreshed.
    for (const r of before) ok(stated(r.hook)![0] >= r.hook.thresholds[0]!, r.hook.header);
    // After the compaction (preTokens 167,766: a 200k window) the context starts again: the
    // rules are restated once (by SessionStart, or by the first call after the marker), then 30
    // fires at 30 % of 200k (the new context starts below it).
    const after = rows.filter((r) => r.call.line > BOUNDARY_LINE);
    const restated = after.filter((r) => r.hook.kind === "compact" || r.event?.kind === "compact");
    deepStrictEqual(restated.length, 1);
    ok(withEvents || restated[0] === after[0], "without events, the first call after it");
    const thirty = after.find((r) => r.hook.kind === "thresholds")!;
    deepStrictEqual([thirty.hook.thresholds, stated(thirty.hook)?.[1]], [[30], "200k"]);
  });
}

Deno.test("v2.1.212 (a gateway, usage only in input_tokens) reads input_tokens as the context", async () => {
  const rows = await replay("v2.1.212-newest.jsonl", true);
  const fired = rows.filter((r) => r.hook.kind === "thresholds");
  deepStrictEqual(fired.map((r) => r.hook.thresholds), [[30], [52], [70]]);
  ok(fired.every((r) => stated(r.hook)?.[1] === "200k"));
  // The readings are all input_tokens (no caching): the last call's, as the oracle read it.
  deepStrictEqual(rows.at(-1)!.call.tokens, LAST_212);
});

/** A hand-written session: one hook call per `tokens`, on model `model`, through the adapter. */
function session(model: string, more: Record<string, string> = {}) {
  const { box, env, call: payloadOf } = sandboxSession({ LESSONS_DEBUG: "1", ...more });
  let n = 0;
  const call = async (tokens: number, extra: { wait?: string } = {}) => {
    const id = `toolu_i11_${++n}`;
    appendTranscript(box.transcript, [entries.assistant(tokens, [id], { model })]);
    const started = performance.now();
    const stdin = payloadOf(id, { session_id: "issue-11" });
    const decision = await callHook(
      stdin,
      extra.wait ? { ...env, LESSONS_REINJECT_WAIT_MS: extra.wait } : env,
    );
    const ms = performance.now() - started;
    // What Claude Code then writes: the call's result and the record of the delivery.
    recordAnswer(stdin, decision.kind === "none" ? undefined : decision.text);
    return { decision, ms };
  };
  return { call };
}

// A window that is only possibly 1M (claude-sonnet-4-6: 60k, 104k, 140k against 200k, then the
// cadence once a reading proves 1M; with the cadence off, 30, 52 and 70 % of 1M) is
// cli/agreement_test.ts's "status agrees with the hook once a larger window is proven".
Deno.test("1M sessions: certainly 1M (the default model of 2.1.328), no early refresh; 60k, 104k and 140k, then the cadence (cadence off: 30, 52 and 70 % of 1M)", async (t) => {
  type Row = [tokens: number, fired: number[], window: string | undefined];
  const cases: Record<string, [string, Row[]]> = {
    "the default model of 2.1.328, default cadence": ["claude-opus-5-5", [
      [50_000, [], undefined],
      [150_000, [30, 52, 70], "1M"],
      [170_000, [], undefined],
      [185_000, [180_000], "1M"],
    ]],
    "the default model of 2.1.328, cadence off": ["claude-opus-5-5", [
      [150_000, [], undefined],
      [310_000, [30], "1M"],
      [530_000, [52], "1M"],
    ]],
  };
  for (const [name, [model, want]] of Object.entries(cases)) {
    await t.step(name, async () => {
      const off = name.endsWith("cadence off") ? { LESSONS_REINJECT_CADENCE: "off" } : {};
      const { call } = session(model, off);
      const seen: Row[] = [];
      for (const [tokens] of want) {
        const { decision } = await call(tokens);
        seen.push([tokens, decision.thresholds, stated(decision)?.[1]]);
      }
      deepStrictEqual(seen, want);
    });
  }
});

Deno.test("a gateway's own entry with all-zero usage ends the wait: the counter, at once", async () => {
  const { call } = session("glm-4.7");
  const { decision, ms } = await call(0, { wait: "2000" });
  deepStrictEqual(decision.kind, "none");
  ok(decision.debug.includes("tool call 1"), decision.debug);
  ok(ms < 1000, `waited ${Math.round(ms)} ms for an entry that was already there`);
});

Deno.test("a 2.1.167 workflow agent's nested file is found and its path kept in the agent's state", async () => {
  const box = sandbox();
  const session = "3e89eb15-32e7-43f8-8734-8d47310263ea";
  const main = join(box.dir, `${session}.jsonl`);
  Deno.copyFileSync(skeletonTranscript("v2.1.167-main-with-workflow-subagents.jsonl"), main);
  const nested = join(box.dir, session, "subagents", "workflows", "wf_f5b3cd7b-844");
  Deno.mkdirSync(nested, { recursive: true });
  const agentFile = join(nested, "agent-ab9eaae030fe399d0.jsonl");
  Deno.copyFileSync(
    skeletonTranscript("v2.1.167-subagent-file-agent-ab9eaae030fe399d0.jsonl"),
    agentFile,
  );
  const env = { ...box.env, LESSONS_DEBUG: "1" };
  const stdin = payload("PostToolUse.subagent", {
    session_id: session,
    transcript_path: main,
    agent_id: "ab9eaae030fe399d0",
    tool_use_id: "tooluse_kY0JsI3ibRIkKJPP0Xkiwv",
  });
  const call = () => callHook(stdin, env);
  const first = await call();
  // A reading from the agent's own file (its last usage, 50,191: the README's figure), not the
  // fallback counter.
  ok(first.debug.includes("50191 tokens from transcript"), first.debug);
  const states = [...Deno.readDirSync(box.stateDir)].filter((e) => e.name.endsWith(".json"));
  const kept = states.map((e) =>
    JSON.parse(Deno.readTextFileSync(join(box.stateDir, e.name))).agentTranscript
  ).filter((p) => p !== undefined);
  deepStrictEqual(kept, [agentFile]);
  ok((await call()).debug.includes("50191 tokens from transcript"));
});
