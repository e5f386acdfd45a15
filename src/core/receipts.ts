/** Whether each refresh claimed reached the model; one that did not is sent once more. */
import { thresholdOf, thresholdText } from "./numbers.ts";
import type { Delivery, State } from "../schemas/state.ts";
import { SESSION_START } from "./claude_code.ts";
import type { NoReading, Reading } from "./reading.ts";
import { thresholdsCause } from "./crossing.ts";
import type { RefreshCause } from "./header.ts";
import { failed } from "./result.ts";

export const COMPACT_LABEL = "compact";
const UNRECORDED = "this Claude Code does not record deliveries";

const MAX_SENDS = 2;

/** Line offsets from `from` on; `records`: this Claude Code records hook outcomes. */
export interface ReceiptEvidence {
  from: number;
  results: Readonly<Record<string, number>>;
  answers: Readonly<Record<string, readonly number[]>>;
  cancelled: readonly string[];
  responses: readonly number[];
  records: boolean;
}

/** `unread`: the claim lies before what was read. */
export type Verdict =
  | { kind: "delivered" | "pending" | "unread" | "unrecorded" }
  | { kind: "missed"; why: string };

/**
 * Delivered: recorded after its claim. Missed: a response follows the call's `tool_result` (or the
 * claim, for SessionStart), or two follow the claim when no result was written; unrecorded instead
 * where Claude Code records no outcome. Else pending: the transcript is written asynchronously.
 */
export function judge(delivery: Delivery, evidence: ReceiptEvidence): Verdict {
  const { call, at } = delivery;
  if ((evidence.answers[call] ?? []).some((offset) => offset >= at)) return { kind: "delivered" };
  if (evidence.from > at) return { kind: "unread" };
  const [newest, previous] = evidence.responses;
  const result = evidence.results[call];
  const moved = call === SESSION_START
    ? newest !== undefined && newest >= at
    : result !== undefined
    ? newest !== undefined && newest > result
    : previous !== undefined && previous >= at;
  if (!moved) return { kind: "pending" };
  if (!evidence.records) return { kind: "unrecorded" };
  const killed = evidence.cancelled.includes(call) ? " (Claude Code cancelled the hook)" : "";
  return {
    kind: "missed",
    why: call === SESSION_START || result !== undefined
      ? `not recorded for ${call}${killed}, and the session moved past it`
      : `no result of ${call} was recorded${killed}, and the session went on`,
  };
}

/** A delivery just claimed: `refresh` answered on `call`, the transcript being `at` bytes. */
export function answerAwaitingReceipt(refresh: string, call: string, at: number): Delivery {
  return { refresh, call, at, sent: 1, status: "pending" };
}

function outstanding(state: State): Delivery[] {
  return (state.deliveries ?? []).filter((d) => d.status === "pending");
}

/** The calls awaiting a receipt and the oldest claim (read back to it); undefined: none. */
export function receiptQuery(state: State): { from: number; calls: string[] } | undefined {
  const waiting = outstanding(state);
  if (waiting.length === 0) return undefined;
  const calls = [...new Set(waiting.map((d) => d.call))];
  return { from: Math.min(...waiting.map((d) => d.at)), calls };
}

/** True when `evidence` settles every outstanding delivery: waiting cannot tell more. */
export function receiptsSettled(state: State, evidence: ReceiptEvidence | undefined): boolean {
  return outstanding(state).every((d) => evidence && judge(d, evidence).kind !== "pending");
}

/** How a delivery stands: its status, `owed` (sent again on this call) or `re-sent` (unseen). */
export type DeliveryReport = Pick<Delivery, "refresh" | "call" | "sent"> & {
  status: Delivery["status"] | "owed" | "re-sent";
  reason: string | undefined;
};

/** The state with receipts judged, the labels owed now, a phrase per delivery judged, a report. */
export type Settled = ReturnType<typeof settleDeliveries>;

/** Judges outstanding deliveries: a missed one sent once is owed, sent twice given up. */
export function settleDeliveries(state: State, evidence: ReceiptEvidence | undefined) {
  const owed: string[] = [];
  const notes: string[] = [];
  const deliveries = state.deliveries;
  if (deliveries === undefined || deliveries.length === 0) {
    return { state, owed, notes, report: reportOf() };
  }
  const next = deliveries.map((d): Delivery => {
    if (d.status !== "pending" || evidence === undefined) return d;
    const verdict = judge(d, evidence);
    const note = (text: string) =>
      notes.push(`${d.refresh}${d.sent > 1 ? " (re-sent)" : ""} ${text}`);
    if (verdict.kind === "delivered" || verdict.kind === "pending") {
      note(
        verdict.kind === "delivered" ? `delivered on ${d.call}` : `not recorded yet for ${d.call}`,
      );
      return { ...d, status: verdict.kind };
    }
    if (verdict.kind === "unrecorded") {
      note(`sent once: ${UNRECORDED}`);
      return { ...d, status: "unrecorded", reason: UNRECORDED };
    }
    if (verdict.kind === "missed" && d.sent < MAX_SENDS) {
      owed.push(d.refresh);
      note(`${verdict.why}: sending it again`);
      return { ...d, status: "pending", reason: verdict.why };
    }
    const reason = verdict.kind === "missed"
      ? `sent ${d.sent} times, ${verdict.why}`
      : "its claim lies beyond what one check reads: not checked";
    note(`given up: ${reason}`);
    return { ...d, status: "given up", reason };
  });
  const settled: State = { ...state, deliveries: next };
  if (owed.includes(COMPACT_LABEL)) settled.afterCompact = "pending";
  return { state: settled, owed, notes, report: reportOf(next, owed) };
}

export function reportOf(
  deliveries: readonly Delivery[] = [],
  owed: readonly string[] = [],
): DeliveryReport[] {
  return deliveries.map(({ refresh, status, call, sent, reason }) => {
    const again = owed.includes(refresh) ? "owed" : sent > 1 ? "re-sent" : status;
    return { refresh, status: status === "pending" ? again : status, call, sent, reason };
  });
}

/** The labels a refresh answers, as its header names them: `30`, `60k`, `compact`. */
export function labelsOf(cause: RefreshCause): string[] {
  if (cause.kind === "toolCount") return [];
  const thresholds = cause.thresholds.map((t) => thresholdText(t, { bare: true }));
  return cause.kind === "compaction" ? [COMPACT_LABEL, ...thresholds] : thresholds;
}

/** What `withReceipts` works on: the decision's cause, what is owed, the deliveries as settled. */
export interface ReceiptInput {
  cause: RefreshCause | undefined;
  owed: readonly string[];
  deliveries: readonly Delivery[];
  reading: Reading | NoReading;
  /** The percent of the last fire: an owed threshold's refresh names it without a reading. */
  firedPercent: number | undefined;
  claim: { call: string | undefined; at: number | undefined };
}

/**
 * The cause with what is owed sent again (owed thresholds join its refresh or make one), and the
 * deliveries to keep (undefined: as they were), each it makes pending on `claim`. Without a claim
 * a re-send is given up at once. A periodic refresh is not receipted: the next comes within the
 * interval anyway.
 */
export function withReceipts(input: ReceiptInput) {
  const { owed, deliveries: current, reading } = input;
  let cause = input.cause;
  const again = owed.map(thresholdOf).flatMap((t) => failed(t) ? [] : [t]);
  if (again.length > 0) {
    cause = cause?.kind === "thresholds" || cause?.kind === "compaction"
      ? {
        ...cause,
        thresholds: [...new Set([...cause.thresholds, ...again])].sort((a, b) => a - b),
      }
      : thresholdsCause(again, reading, input.firedPercent ?? Math.max(...again));
  }
  if (!cause) return { cause };
  const { call, at } = input.claim;
  if (call === undefined || at === undefined) {
    if (owed.length === 0) return { cause };
    const why = "sent again on a call whose delivery cannot be checked";
    const deliveries = current.map((d): Delivery =>
      owed.includes(d.refresh) ? { ...d, sent: d.sent + 1, status: "given up", reason: why } : d
    );
    return { cause, deliveries };
  }
  const labels = labelsOf(cause);
  if (labels.length === 0) return { cause };
  const made = labels.map((refresh): Delivery => {
    const before = current.find((d) => d.refresh === refresh);
    return before && owed.includes(refresh)
      ? { ...before, call, at, sent: before.sent + 1, status: "pending" }
      : answerAwaitingReceipt(refresh, call, at);
  });
  const kept = current.filter((d) => !labels.includes(d.refresh));
  return { cause, deliveries: [...kept, ...made] };
}

/**
 * `after` without the compaction restatement's delivery that this call made (not in `before`):
 * nothing was sent, Claude Code having put the rules back itself, so no receipt is awaited.
 */
export function nothingSentAfterCompaction(before: State, after: State): State {
  const made = (d: Delivery) =>
    d.refresh === COMPACT_LABEL &&
    !(before.deliveries ?? []).some((b) =>
      b.refresh === d.refresh && b.call === d.call &&
      b.sent === d.sent
    );
  const deliveries = (after.deliveries ?? []).filter((d) => !made(d));
  return after.deliveries === undefined ? after : { ...after, deliveries };
}
