/**
 * The hook answers at once when a ceiling rules a crossing out, and waits for this call's own
 * transcript entry when it does not: the real entry point as a subprocess, with the entry written
 * late as Claude Code writes it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  appendTranscript,
  contextOf,
  entries,
  MAIN_COMMAND,
  payload,
  recordAnswer,
  runPausing,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../_helpers.ts";

const WINDOW = 1_000_000;
const WAIT_MS = 4_000; // the most waitMs takes
/** Percentages of the whole 1M window, as the cadence's off switch gives; the cadence is below. */
const CADENCE_OFF = { LESSONS_REINJECT_CADENCE: "off" };

/** A session whose newest entry is the previous response's, at `tokens`. */
function setup(tokens: number) {
  const box = sandbox();
  writeTranscript(box.transcript, [
    entries.assistant(tokens, ["toolu_prev"]),
    entries.toolResult("toolu_prev"),
  ]);
  const env = {
    ...box.env,
    LESSONS_CONTEXT_WINDOW: String(WINDOW),
    ...CADENCE_OFF,
    LESSONS_DEBUG: "1",
    // Long enough that the entry written 300 ms late is waited for even on a loaded machine.
    // Whether a call waited is read from its debug line ("not waited for"), never from a clock.
    LESSONS_REINJECT_WAIT_MS: String(WAIT_MS),
  };
  const call = payload("PostToolUse.Bash", {
    transcript_path: box.transcript,
    tool_use_id: "toolu_now",
  });
  return { box, env, call };
}

async function run(call: unknown, env: Record<string, string>) {
  const [program, ...args] = MAIN_COMMAND;
  const out = await spawnWithStdin(program!, args, call, env);
  // A setting the hook refused would test its default instead.
  ok(!out.stderr.includes("using the default"), out.stderr);
  return out;
}

Deno.test("far below the next threshold the hook answers without waiting for its entry", async () => {
  const { env, call } = setup(20_000); // 2 % of 1M: about 3 % with the margin
  const result = await run(call, env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(result.stderr.includes("not waited for: this call's reading is at most"), result.stderr);
  ok(result.stderr.includes("below the next threshold, 30%"), result.stderr);
});

Deno.test("near a threshold the hook waits for its entry and fires on this call", async () => {
  const { box, env, call } = setup(290_000); // 29 %: this call's response may cross 30
  const late = new Promise<void>((resolve) =>
    setTimeout(() => {
      // Claude Code writes this call's assistant entry after the hook has started.
      appendTranscript(box.transcript, [entries.assistant(310_000, ["toolu_now"])]);
      resolve();
    }, 300)
  );
  const result = await run(call, env);
  await late;
  assertEquals(result.code, 0, result.stderr);
  ok(result.stdout.includes("[lessons-reinject refresh 30 "), result.stderr);
  ok(result.stderr.includes("from transcript tool_use match"), result.stderr);
  ok(!result.stderr.includes("not waited for"), result.stderr);
  ok(/\(waited \d+ ms for its entry\)/.test(result.stderr), result.stderr);
});

/**
 * A 1M session with the default cadence (every 40k past 140k): a call at 150,000 tokens fires 30,
 * 52 and 70 and is delivered; `call(id)` is a tool call's payload and `run` runs it, recorded.
 */
function pastSeventy() {
  const { box, env: offEnv } = setup(100_000);
  const env = { ...offEnv, LESSONS_REINJECT_CADENCE: "" };
  Deno.mkdirSync(box.stateDir, { recursive: true, mode: 0o700 });
  const call = (id: string) =>
    payload("PostToolUse.Bash", { transcript_path: box.transcript, tool_use_id: id });
  const recorded = async (id: string, tokens: number) => {
    appendTranscript(box.transcript, [entries.assistant(tokens, [id])]);
    const result = await run(call(id), env);
    recordAnswer(call(id), contextOf(result.stdout));
    return result;
  };
  return { box, env, call, recorded };
}

Deno.test("on 1M with the default cadence, a call that waits for its entry (a result of unknown size) fires 180k on it", async () => {
  const { box, env, call, recorded } = pastSeventy();
  const fired = await recorded("toolu_first", 150_000);
  ok(fired.stdout.includes("refresh 30,52,70 "), fired.stderr);
  // A response at 175,000 whose result no hook recorded: this call cannot rule a crossing out.
  appendTranscript(box.transcript, [entries.assistant(175_000, ["toolu_prev2"])]);
  const { paused, done } = runPausing(call("toolu_now"), env, box.dir);
  await paused;
  appendTranscript(box.transcript, [entries.assistant(182_000, ["toolu_now"])]);
  const result = await done;
  assertEquals(result.code, 0, result.stderr);
  ok(result.stdout.includes("[lessons-reinject refresh 180k "), result.stderr);
  ok(result.stdout.includes("at 182,000 tokens (18% of the 1M-token"), result.stdout);
  ok(/\(waited \d+ ms for its entry\)/.test(result.stderr), result.stderr);
});

Deno.test("on 1M a call within reach of only a cadence point does not wait: 180k comes a call later", async () => {
  const { box, env, call, recorded } = pastSeventy();
  // 30, 52 and 70 fire at 150,000; a call at 175,000 records its result's size.
  ok((await recorded("toolu_c1", 150_000)).stdout.includes("refresh 30,52,70 "));
  await recorded("toolu_c2", 175_000);
  // This call's entry (182,000) is not written yet: its ceiling reaches 180k, a cadence point.
  const now = await run(call("toolu_c3"), env);
  assertEquals([now.code, now.stdout], [0, ""]);
  ok(now.stderr.includes("(not waited for: "), now.stderr);
  appendTranscript(box.transcript, [entries.assistant(182_000, ["toolu_c3"])]);
  recordAnswer(call("toolu_c3"), undefined);
  appendTranscript(box.transcript, [entries.assistant(184_000, ["toolu_c4"])]);
  const next = await run(call("toolu_c4"), env);
  ok(next.stdout.includes("[lessons-reinject refresh 180k "), next.stderr);
});

Deno.test("a transcript that has not caught up: the hook waits, though far below, and fires on this call", async () => {
  // The previous response's result is not in the file yet (Claude Code writes in batches, after
  // the hook starts): the bytes that carry the growth are missing, so no ceiling holds.
  const box = sandbox();
  writeTranscript(box.transcript, [entries.assistant(20_000, ["toolu_prev"])]);
  const env = {
    ...box.env,
    LESSONS_CONTEXT_WINDOW: String(WINDOW),
    ...CADENCE_OFF,
    LESSONS_DEBUG: "1",
    LESSONS_REINJECT_WAIT_MS: String(WAIT_MS),
  };
  const call = payload("PostToolUse.Bash", {
    transcript_path: box.transcript,
    tool_use_id: "toolu_now",
  });
  const late = new Promise<void>((resolve) =>
    setTimeout(() => {
      // Then it all arrives: the big result that carried the context past 30 %, and this entry.
      appendTranscript(box.transcript, [
        entries.toolResult("toolu_prev", "x".repeat(50_000)),
        entries.assistant(310_000, ["toolu_now"]),
      ]);
      resolve();
    }, 300)
  );
  const result = await run(call, env);
  await late;
  ok(result.stdout.includes("[lessons-reinject refresh 30 "), result.stderr);
  ok(/\(waited \d+ ms for its entry\)/.test(result.stderr), result.stderr);
});

Deno.test("every threshold fired: no wait at all", async () => {
  const { box, env, call } = setup(800_000);
  Deno.mkdirSync(box.stateDir, { recursive: true, mode: 0o700 });
  // Fire 30, 52 and 70 on a first call whose entry is there, then time a later call.
  appendTranscript(box.transcript, [entries.assistant(800_000, ["toolu_first"])]);
  const first = payload("PostToolUse.Bash", {
    transcript_path: box.transcript,
    tool_use_id: "toolu_first",
  });
  const fired = await run(first, env);
  ok(fired.stdout.includes("refresh 30,52,70 "), fired.stderr);
  // Claude Code records the delivery before the next call: no receipt is left to wait for.
  recordAnswer(first, contextOf(fired.stdout));
  const result = await run(call, env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(result.stderr.includes("every threshold has fired"), result.stderr);
  ok(result.stderr.includes("(not waited for: "), result.stderr);
});

Deno.test("results written between the previous response's entries count: the hook waits", async () => {
  // As real 2.1.112 wrote parallel Reads (shared v2.1.112, lines 6-16): the results of the first
  // calls between the entries of one streamed response. Counted only after its last entry, the
  // bytes gave a ceiling (25 % + 1 KB + margin) below 30 %: the call answered without waiting,
  // and a crossing in its own reading came one call late. 120 KB of results carry 72,000 tokens.
  const box = sandbox();
  const response = { messageId: "msg_parallel" };
  writeTranscript(box.transcript, [
    entries.assistant(250_000, ["toolu_p1"], response),
    entries.toolResult("toolu_p1", "x".repeat(60_000)),
    entries.assistant(250_000, ["toolu_p2"], response),
    entries.toolResult("toolu_p2", "y".repeat(60_000)),
    entries.assistant(250_000, ["toolu_p3"], response),
    entries.toolResult("toolu_p3"),
  ]);
  const env = {
    ...box.env,
    LESSONS_CONTEXT_WINDOW: String(WINDOW),
    ...CADENCE_OFF,
    LESSONS_DEBUG: "1",
    LESSONS_REINJECT_WAIT_MS: "300",
  };
  const call = payload("PostToolUse.Bash", {
    transcript_path: box.transcript,
    tool_use_id: "toolu_now",
  });
  // This call's own entry never comes: the hook waits its full time, then reads the newest.
  const result = await run(call, env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(!result.stderr.includes("not waited for"), result.stderr);
  ok(result.stderr.includes("from transcript latest"), result.stderr);
});

Deno.test("a transcript that has not caught up, the previous result's size recorded by its hook: no wait", async () => {
  const box = sandbox();
  const env = {
    ...box.env,
    LESSONS_CONTEXT_WINDOW: String(WINDOW),
    ...CADENCE_OFF,
    LESSONS_DEBUG: "1",
    LESSONS_REINJECT_WAIT_MS: String(WAIT_MS),
  };
  const at = (id: string) =>
    payload("PostToolUse.Bash", {
      transcript_path: box.transcript,
      tool_use_id: id,
      tool_response: { stdout: "x".repeat(20_000), stderr: "", interrupted: false },
    });
  // The previous call's hook ran with its entry in the file, and recorded its result's size.
  writeTranscript(box.transcript, [entries.assistant(20_000, ["toolu_prev"])]);
  const previous = await run(at("toolu_prev"), env);
  assertEquals([previous.code, previous.stdout], [0, ""]);
  // Its result is still not written when this call's hook starts: the recorded 20 KB stand in,
  // twice, with its entry's fields: under 6 % of 1M (20,000 + 0.6 × 44,206 + 10,038).
  const result = await run(at("toolu_now"), env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(result.stderr.includes("not waited for: this call's reading is at most 6%"), result.stderr);
});
