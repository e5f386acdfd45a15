/**
 * What `status --timeline` draws: one session's main-chain tool calls as the hook decided them
 * and what happened at them, and the `--json` form of it. Data only; the replay that fills it
 * lives elsewhere.
 */
import type { Threshold } from "../../core/numbers.ts";

/** Whether a refresh was seen in the transcript, as the hook's receipts say. */
export type Delivery = "delivered" | "missed" | "pending" | "unchecked";

/** One main-chain tool call of a session, as the hook decided it (replayed). */
export interface TimelineCall {
  /** 1-based position among the session's main-chain tool calls. */
  call: number;
  /** ISO time of the call (its tool_result entry), when the transcript has one. */
  time: string | undefined;
  tool: string;
  /** The reading the hook took on this call (tokens in context), or undefined: no reading. */
  tokens: number | undefined;
  /** The window and the span percentages were measured against on this call, as the hook decided them. */
  window: number | undefined;
  span: number | undefined;
}

/**
 * Something that happened, placed at a call. A restatement whose `call` is `"SessionStart"` was
 * answered by the SessionStart hook right after a compaction: it is placed at that compaction.
 * A re-send's `refreshes` are named as the refresh header names them: `"30"`, `"60k"`, `"compact"`.
 */
export type TimelineEvent =
  | { kind: "refresh"; call: number; thresholds: Threshold[]; delivery: Delivery }
  | { kind: "resend"; call: number; refreshes: string[]; delivery: Delivery }
  | { kind: "restatement"; call: number | "SessionStart"; delivery: Delivery }
  | {
    kind: "compaction";
    beforeCall: number;
    trigger: "manual" | "auto" | undefined;
    preTokens: number | undefined;
  }
  | { kind: "window"; call: number; from: number; to: number; evidence: string };

/** One session, ready to draw. */
export interface Timeline {
  transcript: string;
  sessionId: string;
  thresholds: Threshold[];
  calls: TimelineCall[];
  events: TimelineEvent[];
  /** Subagent transcripts of this session, left out of the chart. */
  subagents: number;
}

/**
 * What `status --timeline --json` prints: the timeline as JSON, every key present (`null` where
 * the value is unknown), on one line.
 *
 * @example
 * ```ts
 * JSON.parse(timelineJson(timeline)).calls[0].tokens; // null: no reading on the first call
 * ```
 */
export function timelineJson(timeline: Timeline): string {
  return JSON.stringify(timeline, (_key, value) => value === undefined ? null : value);
}
