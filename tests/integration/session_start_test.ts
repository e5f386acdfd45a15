/**
 * The real entry point on the SessionStart a resumed or forked session sends (captured from real
 * Claude Code: tests/fixtures/payloads/SessionStart.resume.json), and on the inputs 2.1.332 can
 * send without a transcript: persistence off (`transcript_path: ""`) and a tool called remotely
 * (`session_id: "served:<id>"`).
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import {
  appendTranscript,
  entries,
  payload,
  runHook,
  runRecorded,
  sandbox,
  sandboxSession,
} from "../_helpers.ts";

/** A session left at `percent`, resumed: its transcript, environment and SessionStart payload. */
function resumed(percent: number) {
  const { box, env, call } = sandboxSession({ LESSONS_CONTEXT_WINDOW: "100000" }, [
    entries.assistant(percent * 1000, ["toolu_last"]),
    entries.toolResult("toolu_last"),
  ]);
  const ids = { session_id: crypto.randomUUID(), transcript_path: box.transcript };
  const start = payload("SessionStart.resume", { ...ids, context_tokens: percent * 1000 + 400 });
  return { box, env, start, call: (id: string) => call(id, ids) };
}

Deno.test("a session resumed past a threshold gets its refresh in SessionStart's answer", async () => {
  const { env, start } = resumed(35);
  const run = await runRecorded(start, env);
  equal(run.code, 0);
  equal(JSON.parse(run.stdout).hookSpecificOutput.hookEventName, "SessionStart");
  ok(run.context?.startsWith("[lessons-reinject refresh 30 ref="), run.stdout);
});

Deno.test("a resumed session below every threshold: SessionStart says nothing", async () => {
  const { env, start } = resumed(12);
  const run = await runHook(start, env);
  assertEquals([run.code, run.stdout, run.stderr], [0, "", ""]);
});

Deno.test("resumed: nothing fires twice", async (t) => {
  await t.step("the state file says 30 fired: silent", async () => {
    const { env, start, call } = resumed(35);
    ok((await runRecorded(call("toolu_last"), env)).context?.includes("refresh 30"));
    equal((await runHook(start, env)).stdout, "");
  });
  await t.step("the state file is gone, the transcript shows the refresh: silent", async () => {
    const { box, env, start, call } = resumed(35);
    ok((await runRecorded(call("toolu_last"), env)).context?.includes("refresh 30"));
    Deno.removeSync(box.stateDir, { recursive: true });
    equal((await runHook(start, env)).stdout, "");
  });
  await t.step("a resumed SessionStart's refresh is not given again on the next call", async () => {
    const { box, env, start, call } = resumed(35);
    ok((await runRecorded(start, env)).context?.includes("refresh 30"));
    appendTranscript(box.transcript, [entries.assistant(36_000, ["toolu_next"])]);
    equal((await runHook(call("toolu_next"), env)).context, undefined);
  });
});

Deno.test("no transcript (2.1.332: persistence off, a remotely called tool): silent, then the count", async (t) => {
  for (
    const [name, fields] of [
      ["transcript_path is empty", { transcript_path: "" }],
      ["a served: session with an empty transcript_path", {
        session_id: `served:${crypto.randomUUID()}`,
        transcript_path: "",
      }],
    ] as const
  ) {
    await t.step(name, async () => {
      const box = sandbox();
      const env = { ...box.env, LESSONS_REINJECT_TOOL_COUNT: "3", LESSONS_DEBUG: "1" };
      const call = (i: number) =>
        payload("PostToolUse.Bash", { session_id: "s-none", tool_use_id: `toolu_${i}`, ...fields });
      for (const i of [1, 2]) {
        const run = await runHook(call(i), env);
        assertEquals([run.code, run.stdout], [0, ""]);
        ok(run.stderr.includes("no transcript_path"), run.stderr);
        ok(!run.stderr.includes("internal error"), run.stderr);
      }
      // The PRD's fallback: every N-th call refreshes when there is no reading at all.
      const third = await runHook(call(3), env);
      ok(third.context?.startsWith("[lessons-reinject refresh calls:3 ref="), third.stdout);
    });
  }
});
