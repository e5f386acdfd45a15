/**
 * Delivery receipts: whether each refresh this hook claimed reached the model, judged from what
 * Claude Code recorded in the transcript, and what is owed when one did not: sent again once, on
 * the next call, then given up. Pure.
 */
import { thresholdOf, thresholdText } from "./numbers.ts";
import type { Delivery, State } from "../schemas/state.ts";
import { SESSION_START } from "./claude_code.ts";
import type { Step } from "./decide.ts";
import { isReading, type NoReading, type Reading } from "./reading.ts";
import type { RefreshCause } from "./header.ts";

/** The label of the restatement after a compaction, as its header writes it. */
export const COMPACT_LABEL = "compact";

/** Why a delivery is not checked on a Claude Code that records no hook outcome. */
const UNRECORDED = "this Claude Code does not record deliveries";

/** A delivery is sent at most this often: once, and once again when it was not recorded. */
const MAX_SENDS = 2;

/** What the transcript showed from the oldest outstanding claim to its end (line offsets). */
export interface ReceiptEvidence {
  /** Read from this offset on: a claim made before it was not seen whole. */
  from: number;
  /** Per tool call: where its `tool_result` entry starts (its hooks have finished by then). */
  results: Readonly<Record<string, number>>;
  /** Per call: where Claude Code recorded this hook's answers to it (`hook_additional_context`). */
  answers: Readonly<Record<string, readonly number[]>>;
  /** Calls whose hook Claude Code cancelled (killed at its timeout). */
  cancelled: readonly string[];
  /** Where the newest responses start, newest first, one per message id, at most two. */
  responses: readonly number[];
  /** This Claude Code records hook outcomes (io/transcript.ts says how it knows). */
  records: boolean;
}

/** What the transcript says about one delivery (`unread`: its claim lies before what was read). */
export type Verdict =
  | { kind: "delivered" | "pending" | "unread" | "unrecorded" }
  | { kind: "missed"; why: string };

/**
 * Judges `delivery` on `evidence`. Recorded (an answer to its call after its claim): delivered.
 * Missed once a response follows the call's `tool_result` (for SessionStart's answer: follows the
 * claim), or, when no result of the call was ever written, once two responses follow the claim;
 * unrecorded instead when this Claude Code records no hook outcome, where a missing record proves
 * nothing. Otherwise it may still be on its way: Claude Code writes the transcript asynchronously.
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

/** A delivery just claimed: `refresh` answered on `call`, when the transcript was `at` bytes. */
export function answerAwaitingReceipt(refresh: string, call: string, at: number): Delivery {
  return { refresh, call, at, sent: 1, status: "pending" };
}

function outstanding(state: State): Delivery[] {
  return (state.deliveries ?? []).filter((d) => d.status === "pending");
}

/**
 * What to read for the receipts: the calls awaiting one and the oldest claim (read back to it),
 * or undefined when nothing is outstanding (then nothing is read).
 */
export function receiptQuery(state: State): { from: number; calls: string[] } | undefined {
  const waiting = outstanding(state);
  if (waiting.length === 0) return undefined;
  return {
    from: Math.min(...waiting.map((d) => d.at)),
    calls: [...new Set(waiting.map((d) => d.call))],
  };
}

/** True when `evidence` settles every outstanding delivery: waiting longer cannot tell more. */
export function receiptsSettled(state: State, evidence: ReceiptEvidence | undefined): boolean {
  if (evidence === undefined) return outstanding(state).length === 0;
  return outstanding(state).every((d) => judge(d, evidence).kind !== "pending");
}

/**
 * How one delivery stands, for the trace, `status` and `doctor`: besides a delivery's own
 * statuses, `owed` (not delivered, this call sends it again) or `re-sent` (its receipt not seen).
 */
export type DeliveryReport = Pick<Delivery, "refresh" | "call" | "sent"> & {
  status: Delivery["status"] | "owed" | "re-sent";
  reason: string | undefined;
};

/** The state with receipts judged, what is owed now, and a phrase per delivery judged. */
export interface Settled {
  /** Deliveries updated; `afterCompact: "pending"` when the restatement is owed. */
  state: State;
  /** Labels to send again on this call (`"compact"` included when the restatement is owed). */
  owed: string[];
  notes: string[];
  /** Every delivery of the context, as it stands before this call's decision. */
  report: DeliveryReport[];
}

/**
 * Judges every outstanding delivery of `state` on `evidence` (none: nothing read, all stay
 * pending). A missed delivery sent once is owed (a missed restatement sets `afterCompact` back to
 * pending, so the restatement fires again); one already sent twice is given up.
 */
export function settleDeliveries(state: State, evidence: ReceiptEvidence | undefined): Settled {
  const deliveries = state.deliveries;
  if (deliveries === undefined || deliveries.length === 0) {
    return { state, owed: [], notes: [], report: [] };
  }
  const owed: string[] = [];
  const notes: string[] = [];
  const settle = (d: Delivery, status: Delivery["status"], reason: string, note: string) => {
    notes.push(note);
    return { ...d, status, reason };
  };
  const next = deliveries.map((d): Delivery => {
    if (d.status !== "pending" || evidence === undefined) return d;
    const verdict = judge(d, evidence);
    const what = `${d.refresh}${d.sent > 1 ? " (re-sent)" : ""}`;
    switch (verdict.kind) {
      case "delivered":
        notes.push(`${what} delivered on ${d.call}`);
        return { ...d, status: "delivered" };
      case "pending":
        notes.push(`${what} not recorded yet for ${d.call}`);
        return d;
      case "unrecorded":
        return settle(d, "unrecorded", UNRECORDED, `${what} sent once: ${UNRECORDED}`);
      case "unread": {
        const reason = "its claim lies beyond what one check reads: not checked";
        return settle(d, "given up", reason, `${what} given up: ${reason}`);
      }
      case "missed": {
        if (d.sent >= MAX_SENDS) {
          const reason = `sent ${d.sent} times, ${verdict.why}`;
          return settle(d, "given up", reason, `${what} given up: ${reason}`);
        }
        owed.push(d.refresh);
        return settle(d, "pending", verdict.why, `${what} ${verdict.why}: sending it again`);
      }
    }
  });
  const settled: State = { ...state, deliveries: next };
  if (owed.includes(COMPACT_LABEL)) settled.afterCompact = "pending";
  return { state: settled, owed, notes, report: reportOf(next, owed) };
}

/** Each delivery as `status` shows it. */
export function reportOf(
  deliveries: readonly Delivery[] = [],
  owed: readonly string[] = [],
): DeliveryReport[] {
  return deliveries.map(({ refresh, status, call, sent, reason }) => {
    const now = status !== "pending"
      ? status
      : owed.includes(refresh)
      ? "owed"
      : sent > 1
      ? "re-sent"
      : status;
    return { refresh, status: now, call, sent, reason };
  });
}

/** The labels a refresh answers, one delivery each: its thresholds, and `compact` for a restatement. */
export function labelsOf(cause: RefreshCause): string[] {
  if (cause.kind === "toolCount") return [];
  // Named as the refresh header names them: `30`, `60k`.
  const thresholds = cause.thresholds.map((t) => thresholdText(t, { bare: true }));
  return cause.kind === "compaction" ? [COMPACT_LABEL, ...thresholds] : thresholds;
}

/**
 * `decision` (made on `settled.state`) with what is owed sent again, and each delivery it makes
 * recorded as pending on `claim` (this call's `tool_use_id` and transcript size). Owed thresholds
 * join the refresh, or make one stated at this reading; the owed restatement already fires through
 * `afterCompact`. Without a claim nothing can be checked later, so a re-send is given up at once.
 * A periodic refresh (no reading) is not receipted: the next comes within the interval anyway.
 */
export function withReceipts(
  decision: Step,
  settled: Settled,
  reading: Reading | NoReading,
  claim: { call: string | undefined; at: number | undefined },
): Step {
  const { owed } = settled;
  if (owed.length === 0 && decision.cause === undefined) return decision;
  const state = decision.next ?? settled.state;
  const current = settled.state.deliveries ?? [];
  let cause = decision.cause;
  const again = owed.flatMap((label) => {
    const parsed = thresholdOf(label);
    return parsed.kind === "valid" ? [parsed.value] : [];
  });
  if (again.length > 0) {
    cause = cause?.kind === "thresholds" || cause?.kind === "compaction"
      ? {
        ...cause,
        thresholds: [...new Set([...cause.thresholds, ...again])].sort((a, b) => a - b),
      }
      : {
        kind: "thresholds",
        thresholds: again,
        percent: isReading(reading) ? reading.percent : state.firedPercent ?? Math.max(...again),
        ...(isReading(reading) && reading.window !== undefined ? { window: reading.window } : {}),
      };
  }
  const reason = owed.length > 0
    ? `${decision.reason}; sending ${owed.join(", ")} again (not delivered)`
    : decision.reason;
  if (!cause) return { ...decision, reason };
  const { call, at } = claim;
  if (call === undefined || at === undefined) {
    if (owed.length === 0) return { ...decision, cause, reason };
    const unchecked = "sent again on a call whose delivery cannot be checked";
    const deliveries = current.map((d): Delivery =>
      owed.includes(d.refresh)
        ? { ...d, sent: d.sent + 1, status: "given up", reason: unchecked }
        : d
    );
    return { cause, reason, next: { ...state, deliveries } };
  }
  const labels = labelsOf(cause);
  if (labels.length === 0) return { ...decision, cause, reason };
  const made = labels.map((refresh): Delivery => {
    const before = current.find((d) => d.refresh === refresh);
    if (before === undefined || !owed.includes(refresh)) {
      return answerAwaitingReceipt(refresh, call, at);
    }
    return { ...before, call, at, sent: before.sent + 1, status: "pending" };
  });
  const kept = current.filter((d) => !labels.includes(d.refresh));
  return { cause, reason, next: { ...state, deliveries: [...kept, ...made] } };
}
