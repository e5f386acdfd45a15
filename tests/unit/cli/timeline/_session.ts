/**
 * Synthetic timelines for the chart's tests: hand-built, deterministic, shaped like the sessions
 * the issue names (three compactions, a 200k window proven 1M part-way, a refresh sent again).
 */
import type { Timeline, TimelineEvent } from "../../../../src/cli/timeline/model.ts";

type TimelineCall = Timeline["calls"][number];

const TOOLS = ["Bash", "Read", "Edit", "Grep", "mcp__github__create_pull_request_review_comment"];
const START = Date.parse("2025-06-03T09:00:00Z");

/** One call: a reading, the window and span it was measured against, 20 s after the last. */
export function call(
  n: number,
  tokens: number | undefined,
  window: number | undefined,
  span = window,
): TimelineCall {
  const time = new Date(START + (n - 1) * 20_000).toISOString();
  const tool = TOOLS[n % TOOLS.length] ?? "Bash";
  return { call: n, time, tool, tokens, window, span, large: false };
}

/** A timeline of `calls` (200k thresholds, no events, no subagents), with `overrides`. */
export function timeline(calls: TimelineCall[], overrides: Partial<Timeline> = {}): Timeline {
  const base = { transcript: "t.jsonl", sessionId: "s", thresholds: [30, 52, 70], cadence: [] };
  return { ...base, calls, events: [], subagents: 0, ...overrides };
}

/** A delivered refresh of 30 % at call `n`. */
export const refresh = (n: number): TimelineEvent => ({
  kind: "refresh",
  call: n,
  thresholds: [30],
  delivery: "delivered",
});

/** An automatic compaction from `preTokens`, before call `n`. */
export const compaction = (n: number, preTokens = 150_000): TimelineEvent => ({
  kind: "compaction",
  beforeCall: n,
  trigger: "auto",
  preTokens,
  restated: true,
});

/** A straight climb from `from` to `to` tokens over calls `first`..`last`; every 50th unread. */
function climb(first: number, last: number, from: number, to: number, window: number) {
  const calls: TimelineCall[] = [];
  for (let n = first; n <= last; n++) {
    const tokens = Math.round(from + ((to - from) * (n - first)) / Math.max(1, last - first));
    calls.push(n % 50 === 0 ? call(n, undefined, undefined) : call(n, tokens, window));
  }
  return calls;
}

/**
 * 600 calls: a 200k context compacted automatically at 167k (call 151); a second, whose 52 %
 * refresh was missed and sent again, compacted by hand at 150k (call 301); a third, proven 1M at
 * call 320, compacted automatically at 720k (call 501); and a fourth. Two subagents.
 */
export function threeCompactions(): Timeline {
  const calls = [
    ...climb(1, 150, 20_000, 167_000, 200_000),
    ...climb(151, 300, 30_000, 150_000, 200_000),
    ...climb(301, 319, 25_000, 95_000, 200_000),
    ...climb(320, 500, 210_000, 720_000, 1_000_000),
    ...climb(501, 600, 40_000, 180_000, 1_000_000),
  ];
  const events: TimelineEvent[] = [
    { kind: "refresh", call: 42, thresholds: [30, 60_000], delivery: "delivered" },
    { kind: "refresh", call: 87, thresholds: [52], delivery: "delivered" },
    { kind: "refresh", call: 123, thresholds: [70], delivery: "delivered" },
    { kind: "compaction", beforeCall: 151, trigger: "auto", preTokens: 167_000, restated: true },
    { kind: "restatement", call: "SessionStart", delivery: "delivered" },
    { kind: "refresh", call: 189, thresholds: [30, 60_000], delivery: "delivered" },
    { kind: "refresh", call: 243, thresholds: [52], delivery: "missed" },
    { kind: "resend", call: 244, refreshes: ["52"], delivery: "delivered" },
    { kind: "refresh", call: 288, thresholds: [70], delivery: "delivered" },
    { kind: "compaction", beforeCall: 301, trigger: "manual", preTokens: 150_000, restated: true },
    { kind: "restatement", call: 301, delivery: "delivered" },
    { kind: "refresh", call: 310, thresholds: [30, 60_000], delivery: "delivered" },
    {
      kind: "window",
      call: 320,
      from: 200_000,
      to: 1_000_000,
      evidence: "a reading of 210,000 tokens is more than 200k",
    },
    { kind: "refresh", call: 430, thresholds: [52], delivery: "delivered" },
    { kind: "refresh", call: 493, thresholds: [70], delivery: "delivered" },
    { kind: "compaction", beforeCall: 501, trigger: "auto", preTokens: 720_000, restated: true },
    { kind: "restatement", call: "SessionStart", delivery: "delivered" },
    { kind: "refresh", call: 516, thresholds: [60_000], delivery: "pending" },
  ];
  return timeline(calls, {
    transcript: "/home/user/.claude/projects/-home-user-app/4f1c2a9e.jsonl",
    sessionId: "4f1c2a9e-0d1b-4c55-9a7e-2b6f1e0c8d11",
    thresholds: [30, 52, 70, 60_000],
    events,
    subagents: 2,
  });
}

/** `count` calls climbing and compacting every 400, a refresh at every 100th: a long session. */
export function longSession(count: number): Timeline {
  const calls: TimelineCall[] = [];
  const events: TimelineEvent[] = [];
  for (let n = 1; n <= count; n++) {
    calls.push(call(n, 20_000 + ((n - 1) % 400) * 400, 200_000));
    if (n % 400 === 1 && n > 1) events.push(compaction(n, 179_600));
    if (n % 100 === 0) events.push(refresh(n));
  }
  return timeline(calls, { sessionId: "long", events });
}
