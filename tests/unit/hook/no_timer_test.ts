/**
 * A call that waits for its own transcript entry pauses without a timer: a process's first
 * `setTimeout` costs far more than the pause it asks for (docs/maintainers/benchmarks.md). Run with
 * `setTimeout` replaced by one that throws (a `--preload` script), a call whose entry never comes
 * waits out its time and then decides from the newest reading.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  entries,
  HOOK_PERMISSIONS,
  MAIN,
  payload,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../../_helpers.ts";

const STUB_MESSAGE = "a timer was used";

Deno.test("a call waiting for its own entry pauses without a timer, then decides", async () => {
  const box = sandbox();
  const preload = join(box.dir, "no_timer.js");
  Deno.writeTextFileSync(
    preload,
    // clearTimeout too: touching either loads Deno's Node timers.
    ["setTimeout", "clearTimeout"].map((name) =>
      `globalThis.${name} = () => { throw new Error(${JSON.stringify(STUB_MESSAGE)}); };\n`
    ).join(""),
  );
  // The newest reading is 62 % of 100k, written for an earlier call; this call's entry is not
  // written yet, so the call waits for it (30 % and 52 % are within the ceiling's reach).
  writeTranscript(box.transcript, [entries.assistant(62_000, ["toolu_earlier"])]);
  const started = performance.now();
  const result = await spawnWithStdin(
    Deno.execPath(),
    ["run", "--quiet", "--no-prompt", "--preload", preload, ...HOOK_PERMISSIONS, MAIN],
    payload("PostToolUse.Bash", { transcript_path: box.transcript, tool_use_id: "toolu_late" }),
    {
      ...box.env,
      LESSONS_CONTEXT_WINDOW: "100000",
      LESSONS_REINJECT_WAIT_MS: "120",
      LESSONS_DEBUG: "1",
    },
  );
  assertEquals(result.code, 0);
  assert(!result.stderr.includes(STUB_MESSAGE), result.stderr);
  assert(!result.stderr.includes("not waited for"), result.stderr);
  const text = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
  assert(text.startsWith("[lessons-reinject refresh 30,52 "), text);
  // It did wait: the whole call took at least the wait it was given.
  assert(performance.now() - started >= 120);
});
