/**
 * The hook answers at once when a ceiling rules a crossing out, and waits for this call's own
 * transcript entry when it does not: the real entry point as a subprocess, with the entry written
 * late as Claude Code writes it, while the hook waits for it (runPausing).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  appendTranscript,
  contextOf,
  entries,
  type HookRun,
  recordAnswer,
  runHook,
  runPausing,
  sandboxSession,
} from "../_helpers.ts";

/**
 * A 1M session (cadence off: percentages of the whole window) whose transcript holds `lines`;
 * `call(id)` is a tool call's payload. Whether a call waited is read from its debug line ("not
 * waited for"), never from a clock.
 */
function session(lines: unknown[], waitMs = "4000") {
  const { box, env, call } = sandboxSession({
    LESSONS_CONTEXT_WINDOW: "1000000",
    LESSONS_REINJECT_CADENCE: "off",
    LESSONS_DEBUG: "1",
    LESSONS_REINJECT_WAIT_MS: waitMs,
  }, lines);
  return { box, env, call: (id = "toolu_now", extra = {}) => call(id, extra) };
}

/** A session whose newest entry is the previous response's, at `tokens`. */
const setup = (tokens: number) =>
  session([entries.assistant(tokens, ["toolu_prev"]), entries.toolResult("toolu_prev")]);

/** A setting the hook refused would test its default instead. */
function checked(run: HookRun): HookRun {
  ok(!run.stderr.includes("using the default"), run.stderr);
  return run;
}

const run = async (stdin: unknown, env: Record<string, string>) =>
  checked(await runHook(stdin, env));

/** Runs `stdin`, and appends `late` to the transcript once the hook waits for its entry. */
async function writtenLate(
  box: { dir: string; transcript: string },
  stdin: unknown,
  env: Record<string, string>,
  late: unknown[],
) {
  const result = checked(
    await runPausing(stdin, env, box.dir, () => appendTranscript(box.transcript, late)),
  );
  assertEquals(result.code, 0, result.stderr);
  ok(/\(waited \d+ ms for its entry\)/.test(result.stderr), result.stderr);
  return result;
}

Deno.test("far below the next threshold the hook answers without waiting for its entry", async () => {
  const { env, call } = setup(20_000); // 2 % of 1M: about 3 % with the margin
  const result = await run(call(), env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(result.stderr.includes("not waited for: this call's reading is at most"), result.stderr);
  ok(result.stderr.includes("below the next threshold, 30%"), result.stderr);
});

Deno.test("near a threshold the hook waits for its entry and fires on this call", async () => {
  const { box, env, call } = setup(290_000); // 29 %: this call's response may cross 30
  // Claude Code writes this call's assistant entry after the hook has started.
  const result = await writtenLate(box, call(), env, [entries.assistant(310_000, ["toolu_now"])]);
  ok(result.stdout.includes("[lessons-reinject refresh 30 "), result.stderr);
  ok(result.stderr.includes("from transcript tool_use match"), result.stderr);
  ok(!result.stderr.includes("not waited for"), result.stderr);
});

/**
 * A session (`setup`) at `tokens` whose state folder exists; `recorded` runs a call at `tokens`
 * and records its answer. `cadence`: the default cadence (every 40k past 140k on 1M), with
 * which a call at 150,000 tokens fires 30, 52 and 70.
 */
function recording(tokens: number, cadence = false) {
  const { box, env: offEnv, call } = setup(tokens);
  const env = cadence ? { ...offEnv, LESSONS_REINJECT_CADENCE: "" } : offEnv;
  Deno.mkdirSync(box.stateDir, { recursive: true, mode: 0o700 });
  const recorded = async (id: string, tokens: number) => {
    appendTranscript(box.transcript, [entries.assistant(tokens, [id])]);
    const result = await run(call(id), env);
    recordAnswer(call(id), contextOf(result.stdout));
    return result;
  };
  return { box, env, call, recorded };
}

Deno.test("on 1M with the default cadence, a call that waits for its entry (a result of unknown size) fires 180k on it", async () => {
  const { box, env, call, recorded } = recording(100_000, true);
  const fired = await recorded("toolu_first", 150_000);
  ok(fired.stdout.includes("refresh 30,52,70 "), fired.stderr);
  // A response at 175,000 whose result no hook recorded: this call cannot rule a crossing out.
  appendTranscript(box.transcript, [entries.assistant(175_000, ["toolu_prev2"])]);
  const late = [entries.assistant(182_000, ["toolu_now"])];
  const result = await writtenLate(box, call("toolu_now"), env, late);
  ok(result.stdout.includes("[lessons-reinject refresh 180k "), result.stderr);
  ok(result.stdout.includes("at 182,000 tokens (18% of the 1M-token"), result.stdout);
});

Deno.test("on 1M a call within reach of only a cadence point does not wait: 180k comes a call later", async () => {
  const { box, env, call, recorded } = recording(100_000, true);
  // 30, 52 and 70 fire at 150,000; a call at 175,000 records its result's size.
  ok((await recorded("toolu_c1", 150_000)).stdout.includes("refresh 30,52,70 "));
  await recorded("toolu_c2", 175_000);
  // This call's entry (182,000) is not written yet: its ceiling reaches 180k, a cadence point.
  const now = await run(call("toolu_c3"), env);
  assertEquals([now.code, now.stdout], [0, ""]);
  ok(now.stderr.includes("(not waited for: "), now.stderr);
  appendTranscript(box.transcript, [entries.assistant(182_000, ["toolu_c3"])]);
  recordAnswer(call("toolu_c3"), undefined);
  const next = await recorded("toolu_c4", 184_000);
  ok(next.stdout.includes("[lessons-reinject refresh 180k "), next.stderr);
});

Deno.test("a transcript that has not caught up: the hook waits, though far below, and fires on this call", async () => {
  // The previous response's result is not in the file yet (Claude Code writes in batches, after
  // the hook starts): the bytes that carry the growth are missing, so no ceiling holds.
  const { box, env, call } = session([entries.assistant(20_000, ["toolu_prev"])]);
  // Then it all arrives: the big result that carried the context past 30 %, and this entry.
  const result = await writtenLate(box, call(), env, [
    entries.toolResult("toolu_prev", "x".repeat(50_000)),
    entries.assistant(310_000, ["toolu_now"]),
  ]);
  ok(result.stdout.includes("[lessons-reinject refresh 30 "), result.stderr);
});

Deno.test("every threshold fired: no wait at all", async () => {
  const { env, call, recorded } = recording(800_000);
  // Fire 30, 52 and 70 on a first call whose entry is there; Claude Code records the delivery
  // before the next call: no receipt is left to wait for.
  const fired = await recorded("toolu_first", 800_000);
  ok(fired.stdout.includes("refresh 30,52,70 "), fired.stderr);
  const result = await run(call(), env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(result.stderr.includes("every threshold has fired"), result.stderr);
  ok(result.stderr.includes("(not waited for: "), result.stderr);
});

Deno.test("results written between the previous response's entries count: the hook waits", async () => {
  // As real 2.1.112 wrote parallel Reads (shared v2.1.112, lines 6-16): the results of the first
  // calls between the entries of one streamed response. Counted only after its last entry, the
  // bytes gave a ceiling (25 % + 1 KB + margin) below 30 %: the call answered without waiting,
  // and a crossing in its own reading came one call late. 120 KB of results carry 72,000 tokens.
  const response = { messageId: "msg_parallel" };
  const { env, call } = session([
    entries.assistant(250_000, ["toolu_p1"], response),
    entries.toolResult("toolu_p1", "x".repeat(60_000)),
    entries.assistant(250_000, ["toolu_p2"], response),
    entries.toolResult("toolu_p2", "y".repeat(60_000)),
    entries.assistant(250_000, ["toolu_p3"], response),
    entries.toolResult("toolu_p3"),
  ], "300");
  // This call's own entry never comes: the hook waits its full time, then reads the newest.
  const result = await run(call(), env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(!result.stderr.includes("not waited for"), result.stderr);
  ok(result.stderr.includes("from transcript latest"), result.stderr);
});

Deno.test("a transcript that has not caught up, the previous result's size recorded by its hook: no wait", async () => {
  // The previous call's hook ran with its entry in the file, and recorded its result's size.
  const { env, call } = session([entries.assistant(20_000, ["toolu_prev"])]);
  const response = {
    tool_response: { stdout: "x".repeat(20_000), stderr: "", interrupted: false },
  };
  const previous = await run(call("toolu_prev", response), env);
  assertEquals([previous.code, previous.stdout], [0, ""]);
  // Its result is still not written when this call's hook starts: the recorded 20 KB stand in,
  // twice, with its entry's fields: under 6 % of 1M (20,000 + 0.6 × 44,206 + 10,038).
  const result = await run(call("toolu_now", response), env);
  assertEquals([result.code, result.stdout], [0, ""]);
  ok(result.stderr.includes("not waited for: this call's reading is at most 6%"), result.stderr);
});
