/**
 * End-to-end: `status --timeline` on a session real Claude Code ran with the hook. The chart's
 * marks are the hook's own replayed decisions; they must match what Claude Code recorded in the
 * same transcript: each refresh on the call that carried it, delivered, the auto-compaction, and
 * the rules restated after it. `LESSONS_E2E_TIMELINE=FILE` keeps the transcript (to draw it).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { usage } from "../../scripts/loopback/backed_steps.ts";
import { cli } from "../cli/_cli.ts";
import { claudeForSuite, climbing, type Json, scenarioTest, turn } from "./harness.ts";

const bin = await claudeForSuite();

/** The main chain's tool calls, in order: the chart numbers them from 1. */
function toolCalls(lines: Json[]): string[] {
  return lines.flatMap((line) => {
    const message = line.message as Json | undefined;
    if (line.type !== "assistant" || line.isSidechain === true) return [];
    const content = Array.isArray(message?.content) ? message.content as Json[] : [];
    return content.filter((b) => b.type === "tool_use").map((b) => String(b.id));
  });
}

scenarioTest(bin, {
  name: "e2e: status --timeline marks each refresh where Claude Code recorded it, delivered",
  unbacked: "a jump from 74 % to 88 % on an echo, straight into auto-compaction, on purpose",
  script: {
    main: [
      ...climbing("toolu_t", [10, 27, 44, 58, 62, 79, 96, 103, 105, 122, 139, 141, 148], 148.5)
        .slice(0, -1),
      {
        usage: usage(176_000),
        tools: [{ name: "Bash", input: { command: "echo hi" }, id: "toolu_tjump" }],
      },
      // The new context after the auto-compaction.
      ...climbing("toolu_ta", [12, 29, 45, 62], 63),
    ],
  },
  turns: turn({}, "Climb the context."),
  refreshes: [
    ["toolu_t05", [30]],
    ["toolu_t09", [52]],
    ["toolu_t12", [70]],
    ["SessionStart", []],
    ["toolu_ta04", [30]],
  ],
  then: async (s, lines, refreshes) => {
    ok(lines.some((l) => l.subtype === "compact_boundary"), "Claude Code did not compact");
    const calls = toolCalls(lines);
    const recorded = refreshes.map((r) => r.toolUseID);
    const path = await s.transcriptPath();
    const run = await cli(["status", "--timeline", "--json", "--transcript", path], {
      HOME: s.home,
    });
    equal(run.code, 0, run.stderr);
    const timeline = JSON.parse(run.stdout);
    equal(timeline.calls.length, calls.length);
    const events = timeline.events as Json[];
    const marked = events.filter((e) => e.kind === "refresh" || e.kind === "restatement").map((
      e,
    ) => `${e.call === "SessionStart" ? e.call : calls[Number(e.call) - 1]} ${e.delivery}`);
    deepStrictEqual(marked, recorded.map((id) => `${id} delivered`));
    const compactions = events.filter((e) => e.kind === "compaction");
    equal(compactions.length, 1);
    equal(compactions[0]!.trigger, "auto");
    equal(calls[Number(compactions[0]!.beforeCall) - 1], "toolu_ta01");
    deepStrictEqual(events.filter((e) => e.kind === "resend"), []);
    await s.keepTranscript("LESSONS_E2E_TIMELINE");
  },
});
