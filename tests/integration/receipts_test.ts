/**
 * Delivery receipts through the real entry point, on transcripts built from lines real Claude
 * Code 2.1.328 wrote (tests/_helpers.ts entries): a refresh whose delivery is never recorded is
 * sent again once, then given up; one not recorded yet is not; a dropped SessionStart(compact)
 * answer is restated by the first tool call; `status` and `doctor` say how each delivery stands.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { DoctorJsonSchema, StatusJsonSchema } from "../../src/cli/schemas.ts";
import {
  appendTranscript,
  entries,
  payload,
  ROOT,
  runHook,
  runPausing,
  runRecorded,
  sandbox,
  sandboxSession,
  writeTranscript,
} from "../_helpers.ts";
import { assertIncludes, cli, parsedAs, sessionsFolder, unwrap } from "../cli/_cli.ts";

/** A window of 100,000 tokens makes tokens/1000 the percentage. */
const WINDOW = { LESSONS_CONTEXT_WINDOW: "100000", LESSONS_DEBUG: "1" };

function session() {
  // The session the recorded lines belong to, as `status` finds it from the transcript.
  const ids = { session_id: String(entries.assistant(0).sessionId) };
  const { box, env, call: payloadOf } = sandboxSession(WINDOW);
  /**
   * Claude Code (release `version`; one that writes none when null) writes the response holding
   * tool call `id` at `percent`; its payload.
   */
  const call = (id: string, percent: number, version?: string | null) => {
    const entry = entries.assistant(percent * 1000, [id], version ? { version } : {});
    if (version === null) delete entry.version;
    appendTranscript(box.transcript, [entry]);
    return payloadOf(id, ids);
  };
  const event = (name: string) => payload(name, { ...ids, transcript_path: box.transcript });
  return { box, env, call, event, payloadOf: (id: string) => payloadOf(id, ids) };
}

/** `status --json` of the transcript (its deliveries), and the line `status` prints for them. */
async function status(box: { dir: string; transcript: string; env: Record<string, string> }) {
  const env = { ...box.env, ...WINDOW, HOME: box.dir };
  const json = await cli(["status", "--json", "--transcript", box.transcript], env);
  const text = await cli(["status", "--transcript", box.transcript], env);
  const deliveries = parsedAs(StatusJsonSchema, json.stdout).deliveries;
  return {
    deliveries: deliveries.map((d) => [d.refresh, d.status, d.call, d.sent]),
    text: unwrap(text.stdout),
  };
}

/** What Claude Code writes after a hook it killed: the result, and `hook_cancelled`. */
function killed(box: { transcript: string }, id: string): void {
  appendTranscript(box.transcript, [entries.toolResult(id), entries.cancelled(id)]);
}

Deno.test("a refresh never recorded is sent again on the next call, once, then given up", async () => {
  const { box, env, call } = session();
  const first = await runHook(call("toolu_1", 31), env);
  ok(first.context?.startsWith("[lessons-reinject refresh 30 ref="), first.stdout);
  killed(box, "toolu_1");
  const again = await runHook(call("toolu_2", 32), env);
  ok(again.context?.startsWith("[lessons-reinject refresh 30 ref="), again.stderr);
  ok(again.context?.includes("Context refresh at 32%"), again.context?.slice(0, 120));
  assertIncludes(
    again.stderr,
    "receipts: 30 not recorded for toolu_1 (Claude Code cancelled the hook), and the session " +
      "moved past it: sending it again",
  );
  killed(box, "toolu_2");
  const third = await runHook(call("toolu_3", 33), env);
  assertEquals(third.stdout, "", "sent a third time");
  assertIncludes(
    third.stderr,
    "30 (re-sent) given up: sent 2 times, not recorded for toolu_2 (Claude Code cancelled " +
      "the hook), and the session moved past it",
  );
  // Settled: later calls read nothing for it.
  appendTranscript(box.transcript, [entries.toolResult("toolu_3")]);
  const later = await runHook(call("toolu_4", 34), env);
  ok(!later.stderr.includes("receipts:"), later.stderr);
  const { deliveries, text } = await status(box);
  assertEquals(deliveries, [["30", "given up", "toolu_2", 2]]);
  assertIncludes(
    text,
    "deliveries   30%: given up: sent 2 times, not recorded for toolu_2 (Claude Code " +
      "cancelled the hook), and the session moved past it\n",
  );
});

Deno.test("a refresh not recorded yet is not sent again; its record, written late, is found", async () => {
  const { box, env, call, payloadOf } = session();
  const first = await runHook(call("toolu_1", 31), env);
  ok(first.context);
  // The next call's hook starts before Claude Code has written anything of the last call.
  const early = await runHook(payloadOf("toolu_2"), { ...env, LESSONS_REINJECT_WAIT_MS: "1" });
  assertEquals(early.stdout, "");
  ok(early.stderr.includes("receipts: 30 not recorded yet for toolu_1"), early.stderr);
  // Then it all arrives: the result, the record of the refresh, the next responses.
  appendTranscript(box.transcript, [
    entries.toolResult("toolu_1"),
    entries.refresh(first.context!, "toolu_1"),
    entries.assistant(32_000, ["toolu_2"]),
    entries.toolResult("toolu_2"),
  ]);
  const later = await runHook(call("toolu_3", 33), env);
  assertEquals(later.stdout, "");
  ok(later.stderr.includes("receipts: 30 delivered on toolu_1"), later.stderr);
});

Deno.test("the next call waits for its own entry while a receipt is outstanding, and finds it", async () => {
  const { box, env, call, payloadOf } = session();
  const first = await runHook(call("toolu_1", 10), env);
  assertEquals(first.stdout, "");
  appendTranscript(box.transcript, [entries.toolResult("toolu_1")]);
  const fired = await runHook(call("toolu_2", 31), env);
  ok(fired.context);
  // Far below 52 %: without a receipt to read, this call would not wait for its entry.
  const slow = { ...env, LESSONS_REINJECT_WAIT_MS: "10000" };
  const run = await runPausing(payloadOf("toolu_3"), slow, box.dir, () => {
    appendTranscript(box.transcript, [
      entries.toolResult("toolu_2"),
      entries.refresh(fired.context!, "toolu_2"),
      entries.assistant(31_500, ["toolu_3"]),
    ]);
  });
  assertEquals(run.stdout, "");
  ok(run.stderr.includes("receipts: 30 delivered on toolu_2"), run.stderr);
  ok(run.stderr.includes("tool_use match"), run.stderr);
});

Deno.test("a SessionStart(compact) answer: recorded, the first tool call stays silent; dropped, it restates, once", async (t) => {
  for (const recorded of [true, false]) {
    await t.step(recorded ? "recorded" : "dropped", async () => {
      const { box, env, call, event } = session();
      ok((await runRecorded(call("toolu_1", 35), env)).context);
      appendTranscript(box.transcript, [entries.compactBoundary()]);
      // Dropped: SessionStart(compact) answers, but Claude Code records nothing.
      const start = await (recorded ? runRecorded : runHook)(event("SessionStart.compact"), env);
      ok(start.context?.startsWith("[lessons-reinject refresh compact ref="), start.stdout);
      const first = await runRecorded(call("toolu_2", 8), env);
      if (recorded) {
        assertEquals(first.stdout, "", first.stderr);
        ok(first.stderr.includes("receipts: compact delivered on SessionStart"), first.stderr);
        return;
      }
      ok(first.context?.startsWith("[lessons-reinject refresh compact ref="), first.stderr);
      const owed = "compact not recorded for SessionStart, and the session moved past it";
      ok(first.stderr.includes(owed), first.stderr);
      const next = await runRecorded(call("toolu_3", 9), env);
      assertEquals(next.stdout, "", "restated twice");
      ok(next.stderr.includes("compact (re-sent) delivered on toolu_2"), next.stderr);
      ok((await runRecorded(call("toolu_4", 31), env)).context?.includes("refresh 30 ref="));
    });
  }
});

Deno.test("doctor reports the last session's deliveries", async () => {
  const box = sandbox();
  const cwd = join(box.dir, "project");
  Deno.mkdirSync(cwd);
  const projects = sessionsFolder(box.dir, cwd);
  const sessionId = String(entries.assistant(0).sessionId);
  const transcript = join(projects, `${sessionId}.jsonl`);
  writeTranscript(transcript, []);
  const env = { ...box.env, ...WINDOW, HOME: box.dir, CLAUDE_CONFIG_DIR: join(box.dir, ".claude") };
  const ids = { session_id: sessionId, transcript_path: transcript, cwd };
  const at = (id: string, percent: number) => {
    appendTranscript(transcript, [entries.assistant(percent * 1000, [id])]);
    return payload("PostToolUse.Bash", { ...ids, tool_use_id: id });
  };
  ok((await runRecorded(at("toolu_1", 31), env)).context);
  const fired = await runHook(at("toolu_2", 53), env);
  ok(fired.context);
  killed({ transcript }, "toolu_2");
  appendTranscript(transcript, [entries.assistant(54_000, ["toolu_3"])]);
  const run = await cli(["doctor", "--json", "--plugin-root", ROOT], env, "", cwd);
  const report = parsedAs(DoctorJsonSchema, run.stdout);
  const deliveries = report.checks.find((c) => c.name === "deliveries");
  ok(deliveries, JSON.stringify(report.checks.map((c) => c.name)));
  assertEquals(deliveries.detail.split("\n"), [
    "30%: delivered (seen in the transcript, on toolu_1)",
    "52%: not delivered (not recorded for toolu_2 (Claude Code cancelled the hook), and the " +
    "session moved past it); the next tool call sends it again",
  ]);
});

Deno.test("a Claude Code that records no hook outcome (before 2.1.97): each refresh is sent once", async (t) => {
  const { box, env, call } = session();
  /** Claude Code 2.1.96 writes the response holding `id`, and after the hook only the result. */
  const old = (id: string, percent: number) => call(id, percent, "2.1.96");
  await t.step("the refresh fires on its crossing call", async () => {
    const first = await runHook(old("toolu_1", 31), env);
    ok(first.context?.startsWith("[lessons-reinject refresh 30 ref="), first.stderr);
    appendTranscript(box.transcript, [entries.toolResult("toolu_1")]);
  });
  await t.step("the session moves on without a record: not sent again", async () => {
    const next = await runHook(old("toolu_2", 32), env);
    assertEquals(next.stdout, "", next.stderr);
    assertIncludes(next.stderr, "30 sent once: this Claude Code does not record deliveries");
    appendTranscript(box.transcript, [entries.toolResult("toolu_2")]);
  });
  await t.step("status says so", async () => {
    const { deliveries, text } = await status(box);
    assertEquals(deliveries, [["30", "unrecorded", "toolu_1", 1]]);
    assertIncludes(
      text,
      "30%: sent once on toolu_1; this Claude Code does not record deliveries, so it is not checked",
    );
  });
  await t.step("the next threshold still fires once", async () => {
    const fired = await runHook(old("toolu_3", 53), env);
    ok(fired.context?.startsWith("[lessons-reinject refresh 52 ref="), fired.stderr);
    appendTranscript(box.transcript, [entries.toolResult("toolu_3")]);
    assertEquals((await runHook(old("toolu_4", 54), env)).stdout, "");
  });
});

Deno.test("a release not known but seen recording this hook's outcome: a missed refresh is sent again", async () => {
  const { box, env, call } = session();
  const unknown = (id: string, percent: number) => call(id, percent, null);
  const first = await runHook(unknown("toolu_1", 31), env);
  ok(first.context);
  // It ran and answered, Claude Code recorded its stdout, and did not deliver it.
  appendTranscript(box.transcript, [
    entries.toolResult("toolu_1"),
    entries.ran("toolu_1", first.stdout),
  ]);
  const again = await runHook(unknown("toolu_2", 32), env);
  ok(again.context?.startsWith("[lessons-reinject refresh 30 ref="), again.stderr);
});

Deno.test("a subagent's own file holds receipts from 2.1.259 on: before, its refresh is sent once", async (t) => {
  for (const [version, again] of [["2.1.258", false], ["2.1.259", true]] as const) {
    await t.step(`${version}: ${again ? "sent again" : "sent once"}`, async () => {
      const { box, env } = sandboxSession(WINDOW, [entries.assistant(5_000, ["toolu_main"])]);
      const file = join(box.transcript.replace(/\.jsonl$/, ""), "subagents", "agent-a1old.jsonl");
      Deno.mkdirSync(join(file, ".."), { recursive: true });
      writeTranscript(file, []);
      const call = (id: string, percent: number) => {
        appendTranscript(file, [
          entries.assistant(percent * 1000, [id], { isSidechain: true, version }),
        ]);
        return payload("PostToolUse.subagent", {
          session_id: "sub-receipts",
          transcript_path: box.transcript,
          tool_use_id: id,
          agent_id: "a1old",
        });
      };
      const first = await runHook(call("toolu_s1", 31), env);
      ok(first.context?.startsWith("[lessons-reinject refresh 30 ref="), first.stderr);
      // The result is written, nothing records the answer, and the subagent goes on.
      appendTranscript(file, [{ ...entries.toolResult("toolu_s1"), isSidechain: true }]);
      const next = await runHook(call("toolu_s2", 32), env);
      assertEquals(next.context?.startsWith("[lessons-reinject refresh 30 ref=") ?? false, again);
    });
  }
});
