/**
 * LESSONS_REINJECT_REARM_DEDUP through the real entry point: a refresh at a chosen threshold
 * forgets what the lessons-learned PreToolUse hook recorded as seen this session (the files its
 * hooks/lib/dedup.mjs writes in the temp folder), and nothing else; off by default.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../src/core/sha256.ts";
import { entries, runHook, sandboxSession, writeTranscript } from "../_helpers.ts";

const GUARD = "pytest-tty-hang-k1l2"; // a Bash guard of the sample manifest
const FOREIGN = "not-a-lesson-of-this-manifest";

/** A session at `percent` % with lessons-learned's dedup files in the sandbox's TMPDIR. */
function setup(percent: number) {
  const { box, env, call: payloadOf } = sandboxSession(
    { LESSONS_CONTEXT_WINDOW: "100000", LESSONS_DEBUG: "1" },
    [entries.assistant(percent * 1000, ["toolu_1"])],
  );
  const call = payloadOf("toolu_1");
  const hash = sha256Hex(String(call.session_id)).slice(0, 16);
  const seenFile = join(box.dir, `lessons-${hash}-seen.txt`);
  const claimDir = join(box.dir, `lessons-${hash}-seen.d`);
  Deno.writeTextFileSync(seenFile, `${GUARD},${FOREIGN}`);
  Deno.mkdirSync(claimDir);
  for (const slug of [GUARD, FOREIGN]) Deno.writeTextFileSync(join(claimDir, slug), "");
  const left = () => ({
    seenFile: existsSync(seenFile),
    claims: [...Deno.readDirSync(claimDir)].map((e) => e.name).sort(),
  });
  return { env, call, left };
}

const untouched = { seenFile: true, claims: [FOREIGN, GUARD].sort() };

Deno.test("a refresh re-arms the session's lessons-learned dedup at a chosen threshold only; off by default", async (t) => {
  const rearm = (at: string) => ({ LESSONS_REINJECT_REARM_DEDUP: at });
  const cases: [string, number, Record<string, string>, boolean][] = [
    ["at 30", 31, rearm("30"), true],
    ["at 70, in a refresh of 30, 52 and 70 at once", 75, rearm("70"), true],
    ["unset", 31, {}, false],
    ["off", 31, rearm("off"), false],
    ["another threshold", 31, rearm("52,70"), false],
    ["at 30, but no refresh: a call below it", 12, rearm("30"), false],
  ];
  for (const [name, percent, extra, rearms] of cases) {
    await t.step(name, async () => {
      const { env, call, left } = setup(percent);
      const run = await runHook(call, { ...env, ...extra });
      assertEquals(run.code, 0, run.stderr);
      if (percent < 30) assertEquals(run.context, undefined);
      else ok(run.context?.startsWith("[lessons-reinject refresh 30"), run.stderr);
      if (!rearms) {
        assertEquals(left(), untouched, run.stderr);
        ok(!run.stderr.includes("re-armed"), run.stderr);
        return;
      }
      assertEquals(left(), { seenFile: false, claims: [FOREIGN] });
      const said = "; re-armed lessons-learned: 1 lesson can fire again, seen file removed";
      ok(run.stderr.includes(said), run.stderr);
    });
  }
});

Deno.test("a subagent's refresh never re-arms the session's dedup, which the main thread shares", async () => {
  const { env, call, left } = setup(12);
  // The subagent's own transcript, where Claude Code 2.1.328 writes it, at 31 %.
  const transcript = String(call.transcript_path);
  const own = join(transcript.replace(/\.jsonl$/, ""), "subagents", "agent-a1.jsonl");
  Deno.mkdirSync(join(own, ".."), { recursive: true });
  writeTranscript(own, [entries.assistant(31_000, ["toolu_1"], { isSidechain: true })]);
  const sub = { ...call, agent_id: "a1", agent_type: "general-purpose" };
  const run = await runHook(sub, { ...env, LESSONS_REINJECT_REARM_DEDUP: "30" });
  assertEquals(run.code, 0, run.stderr);
  ok(
    run.context?.includes("[lessons-reinject refresh 30 "),
    `the subagent did not fire: ${run.stderr}`,
  );
  assertEquals(left(), untouched, run.stderr);
});
