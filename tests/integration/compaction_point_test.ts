/**
 * The real entry point with Claude Code's auto-compaction settings: where the thresholds fall
 * when it compacts early, token thresholds, the settings files read again when they change and
 * after a compaction, and the debug line naming the compaction point and where it came from.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  appendTranscript,
  entries,
  onPath,
  payload,
  runHook,
  sandboxSession,
  underStrace,
} from "../_helpers.ts";
import { assertIncludes } from "../cli/_cli.ts";

/** A sandbox whose project folder holds `.claude/settings.json` with `settings`. */
function project(settings: Record<string, unknown>) {
  const { box, env: sandboxEnv, call } = sandboxSession();
  const dir = join(box.dir, "project");
  Deno.mkdirSync(join(dir, ".claude"), { recursive: true });
  const file = join(dir, ".claude", "settings.json");
  Deno.writeTextFileSync(file, JSON.stringify(settings));
  const env = { ...sandboxEnv, HOME: box.dir, CLAUDE_PROJECT_DIR: dir, LESSONS_DEBUG: "1" };
  const at = (tokens: number, id: string) => {
    appendTranscript(box.transcript, [
      entries.assistant(tokens, [id], { model: "claude-sonnet-4-6" }),
    ]);
    return call(id, { cwd: dir });
  };
  return { box, dir, file, env, at };
}

Deno.test("the project's autoCompactWindow: percentages before its compaction, read again when it changes", async () => {
  const { box, file, env, at } = project({ autoCompactWindow: 120_000 });
  // 120,000 compacts at 87,000: 30/52/70 % of 119,142 tokens (70 % lands at 83,400).
  const first = await runHook(at(38_000, "toolu_1"), env);
  ok(first.context?.startsWith("[lessons-reinject refresh 30 ref="), first.stderr);
  ok(
    first.context?.includes(
      "Context refresh at 31% of the 119k tokens measured before auto-compaction (38,000 tokens " +
        "of the 200k-token context window)",
    ),
    first.context,
  );
  ok(first.stderr.includes("compaction at 87000 (autoCompactWindow 120000 in "), first.stderr);
  ok(first.stderr.includes("percentages measured against 119142 tokens"), first.stderr);

  // Claude Code re-reads its settings mid-session (2.1.329), and so does the hook, on the next
  // call: 400,000 is capped to the model's 200k, so the span is 200k, 30 % of it 60,000, and the
  // 30 % refresh made under the smaller span no longer counts.
  Deno.writeTextFileSync(file, JSON.stringify({ autoCompactWindow: 400_000 }));
  const second = await runHook(at(63_000, "toolu_2"), env);
  ok(second.context?.startsWith("[lessons-reinject refresh 30 ref="), second.stderr);
  ok(second.stderr.includes("compaction at 167000 (autoCompactWindow 400000 in "), second.stderr);

  // A compaction ends the context: the files are read again for the next one.
  appendTranscript(box.transcript, [entries.compactBoundary()]);
  const reset = await runHook(
    payload("SessionStart.compact", {
      transcript_path: box.transcript,
      cwd: env.CLAUDE_PROJECT_DIR,
    }),
    env,
  );
  ok(reset.context?.includes("refresh compact"), reset.stderr);
  const third = await runHook(at(38_000, "toolu_3"), env);
  ok(third.stderr.includes("compaction at 167000 (autoCompactWindow 400000 in "), third.stderr);
  ok(third.stderr.includes("(capped to the model's 200,000)"), third.stderr);
  // 38,000 is 19 % of 200k: no threshold. (The restatement may be sent again: this synthetic
  // transcript holds no record of SessionStart's answer, so its receipt is owed.)
  ok(!third.context?.startsWith("[lessons-reinject refresh 30"), third.context);
});

Deno.test("CLAUDE_CODE_AUTO_COMPACT_WINDOW beats the settings; auto-compaction off is the whole window", async (t) => {
  await t.step("the environment first", async () => {
    const { env, at } = project({ autoCompactWindow: 120_000 });
    const run = await runHook(at(20_000, "toolu_e"), {
      ...env,
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100k",
    });
    assertIncludes(run.stderr, "compaction at 67000 (CLAUDE_CODE_AUTO_COMPACT_WINDOW=100k");
  });
  await t.step("DISABLE_AUTO_COMPACT: no compaction point, percentages of 200k", async () => {
    const { env, at } = project({ autoCompactWindow: 120_000 });
    const run = await runHook(at(38_000, "toolu_d"), { ...env, DISABLE_AUTO_COMPACT: "1" });
    ok(run.stderr.includes("no auto-compaction (DISABLE_AUTO_COMPACT is set)"), run.stderr);
    assertEquals(run.context, undefined);
  });
  await t.step("autoCompactEnabled: false in the user's settings", async () => {
    const { box, env, at } = project({});
    Deno.mkdirSync(join(box.dir, ".claude"), { recursive: true });
    Deno.writeTextFileSync(
      join(box.dir, ".claude", "settings.json"),
      JSON.stringify({ autoCompactEnabled: false }),
    );
    const run = await runHook(at(38_000, "toolu_u"), env);
    ok(run.stderr.includes("no auto-compaction (autoCompactEnabled is false in "), run.stderr);
  });
});

/** The paths `MAIN_COMMAND`'s process opened (openat), and those it only stat'ed, under strace. */
async function tracedOpens(stdin: unknown, env: Record<string, string>) {
  const { run, lines } = await underStrace(
    ["-e", "trace=openat,statx,newfstatat,stat"],
    stdin,
    env,
  );
  const opened: string[] = [];
  const statted: string[] = [];
  for (const line of lines) {
    const path = /"([^"]*)"/.exec(line)?.[1];
    if (path === undefined) continue;
    (/\bopenat\(/.test(line) ? opened : statted).push(path);
  }
  return { run, opened, statted };
}

Deno.test({
  name: "a steady call only stats Claude Code's settings files; a changed one is read again",
  // CI installs strace (.ci/run) and fails a test that lacks it.
  ignore: Deno.build.os !== "linux" ||
    (!onPath("strace") && Deno.env.get("CI") !== "true"),
  async fn() {
    const { box, file, env, at } = project({ autoCompactWindow: 120_000 });
    const user = join(box.dir, ".claude", "settings.json");
    Deno.mkdirSync(join(user, ".."), { recursive: true });
    Deno.writeTextFileSync(user, "{}");
    const settings = (paths: string[]) => paths.filter((p) => p === file || p === user);
    // A context's first call reads them.
    const first = await tracedOpens(at(20_000, "toolu_s1"), env);
    assertEquals(first.run.code, 0, first.run.stderr);
    assertEquals(settings(first.opened).sort(), [file, user].sort());
    // Then each call stats them and opens none.
    const steady = await tracedOpens(at(21_000, "toolu_s2"), env);
    assertEquals(settings(steady.opened), []);
    assertEquals([...new Set(settings(steady.statted))].sort(), [file, user].sort());
    // When one changed (its size here), the next call reads them again.
    Deno.writeTextFileSync(file, JSON.stringify({ autoCompactWindow: 400_000 }));
    const changed = await tracedOpens(at(22_000, "toolu_s3"), env);
    assertEquals(settings(changed.opened).sort(), [file, user].sort());
    ok(changed.run.stderr.includes("autoCompactWindow 400000"), changed.run.stderr);
  },
});
