import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { StatusJsonSchema, StatuslineJsonSchema } from "../../src/cli/schemas.ts";
import { failed } from "../../src/core/result.ts";
import { recordFromStatusline } from "../../src/io/statusline_store.ts";
import { isFresh } from "../../src/core/reading.ts";
import type { StatuslineRecord } from "../../src/schemas/statusline.ts";
import { STATUSLINE_MAX_AGE_MS } from "../../src/core/claude_code.ts";
import { appendTranscript, entries, payload, runHook, writeTranscript } from "../_helpers.ts";
import { assertIncludes, cli, cliJson, home, sandbox, statuslineInput } from "./_cli.ts";

Deno.test("recordFromStatusline() takes the exact figure from current_usage", () => {
  const made = recordFromStatusline(statuslineInput(), 1000, 42);
  assert(!failed(made));
  const { tokens, window, percent, model, transcriptSize } = made;
  assertEquals(
    [tokens, window, percent, model, transcriptSize],
    [64_000, 200_000, 32, "claude-sonnet-4-6", 42],
  );
  const early = recordFromStatusline(
    statuslineInput({
      context_window: { context_window_size: 200_000, current_usage: null, used_percentage: null },
    }),
    1000,
    undefined,
  );
  assert(failed(early));
});

Deno.test("isFresh(): at most 60 s old and newer than the transcript's last usage", () => {
  const record: StatuslineRecord = {
    sessionId: "s",
    recordedAt: 100_000,
    percent: 40,
    transcriptSize: 500,
  };
  assert(isFresh(record, 100_000 + STATUSLINE_MAX_AGE_MS, { offset: 400 }));
  assert(!isFresh(record, 100_001 + STATUSLINE_MAX_AGE_MS, { offset: 400 }));
  assert(!isFresh(record, 100_000, { offset: 500 }));
  const noSize: StatuslineRecord = { sessionId: "s", recordedAt: 100_000, percent: 40 };
  assert(isFresh(noSize, 100_000, { offset: 9, timestamp: new Date(99_000).toISOString() }));
  assert(!isFresh(noSize, 100_000, { offset: 9, timestamp: new Date(100_500).toISOString() }));
});

Deno.test("statusline prints a compact gauge (--pass: stdin unchanged), records, exits 0 on any input", async () => {
  const box = sandbox();
  // --pass echoes stdin unchanged, and records the reading all the same.
  const text = JSON.stringify(statuslineInput(), null, 3) + "\n";
  const passed = await cli(["statusline", "--pass"], box.env, text);
  assertEquals([passed.code, passed.stdout], [0, text]);
  assertEquals([...Deno.readDirSync(box.stateDir)].length, 1);
  const run = await cli(["statusline"], box.env, statuslineInput());
  assertEquals(run.code, 0);
  assertEquals(run.stdout, "[######|....|....|......] 32% of 200k · refresh due (30%)\n");
  const reasons: Record<string, string> = { "": "stdin is empty", "not json": "stdin is not JSON" };
  for (const junk of ["", "not json", "[]", '{"session_id":"x"}']) {
    const bad = await cli(["statusline"], box.env, junk);
    assertEquals(bad.code, 0);
    // The reason shows on the line itself, not only with --json.
    assert(bad.stdout.startsWith("lessons-reinject: no context reading ("), bad.stdout);
    if (reasons[junk]) {
      assertEquals(bad.stdout, `lessons-reinject: no context reading (${reasons[junk]})\n`);
    }
    const json = await cliJson(StatuslineJsonSchema, ["statusline"], box.env, junk);
    assertEquals(json.recorded, false);
  }
  // At startup Claude Code sends nulls until the first reply: said once, plainly.
  const start = statuslineInput({
    context_window: { context_window_size: 200_000, current_usage: null, used_percentage: null },
  });
  const early = await cli(["statusline"], box.env, start);
  assertEquals(early.stdout, "lessons-reinject: no context reading yet\n");
  const earlyJson = await cliJson(StatuslineJsonSchema, ["statusline"], box.env, start);
  assertEquals(earlyJson.error, "used_percentage is null (before the session's first reply)");
});

Deno.test("statusline round-trip: the hook then uses the fresh reading, not a stale one", async () => {
  const box = home();
  const env = { ...box.env, LESSONS_DEBUG: "1" };
  // The transcript says 20 % (an older turn); the statusline, run after it, says 32 % of 200k.
  const line = entries.assistant(40_000, ["toolu_s1"], { model: "claude-sonnet-4-6" });
  writeTranscript(box.transcript, [line]);
  const pair = { session_id: String(line.sessionId), transcript_path: box.transcript };
  const input = statuslineInput(pair);
  const recorded = await cliJson(StatuslineJsonSchema, ["statusline"], env, input);
  assert(recorded.recorded, recorded.error ?? "");
  assertEquals(recorded.tokens, 64_000);

  const status = await cliJson(StatusJsonSchema, ["status", "--transcript", box.transcript], env);
  const { source, percent, windowSource } = status;
  assertEquals([source, percent, windowSource], ["statusline", 32, "reported by Claude Code"]);

  const call = (id: string) =>
    runHook(payload("PostToolUse.Bash", { ...pair, tool_use_id: id }), env);
  const hook = await call("toolu_s1");
  assertIncludes(hook.stderr, "from statusline");
  assertIncludes(hook.context ?? "", "[lessons-reinject refresh 30 ");

  // A newer usage in the transcript than the statusline's record: the transcript wins.
  appendTranscript(box.transcript, [
    entries.assistant(112_000, ["toolu_s2"], { model: "claude-sonnet-4-6" }),
  ]);
  const later = await call("toolu_s2");
  assertIncludes(later.stderr, "from transcript tool_use match");
  assertIncludes(later.context ?? "", "[lessons-reinject refresh 52 ");
});

Deno.test("statusline never promises a refresh the hook will not give: no rules, an unclosed marker, an unusable state folder", async () => {
  const box = home();
  const project = `${box.dir}/project`;
  Deno.mkdirSync(`${project}/.git`, { recursive: true });
  const env = { ...box.env, LESSONS_MANIFEST_PATH: "" };
  const input = statuslineInput({ cwd: project, workspace: { current_dir: project } });
  const line = async (e: Record<string, string> = env) =>
    (await cli(["statusline"], e, input, project)).stdout;
  const bar = "[######|....|....|......] 32% of 200k";
  assertEquals(await line(), `${bar} · no refresh: no rules to restate\n`);
  Deno.writeTextFileSync(`${project}/CLAUDE.md`, "# Notes\n\n<!-- reinject -->\nKeep it small.\n");
  assertEquals(
    await line(),
    `${bar} · no refresh: ${project}/CLAUDE.md:3: section never closed; left out\n`,
  );
  Deno.writeTextFileSync(`${project}/CLAUDE.md`, "<!-- reinject -->\nSmall.\n<!-- /reinject -->\n");
  assertEquals(await line(), `${bar} · refresh due (30%)\n`);
  // Run from another folder, it takes the session's from its input, as the hook is given it.
  assertEquals(
    (await cli(["statusline"], env, input, box.dir)).stdout,
    `${bar} · refresh due (30%)\n`,
  );
  if (Deno.build.os !== "windows") {
    Deno.mkdirSync(box.stateDir, { recursive: true });
    Deno.chmodSync(box.stateDir, 0o777);
    assertEquals(
      await line(),
      `${bar} · no refresh: state folder ${box.stateDir} is writable by others (mode 777)\n`,
    );
  }
});
