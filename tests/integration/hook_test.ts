/**
 * The real entry point as a subprocess, with captured payloads and transcripts built from real
 * lines: the PRD's verification list and the behaviour the README promises.
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  appendTranscript,
  entries,
  largeManifest,
  payload,
  runHook,
  runPausing,
  runRecorded,
  sandbox,
  sandboxSession,
  writeTranscript,
} from "../_helpers.ts";
import { assertIncludes } from "../cli/_cli.ts";

/** A window of 100,000 tokens makes tokens/1000 the percentage. */
const WINDOW = { LESSONS_CONTEXT_WINDOW: "100000" };

/** A session at `percent` whose newest entry holds call `toolUseId`; `call()` is its payload. */
function setup(percent: number, toolUseId = "toolu_1") {
  const { box, env, call, at } = sandboxSession(WINDOW, [
    entries.assistant(percent * 1000, [toolUseId]),
  ]);
  /** Appends what Claude Code writes for a next tool call at `percent`, returns its payload. */
  const next = (percent: number, id: string) => at(percent * 1000, id);
  return { box, env, call: (id = toolUseId, extra = {}) => call(id, extra), next };
}

Deno.test("PRD 1: at 31% the refresh holds the directives and the protocols", async () => {
  const { env, call } = setup(31);
  const run = await runRecorded(call(), env);
  assertEquals([run.code, run.stderr], [0, ""]);
  const parsed = JSON.parse(run.stdout);
  assertEquals(parsed.hookSpecificOutput.hookEventName, "PostToolUse");
  const text = run.context!;
  ok(text.startsWith("[lessons-reinject refresh 30 ref="), text.slice(0, 80));
  ok(text.includes("Context refresh at 31% of the 100k-token context window"));
  ok(text.includes("## Non-Negotiable Directives") && text.includes("## Active Protocols"));
  ok(text.includes("Never `git push --force`") && text.includes("run the project's tests"));
  ok(!text.includes("pytest can hang"), "guards are not restated");
  ok(!text.includes("switched off"), "disabled lessons are not restated");
});

Deno.test("PostToolUseFailure answers under its own event name", async () => {
  const { box, env } = sandboxSession(WINDOW);
  const failure = payload("PostToolUseFailure.Bash", { transcript_path: box.transcript });
  writeTranscript(box.transcript, [entries.assistant(40_000, [failure.tool_use_id as string])]);
  const run = await runRecorded(failure, env);
  assertEquals(JSON.parse(run.stdout).hookSpecificOutput.hookEventName, "PostToolUseFailure");
});

Deno.test("a compaction resets: by the SessionStart(compact) event, and by the marker alone", async (t) => {
  for (const reset of ["SessionStart.compact", "marker only"]) {
    for (const after of ["on", "off"]) {
      await t.step(`${reset}, refresh after compaction ${after}`, async () => {
        const { box, env: base, call, next } = setup(35);
        const env = { ...base, LESSONS_REINJECT_AFTER_COMPACT: after === "on" ? "1" : "0" };
        ok((await runRecorded(call(), env)).context);
        appendTranscript(box.transcript, [entries.compactBoundary()]);
        // Right after compaction there is no reading: no threshold fires, nothing is counted;
        // the rules are restated by the first tool call unless SessionStart(compact) already did.
        const ids = { session_id: call().session_id, transcript_path: box.transcript };
        const answers: [string, Record<string, unknown>][] = [["first tool call", call("toolu_x")]];
        if (reset !== "marker only") answers.unshift([reset, payload(reset, ids)]);
        const restated: string[] = [];
        for (const [who, stdin] of answers) {
          const run = await runRecorded(stdin, env);
          equal(run.code, 0);
          if (run.context === undefined) {
            equal(run.stdout, "");
            continue;
          }
          const event = JSON.parse(run.stdout).hookSpecificOutput.hookEventName;
          equal(event, who === reset ? "SessionStart" : "PostToolUse");
          ok(run.context.startsWith("[lessons-reinject refresh compact ref="), run.context);
          ok(run.context.includes("## Non-Negotiable Directives"));
          restated.push(who);
        }
        const by = reset === "marker only" ? "first tool call" : reset;
        assertEquals(restated, after === "off" ? [] : [by]);
        assertEquals((await runRecorded(next(8, "toolu_low"), env)).stdout, "");
        const again = await runRecorded(next(33, "toolu_again"), env);
        ok(
          again.context?.startsWith("[lessons-reinject refresh 30 ref="),
          `${reset}: ${again.stdout}`,
        );
      });
    }
  }
});

Deno.test("once the rules are restated after a compaction, a first reading past 30 takes what it reached as fired", async (t) => {
  // By SessionStart(compact); or by a call whose own entry is not written yet (no reading).
  for (const by of ["SessionStart.compact", "a call without a reading"]) {
    await t.step(by, async () => {
      const { box, env, call, next } = setup(35);
      ok((await runRecorded(call(), env)).context);
      appendTranscript(box.transcript, [entries.compactBoundary()]);
      const restate = by === "SessionStart.compact"
        ? payload(by, { session_id: call().session_id, transcript_path: box.transcript })
        : call("toolu_unwritten");
      const restated = await runRecorded(restate, env);
      ok(restated.context?.startsWith("[lessons-reinject refresh compact ref="), restated.stdout);
      // The new context starts at 34 %: the 30 % refresh would repeat what was just said.
      assertEquals((await runRecorded(next(34, "toolu_n1"), env)).stdout, "");
      const then = await runRecorded(next(53, "toolu_n2"), env);
      ok(then.context?.includes("refresh 52 ref="), then.stdout);
    });
  }
});

Deno.test("a 40 KB manifest: at most the budget, 9,500 characters by default, every directive at least by summary", async (t) => {
  const manifest = largeManifest(40_000);
  const lessons = Object.values(manifest.lessons as Record<string, Record<string, string>>);
  for (const [budget, least] of [["10000", 0], [undefined, 8_000]] as const) {
    await t.step(`LESSONS_REINJECT_MAX_CHARS ${budget ?? "unset"}`, async () => {
      const { box, env, call } = setup(31);
      const path = join(box.dir, "big.json");
      Deno.writeTextFileSync(path, JSON.stringify(manifest));
      ok(Deno.statSync(path).size >= 40_000);
      const max = budget === undefined ? {} : { LESSONS_REINJECT_MAX_CHARS: budget };
      const text = (await runRecorded(call(), { ...env, LESSONS_MANIFEST_PATH: path, ...max }))
        .context!;
      ok(text.length <= Number(budget ?? 9_500) && text.length > least, `${text.length}`);
      for (const { summary, message } of lessons) {
        ok(text.includes(summary!) || text.includes(message!.trim()), summary);
      }
    });
  }
});

Deno.test("malformed input: exit 0, nothing on stdout", async (t) => {
  const box = sandbox();
  const cases: [string, unknown][] = [
    ["empty", ""],
    ["whitespace", "  \n"],
    ["not JSON", "{oops"],
    ["null", "null"],
    ["an array", "[1,2]"],
    ["a number", "42"],
    ["an empty object", "{}"],
    ["no session_id", { ...payload("PostToolUse.Bash"), session_id: undefined }],
    ["empty session_id", payload("PostToolUse.Bash", { session_id: "" })],
    ["session_id not a string", payload("PostToolUse.Bash", { session_id: 7 })],
    ["binary", new Uint8Array([0, 255, 1, 254, 10, 13])],
    ["unknown event", payload("PostToolUse.Bash", { hook_event_name: "Notification" })],
    ["SessionStart startup", payload("SessionStart.startup")],
    ["SessionStart resume", payload("SessionStart.resume")],
    [
      "a missing transcript, first call",
      payload("PostToolUse.Bash", { transcript_path: "/nonexistent/x.jsonl" }),
    ],
  ];
  for (const [name, stdin] of cases) {
    await t.step(name, async () => {
      const run = await runHook(stdin, box.env);
      assertEquals([run.code, run.stdout, run.stderr], [0, "", ""]);
    });
  }
});

Deno.test("a subagent's calls keep their own state and never read the main transcript", async () => {
  const { box, env, call } = setup(35);
  // The main transcript is at 35%; the subagent has no transcript of its own here.
  const sub = call("toolu_sub", { agent_id: "a1b2c3", agent_type: "general-purpose" });
  const subRun = await runRecorded(sub, { ...env, LESSONS_DEBUG: "1" });
  assertEquals(subRun.stdout, "");
  ok(subRun.stderr.includes("(subagent)"), subRun.stderr);
  // Only the subagent's own state file exists: lessons-<session hash>-<agent hash>-reinject.json.
  const names = () =>
    [...Deno.readDirSync(box.stateDir)].map((e) => e.name).filter((n) => n.endsWith(".json"));
  const own = /^lessons-[0-9a-f]{16}-[0-9a-f]{16}-reinject\.json$/;
  assertEquals(names().map((n) => own.test(n)), [true]);
  ok((await runRecorded(call(), env)).context?.includes("refresh 30 ref="));
  assertEquals(names().length, 2);
});

/** Runs `stdin` with a long wait, and calls `late` while the hook waits for the transcript. */
const writtenLate = (stdin: unknown, env: Record<string, string>, dir: string, late: () => void) =>
  runPausing(stdin, { ...env, LESSONS_REINJECT_WAIT_MS: "10000", LESSONS_DEBUG: "1" }, dir, late);

Deno.test("a subagent's first call waits for its own transcript, which Claude Code creates late", async () => {
  // Claude Code creates a subagent's file asynchronously: its first PostToolUse can start before
  // the file exists (seen in the e2e subagent scenario). The call waits for it, as for an entry.
  const { box, env, call } = setup(10);
  const file = join(box.transcript.replace(/\.jsonl$/, ""), "subagents", "agent-a1late.jsonl");
  const sub = call("toolu_sub1", { agent_id: "a1late", agent_type: "general-purpose" });
  const run = await writtenLate(sub, env, box.dir, () => {
    Deno.mkdirSync(join(file, ".."), { recursive: true });
    writeTranscript(file, [entries.assistant(40_000, ["toolu_sub1"], { isSidechain: true })]);
  });
  ok(run.context?.includes("refresh 30 ref="), run.stderr);
  ok(run.stderr.includes("(subagent)") && run.stderr.includes("tool_use match"), run.stderr);
});

Deno.test("a session's first call waits for its transcript, created late; later calls do not", async () => {
  // 2.1.120 under load created the session's file after its first PostToolUse hook started.
  const { box, env, call } = setup(10);
  Deno.removeSync(box.transcript);
  const first = await writtenLate(call("toolu_first"), env, box.dir, () => {
    writeTranscript(box.transcript, [entries.assistant(31_000, ["toolu_first"])]);
  });
  ok(first.context?.includes("refresh 30 ref="), first.stderr);
  ok(/waited \d+ ms for its entry/.test(first.stderr), first.stderr);
  // With the context's state written, a missing file is not waited for: it will not appear.
  Deno.removeSync(box.transcript);
  const slow = { ...env, LESSONS_REINJECT_WAIT_MS: "10000", LESSONS_DEBUG: "1" };
  const later = await runRecorded(call("toolu_later"), slow);
  ok(later.stderr.includes("No such file") && !later.stderr.includes("waited"), later.stderr);
});

Deno.test("invalid thresholds: one stderr line naming the problem and the values used", async () => {
  // The same rule as in the config file: a list with a bad entry is not used at all.
  const { env, call } = setup(31);
  const run = await runRecorded(call(), { ...env, LESSONS_REINJECT_THRESHOLDS: "20,abc,150" });
  assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
  assertIncludes(
    run.stderr,
    'LESSONS_REINJECT_THRESHOLDS="20,abc,150": expected a non-empty list of thresholds, ' +
      "each a percentage from 1 to 99 (30 or 30%) or a token count from 1,000 to 100,000,000 " +
      '(60k, 1.5M or 120000), e.g. 30,52,70 or 20k,60k,52 ("abc": not a number; "150": ' +
      "ambiguous: as a percentage it is over 99, as tokens under 1,000; write 99% or less, " +
      "or 150k tokens); using the default, 30,52,70",
  );
  ok(run.context?.includes("refresh 30 ref="), "the defaults are used");
});

Deno.test("LESSONS_DEBUG=1 prints one decision line per call", async () => {
  const { env, call } = setup(31);
  const run = await runRecorded(call(), { ...env, LESSONS_DEBUG: "1" });
  const lines = run.stderr.trim().split("\n");
  assertEquals(lines.length, 1);
  ok(
    /PostToolUse Bash: fired: 31% of 100000 .* from transcript tool_use match → 31% crossed 30; compaction at 67000 \(the 100,000-token window\); \d+ chars/
      .test(lines[0]!),
    lines[0],
  );
  const quiet = await runRecorded(call(), { ...env, LESSONS_DEBUG: "1" });
  ok(quiet.stderr.includes("nothing: 31%"), quiet.stderr);
});

Deno.test("10 concurrent first calls after a compaction restate the rules exactly once", async () => {
  const { box, env, call } = setup(35);
  ok((await runRecorded(call(), env)).context);
  // The marker alone (no SessionStart(compact)): the next tool call restates.
  appendTranscript(box.transcript, [entries.compactBoundary()]);
  const calls = Array.from({ length: 10 }, (_, i) => `toolu_after${i}`);
  appendTranscript(box.transcript, [entries.assistant(12_000, calls, { messageId: "msg_after" })]);
  const runs = await Promise.all(calls.map((id) => runRecorded(call(id), env)));
  const restated = runs.filter((r) => r.context?.startsWith("[lessons-reinject refresh compact"));
  assertEquals([restated.length, runs.filter((r) => r.context).length], [1, 1]);
});
