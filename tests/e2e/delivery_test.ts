/**
 * End-to-end delivery receipts: real Claude Code 2.1.328 against the loopback API. A refresh
 * answered on an Agent call reaches the model and its receipt is seen; a hook killed between its
 * claim and its answer is followed by a delivery on the next call; a SessionStart(compact) answer
 * that is dropped is followed by the restatement on the first tool call. Each is checked on both
 * sides: the transcript Claude Code wrote, and the request bodies the model received.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { backedSteps, reportCarrying } from "../../scripts/loopback/backed_steps.ts";
import { probePlugin } from "../../scripts/measure/probe_plugin.ts";
import { cli } from "../cli/_cli.ts";
import {
  agentCall,
  attachmentOf,
  claudeForSuite,
  climbing,
  COMPACT_TAG,
  compactTurns,
  decisionFor,
  deliveredAfter,
  HEADER_TAG,
  type Json,
  restatedAfterCompaction,
  ROOT,
  scenarioTest,
  turn,
} from "./harness.ts";

const bin = await claudeForSuite();
const HOOK = `"${join(ROOT, "hooks", "run")}"`;

/**
 * A test build of the plugin (`probePlugin`, named lessons-reinject): a hooks.json of its own, whose
 * commands run the real `hooks/run`, or the shell command `wiring` gives for tool calls or for
 * SessionStart clear|compact, with `scripts` beside it in `hooks/` (named as
 * `${CLAUDE_PLUGIN_ROOT}/hooks/<name>.sh`). Nothing in the product changes; only how Claude Code
 * is told to run it.
 */
function testPlugin(
  wiring: { toolCall?: string; sessionStart?: string; timeout?: number },
  scripts: Record<string, string> = {},
): () => Promise<string> {
  const group = (command: string, matcher?: string) => [{
    ...(matcher ? { matcher } : {}),
    hooks: [{ type: "command", command, timeout: wiring.timeout ?? 5 }],
  }];
  const hooks = {
    PostToolUse: group(wiring.toolCall ?? HOOK, ".+"),
    PostToolUseFailure: group(wiring.toolCall ?? HOOK, ".+"),
    SessionStart: group(wiring.sessionStart ?? HOOK, "clear|compact"),
    PostCompact: group(HOOK),
  };
  return () => probePlugin("lessons-reinject", hooks, scripts);
}

const AGENT_TASK = "E2E-DELIVERY-AGENT-7f3a";
/** What the subagent's report (the Agent call's result) carries to the main session. */
const AGENT_REPORT_TOKENS = 1_000;

scenarioTest(bin, {
  name:
    "e2e delivery: a refresh answered on an Agent call reaches the model, and its receipt is seen",
  script: {
    main: backedSteps([
      { id: "toolu_g01", tokens: 45_000 }, // 22.5 %
      {
        id: "toolu_g02",
        tokens: 62_000, // 31 %: the Agent call's own hook crosses 30
        call: agentCall(AGENT_TASK),
      },
      // Carried by the Agent call's result: the subagent's report (and the refresh).
      { id: "toolu_g03", tokens: 62_000 + AGENT_REPORT_TOKENS },
      { id: "toolu_g04", tokens: 65_000 },
    ], 66_000),
    agents: {
      [AGENT_TASK]: backedSteps(
        [{ id: "toolu_ga1", tokens: 10_000 }],
        11_000,
        reportCarrying(AGENT_REPORT_TOKENS),
      ),
    },
  },
  turns: turn({ allowTools: ["Agent"] }, "Delegate at the crossing."),
  refreshes: [["toolu_g02", [30]]],
  then: async (s, lines, refreshes) => {
    equal(s.stub.served[AGENT_TASK], 2, "the subagent did not run its script");
    equal(refreshes[0]!.hookName, "PostToolUse:Agent");
    // The next call finds Claude Code's record of it: delivered, nothing sent again.
    const next = decisionFor(lines, "toolu_g03");
    ok(next.includes("receipts: 30 delivered on toolu_g02"), next);
    ok(!decisionFor(lines, "toolu_g04").includes("receipts:"), "a receipt still outstanding");
    await s.keepTranscript("LESSONS_E2E_RECORD_DELIVERY", "agent-call.jsonl");
  },
});

/**
 * Runs the real hook; the first time its answer is a refresh, holds the answer back past the
 * hook's timeout, so Claude Code kills this command after the hook's claim and before its answer.
 */
const KILL_ONCE = `#!/bin/sh
out=$(${HOOK})
case $out in
  *'[lessons-reinject refresh '*)
    if mkdir "$0.killed" 2>/dev/null; then sleep 20; exit 0; fi ;;
esac
printf '%s' "$out"
`;

scenarioTest(bin, {
  name: "e2e delivery: a hook killed between claim and answer: the next call delivers the refresh",
  script: {
    // 22.5 %; 31 % on k02 claims 30, killed before answering; k03 sends 30 again.
    main: climbing("toolu_k", [45, 62, 64, 66], 67),
  },
  plugin: testPlugin({
    toolCall: '"${CLAUDE_PLUGIN_ROOT}/hooks/kill-once.sh"',
    timeout: 8,
  }, { "kill-once.sh": KILL_ONCE }),
  turns: turn({}, "Climb; one hook is killed."),
  // Sent once, on the next call, and never a third time.
  refreshes: [["toolu_k03", [30]]],
  then: async (s, lines) => {
    // Claude Code killed the hook of the crossing call: its answer never arrived.
    const cancelled = lines.map(attachmentOf).filter((a) => a?.type === "hook_cancelled");
    deepStrictEqual(cancelled.map((a) => a?.toolUseID), ["toolu_k02"]);
    // The hook had claimed 30 on toolu_k02; the next call found no record of it and sent it again.
    const resend = decisionFor(lines, "toolu_k03");
    ok(
      resend.includes(
        "30 not recorded for toolu_k02 (Claude Code cancelled the hook), and the session moved " +
          "past it: sending it again",
      ),
      resend,
    );
    // It reached the model in the request after toolu_k03 (checked), and in no request before it.
    const first = deliveredAfter(s.modelRequests(), "toolu_k03")!.request;
    const before = s.modelRequests().slice(0, s.modelRequests().indexOf(first));
    const early = before.filter((r) => JSON.stringify(r.body.messages).includes(HEADER_TAG));
    equal(early.length, 0, "a request before toolu_k03's result carried the refresh");
    // Its receipt is seen on the call after.
    ok(decisionFor(lines, "toolu_k04").includes("30 (re-sent) delivered on toolu_k03"));
    await s.keepTranscript("LESSONS_E2E_RECORD_DELIVERY", "hook-cancelled.jsonl");
  },
});

/** Two turns around a real `/compact`: 31 %, 30; after it, 10 % on s02, its first tool call. */
const COMPACT_SCRIPT = {
  main: [...climbing("toolu_s", [62], 63), ...climbing("toolu_s", [20, 22], 23, 2)],
};

scenarioTest(bin, {
  name:
    "e2e delivery: a dropped SessionStart(compact) answer: the first tool call restates the rules",
  script: COMPACT_SCRIPT,
  plugin: testPlugin({ sessionStart: `${HOOK} >/dev/null` }),
  turns: compactTurns,
  refreshes: [["toolu_s01", [30]], ["toolu_s02", []]],
  then: async (s, lines, refreshes) => {
    // SessionStart(compact) ran and restated, but its stdout was discarded: nothing recorded.
    const start = lines.map(attachmentOf).filter((a) =>
      a?.type === "hook_success" && a.hookName === "SessionStart:compact"
    );
    equal(start.length, 1, "SessionStart(compact) did not run");
    equal(start[0]!.stdout, "");
    ok(String(start[0]!.stderr).includes("restating the rules"), String(start[0]!.stderr));
    ok(refreshes[1]!.content.startsWith(COMPACT_TAG), refreshes[1]!.content.slice(0, 80));
    const first = decisionFor(lines, "toolu_s02");
    ok(
      first.includes("compact not recorded for SessionStart, and the session moved past it"),
      first,
    );
    // Once in the new context: the later requests repeat it as history, never a second copy.
    const { perRequest } = restatedAfterCompaction(s);
    ok(perRequest.every((n) => n <= 1), `restatements per request: ${perRequest}`);
    ok(decisionFor(lines, "toolu_s03").includes("compact (re-sent) delivered on toolu_s02"));
    await s.keepTranscript("LESSONS_E2E_RECORD_DELIVERY", "sessionstart-dropped.jsonl");
  },
});

scenarioTest(bin, {
  name: "e2e delivery: SessionStart(compact)'s answer recorded: no tool call restates",
  script: COMPACT_SCRIPT,
  turns: compactTurns,
  refreshes: [["toolu_s01", [30]], ["SessionStart", []]],
  then: async (s) => {
    // The next turn's SessionStart(resume) or its first tool call sees the record.
    const status = await cli(["status", "--json", "--transcript", await s.transcriptPath()], {
      HOME: s.home,
      TMPDIR: s.tmp,
    });
    deepStrictEqual(
      JSON.parse(status.stdout).deliveries.map((d: Json) => `${d.refresh} ${d.call} ${d.status}`),
      ["compact SessionStart delivered"],
      status.stdout,
    );
    await s.keepTranscript("LESSONS_E2E_RECORD_DELIVERY", "sessionstart-answered.jsonl");
  },
});
