/**
 * End-to-end: real Claude Code 2.1.328 with this repository as a plugin, against the loopback
 * API stand-in. Each scenario asserts on both sides: the transcript's `hook_additional_context`
 * attachments (which tool call got a refresh) and the requests the model received (inline text).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Step, StepUsage } from "../../scripts/loopback/api_stub.ts";
import {
  attachmentOf,
  claudeForSuite,
  deliveredAfter,
  HEADER_TAG,
  hookErrorsIn,
  type Json,
  readJsonl,
  type Refresh,
  refreshesIn,
  Scenario,
  type ScenarioSetup,
  statedPercent,
  thresholdsOf,
  TOO_LARGE,
  toolResultText,
} from "./harness.ts";

const INLINE_LIMIT = 10_000;

const bin = await claudeForSuite();

/** Context usage of `tokens`, spread over the three input fields Claude Code adds up. */
function usage(tokens: number): StepUsage {
  return {
    input_tokens: 3,
    cache_creation_input_tokens: 997,
    cache_read_input_tokens: tokens - 1000,
  };
}

/** A model turn that runs one Bash command as tool call `id`. */
function bash(id: string, tokens: number, command = `echo ${id}`): Step {
  return { usage: usage(tokens), tools: [{ name: "Bash", input: { command }, id }] };
}

/** The model's last turn: plain text. */
function finish(tokens: number): Step {
  return { usage: usage(tokens), text: "Finished." };
}

/** Runs `body` on a fresh scenario, explaining the scenario's state when an assertion fails. */
function scenario(
  name: string,
  setup: Omit<ScenarioSetup, "name">,
  body: (s: Scenario) => Promise<void>,
): void {
  Deno.test({
    name: `e2e: ${name}`,
    ignore: bin === "",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const short = name.replace(/[^a-z0-9]+/gi, "-").slice(0, 24);
      const s = await Scenario.start(bin, { name: short, ...setup });
      try {
        await body(s);
      } catch (error) {
        const why = await s.diagnosis();
        throw new Error(
          `${error instanceof Error ? error.message : error}\n--- diagnosis\n${why}`,
          {
            cause: error,
          },
        );
      } finally {
        await s.close();
      }
    },
  });
}

/** One `claude -p` turn that must end normally, having served the whole main script. */
async function runTurn(
  s: Scenario,
  prompt: string,
  options: Parameters<Scenario["turn"]>[1] = {},
): Promise<void> {
  const turn = await s.turn(prompt, options);
  equal(turn.code, 0, `claude exited ${turn.code}: ${turn.stderr}`);
  equal(turn.result.is_error, false, `claude reported an error: ${JSON.stringify(turn.result)}`);
}

async function mainLines(s: Scenario): Promise<Json[]> {
  return await readJsonl(await s.transcriptPath());
}

/** Each refresh reached the model whole, inline with its tool result, within the limit. */
function assertDelivered(s: Scenario, refreshes: Refresh[]): void {
  for (const refresh of refreshes) {
    ok(refresh.content.length <= INLINE_LIMIT, `refresh is ${refresh.content.length} chars`);
    const delivered = deliveredAfter(s.modelRequests(), refresh.toolUseID);
    ok(delivered, `no request carried the result of ${refresh.toolUseID}`);
    ok(
      delivered.text.includes(refresh.content),
      `the refresh for ${refresh.toolUseID} did not reach the model whole and inline`,
    );
    ok(!delivered.text.includes(TOO_LARGE), `"${TOO_LARGE}" reached the model`);
  }
  for (const request of s.modelRequests()) {
    ok(!JSON.stringify(request.body.messages).includes(TOO_LARGE), `"${TOO_LARGE}" in a request`);
  }
}

/** The hook's own decision line (LESSONS_DEBUG) for tool call `id`, from its hook_success. */
function decisionFor(lines: Json[], id: string): string {
  const found = lines.map(attachmentOf).filter((a) =>
    a?.type === "hook_success" && a.toolUseID === id &&
    String(a.hookName).startsWith("PostToolUse")
  );
  return found.map((a) => String(a?.stderr ?? "").trim()).join(" | ");
}

const COMPACT_TAG = "[lessons-reinject refresh compact ref=";
const SESSION_START_CONTEXT = "SessionStart hook additional context: ";

/**
 * The first request of the new context after a real `/compact` (the first main request after
 * the compaction request), and how many compaction restatements it and the requests after it
 * carry (each request repeats the history, so one delivered restatement counts once in each).
 */
function restatedAfterCompaction(s: Scenario): {
  first: string;
  count: number;
  perRequest: number[];
} {
  const requests = s.stub.requests.filter((r) => r.route !== "count_tokens" && r.route !== "side");
  const compact = requests.findIndex((r) => r.route === "compact");
  ok(compact >= 0, "no compaction request reached the API");
  const after = requests.slice(compact).filter((r) => r.route === "main");
  ok(after.length > 0, "no request after the compaction");
  const texts = after.map((r) => JSON.stringify(r.body.messages));
  const count = (text: string) => text.split(COMPACT_TAG).length - 1;
  // Nothing of it in the compaction request itself, nor in the summary it produced.
  for (const r of requests.filter((r) => r.route === "compact")) {
    equal(count(JSON.stringify(r.body.messages)), 0, "a restatement in the compaction request");
  }
  return { first: texts[0]!, count: count(texts[0]!), perRequest: texts.map(count) };
}

scenario("a climb from 5% to 74% on a 200k model refreshes at 30, 52 and 70", {
  script: {
    main: [
      bash("toolu_c01", 10_000), // 5 %
      bash("toolu_c02", 40_000), // 20 %
      bash("toolu_c03", 58_000), // 29 %
      bash("toolu_c04", 62_000), // 31 %: crosses 30
      bash("toolu_c05", 90_000), // 45 %
      bash("toolu_c06", 103_000), // 51.5 %: not yet 52
      bash("toolu_c07", 105_000), // 52.5 %: crosses 52
      bash("toolu_c08", 130_000), // 65 %
      bash("toolu_c09", 139_000), // 69.5 %: not yet 70
      bash("toolu_c10", 141_000), // 70.5 %: crosses 70
      bash("toolu_c11", 148_000), // 74 %
      finish(148_500),
    ],
  },
}, async (s) => {
  await runTurn(s, "Climb the context.", { model: "claude-sonnet-4-6" });
  equal(s.stub.served.main, 12);
  const refreshes = refreshesIn(await mainLines(s));
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_c04", "toolu_c07", "toolu_c10"]);
  deepStrictEqual(refreshes.map(thresholdsOf), [[30], [52], [70]]);
  deepStrictEqual(refreshes.map(statedPercent), [
    { percent: 31, window: "200k" },
    { percent: 52, window: "200k" },
    { percent: 70, window: "200k" },
  ]);
  deepStrictEqual(refreshes.map((r) => r.hookName), Array(3).fill("PostToolUse:Bash"));
  assertDelivered(s, refreshes);
});

scenario("the default model (claude-opus-5-5) is measured against 1,000,000 tokens", {
  script: {
    main: [
      bash("toolu_o01", 150_000), // 15 % of 1M; would be 75 % of 200k
      bash("toolu_o02", 250_000), // 25 %
      bash("toolu_o03", 310_000), // 31 %: crosses 30
      bash("toolu_o04", 530_000), // 53 %: crosses 52
      finish(540_000),
    ],
  },
}, async (s) => {
  await runTurn(s, "Use the default model.");
  const lines = await mainLines(s);
  const models = new Set(
    lines.filter((l) => l.type === "assistant").map((l) => (l.message as Json).model),
  );
  deepStrictEqual([...models], ["claude-opus-5-5"]);
  const refreshes = refreshesIn(lines);
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_o03", "toolu_o04"]);
  deepStrictEqual(refreshes.map(thresholdsOf), [[30], [52]]);
  deepStrictEqual(refreshes.map(statedPercent), [
    { percent: 31, window: "1M" },
    { percent: 53, window: "1M" },
  ]);
  assertDelivered(s, refreshes);
});

scenario("a jump from 8% to 75% refreshes once and never again", {
  script: {
    main: [
      bash("toolu_j01", 16_000), // 8 %
      bash("toolu_j02", 150_000), // 75 %: crosses 30, 52 and 70 at once
      bash("toolu_j03", 156_000), // 78 %
      bash("toolu_j04", 160_000), // 80 %
      finish(161_000),
    ],
  },
}, async (s) => {
  await runTurn(s, "Jump.", { model: "claude-sonnet-4-6" });
  const refreshes = refreshesIn(await mainLines(s));
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_j02"]);
  deepStrictEqual(refreshes.map(thresholdsOf), [[30, 52, 70]]);
  assertDelivered(s, refreshes);
});

const READS = ["toolu_r1", "toolu_r2", "toolu_r3", "toolu_r4"];

scenario("four parallel Reads at 35% give exactly one refresh", {
  script: ({ work }) => ({
    main: [
      bash("toolu_p01", 20_000),
      {
        usage: usage(70_000), // 35 %
        tools: READS.map((id, i) => ({
          name: "Read",
          input: { file_path: join(work, `file${i}.txt`) },
          id,
        })),
      },
      finish(71_000),
    ],
  }),
}, async (s) => {
  for (let i = 0; i < READS.length; i++) {
    await Deno.writeTextFile(join(s.work, `file${i}.txt`), `contents of file ${i}\n`);
  }
  await runTurn(s, "Read four files at once.", { model: "claude-sonnet-4-6" });
  const lines = await mainLines(s);
  const refreshes = refreshesIn(lines);
  equal(refreshes.length, 1, `refreshes: ${refreshes.map((r) => r.toolUseID)}`);
  ok(READS.includes(refreshes[0]!.toolUseID));
  deepStrictEqual(thresholdsOf(refreshes[0]!), [30]);
  // Every Read ran its own hook; only one of them fired.
  for (const id of READS) ok(decisionFor(lines, id) !== "", `no hook ran for ${id}`);
  assertDelivered(s, refreshes);
  // The model saw the refresh in exactly one of the four tool results.
  const last = s.modelRequests().at(-1)!;
  const carrying = READS.filter((id) => toolResultText(last, id)?.includes(HEADER_TAG));
  deepStrictEqual(carrying, [refreshes[0]!.toolUseID]);
});

scenario("after a real /compact the thresholds fire again in the new context", {
  script: {
    main: [
      bash("toolu_k01", 62_000), // 31 %: 30
      bash("toolu_k02", 106_000), // 53 %: 52
      finish(107_000),
      // Second turn, after /compact.
      bash("toolu_k03", 20_000), // 10 %
      bash("toolu_k04", 64_000), // 32 %: 30 again
      bash("toolu_k05", 108_000), // 54 %: 52 again
      finish(109_000),
    ],
  },
}, async (s) => {
  await runTurn(s, "First turn.", { model: "claude-sonnet-4-6" });
  await runTurn(s, "/compact", { model: "claude-sonnet-4-6", resume: true });
  ok(s.stub.requests.some((r) => r.route === "compact"), "no compaction request reached the API");
  await runTurn(s, "Second turn.", { model: "claude-sonnet-4-6", resume: true });
  equal(s.stub.served.main, 7);

  const lines = await mainLines(s);
  const boundary = lines.findIndex((l) => l.type === "system" && l.subtype === "compact_boundary");
  ok(boundary >= 0, "no compact_boundary in the transcript");
  const all = refreshesIn(lines);
  // SessionStart(compact)'s answer is recorded too: the rules restated for the new context.
  deepStrictEqual(all.map((r) => r.toolUseID), [
    "toolu_k01",
    "toolu_k02",
    "SessionStart",
    "toolu_k04",
    "toolu_k05",
  ]);
  const refreshes = all.filter((r) => r.toolUseID !== "SessionStart");
  deepStrictEqual(refreshes.map(thresholdsOf), [[30], [52], [30], [52]]);
  ok(refreshes[1]!.line < boundary && boundary < refreshes[2]!.line);
  assertDelivered(s, refreshes);
  equal(restatedAfterCompaction(s).count, 1);
  const recording = Deno.env.get("LESSONS_E2E_RECORD_COMPACT");
  if (recording) await Deno.copyFile(await s.transcriptPath(), recording);
});

scenario("a failing Bash call at the crossing still delivers the refresh", {
  script: {
    main: [
      bash("toolu_f01", 20_000),
      bash("toolu_f02", 64_000, "echo failing >&2; exit 3"), // 32 %, exits non-zero
      bash("toolu_f03", 70_000),
      finish(71_000),
    ],
  },
}, async (s) => {
  await runTurn(s, "Fail at the crossing.", { model: "claude-sonnet-4-6" });
  const refreshes = refreshesIn(await mainLines(s));
  deepStrictEqual(refreshes.map((r) => [r.toolUseID, r.hookName]), [
    ["toolu_f02", "PostToolUseFailure:Bash"],
  ]);
  assertDelivered(s, refreshes);
  const last = s.modelRequests().at(-1)!;
  const messages = last.body.messages as Json[];
  const failed = messages.flatMap((m) => Array.isArray(m.content) ? m.content as Json[] : [])
    .find((b) => b.type === "tool_result" && b.tool_use_id === "toolu_f02");
  equal(failed?.is_error, true, "the failing call's result is not marked as an error");
});

/** A manifest of about 40 KB: 24 directives and 16 protocols with long messages. */
function bigManifest(): { text: string; directives: string[]; protocols: string[] } {
  const lessons: Record<string, unknown> = {};
  const directives: string[] = [];
  const protocols: string[] = [];
  for (let i = 0; i < 40; i++) {
    const kind = i < 24 ? "directive" : "protocol";
    const slug = `${kind}-${String(i).padStart(2, "0")}`;
    (kind === "directive" ? directives : protocols).push(slug);
    lessons[`01JBIG${String(i).padStart(20, "0")}`] = {
      slug,
      type: kind,
      priority: 1 + (i % 10),
      tags: [`area:${["build", "git", "review", "tests"][i % 4]}`],
      scope: null,
      message: `**${slug}: a long rule.** ` + "Explain the rule with care and detail. ".repeat(25),
      summary: `${slug}: the rule in one line.`,
    };
  }
  const text = JSON.stringify({ type: "lessons-learned-manifest", version: 1, lessons }, null, 2);
  return { text, directives, protocols };
}

const big = bigManifest();

scenario("a 40 KB manifest arrives inline, at most 10,000 characters, every directive named", {
  manifest: big.text,
  script: { main: [bash("toolu_b01", 20_000), bash("toolu_b02", 64_000), finish(65_000)] },
}, async (s) => {
  ok(big.text.length >= 40_000, `manifest is only ${big.text.length} bytes`);
  await runTurn(s, "Big manifest.", { model: "claude-sonnet-4-6" });
  const refreshes = refreshesIn(await mainLines(s));
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_b02"]);
  const text = refreshes[0]!.content;
  ok(text.length <= INLINE_LIMIT, `refresh is ${text.length} chars`);
  for (const slug of [...big.directives, ...big.protocols]) {
    ok(text.includes(`${slug}:`), `${slug} is not named in the refresh`);
  }
  assertDelivered(s, refreshes);
});

scenario("a corrupt manifest: the session runs to the end, no hook error, no refresh", {
  manifest: '{"type":"lessons-learned-manifest","version":1,"lessons":{"01J',
  script: {
    main: [
      bash("toolu_x01", 20_000),
      bash("toolu_x02", 62_000), // 31 %
      bash("toolu_x03", 106_000), // 53 %
      bash("toolu_x04", 150_000), // 75 %
      finish(151_000),
    ],
  },
}, async (s) => {
  await runTurn(s, "Corrupt manifest.", { model: "claude-sonnet-4-6" });
  equal(s.stub.served.main, 5, "the session did not run to its last step");
  equal(s.turns[0]!.result.result, "Finished.");
  const lines = await mainLines(s);
  deepStrictEqual(refreshesIn(lines), []);
  deepStrictEqual(hookErrorsIn(lines), []);
  const hookRuns = lines.map(attachmentOf).filter((a) =>
    a?.type === "hook_success" && String(a.hookName).startsWith("PostToolUse")
  );
  equal(hookRuns.length, 4, "a hook run per tool call");
  for (const run of hookRuns) {
    equal(run?.exitCode, 0);
    equal(run?.stdout, "");
    ok(!String(run?.stderr).includes("internal error"), String(run?.stderr));
  }
  ok(decisionFor(lines, "toolu_x02").includes("manifest"), decisionFor(lines, "toolu_x02"));
  for (const request of s.modelRequests()) {
    ok(!JSON.stringify(request.body).includes(HEADER_TAG), "a refresh reached the model");
  }
});

const AGENT_MARKER = "E2E-SUBAGENT-TASK-5d1c";

scenario("a subagent's tool calls never consume or advance the main thresholds", {
  capturePayloads: true,
  script: {
    main: [
      bash("toolu_m01", 20_000), // 10 %
      {
        usage: usage(30_000), // 15 %
        tools: [{
          name: "Agent",
          id: "toolu_m02",
          input: {
            description: "scripted sub task",
            prompt: `Do the scripted sub task. ${AGENT_MARKER}`,
            subagent_type: "general-purpose",
            run_in_background: false,
          },
        }],
      },
      bash("toolu_m03", 64_000), // 32 %: the main thread's 30
      bash("toolu_m04", 106_000), // 53 %: the main thread's 52
      finish(107_000),
    ],
    agents: {
      [AGENT_MARKER]: [
        bash("toolu_a01", 80_000), // the subagent's own context: 40 %
        bash("toolu_a02", 150_000), // 75 %
        finish(151_000),
      ],
    },
  },
}, async (s) => {
  await runTurn(s, "Delegate a task.", { model: "claude-sonnet-4-6", allowTools: ["Agent"] });
  equal(s.stub.served[AGENT_MARKER], 3, "the subagent did not run its script");
  equal(s.stub.served.main, 5);

  const lines = await mainLines(s);
  const main = refreshesIn(lines);
  deepStrictEqual(main.map((r) => r.toolUseID), ["toolu_m03", "toolu_m04"]);
  deepStrictEqual(main.map(thresholdsOf), [[30], [52]]);
  assertDelivered(s, main);

  // The subagent measured its own transcript and kept its own thresholds.
  const agentFiles = await s.subagentTranscripts();
  equal(agentFiles.length, 1, `subagent transcripts: ${agentFiles}`);
  const sub = refreshesIn(await readJsonl(agentFiles[0]!));
  deepStrictEqual(sub.map((r) => r.toolUseID), ["toolu_a01", "toolu_a02"]);
  deepStrictEqual(sub.map(thresholdsOf), [[30], [52, 70]]);
  deepStrictEqual(sub.map(statedPercent), [
    { percent: 40, window: "200k" },
    { percent: 75, window: "200k" },
  ]);
  assertDelivered(s, sub);

  // What Claude Code tells a subagent's hook (measured in 2.1.328): the main transcript_path,
  // the agent_id, no agent_transcript_path; the subagent's file is named after the agent_id.
  const payloads = await s.payloads();
  // The PRD's first open question, asked of the real CLI (docs/prd-departures.md): no hook's
  // stdin carries context_window.
  ok(payloads.some((p) => p.hook_event_name === "PostToolUse"), "no PostToolUse payload captured");
  deepStrictEqual(payloads.filter((p) => "context_window" in p).map((p) => p.hook_event_name), []);
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
});

const FORK_MARKER = "E2E-FORK-TASK-3b9c";

scenario("a fork subagent starts with the refresh its parent's context holds", {
  env: { CLAUDE_CODE_FORK_SUBAGENT: "1" },
  script: {
    main: [
      bash("toolu_p01", 60_000), // 30 %: the parent's 30, before the fork
      {
        usage: usage(64_000),
        tools: [{
          name: "Agent",
          id: "toolu_p02",
          input: {
            description: "scripted fork",
            prompt: `Do the scripted fork task. ${FORK_MARKER}`,
            subagent_type: "fork",
          },
        }],
      },
      bash("toolu_p03", 70_000),
      finish(72_000),
      finish(73_000), // answering the fork's completion notice
    ],
    forks: {
      [FORK_MARKER]: [
        bash("toolu_f01", 66_000), // 33 %: its context holds the parent's 30 already
        bash("toolu_f02", 106_000), // 53 %: its own 52
        finish(107_000),
      ],
    },
  },
}, async (s) => {
  await runTurn(s, "Fork a task.", { model: "claude-sonnet-4-6", allowTools: ["Agent"] });
  equal(s.stub.served[FORK_MARKER], 3, "the fork did not run its script");
  const main = refreshesIn(await mainLines(s));
  deepStrictEqual(main.map((r) => [r.toolUseID, thresholdsOf(r)]), [["toolu_p01", [30]]]);
  const files = await s.subagentTranscripts();
  equal(files.length, 1, `subagent transcripts: ${files}`);
  const forkLines = await readJsonl(files[0]!);
  equal(forkLines[0]?.type, "fork-context-ref", "the fork's first line");
  const fork = refreshesIn(forkLines);
  deepStrictEqual(fork.map((r) => [r.toolUseID, thresholdsOf(r)]), [["toolu_f02", [52]]]);
  assertDelivered(s, [...main, ...fork]);
});

scenario("a threshold is met by a reading exactly at it (29 % is 58,000 of 200,000 tokens)", {
  env: { LESSONS_REINJECT_THRESHOLDS: "29,57" },
  script: {
    main: [
      bash("toolu_e01", 57_998), // 28.999 %
      bash("toolu_e02", 58_000), // exactly 29 %: in floating point 58000 / 200000 * 100 < 29
      bash("toolu_e03", 113_998),
      bash("toolu_e04", 114_000), // exactly 57 %
      finish(114_500),
    ],
  },
}, async (s) => {
  await runTurn(s, "Exact boundaries.", { model: "claude-sonnet-4-6" });
  const refreshes = refreshesIn(await mainLines(s));
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_e02", "toolu_e04"]);
  deepStrictEqual(refreshes.map(statedPercent), [
    { percent: 29, window: "200k" },
    { percent: 57, window: "200k" },
  ]);
  assertDelivered(s, refreshes);
});

const OWN_RULES = "Always answer with the ticket number first.\nNever commit to main directly.";
const OWN_CLAUDE_MD = `# Project notes\n\nUNMARKED project notes stay out of refreshes.\n\n` +
  `<!-- reinject -->\n${OWN_RULES}\n<!-- /reinject -->\n`;
const OWN_HEADING = "## Rules you marked in CLAUDE.md";

/** The refresh text after its header line: what a refresh restated. */
function bodyOf(refresh: Refresh): string {
  return refresh.content.slice(refresh.content.indexOf("\n") + 1);
}

scenario("only a marked CLAUDE.md section, no manifest anywhere: exactly it at 30, 52 and 70", {
  manifest: null,
  files: { "work/CLAUDE.md": OWN_CLAUDE_MD },
  script: {
    main: [
      bash("toolu_w01", 20_000), // 10 %
      bash("toolu_w02", 62_000), // 31 %: 30
      bash("toolu_w03", 90_000), // 45 %
      bash("toolu_w04", 105_000), // 52.5 %: 52
      bash("toolu_w05", 141_000), // 70.5 %: 70
      bash("toolu_w06", 146_000),
      finish(147_000),
    ],
  },
}, async (s) => {
  await runTurn(s, "Own rules only.", { model: "claude-sonnet-4-6" });
  const lines = await mainLines(s);
  const refreshes = refreshesIn(lines);
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_w02", "toolu_w04", "toolu_w05"]);
  deepStrictEqual(refreshes.map(thresholdsOf), [[30], [52], [70]]);
  for (const refresh of refreshes) {
    // Exactly the marked section, under its heading: no lessons, nothing unmarked.
    equal(bodyOf(refresh), `\n${OWN_HEADING}\n\n${OWN_RULES}\n`);
  }
  assertDelivered(s, refreshes);
  ok(decisionFor(lines, "toolu_w02").includes("manifest: no manifest found"));
});

/** Two turns around a real `/compact`, with the marked section as the only rules. */
function compactScript(prefix: string): { main: Step[] } {
  return {
    main: [
      bash(`${prefix}01`, 62_000), // 31 %: 30
      finish(63_000),
      // After /compact.
      bash(`${prefix}02`, 20_000), // 10 %
      bash(`${prefix}03`, 64_000), // 32 %: 30 again
      finish(65_000),
    ],
  };
}

async function compactSession(s: Scenario): Promise<Json[]> {
  await runTurn(s, "Before compaction.", { model: "claude-sonnet-4-6" });
  await runTurn(s, "/compact", { model: "claude-sonnet-4-6", resume: true });
  await runTurn(s, "After compaction.", { model: "claude-sonnet-4-6", resume: true });
  return await mainLines(s);
}

scenario(
  "after a real /compact the own rules reach the model in the new context's first request, once",
  {
    manifest: null,
    files: { "work/CLAUDE.md": OWN_CLAUDE_MD },
    script: compactScript("toolu_q"),
  },
  async (s) => {
    const lines = await compactSession(s);
    const refreshes = refreshesIn(lines);
    deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_q01", "SessionStart", "toolu_q03"]);
    const start = refreshes[1]!;
    equal(start.hookName, "SessionStart");
    ok(start.content.startsWith(COMPACT_TAG), start.content.slice(0, 80));
    equal(bodyOf(start), `${OWN_HEADING}\n\n${OWN_RULES}\n`.replace(/^/, "\n"));

    const restated = restatedAfterCompaction(s);
    equal(restated.count, 1, "restated once in the first request of the new context");
    // Where it lands (measured): a <system-reminder> in the new user message, as SessionStart's.
    ok(
      restated.first.includes(
        JSON.stringify(`${SESSION_START_CONTEXT}${start.content}`).slice(1, -1),
      ),
      "the whole restatement, as SessionStart hook additional context",
    );
    // Never again back to back: no tool call of the new context restates it a second time.
    deepStrictEqual(restated.perRequest, restated.perRequest.map(() => 1));
    // The thresholds work as before in the new context.
    deepStrictEqual(thresholdsOf(refreshes[2]!), [30]);
    assertDelivered(s, [refreshes[0]!, refreshes[2]!]);
  },
);

scenario("with LESSONS_REINJECT_AFTER_COMPACT=0 nothing is restated at compaction", {
  manifest: null,
  files: { "work/CLAUDE.md": OWN_CLAUDE_MD },
  env: { LESSONS_REINJECT_AFTER_COMPACT: "0" },
  script: compactScript("toolu_n"),
}, async (s) => {
  const lines = await compactSession(s);
  const refreshes = refreshesIn(lines);
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_n01", "toolu_n03"]);
  deepStrictEqual(refreshes.map(thresholdsOf), [[30], [30]]);
  const restated = restatedAfterCompaction(s);
  deepStrictEqual(restated.perRequest, restated.perRequest.map(() => 0));
  ok(!restated.first.includes(SESSION_START_CONTEXT), "no SessionStart context at all");
  assertDelivered(s, refreshes);
});
