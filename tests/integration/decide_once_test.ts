/**
 * One call's decision is computed once. The real entry point runs under V8's precise coverage,
 * which counts every call of every function, and the counts of core/decide.ts `decideToolCall`
 * and `decideReset` are read back for a call that fires, a call that stays silent and a reset.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { HOOK_PERMISSIONS, MAIN, payload, sandboxSession, spawnWithStdin } from "../_helpers.ts";

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
  const ids = { session_id: "decide-once" };
  const { box, env, at } = sandboxSession({ LESSONS_CONTEXT_WINDOW: "100000" });
  const steps: [string, () => Record<string, unknown>, string, Record<string, number>][] = [
    ["a call that fires", () => at(35_000, "toolu_a", ids), "refresh 30", { decideToolCall: 1 }],
    ["a call that stays silent", () => at(36_000, "toolu_b", ids), "", { decideToolCall: 1 }],
    [
      "a reset (SessionStart compact)",
      () => payload("SessionStart.compact", { ...ids, transcript_path: box.transcript }),
      "refresh compact",
      { decideReset: 1 },
    ],
  ];
  for (const [name, stdin, says, counts] of steps) {
    await t.step(name, async () => {
      const { run, calls } = await decideCalls(stdin(), env, box.dir);
      if (says === "") equal(run.stdout, "");
      else ok(run.stdout.includes(says), run.stdout);
      deepEqual(calls, { decideToolCall: 0, decideReset: 0, ...counts });
    });
  }
});
