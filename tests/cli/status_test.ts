import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { StatusJsonSchema, StatuslineJsonSchema } from "../../src/cli/schemas.ts";
import { appendTranscript, entries, payload, RECORDED, runHook } from "../_helpers.ts";
import { runRecorded, writeTranscript } from "../_helpers.ts";
import {
  assertIncludes,
  callOf,
  cli,
  cliJson,
  cliOk,
  home,
  ROOT,
  sandbox,
  sessionsFolder,
  sonnetCall,
  statuslineInput,
  unwrap,
} from "./_cli.ts";
import { compactionSummariser, FORK, shapes, SUMMARISER_ID } from "../replay/shapes.ts";

Deno.test("status shows the gauge, source, thresholds, what fired and the state file", async () => {
  const { env, transcript, ...box } = home();
  // The hook fires 30 on the recorded session first; status then reports it.
  const call = sonnetCall(transcript, 62_000, "toolu_a");
  const hook = await runHook(call, env);
  assert(hook.context?.includes("refresh 30"), hook.stdout);

  const run = await cliOk(["status", "--transcript", transcript], env);
  const lines = run.stdout.split("\n");
  const text = unwrap(run.stdout);
  assert(lines[0]?.startsWith("[") && lines[0].endsWith("] 31% of 200k"), lines[0]);
  assertEquals((lines[0]?.match(/\|/g) ?? []).length, 3);
  assertIncludes(text, "context      31%: 62,000 tokens");
  // The window's evidence in plain words, and what is assumed while a larger one is possible.
  assertIncludes(
    text,
    "window       200,000 tokens: claude-sonnet-4-6 has 1M only if chosen; counted as 200k " +
      "until a reading shows more\n",
  );
  assertIncludes(text, "model        claude-sonnet-4-6\n");
  assertIncludes(text, "source       transcript latest");
  assertIncludes(run.stdout, "thresholds   30%, 52%, 70%");
  assertIncludes(run.stdout, "fired        30% in this context");
  assertIncludes(run.stdout, "next         52%");
  assertIncludes(run.stdout, "(found)");

  const json = await cliJson(StatusJsonSchema, ["status", "--transcript", transcript], env);
  const { sessionId, fired, next, stateFile } = json;
  assertEquals([sessionId, fired, next, stateFile], [call.session_id, [30], 52, "found"]);
  assert(json.statePath.startsWith(box.stateDir));
});

Deno.test("status finds the newest transcript of this folder's project, or by --session", async () => {
  const box = home();
  const project = sessionsFolder(box.dir, ROOT);
  const id = "11111111-1111-4111-8111-111111111111";
  const older = join(project, `${id}.jsonl`);
  const newer = join(project, "22222222-2222-4222-8222-222222222222.jsonl");
  writeTranscript(older, [entries.assistant(20_000)]);
  writeTranscript(newer, [entries.assistant(110_000)]);
  Deno.utimeSync(older, new Date(2020, 1, 1), new Date(2020, 1, 1));
  const env = box.env;
  const newest = await cliJson(StatusJsonSchema, ["status"], env);
  assertEquals([newest.transcript, newest.tokens], [newer, 110_000]);
  assertEquals((await cliJson(StatusJsonSchema, ["status", "--session", id], env)).tokens, 20_000);
  const missing = await cli(["status", "--session", "nope"], env);
  assertEquals(missing.code, 1);
  assertIncludes(missing.stderr, "no transcript for session nope");
  // The start of an id no other session shares is enough, here or in another project.
  const prefixed = await cliJson(StatusJsonSchema, ["status", "--session", "1111"], env);
  assertEquals([prefixed.tokens, prefixed.sessionId], [20_000, id]);
  const elsewhere = join(box.dir, ".claude", "projects", "-some-other-project");
  Deno.mkdirSync(elsewhere);
  writeTranscript(join(elsewhere, "1111aaaa-0000-4000-8000-000000000000.jsonl"), [
    entries.assistant(30_000),
  ]);
  const ambiguous = await cli(["status", "--session", "1111"], env);
  assertEquals(ambiguous.code, 1);
  assertEquals(
    ambiguous.stderr,
    `lessons-reinject: 2 sessions start with 1111 (${id}, 1111aaaa-0000-4000-8000-000000000000)` +
      ": give more of the id\n",
  );
  const longer = await cliJson(StatusJsonSchema, ["status", "--session", "1111a"], env);
  assertEquals(longer.tokens, 30_000);
});

Deno.test("status names the compaction point, where it came from, and the span it measures against", async () => {
  const box = home();
  // The recording is claude-sonnet-4-6 on 200k: half of its 180,000 effective tokens is 90,000.
  const env = { ...box.env, CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" };
  const run = await cli(["status", "--transcript", RECORDED], env);
  const text = unwrap(run.stdout);
  assertIncludes(text, "compaction   at 90,000 tokens: CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50");
  assertIncludes(
    text,
    "thresholds   30%, 52%, 70%, percentages of the 123,000 tokens before auto-compaction " +
      "(at 36,900, 63,960, 86,100 tokens)",
  );
  const json = await cliJson(StatusJsonSchema, ["status", "--transcript", RECORDED], env);
  assertEquals(json.thresholds, [30, 52, 70]);
  assertEquals([json.span, json.thresholdTokens], [123_000, [36_900, 63_960, 86_100]]);
  const point = [json.compaction?.tokens, json.compaction?.source, json.autocompactPct];
  assertEquals(point, [90_000, "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", 50]);
  // With nothing set, the window is the span and the usual point is named.
  const plain = await cliJson(StatusJsonSchema, ["status", "--transcript", RECORDED], box.env);
  const usual = [plain.span, plain.compaction?.tokens, plain.compaction?.source];
  assertEquals(usual, [200_000, 167_000, "the model's window"]);
  // status never writes: the state folder is not created.
  assertEquals(await Deno.stat(box.stateDir).catch(() => undefined), undefined);
});

Deno.test("status never takes a subagent's or the compaction summariser's file for the session", async (t) => {
  const { env, ...box } = home();
  const project = sessionsFolder(box.dir, ROOT);
  const shape = compactionSummariser();
  const session = join(project, `${shape.sessionId}.jsonl`);
  Deno.writeTextFileSync(session, shape.session);
  Deno.utimeSync(session, new Date(2026, 0, 1), new Date(2026, 0, 1));
  await t.step("newest in the project: 2.0.x keeps agents' files beside the sessions", async () => {
    // Written after the session, each with a reading of its own.
    Deno.writeTextFileSync(join(project, `agent-${SUMMARISER_ID}.jsonl`), shape.summariser);
    writeTranscript(join(project, "agent-a1b2c3d4.jsonl"), [
      entries.assistant(150_000, [], { isSidechain: true }),
    ]);
    const report = await cliJson(StatusJsonSchema, ["status"], env);
    assertEquals([report.transcript, report.tokens], [session, 40_000]);
  });
  await t.step("--transcript naming the summariser's file reads its session's", async () => {
    const subagents = join(project, shape.sessionId, "subagents");
    Deno.mkdirSync(subagents, { recursive: true });
    const summariser = join(subagents, `agent-${SUMMARISER_ID}.jsonl`);
    Deno.writeTextFileSync(summariser, shape.summariser);
    const report = await cliJson(StatusJsonSchema, ["status", "--transcript", summariser], env);
    assertEquals([report.transcript, report.agentId, report.tokens], [session, null, 40_000]);
    // Its session's transcript gone: say so, and read nothing else.
    Deno.removeSync(session);
    const orphan = await cli(["status", "--transcript", summariser], env);
    assertEquals(orphan.code, 1);
    assertIncludes(orphan.stderr, "is the compaction summariser's transcript, not a session's");
  });
});

Deno.test("status on a fork subagent's file names what it inherited from its parent", async () => {
  const { env, ...box } = home();
  const project = sessionsFolder(box.dir, ROOT);
  const subagents = join(project, FORK.sessionId, "subagents");
  Deno.mkdirSync(subagents, { recursive: true });
  const generated = shapes();
  Deno.writeTextFileSync(join(project, `${FORK.sessionId}.jsonl`), generated[FORK.parent]!);
  const file = join(subagents, `agent-${FORK.agentId}.jsonl`);
  Deno.writeTextFileSync(file, generated[FORK.agent]!);
  const report = await cliJson(StatusJsonSchema, ["status", "--transcript", file], env);
  assertEquals(
    [report.agentId, report.tokens, report.inherited, report.fired, report.pending],
    [FORK.agentId, 146_000, [30, 52], [30, 52], [70]],
  );
  assertIncludes(
    (await cli(["status", "--transcript", file], env)).stdout,
    "inherited    30%, 52% from the parent's refreshes",
  );
});

// Files that are not transcripts are no_trace_test's rows ("... is not a Claude Code transcript").
Deno.test("status --transcript: a real transcript whose first line is longer than the head read (a pasted image) still is one", async () => {
  const box = sandbox();
  const path = join(box.dir, "long-first-line.jsonl");
  const lines = Deno.readTextFileSync(RECORDED).split("\n").filter((l) => l !== "");
  const first = JSON.parse(lines[0]!);
  first.content = "x".repeat(300 * 1024);
  Deno.writeTextFileSync(path, [JSON.stringify(first), ...lines.slice(1)].join("\n") + "\n");
  await cliOk(["status", "--transcript", path], box.env);
});

Deno.test("status reads at a glance: next, the next call, and the columns", async (t) => {
  const { env, ...box } = home();
  /** Every label is padded to one column: the values start at character 13. */
  const assertColumns = (stdout: string) => {
    const body = stdout.split("\n").slice(2).filter((l) => l !== "");
    for (const line of body) assert(/^[a-z ]{12} \S/.test(line), `out of column: ${line}`);
  };
  await t.step("at 90 % with every threshold pending", async () => {
    const transcript = join(box.dir, "ninety.jsonl");
    writeTranscript(transcript, [entries.assistant(180_437, [], { model: "claude-opus-4-5" })]);
    const run = await cliOk(["status", "--transcript", transcript], env);
    assertIncludes(run.stdout, "pending      30%, 52%, 70%: the next tool call refreshes\n");
    // Not "next 30%": the next call fires 30, 52 and 70 at once.
    assertIncludes(
      run.stdout,
      "next         none after the pending ones: the context is past every threshold\n",
    );
    // The decision in its own words, not the reading again with bare numbers.
    assertIncludes(run.stdout, "next call    refreshes: 90% crossed 30, 52, 70\n");
    assert(!/\b180437\b|\b200000\b/.test(run.stdout), run.stdout);
    assertColumns(run.stdout);
    const json = await cliJson(StatusJsonSchema, ["status", "--transcript", transcript], env);
    assertEquals([json.next, json.pending, json.decision], [
      null,
      [30, 52, 70],
      "90% crossed 30, 52, 70",
    ]);
  });
  await t.step("compacted since the last usage", async () => {
    const transcript = join(box.dir, "compacted.jsonl");
    writeTranscript(transcript, [entries.assistant(156_089), entries.compactBoundary()]);
    const run = await cliOk(["status", "--transcript", transcript], env);
    assertIncludes(run.stdout, "compacted    from 156,089 tokens of 200k (78%");
    // In plain words, not "no reading: compacted since the last usage: no reading yet".
    assertIncludes(
      run.stdout,
      "context      not measured yet: no usage recorded since the compaction",
    );
    assertColumns(run.stdout);
  });
});

Deno.test("on Claude Code's default 1M model, preview words the next refresh as the hook will; status and the statusline name it in tokens", async () => {
  const { transcript, ...box } = home();
  const env = { ...box.env, LESSONS_DEBUG: "1" };
  const opus = { model: "claude-opus-5-5", version: "2.1.332" };
  writeTranscript(transcript, [entries.assistant(40_000, ["toolu_p"], opus)]);
  const preview = await cliOk(["preview", "--transcript", transcript], env);
  assertIncludes(preview.stdout, "[lessons-reinject refresh 30 ref=");
  assertIncludes(
    preview.stdout,
    "Context refresh at 40,000 tokens (4% of the 1M-token context window)",
  );
  assert(!preview.stdout.includes("measured before auto-compaction"), preview.stdout);
  writeTranscript(transcript, [entries.assistant(145_000, ["toolu_a"], opus)]);
  const json = await cliJson(StatusJsonSchema, ["status", "--transcript", transcript], env);
  const { window, span, cadence, pending, next, nextTokens } = json;
  assertEquals([window, span, cadence, pending], [1_000_000, 200_000, 40_000, [30, 52, 70]]);
  assertEquals([next, nextTokens], [180_000, 180_000]);
  assertEquals(json.thresholdTokens.slice(0, 5), [60_000, 104_000, 140_000, 180_000, 220_000]);
  // Up to the compaction point, 967,000 on 1M.
  assertEquals(json.thresholdTokens.at(-1), 940_000);
  const text = unwrap((await cli(["status", "--transcript", transcript], env)).stdout);
  assertIncludes(
    text,
    "thresholds   30%, 52%, 70%, then every 40,000 tokens; percentages of 200,000 tokens, as on " +
      "a 200k window (at 60,000, 104,000, 140,000, 180,000,",
  );
  assertIncludes(text, "next         180k");
  // The hook's call fires 30, 52 and 70 at once; then the statusline's next is the cadence's.
  const call = payload("PostToolUse.Bash", { transcript_path: transcript, tool_use_id: "toolu_a" });
  assertIncludes((await runRecorded(call, env)).context ?? "", "refresh 30,52,70 ");
  const figures = statuslineInput().context_window as Record<string, unknown>;
  const input = statuslineInput({
    session_id: call.session_id,
    transcript_path: transcript,
    model: { id: "claude-opus-5-5", display_name: "Opus 5.5" },
    context_window: {
      ...figures,
      context_window_size: 1_000_000,
      current_usage: { input_tokens: 150_000 },
      used_percentage: 15,
    },
  });
  assertIncludes((await cli(["statusline"], env, input)).stdout, "next refresh at 180k");
});

Deno.test("Claude Code 2.1.334+ compacts its default model near 367,000 until a reading passes it; older releases and a kept 1M window at 967,000", async () => {
  const { transcript, ...box } = home();
  // A reading by `version`; with an `id`, added to the transcript, else its only entry.
  const at = (tokens: number, version: string, id?: string) => {
    const line = entries.assistant(tokens, [id ?? "toolu_a"], {
      model: "claude-opus-5-5",
      version,
    });
    (id ? appendTranscript : writeTranscript)(transcript, [line]);
    return callOf(line, transcript, id ?? "toolu_a");
  };
  const status = async () =>
    await cliJson(StatusJsonSchema, ["status", "--transcript", transcript], box.env);
  at(300_000, "2.1.337");
  const auto = await status();
  const point = auto.compaction?.tokens ?? 0;
  assert(point >= 360_000 && point <= 370_000, JSON.stringify(auto.compaction));
  assertIncludes(auto.compaction?.evidence ?? "", "Claude Code 2.1.334+'s auto window");
  assertEquals([auto.thresholdTokens.at(-1), auto.next], [340_000, 340_000]);
  at(300_000, "2.1.332");
  assertEquals((await status()).compaction?.tokens, 967_000);
  // The hook: no refresh past 367,000 is planned, until a reading passes it with no compaction.
  const env = { ...box.env, LESSONS_DEBUG: "1" };
  assertIncludes((await runRecorded(at(345_000, "2.1.337"), env)).context ?? "", "340k");
  const past = await runRecorded(at(385_000, "2.1.337", "toolu_2"), env);
  assertIncludes(past.context ?? "", "refresh 380k ");
  assertIncludes(past.stderr, "compaction at 967000 (the 1,000,000-token window (a reading of");
  assertEquals((await status()).next, 420_000);
  // The statusline captured from 2.1.337: its tokens, never used_percentage (47, of its window).
  const captured = payload("statusline.mid-session-2.1.337", { transcript_path: transcript });
  at(250_000, "2.1.337");
  const line = await cliJson(StatuslineJsonSchema, ["statusline", "--json"], box.env, captured);
  assertEquals([line.tokens, line.window], [250_000, 1_000_000]);
  assert(/62% of 400k · .* · compaction near 367k \(Claude Code 2\.1\.334\+\)$/.test(line.line));
  // The full window kept in the user's settings: autoCompactWindow 1000000.
  Deno.mkdirSync(join(box.dir, ".claude"), { recursive: true });
  Deno.writeTextFileSync(join(box.dir, ".claude", "settings.json"), '{"autoCompactWindow": 1e6}');
  at(300_000, "2.1.337");
  assertEquals((await status()).compaction?.tokens, 967_000);
});

/** The `tool count` row of a status report, or undefined. */
const toolCountRow = (report: string) => report.split("\n").find((l) => l.startsWith("tool count"));

// Only when the count decides (no reading, a refresh every N calls): with readings the count is
// not kept, and a "0" would only mislead.
Deno.test("status: no tool count row when readings decide, one when the count does", async () => {
  const { env, ...box } = home();
  // Nine calls with readings (10% to 18%): no refresh, and no count kept.
  writeTranscript(box.transcript, []);
  const lines: Record<string, unknown>[] = [];
  for (let i = 0; i < 9; i++) {
    const line = entries.assistant(20_000 + 2_000 * i, [`toolu_c${i}`]);
    lines.push(line, entries.toolResult(`toolu_c${i}`));
    writeTranscript(box.transcript, lines);
    await runRecorded(callOf(line, box.transcript, `toolu_c${i}`), env);
  }
  const measured = await cliOk(["status", "--transcript", box.transcript], env);
  assertEquals(toolCountRow(measured.stdout), undefined, measured.stdout);

  // No usage anywhere: the count decides, so it is shown.
  const bare = entries.toolResult("toolu_none");
  writeTranscript(box.transcript, [bare]);
  const counted = await cliOk(["status", "--transcript", box.transcript], env);
  const row = toolCountRow(counted.stdout);
  assert(row?.includes("(fallback refresh every 20 calls)"), counted.stdout);
});
