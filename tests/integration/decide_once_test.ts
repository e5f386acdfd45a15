/**
 * One call's decision is computed once. The real entry point runs under V8's precise coverage,
 * which counts every call of every function, and the counts of core/decide.ts `decideToolCall`
 * and `decideReset` are read back for a call that fires, a call that stays silent and a reset.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  entries,
  HOOK_PERMISSIONS,
  MAIN,
  payload,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../_helpers.ts";

interface FunctionCoverage {
  functionName: string;
  ranges: { count: number }[];
}

/** How many times each entry of core/decide.ts ran in one hook process on `stdin`. */
async function decideCalls(stdin: unknown, env: Record<string, string>, dir: string) {
  const coverage = join(dir, `coverage-${crypto.randomUUID()}`);
  const run = await spawnWithStdin(
    Deno.execPath(),
    ["run", "--quiet", "--no-prompt", ...HOOK_PERMISSIONS, `--coverage=${coverage}`, MAIN],
    stdin,
    env,
  );
  equal(run.code, 0, run.stderr);
  const calls: Record<string, number> = {};
  for (const file of Deno.readDirSync(coverage)) {
    const script = JSON.parse(Deno.readTextFileSync(join(coverage, file.name)));
    if (!String(script.url).endsWith("/src/core/decide.ts")) continue;
    for (const name of ["decideToolCall", "decideReset"]) {
      const entry = (script.functions as FunctionCoverage[]).find((f) => f.functionName === name);
      calls[name] = entry?.ranges[0]?.count ?? 0;
    }
  }
  return { run, calls };
}

Deno.test("one call's decision is computed once", async (t) => {
  const box = sandbox();
  const env = { ...box.env, LESSONS_CONTEXT_WINDOW: "100000" };
  const call = (id: string) =>
    payload("PostToolUse.Bash", {
      session_id: "decide-once",
      transcript_path: box.transcript,
      tool_use_id: id,
    });
  await t.step("a call that fires", async () => {
    writeTranscript(box.transcript, [entries.assistant(35_000, ["toolu_a"])]);
    const { run, calls } = await decideCalls(call("toolu_a"), env, box.dir);
    ok(run.stdout.includes("refresh 30"), run.stdout);
    deepEqual(calls, { decideToolCall: 1, decideReset: 0 });
  });
  await t.step("a call that stays silent", async () => {
    writeTranscript(box.transcript, [entries.assistant(36_000, ["toolu_b"])]);
    const { run, calls } = await decideCalls(call("toolu_b"), env, box.dir);
    equal(run.stdout, "");
    deepEqual(calls, { decideToolCall: 1, decideReset: 0 });
  });
  await t.step("a reset (SessionStart compact)", async () => {
    const reset = payload("SessionStart.compact", {
      session_id: "decide-once",
      transcript_path: box.transcript,
    });
    const { run, calls } = await decideCalls(reset, env, box.dir);
    ok(run.stdout.includes("refresh compact"), run.stdout);
    deepEqual(calls, { decideToolCall: 0, decideReset: 1 });
  });
});
