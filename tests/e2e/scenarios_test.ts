/**
 * End-to-end: real Claude Code 2.1.328 with this repository as a plugin, against the loopback
 * API stand-in. Each scenario asserts on both sides: the transcript's `hook_additional_context`
 * attachments (which tool call got a refresh) and the requests the model received (inline text).
 * The scenarios are one table: each names its setup, the refreshes the main transcript records
 * (the call and the thresholds it names) and what else it proves.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Step, ToolCall } from "../../scripts/loopback/api_stub.ts";
import { backedSteps, usage } from "../../scripts/loopback/backed_steps.ts";
import { largeManifest } from "../_helpers.ts";
import {
  agentCall,
  assertDelivered,
  attachmentOf,
  claudeForSuite,
  climbing,
  COMPACT_TAG,
  compactTurns,
  decisionFor,
  HEADER_TAG,
  hookErrorsIn,
  type Json,
  readJsonl,
  type Refresh,
  refreshesIn,
  restatedAfterCompaction,
  ROOT,
  type Scenario,
  type ScenarioTest,
  scenarioTest,
  stated,
  textOf,
  thresholdsOf,
  toolResult,
  turn,
} from "./harness.ts";

const bin = await claudeForSuite();
/** Releases whose default model is claude-opus-5-5, 1M natively (2.1.337: compacting near 400k). */
const bin332 = await claudeForSuite("2.1.332");
const bin337 = await claudeForSuite("2.1.337");

/** One scenario; `bin` the Claude Code to run, the suite's pin when absent. */
interface Case extends ScenarioTest {
  bin?: string;
}

/** `count` parallel call ids `prefix` + a, b, c...: one step whose outputs share a large growth. */
const parallel = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String.fromCharCode(97 + i)}`);

const SESSION_START_CONTEXT = "SessionStart hook additional context: ";

const READS = ["toolu_r1", "toolu_r2", "toolu_r3", "toolu_r4"];

/** Parallel Read calls `ids`, the i-th of file `path(i)`. */
const reads = (ids: string[], path: (i: number) => string): ToolCall[] =>
  ids.map((id, i) => ({ name: "Read", input: { file_path: path(i) }, id }));

/** A manifest of about 40 KB (as tests/integration/hook_test.ts's), session start's limits lifted. */
const BIG = largeManifest(40_000);
const BIG_LESSONS = Object.values(BIG.lessons as Record<string, Record<string, string>>);
const AGENT_MARKER = "E2E-SUBAGENT-TASK-5d1c";
const FORK_MARKER = "E2E-FORK-TASK-3b9c";

const OWN_RULES = "Always answer with the ticket number first.\nNever commit to main directly.";
const OWN_CLAUDE_MD = `# Project notes\n\nUNMARKED project notes stay out of refreshes.\n\n` +
  `<!-- reinject -->\n${OWN_RULES}\n<!-- /reinject -->\n`;
const OWN_HEADING = "## Rules you marked in CLAUDE.md";
const REINJECT_MD = "Quote the failing test's name in every report.";

/** What refreshes stating `percents` of a 200k window state ({@link stated}). */
const on200k = (...percents: number[]) => percents.map((percent) => ({ percent, window: "200k" }));

/** The refresh text after its header line: what a refresh restated. */
function bodyOf(refresh: Refresh): string {
  return refresh.content.slice(refresh.content.indexOf("\n") + 1);
}

/** Two turns around a real `/compact`, with the marked section as the only rules. */
function compactScript(prefix: string): { main: Step[] } {
  // 31 %: 30; after /compact from 10 % to 32 %: 30 again, on <prefix>05.
  return { main: [...climbing(prefix, [62], 63), ...climbing(prefix, [20, 37, 54, 64], 65, 2)] };
}

// Sources of growth the transcript may show late or not at all
// (docs/maintainers/claude-code-facts.md, "Unseen growth"): the stand-in reports each request's own
// growth in size from a starting reading, so these sessions are exactly as big as what Claude Code
// sent.

/** Steps whose usage follows the request (`requestBase`), with fixed call ids. */
function fromRequest(steps: { id: string; call: Omit<ToolCall, "id"> }[]): Step[] {
  return [
    ...steps.map(({ id, call }) => ({ usage: "request" as const, tools: [{ ...call, id }] })),
    { usage: "request" as const, text: "Finished." },
  ];
}

const sleepy = (seconds: number) => ({
  name: "Bash",
  input: { command: `sleep ${seconds}; echo waited`, description: "wait" },
});

/** The call whose request first reached `tokens`: where the refresh must arrive. */
function crossingCall(s: Scenario, tokens: number, ids: string[]): string | undefined {
  const main = s.stub.requests.filter((r) => r.route === "main");
  const at = main.findIndex((r) => (r.usage?.tokens ?? 0) >= tokens);
  return at >= 0 ? ids[at] : undefined;
}

const MCP_SERVER = join(ROOT, "scripts", "loopback", "mcp_server.ts");

/** An `--mcp-config` file for the loopback MCP server, run with `args`. */
function mcpConfig(s: Scenario, args: string[]): string {
  const path = join(s.root, "mcp.json");
  const run = ["run", "--no-config", "--quiet", MCP_SERVER, ...args];
  const probe = { type: "stdio", command: Deno.execPath(), args: run };
  Deno.writeTextFileSync(path, JSON.stringify({ mcpServers: { probe } }));
  return path;
}

const LATE_IDS = ["toolu_l01", "toolu_l02", "toolu_l03", "toolu_l04", "toolu_l05"];
const SEARCH_IDS = ["toolu_t01", "toolu_t02", "toolu_t03", "toolu_t04"];
const STREAMED_READS = ["toolu_s1", "toolu_s2", "toolu_s3", "toolu_s4"];

/** An `echo hi` call reporting `tokens`: growth no bytes carry. */
const echoAt = (tokens: number, id: string): Step => ({
  usage: usage(tokens),
  tools: [{ name: "Bash", input: { command: "echo hi" }, id }],
});

/** The cadence points (thousands of tokens) past 180k up to `last`. */
const cadence = (last: number) =>
  Array.from({ length: Math.floor((last - 180) / 40) }, (_, i) => 220 + 40 * i);
/** Readings around each point: 22k, 6k and 2k below it, 2k past it. */
const around = (points: number[]) => points.flatMap((p) => [p - 22, p - 6, p - 2, p + 2]);

const CLIMB = [22, 39, 56, 62, 78, 94, 102, 106, 122, 138, 142, 158, 174, 178, 182];

/**
 * A climb on `release`'s default model through 60k, 104k, 140k and 180k, then `more` readings
 * (thousands), then `after` (a new context's). 30, 52 and 70 refresh on their crossing calls; a
 * cadence point never makes a call wait for its entry, so its refresh comes on the crossing call
 * or, when the entry was late, the next.
 */
function climb(
  release: string,
  cli: string,
  more: number[],
  after: number[],
  then: NonNullable<Case["then"]>,
): Case {
  const tokens = [...CLIMB, ...more, ...after].map((k) => k * 1000);
  const readings = tokens.slice(0, CLIMB.length + more.length);
  const ids = tokens.map((_, i) => `toolu_o${String(i).padStart(2, "0")}`);
  const points = [60, 104, 140, 180, ...cadence(Math.max(...more))].map((k) => k * 1000);
  return {
    name: `on the default model (claude-opus-5-5, ${release}), refreshes at 60k, 104k and 140k ` +
      `as on 200k, then every 40k${after.length ? ", through its auto-compaction" : ""}`,
    bin: cli,
    turns: turn({ model: undefined }), // Claude Code's default model
    script: {
      main: backedSteps(tokens.map((t, i) => ({ id: ids[i]!, tokens: t })), tokens.at(-1)! + 500),
    },
    then: async (s, lines, refreshes) => {
      const models = lines.filter((l) => l.type === "assistant").map((l) =>
        (l.message as Json).model
      );
      deepStrictEqual([...new Set(models)], ["claude-opus-5-5"]);
      const calls = refreshes.filter((r) => r.toolUseID !== "SessionStart");
      deepStrictEqual(calls.map(thresholdsOf), [
        [30],
        [52],
        [70],
        ...points.slice(3).map((p) => [p]),
      ]);
      calls.forEach((refresh, i) => {
        const late = ids.indexOf(refresh.toolUseID) - readings.findIndex((r) => r >= points[i]!);
        ok(late === 0 || (i >= 3 && late === 1), `${refresh.toolUseID} for ${points[i]}`);
      });
      deepStrictEqual(calls.slice(0, 3).map((r) => stated(r)?.tokens), [62_000, 106_000, 142_000]);
      await then(s, lines, refreshes);
    },
  };
}

const CASES: Case[] = [
  {
    name: "a climb from 5% to 74% on a 200k model refreshes at 30, 52 and 70",
    // From 5 %: 29 % (c04) then 31 % crosses 30; 51.5 % (c08) is not yet 52, 52.5 % crosses it;
    // 69.5 % (c11) is not yet 70, 70.5 % crosses it; then 74 %.
    script: {
      main: climbing("toolu_c", [10, 27, 44, 58, 62, 79, 96, 103, 105, 122, 139, 141, 148], 148.5),
    },
    refreshes: [["toolu_c05", [30]], ["toolu_c09", [52]], ["toolu_c12", [70]]],
    then: (s, _, refreshes) => {
      equal(s.stub.served.main, 14);
      deepStrictEqual(refreshes.map(stated), on200k(31, 52, 70));
      deepStrictEqual(refreshes.map((r) => r.hookName), Array(3).fill("PostToolUse:Bash"));
    },
  },
  climb("2.1.332", bin332, [...around(cadence(220)), 224], [], (_, __, refreshes) => {
    const windows = refreshes.slice(0, 3).map((r) => stated(r)?.window);
    deepStrictEqual(windows, ["1M", "1M", "1M"]);
  }),
  // 2.1.334 and later compact it near 400k: 367,000, 400,000 less 20,000 and 13,000.
  climb(
    "2.1.337",
    bin337,
    [...around(cadence(340)), 358, 366, 366.9, 367],
    [12, 13],
    async (s, lines, refreshes) => {
      const boundary = lines.findIndex((l) => l.subtype === "compact_boundary");
      ok(boundary >= 0, "no auto-compaction near 400k (2.1.334 and later have it)");
      const meta = (lines[boundary]?.compactMetadata ?? {}) as Json;
      const preTokens = Number(meta.preTokens);
      // deno-lint-ignore no-console
      console.log(`Claude Code 2.1.337 auto-compacted at preTokens ${preTokens}`);
      // After the reading of 367,000 (its output and estimate added), not after 366,900.
      ok(meta.trigger === "auto" && preTokens >= 367_000 && preTokens < 368_000, `${preTokens}`);
      equal(meta.cumulativeDroppedTokens, preTokens - Number(meta.postTokens));
      const compacts = s.stub.requests.filter((r) => r.route === "compact");
      equal(compacts.length, 1, "the stand-in's summary was not taken at once");
      const calls = refreshes.filter((r) => r.toolUseID !== "SessionStart");
      for (const request of assertDelivered(s, calls)) {
        ok(s.stub.requests.indexOf(request) < s.stub.requests.indexOf(compacts[0]!));
      }
      const restated = restatedAfterCompaction(s).perRequest;
      deepStrictEqual(restated, restated.map(() => 1), "restated once in the new context");
      await s.keepTranscript("LESSONS_E2E_RECORD_AUTO_COMPACT_337");
      // Before the compaction, the hook knew where it would come.
      const points = lines.slice(0, boundary).map(attachmentOf).map((a) =>
        /compaction at (\d+)/.exec(String(a?.type === "hook_success" ? a.stderr : ""))?.[1]
      ).filter((point) => point !== undefined).map(Number);
      ok(
        points.length > 0 && points.every((p) => p >= 360_000 && p <= 370_000),
        `compaction at ${[...new Set(points)]}`,
      );
    },
  ),
  {
    name: "a jump from 8% to 75% refreshes once and never again",
    script: {
      main: backedSteps([
        // Eight parallel calls, each printing what one Bash result passes inline: 134,000 tokens.
        { id: parallel("toolu_j01", 8), tokens: 16_000 }, // 8 %
        { id: "toolu_j02", tokens: 150_000 }, // 75 %: crosses 30, 52 and 70 at once
        { id: "toolu_j03", tokens: 156_000 }, // 78 %
        { id: "toolu_j04", tokens: 160_000 }, // 80 %
      ], 161_000),
    },
    refreshes: [["toolu_j02", [30, 52, 70]]],
  },
  {
    name: "four parallel Reads at 35% give exactly one refresh",
    // 1,000 tokens from 70,000 to 71,000: four files of 420 bytes carry them.
    files: Object.fromEntries(
      READS.map((_, i) => [`work/file${i}.txt`, `contents of file ${i}\n`.repeat(21)]),
    ),
    script: ({ work }) => ({
      main: [
        ...backedSteps([{ id: "toolu_p01", tokens: 53_000 }], 70_000).slice(0, 1),
        {
          usage: usage(70_000), // 35 %
          tools: reads(READS, (i) => join(work, `file${i}.txt`)),
        },
        { usage: usage(71_000), text: "Finished." },
      ],
    }),
    then: (s, lines, refreshes) => {
      const one = refreshes.map((r) => [READS.includes(r.toolUseID), thresholdsOf(r)]);
      deepStrictEqual(one, [[true, [30]]], `refreshes: ${refreshes.map((r) => r.toolUseID)}`);
      // Every Read ran its own hook; only one of them fired.
      for (const id of READS) ok(decisionFor(lines, id) !== "", `no hook ran for ${id}`);
      // The model saw the refresh in exactly one of the four tool results.
      const last = s.modelRequests().at(-1)!;
      const carrying = READS.filter((id) =>
        textOf(toolResult(last, id)?.content).includes(HEADER_TAG)
      );
      deepStrictEqual(carrying, [refreshes[0]!.toolUseID]);
    },
  },
  {
    name: "after a real /compact the thresholds fire again in the new context",
    // 31 %: 30, 53 %: 52; the second turn, after /compact, from 10 %: 32 %, 30 again; 54 %, 52.
    script: {
      main: [
        ...climbing("toolu_k", [62, 79, 96, 106], 107),
        ...climbing("toolu_k", [20, 37, 54, 64, 81, 98, 108], 109, 5),
      ],
    },
    turns: compactTurns,
    // SessionStart(compact)'s answer is recorded too: the rules restated for the new context.
    refreshes: [
      ["toolu_k01", [30]],
      ["toolu_k04", [52]],
      ["SessionStart", []],
      ["toolu_k08", [30]],
      ["toolu_k11", [52]],
    ],
    then: async (s, lines, refreshes) => {
      equal(s.stub.served.main, 13);
      const boundary = lines.findIndex((l) => l.subtype === "compact_boundary");
      ok(boundary >= 0, "no compact_boundary in the transcript");
      ok(refreshes[1]!.line < boundary && boundary < refreshes[3]!.line);
      equal(restatedAfterCompaction(s).perRequest[0], 1);
      await s.keepTranscript("LESSONS_E2E_RECORD_COMPACT");
    },
  },
  {
    name: "a failing Bash call at the crossing still delivers the refresh",
    script: {
      main: backedSteps([
        { id: "toolu_f01", tokens: 47_000 },
        { id: "toolu_f02", tokens: 64_000, then: "echo failing >&2; exit 3" }, // 32 %, exits 3
        { id: "toolu_f03", tokens: 70_000 },
      ], 71_000),
    },
    refreshes: [["toolu_f02", [30]]],
    then: (s, _, refreshes) => {
      equal(refreshes[0]!.hookName, "PostToolUseFailure:Bash");
      const failed = toolResult(s.modelRequests().at(-1)!, "toolu_f02");
      equal(failed?.is_error, true, "the failing call's result is not marked as an error");
    },
  },
  {
    // At most 10,000 characters: every delivered refresh is held to it.
    name: "a 40 KB manifest arrives inline, at most 10,000 characters, every directive named",
    manifest: JSON.stringify(BIG, null, 2),
    script: { main: climbing("toolu_b", [47, 64], 65) },
    refreshes: [["toolu_b02", [30]]],
    then: (_, __, refreshes) => {
      ok(JSON.stringify(BIG).length >= 40_000, "the manifest is under 40 KB");
      for (const { summary, message } of BIG_LESSONS) {
        const { content } = refreshes[0]!;
        ok(
          content.includes(summary!) || content.includes(message!.trim()),
          `not named: ${summary}`,
        );
      }
    },
  },
  {
    name: "a corrupt manifest: the session runs to the end, no hook error, no refresh",
    manifest: '{"type":"lessons-learned-manifest","version":1,"lessons":{"01J',
    script: {
      main: backedSteps([
        { id: parallel("toolu_x01", 3), tokens: 20_000 },
        { id: "toolu_x02", tokens: 62_000 }, // 31 %
        { id: parallel("toolu_x02", 3), tokens: 64_000 },
        { id: "toolu_x03", tokens: 106_000 }, // 53 %
        { id: parallel("toolu_x03", 3), tokens: 108_000 },
        { id: "toolu_x04", tokens: 150_000 }, // 75 %
      ], 151_000),
    },
    refreshes: [],
    then: (s, lines) => {
      equal(s.stub.served.main, 7, "the session did not run to its last step");
      equal(s.turns[0]!.result.result, "Finished.");
      deepStrictEqual(hookErrorsIn(lines), []);
      const hookRuns = lines.map(attachmentOf).filter((a) =>
        a?.type === "hook_success" && String(a.hookName).startsWith("PostToolUse")
      );
      equal(hookRuns.length, 12, "a hook run per tool call");
      for (const run of hookRuns) {
        equal(run?.exitCode, 0);
        equal(run?.stdout, "");
        ok(!String(run?.stderr).includes("internal error"), String(run?.stderr));
      }
      ok(decisionFor(lines, "toolu_x02").includes("manifest"), decisionFor(lines, "toolu_x02"));
      for (const request of s.modelRequests()) {
        ok(!JSON.stringify(request.body).includes(HEADER_TAG), "a refresh reached the model");
      }
    },
  },
  {
    name: "a subagent's tool calls never consume or advance the main thresholds",
    capturePayloads: true,
    turns: turn({ allowTools: ["Agent"] }),
    script: {
      main: backedSteps([
        { id: "toolu_m01", tokens: 30_000 }, // 15 %
        // 23.5 %; the subagent's report (its last turn's text) backs the next step.
        { id: "toolu_m02", tokens: 47_000, call: agentCall(AGENT_MARKER) },
        { id: "toolu_m03", tokens: 64_000 }, // 32 %: the main thread's 30
        { id: "toolu_m03b", tokens: 81_000 },
        { id: "toolu_m03c", tokens: 98_000 },
        { id: "toolu_m04", tokens: 106_000 }, // 53 %: the main thread's 52
      ], 107_000),
      agents: {
        [AGENT_MARKER]: [
          // The subagent's own context: it starts at 62.5 % (its first request is free), then 71 %.
          ...backedSteps([
            { id: "toolu_a01", tokens: 125_000 },
            { id: "toolu_a02", tokens: 142_000 },
          ], 143_000).slice(0, 2),
          // Its report: 17,000 tokens of text, which the main thread's next request carries.
          {
            usage: usage(143_000),
            text: "Report: " + "the sub task found this in the code. ".repeat(790),
          },
        ],
      },
    },
    refreshes: [["toolu_m03", [30]], ["toolu_m04", [52]]],
    then: async (s) => {
      equal(s.stub.served[AGENT_MARKER], 3, "the subagent did not run its script");
      equal(s.stub.served.main, 7);
      // The subagent measured its own transcript and kept its own thresholds.
      const agentFiles = await s.subagentTranscripts();
      equal(agentFiles.length, 1, `subagent transcripts: ${agentFiles}`);
      const sub = refreshesIn(await readJsonl(agentFiles[0]!));
      deepStrictEqual(sub.map((r) => [r.toolUseID, thresholdsOf(r)]), [
        ["toolu_a01", [30, 52]],
        ["toolu_a02", [70]],
      ]);
      deepStrictEqual(sub.map(stated), on200k(62, 71));
      assertDelivered(s, sub);

      // What Claude Code tells a subagent's hook (measured in 2.1.328): the main transcript_path,
      // the agent_id, no agent_transcript_path; the subagent's file is named after the agent_id.
      const payloads = await s.payloads();
      // The PRD's first open question, asked of the real CLI (docs/maintainers/prd-departures.md):
      // no hook's stdin carries context_window.
      ok(payloads.some((p) => p.hook_event_name === "PostToolUse"), "no PostToolUse payload");
      deepStrictEqual(
        payloads.filter((p) => "context_window" in p).map((p) => p.hook_event_name),
        [],
      );
      const subCall = payloads.find((p) =>
        p.hook_event_name === "PostToolUse" && p.tool_use_id === "toolu_a01"
      );
      ok(subCall, "no payload captured for the subagent's tool call");
      equal(subCall.transcript_path, await s.transcriptPath());
      equal(typeof subCall.agent_id, "string");
      equal(subCall.agent_type, "general-purpose");
      equal(subCall.agent_transcript_path, undefined);
      ok(agentFiles[0]!.endsWith(`/subagents/agent-${subCall.agent_id}.jsonl`));
      const recording = Deno.env.get("LESSONS_E2E_RECORD_SUBAGENT_PAYLOAD");
      if (recording) await Deno.writeTextFile(recording, JSON.stringify({ root: s.root, subCall }));
    },
  },
  {
    name: "a fork subagent starts with the refresh its parent's context holds",
    env: { CLAUDE_CODE_FORK_SUBAGENT: "1" },
    turns: turn({ allowTools: ["Agent"] }),
    script: {
      main: [
        ...backedSteps([
          // 30 %: the parent's 30, before the fork; its output backs the Agent call's 64,000.
          { id: "toolu_p01", tokens: 60_000 },
          { id: "toolu_p02", tokens: 64_000, call: agentCall(FORK_MARKER, "fork") },
          // The fork runs in the background: its launch notice is all the parent's context gains.
          { id: "toolu_p03", tokens: 64_050 },
        ], 64_100),
        { usage: usage(64_150), text: "Finished." }, // answering the fork's completion notice
      ],
      forks: {
        // 33 %: its context holds the parent's 30 already; then up to 53 % in steps a Bash result
        // can carry, and 52 fires on toolu_f02 only.
        [FORK_MARKER]: backedSteps([
          { id: "toolu_f01", tokens: 66_000 },
          { id: "toolu_f01b", tokens: 80_000 },
          { id: "toolu_f01c", tokens: 94_000 },
          { id: "toolu_f02", tokens: 106_000 },
        ], 107_000),
      },
    },
    refreshes: [["toolu_p01", [30]]],
    then: async (s) => {
      equal(s.stub.served[FORK_MARKER], 5, "the fork did not run its script");
      const files = await s.subagentTranscripts();
      equal(files.length, 1, `subagent transcripts: ${files}`);
      const forkLines = await readJsonl(files[0]!);
      equal(forkLines[0]?.type, "fork-context-ref", "the fork's first line");
      const fork = refreshesIn(forkLines);
      deepStrictEqual(fork.map((r) => [r.toolUseID, thresholdsOf(r)]), [["toolu_f02", [52]]]);
      assertDelivered(s, fork);
    },
  },
  {
    name: "a threshold is met by a reading exactly at it (29 % is 58,000 of 200,000 tokens)",
    env: { LESSONS_REINJECT_THRESHOLDS: "29,57" },
    // 28.999 %, then exactly 29 % (in floating point 58000 / 200000 * 100 < 29); 113,998, then
    // exactly 57 %.
    script: { main: climbing("toolu_e", [57.998, 58, 75, 92, 109, 113.998, 114], 114.5) },
    refreshes: [["toolu_e02", [29]], ["toolu_e07", [57]]],
    then: (_, __, refreshes) => {
      deepStrictEqual(refreshes.map(stated), on200k(29, 57));
    },
  },
  {
    name: "only a marked CLAUDE.md section, no manifest anywhere: exactly it at 30, 52 and 70",
    manifest: null,
    files: { "work/CLAUDE.md": OWN_CLAUDE_MD },
    // From 22.5 %: 31 %, 30; 52.5 %, 52; 69.5 % then 70.5 %, 70.
    script: { main: climbing("toolu_w", [45, 62, 79, 90, 105, 122, 139, 141, 146], 147) },
    refreshes: [["toolu_w02", [30]], ["toolu_w05", [52]], ["toolu_w08", [70]]],
    then: (_, lines, refreshes) => {
      for (const refresh of refreshes) {
        // Exactly the marked section, under its heading: no lessons, nothing unmarked.
        equal(bodyOf(refresh), `\n${OWN_HEADING}\n\n${OWN_RULES}\n`);
      }
      ok(decisionFor(lines, "toolu_w02").includes("manifest: no manifest found"));
    },
  },
  {
    name:
      "after a real /compact the own rules reach the model in the new context's first request, once",
    manifest: null,
    files: { "work/CLAUDE.md": OWN_CLAUDE_MD, "work/.claude/reinject.md": `${REINJECT_MD}\n` },
    script: compactScript("toolu_q"),
    turns: compactTurns,
    refreshes: [["toolu_q01", [30]], ["SessionStart", []], ["toolu_q05", [30]]],
    then: (s, _, refreshes) => {
      // A threshold restates both sources.
      ok(bodyOf(refreshes[0]!).includes(OWN_RULES) && bodyOf(refreshes[0]!).includes(REINJECT_MD));
      const start = refreshes[1]!;
      equal(start.hookName, "SessionStart");
      ok(start.content.startsWith(COMPACT_TAG), start.content.slice(0, 80));
      // After the compaction, only what Claude Code does not put back itself: not CLAUDE.md.
      equal(bodyOf(start), `\n## Your rules from .claude/reinject.md\n\n${REINJECT_MD}\n`);

      const restated = restatedAfterCompaction(s);
      equal(restated.perRequest[0], 1, "restated once in the first request of the new context");
      // Where it lands (measured): a <system-reminder> in the new user message, as SessionStart's.
      ok(
        restated.first.includes(
          JSON.stringify(`${SESSION_START_CONTEXT}${start.content}`).slice(1, -1),
        ),
        "the whole restatement, as SessionStart hook additional context",
      );
      // The marked CLAUDE.md section is in that request once: Claude Code's own copy of CLAUDE.md.
      const marked = JSON.stringify(OWN_RULES).slice(1, -1);
      equal(restated.first.split(marked).length - 1, 1, "the marked section, once");
      ok(restated.first.includes("UNMARKED project notes"), "from Claude Code's CLAUDE.md");
      // Never again back to back: no tool call of the new context restates it a second time.
      deepStrictEqual(restated.perRequest, restated.perRequest.map(() => 1));
    },
  },
  {
    name: "with LESSONS_REINJECT_AFTER_COMPACT=0 nothing is restated at compaction",
    manifest: null,
    files: { "work/CLAUDE.md": OWN_CLAUDE_MD },
    env: { LESSONS_REINJECT_AFTER_COMPACT: "0" },
    script: compactScript("toolu_n"),
    turns: compactTurns,
    refreshes: [["toolu_n01", [30]], ["toolu_n05", [30]]],
    then: (s) => {
      const restated = restatedAfterCompaction(s);
      deepStrictEqual(restated.perRequest, restated.perRequest.map(() => 0));
      ok(!restated.first.includes(SESSION_START_CONTEXT), "no SessionStart context at all");
    },
  },
  {
    name: "20 MCP tool schemas arriving mid-session push it across 30%: refreshed on that call",
    env: { ENABLE_TOOL_SEARCH: "false" },
    script: {
      // 28.5 % before the server's late tools: their schemas (about 20,000 tokens) cross 30.
      requestBase: 57_000,
      main: fromRequest(LATE_IDS.map((id, i) => ({ id, call: i < 3 ? sleepy(1.5) : sleepy(0) }))),
    },
    turns: (s) => {
      const late = ["--tools=1", "--late=20", "--late-after=2000", "--description=1500"];
      return turn({ extraArgs: ["--mcp-config", mcpConfig(s, late)] })(s);
    },
    then: (s, _, refreshes) => {
      const crossing = crossingCall(s, 60_000, LATE_IDS);
      ok(crossing !== undefined && crossing !== LATE_IDS[0], `crossing call ${crossing}`);
      const main = s.stub.requests.filter((r) => r.route === "main");
      const grew = main.findIndex((r) => JSON.stringify(r.body.tools).includes("probe_tool_20"));
      equal(LATE_IDS[grew], crossing, "the late schemas are what crossed");
      deepStrictEqual(refreshes.map((r) => [r.toolUseID, thresholdsOf(r)]), [[crossing, [30]]]);
    },
  },
  {
    name: "deferred tool schemas loaded by ToolSearch push it across 30%: refreshed on that call",
    turns: turn({ allowTools: ["ToolSearch"] }),
    script: {
      // 29 % before: six deferred tools' schemas (about 5,000 tokens) cross 30.
      requestBase: 58_000,
      main: fromRequest([
        { id: SEARCH_IDS[0]!, call: sleepy(0) },
        {
          id: SEARCH_IDS[1]!,
          call: {
            name: "ToolSearch",
            input: {
              query: "select:WebFetch,WebSearch,NotebookEdit,CronCreate,TaskCreate,TaskUpdate",
              max_results: 10,
            },
          },
        },
        { id: SEARCH_IDS[2]!, call: sleepy(0) },
        { id: SEARCH_IDS[3]!, call: sleepy(0) },
      ]),
    },
    refreshes: [["toolu_t03", [30]]],
    then: (s) => {
      equal(crossingCall(s, 60_000, SEARCH_IDS), "toolu_t03", "what ToolSearch loaded crossed");
    },
  },
  {
    name: "four parallel Reads streamed one by one carry it across 30%: refreshed on that call",
    files: Object.fromEntries(STREAMED_READS.map((_, i) => [
      `work/part${i}.ts`,
      Array.from({ length: 400 }, (_, n) => `export const part${i}Line${n} = ${n};\n`).join(""),
    ])),
    script: ({ work }) => ({
      // 15 % before the Reads; their 80 KB of results (about 48,000 tokens) cross 30.
      requestBase: 30_000,
      main: [
        {
          usage: "request",
          // As a model streams: each Read starts before the next block arrives.
          blockDelayMs: 400,
          tools: reads(STREAMED_READS, (i) => join(work, `part${i}.ts`)),
        },
        ...fromRequest([{ id: "toolu_s5", call: sleepy(0) }, { id: "toolu_s6", call: sleepy(0) }]),
      ],
    }),
    refreshes: [["toolu_s5", [30]]],
    then: (s) => {
      // Whether a result lands between the response's entries depends on how fast each tool and
      // its hooks end against Claude Code's own writes (seen in 2.1.112 and in the measurement,
      // not forced here); either way the next call counts every byte after the response's first
      // entry (tests/integration/ceiling_hook_test.ts pins that case).
      equal(crossingCall(s, 60_000, ["toolu_s1", "toolu_s5", "toolu_s6"]), "toolu_s5");
    },
  },
  {
    name: "an impossible jump (10% to 75%, no bytes) refreshes on the crossing call or the next",
    unbacked: "a jump of 128,000 tokens on an echo: past any ceiling, on purpose",
    script: {
      main: [
        ...[20_000, 21_000, 22_000, 150_000, 151_000].map((tokens, i) =>
          echoAt(tokens, `toolu_i0${i + 1}`)
        ),
        { usage: usage(151_500), text: "Finished." },
      ],
    },
    then: (_, lines, refreshes) => {
      equal(refreshes.length, 1, `refreshes: ${refreshes.map((r) => r.toolUseID)}`);
      // The ceiling from 22,000 tokens rules the crossing out; the call's own entry, when it is
      // already written, says otherwise. Never later than the next call, whose reading is 75 %.
      ok(["toolu_i04", "toolu_i05"].includes(refreshes[0]!.toolUseID), refreshes[0]!.toolUseID);
      deepStrictEqual(thresholdsOf(refreshes[0]!), [30, 52, 70]);
      ok(decisionFor(lines, "toolu_i04") !== "", "no hook ran for the crossing call");
    },
  },
  {
    name: "a jump straight into auto-compaction loses nothing: the restatement carries the rules",
    unbacked: "a jump to 95 % on an echo: straight into auto-compaction, on purpose",
    manifest: null,
    files: { "work/CLAUDE.md": OWN_CLAUDE_MD, "work/.claude/reinject.md": `${REINJECT_MD}\n` },
    script: {
      main: [
        ...[20_000, 21_000, 190_000].map((tokens, i) => echoAt(tokens, `toolu_u0${i + 1}`)),
        echoAt(12_000, "toolu_u04"), // after the compaction: the new context
        { usage: usage(12_500), text: "Finished." },
      ],
    },
    then: (s, lines, refreshes) => {
      ok(lines.some((l) => l.subtype === "compact_boundary"), "Claude Code did not compact");
      const restated = restatedAfterCompaction(s);
      equal(
        restated.perRequest[0],
        1,
        "the rules restated once in the new context's first request",
      );
      ok(restated.first.includes(REINJECT_MD), "the restatement lacks the rules");
      // The marked CLAUDE.md section is not in the restatement: Claude Code's reloaded CLAUDE.md
      // is in that request already. (The refresh of the call that crossed into the compaction is
      // there too: Claude Code keeps that call's result in the new context.)
      const start = refreshes.find((r) => r.toolUseID === "SessionStart");
      ok(start?.content.includes(REINJECT_MD), start?.content);
      ok(!start?.content.includes(OWN_RULES), start?.content);
      ok(
        restated.first.includes(
          `UNMARKED project notes stay out of refreshes.\\n\\n${OWN_RULES.split("\n")[0]}`,
        ),
        "Claude Code's own copy of CLAUDE.md",
      );
    },
  },
];

for (const { name, bin: cli = bin, ...test } of CASES) {
  scenarioTest(cli, { name: `e2e: ${name}`, ...test });
}
