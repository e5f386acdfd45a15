import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { projectFolderName } from "../../src/cli/locate.ts";
import { StatusJsonSchema } from "../../src/cli/schemas.ts";
import { entries, RECORDED, skeletonTranscript, writeTranscript } from "../_helpers.ts";
import { assertIncludes, cli, parsedAs, ROOT, sandbox } from "./_cli.ts";

/**
 * The figures in tests/fixtures/transcripts/skeletons/README.md (measured on the originals, kept by
 * their skeletons): the last main-chain usage (tokens), and
 * the window its model has in the version of Claude Code that wrote it (data/window_table.ts).
 */
const EXPECTED: { file: string; tokens: number; window: number; compacted?: boolean }[] = [
  // 1.0.x compaction after the last usage: no reading; the stale figure is shown as such.
  {
    file: "v1.0.90-inline-sidechain-summary-entries.jsonl",
    tokens: 156089,
    window: 200_000,
    compacted: true,
  },
  { file: "v2.0.76-large-no-compaction.jsonl", tokens: 180437, window: 200_000 },
  { file: "v2.1.14-agent-progress-nested-usage.jsonl", tokens: 20229, window: 200_000 },
  // claude-opus-4-7 was 200k by default in 2.1.112 (natively 1M from 2.1.117).
  { file: "v2.1.112-compact-boundary.jsonl", tokens: 89199, window: 200_000 },
  { file: "v2.1.121-pasted-images-833KB-line.jsonl", tokens: 123792, window: 200_000 },
  { file: "v2.1.167-main-with-workflow-subagents.jsonl", tokens: 72752, window: 1_000_000 },
  // A subagent's own file: its last sidechain usage.
  {
    file: "v2.1.167-subagent-file-agent-ab9eaae030fe399d0.jsonl",
    tokens: 50191,
    window: 1_000_000,
  },
  { file: "v2.1.185-three-compact-boundaries.jsonl", tokens: 63388, window: 200_000 },
  { file: "v2.1.212-newest.jsonl", tokens: 186830, window: 1_000_000 },
];

Deno.test("status --json on every public transcript gives the expected tokens and window", async (t) => {
  const box = sandbox();
  for (const expected of EXPECTED) {
    await t.step(expected.file, async () => {
      const path = skeletonTranscript(expected.file);
      const run = await cli(["status", "--json", "--transcript", path], {
        ...box.env,
        HOME: box.dir,
      });
      assertEquals(run.code, 0, run.stderr);
      const report = parsedAs(StatusJsonSchema, run.stdout);
      if (expected.compacted) {
        assertEquals(report.tokens, null);
        assertEquals(report.source, null);
        assertIncludes(report.reason ?? "", "compacted");
        assertEquals(report.beforeCompaction?.tokens, expected.tokens);
        assertEquals(report.beforeCompaction?.window, expected.window);
      } else {
        assertEquals(report.tokens, expected.tokens);
        assertEquals(report.window, expected.window);
        assertEquals(report.source, "transcript latest");
        const percent = (expected.tokens / expected.window) * 100;
        assert(Math.abs((report.percent ?? NaN) - percent) < 1e-9, String(report.percent));
      }
      assertEquals(report.transcript, path);
      assertEquals(report.thresholds, [30, 52, 70]);
    });
  }
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("status shows the gauge, source, thresholds, what fired and the state file", async () => {
  const box = sandbox();
  const env = { ...box.env, HOME: box.dir };
  // The hook fires 30 on the recorded session first; status then reports it.
  const transcript = join(box.dir, "session.jsonl");
  const line = entries.assistant(62_000, ["toolu_a"], { model: "claude-sonnet-4-6" });
  const sessionId = String(line.sessionId);
  writeTranscript(transcript, [line]);
  const { runHook, payload } = await import("../_helpers.ts");
  const hook = await runHook(
    payload("PostToolUse.Bash", {
      session_id: sessionId,
      transcript_path: transcript,
      tool_use_id: "toolu_a",
    }),
    env,
  );
  assert(hook.context?.includes("refresh 30"), hook.stdout);

  const run = await cli(["status", "--transcript", transcript], env);
  assertEquals(run.code, 0, run.stderr);
  const lines = run.stdout.split("\n");
  assert(lines[0]?.startsWith("[") && lines[0].endsWith("] 31% of 200k"), lines[0]);
  assertEquals((lines[0]?.match(/\|/g) ?? []).length, 3);
  assertIncludes(run.stdout, "context      31.0%: 62,000 tokens");
  assertIncludes(
    run.stdout,
    "window       200,000 tokens (model and version, uncertain: the smaller window: claude-sonnet-4-6 has 200k unless [1m] or the 1M beta was chosen (not recorded)), model claude-sonnet-4-6",
  );
  assertIncludes(run.stdout, "source       transcript latest");
  assertIncludes(run.stdout, "thresholds   30%, 52%, 70%");
  assertIncludes(run.stdout, "fired        30 in this context");
  assertIncludes(run.stdout, "next         52%");
  assertIncludes(run.stdout, "(found)");

  const json = parsedAs(
    StatusJsonSchema,
    (await cli(["status", "--json", "--transcript", transcript], env)).stdout,
  );
  assertEquals(json.sessionId, sessionId);
  assertEquals(json.fired, [30]);
  assertEquals(json.next, 52);
  assertEquals(json.stateFile, "found");
  assert(json.statePath.startsWith(box.stateDir));
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("status never writes: the state folder is not created", async () => {
  const box = sandbox();
  const run = await cli(["status", "--transcript", RECORDED], { ...box.env, HOME: box.dir });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(await Deno.stat(box.stateDir).catch(() => undefined), undefined);
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("status finds the newest transcript of this folder's project, or by --session", async () => {
  const box = sandbox();
  const project = join(box.dir, ".claude", "projects", projectFolderName(ROOT));
  Deno.mkdirSync(project, { recursive: true });
  const older = join(project, "11111111-1111-4111-8111-111111111111.jsonl");
  const newer = join(project, "22222222-2222-4222-8222-222222222222.jsonl");
  writeTranscript(older, [entries.assistant(20_000)]);
  writeTranscript(newer, [entries.assistant(110_000)]);
  Deno.utimeSync(older, new Date(2020, 1, 1), new Date(2020, 1, 1));
  const env = { ...box.env, HOME: box.dir };
  const newest = parsedAs(StatusJsonSchema, (await cli(["status", "--json"], env)).stdout);
  assertEquals(newest.transcript, newer);
  assertEquals(newest.tokens, 110_000);
  const bySession = parsedAs(
    StatusJsonSchema,
    (await cli(["status", "--json", "--session", "11111111-1111-4111-8111-111111111111"], env))
      .stdout,
  );
  assertEquals(bySession.tokens, 20_000);
  const missing = await cli(["status", "--session", "nope"], env);
  assertEquals(missing.code, 1);
  assertIncludes(missing.stderr, "no transcript for session nope");
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("status shows thresholds scaled for CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", async () => {
  const box = sandbox();
  const env = { ...box.env, HOME: box.dir, CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" };
  const run = await cli(["status", "--transcript", RECORDED], env);
  assertIncludes(run.stdout, "thresholds   20%, 34%, 47% (configured 30, 52, 70, scaled for");
  const json = parsedAs(
    StatusJsonSchema,
    (await cli(["status", "--json", "--transcript", RECORDED], env)).stdout,
  );
  assertEquals(json.thresholds, [20, 34, 47]);
  assertEquals(json.configuredThresholds, [30, 52, 70]);
  assertEquals(json.autocompactPct, 50);
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("status without a transcript to read exits 1", async () => {
  const box = sandbox();
  const run = await cli(["status", "--transcript", join(box.dir, "absent.jsonl")], box.env);
  assertEquals(run.code, 1);
  assertIncludes(run.stderr, "no transcript at");
  // A folder is not "missing": say what it is.
  const folder = await cli(["status", "--transcript", box.dir], box.env);
  assertEquals(folder.code, 1);
  assertIncludes(folder.stderr, `${box.dir} is a folder, not a transcript`);
  await Deno.remove(box.dir, { recursive: true });
});
