/** runHook() in-process: failures to record state end the call quietly, with the reason. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runHook } from "../../../src/hook.ts";
import { resolveSettings } from "../../../src/settings/resolve.ts";
import { statePaths } from "../../../src/io/state_store.ts";
import { entries, payload, sandbox, writeTranscript } from "../../_helpers.ts";

Deno.test("runHook() never throws when the state cannot be recorded", async (t) => {
  const box = sandbox();
  Deno.mkdirSync(box.stateDir, { recursive: true, mode: 0o700 });
  writeTranscript(box.transcript, [entries.assistant(31_000, ["toolu_1"])]);
  const call = payload("PostToolUse.Bash", { transcript_path: box.transcript });
  const env = { ...box.env, LESSONS_CONTEXT_WINDOW: "100000", LESSONS_DEBUG: "1" };
  const settings = resolveSettings((n) => env[n as keyof typeof env]);
  // A folder where the lock file should be: taking the lock fails.
  const paths = await statePaths(box.stateDir, String(call.session_id));
  Deno.mkdirSync(paths.lock);
  await t.step("a tool call", async () => {
    const out = await runHook(JSON.stringify(call), settings);
    assertEquals(out.stdout, undefined);
    ok(
      out.stderr.some((l) => l.includes("nothing: cannot record the decision: lock")),
      out.stderr.join("\n"),
    );
  });
  await t.step("a reset", async () => {
    const reset = payload("SessionStart.compact", { session_id: call.session_id });
    const out = await runHook(JSON.stringify(reset), settings);
    assertEquals(out.stdout, undefined);
    ok(out.stderr.some((l) => l.includes("cannot reset: lock")), out.stderr.join("\n"));
  });
});
