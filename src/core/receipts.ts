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
export const UNRECORDED = "this Claude Code does not record deliveries";

/** A delivery is sent at most this often: once, and once again when it was not recorded. */
export const MAX_SENDS = 2;

/** What the transcript showed from the oldest outstanding claim to its end (line offsets). */
export interface ReceiptEvidence {
  /** Everything from this offset to the end was read: a claim made before it was not seen whole. */
  from: number;
  /** Per tool call: where its `tool_result` entry starts (its hooks have finished by then). */
  results: Readonly<Record<string, number>>;
  /** Per call: where Claude Code recorded this hook's answers to it (`hook_additional_context`). */
  answers: Readonly<Record<string, readonly number[]>>;
  /** Calls whose hook Claude Code cancelled (killed at its timeout). */
  cancelled: readonly string[];
  /** Where the newest responses start, newest first, one per message id, at most two. */
  responses: readonly number[];
  /**
   * This Claude Code records hook outcomes: a hook of an awaited call left `hook_success` or
   * `hook_cancelled`, or the newest response comes from a release known to record them.
   */
  records: boolean;
}

/** What the transcript says about one delivery. */
export type Verdict =
  | { kind: "delivered" }
  /** Not recorded yet, and the transcript has not moved past its call: it may still come. */
  | { kind: "pending" }
  /** The transcript moved past its call without recording it: it was not delivered. */
  | { kind: "missed"; why: string }
  /** Its claim lies before what could be read. */
  | { kind: "unread" }
  /** The transcript moved past its call, and this Claude Code records no hook outcome. */
  | { kind: "unrecorded" };

/**
 * Judges `delivery` on `evidence`. Recorded (an answer to its call after its claim): delivered.
 * Missed once a response follows the call's `tool_result` (for SessionStart's answer: follows the
 * claim), or, when no result of the call was ever written, once two responses follow the claim;
 * unrecorded instead when this Claude Code records no hook outcome, where a missing record proves
 * nothing. Otherwise it may still be on its way: Claude Code writes the transcript asynchronously.
 *
 * @example
 * ```ts
 * const d = { refresh: "30", call: "toolu_1", at: 100, sent: 1, status: "pending" } as const;
 * judge(d, {
 *   from: 100, results: { toolu_1: 150 }, answers: {}, cancelled: [], responses: [400], records: true,
 * });
 * // { kind: "missed", why: "not recorded for toolu_1, and the session moved past it" }
 * ```
 */
export function judge(delivery: Delivery, evidence: ReceiptEvidence): Verdict {
  const verdict = recordedVerdict(delivery, evidence);
  return verdict.kind === "missed" && !evidence.records ? { kind: "unrecorded" } : verdict;
}

function recordedVerdict(delivery: Delivery, evidence: ReceiptEvidence): Verdict {
  const { call, at } = delivery;
  if ((evidence.answers[call] ?? []).some((offset) => offset >= at)) return { kind: "delivered" };
  if (evidence.from > at) return { kind: "unread" };
  const [newest, previous] = evidence.responses;
  const killed = evidence.cancelled.includes(call) ? " (Claude Code cancelled the hook)" : "";
  const moved = `not recorded for ${call}${killed}, and the session moved past it`;
  if (call === SESSION_START) {
    return newest !== undefined && newest >= at
      ? { kind: "missed", why: moved }
      : { kind: "pending" };
  }
  const result = evidence.results[call];
  if (result !== undefined) {
    return newest !== undefined && newest > result
      ? { kind: "missed", why: moved }
      : { kind: "pending" };
  }
  return previous !== undefined && previous >= at
    ? { kind: "missed", why: `no result of ${call} was recorded${killed}, and the session went on` }
    : { kind: "pending" };
}

/**
 * A delivery just claimed, awaiting its receipt: `refresh` answered on `call` (a `tool_use_id`,
 * or SessionStart's), claimed when the transcript was `at` bytes long.
 */
export function answerAwaitingReceipt(refresh: string, call: string, at: number): Delivery {
  return { refresh, call, at, sent: 1, status: "pending" };
}

/** The deliveries still waiting for their receipt. */
export function outstanding(state: State): Delivery[] {
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

/** How one delivery stands, for the trace, `status` and `doctor`. */
export interface DeliveryReport {
  /** A threshold (`"30"`) or `"compact"`. */
  refresh: string;
  /**
   * `delivered`: recorded by Claude Code; `pending`: not recorded yet; `owed`: not delivered, the
   * next tool call sends it again; `re-sent`: sent again, its receipt not seen yet; `given up`;
   * `unrecorded`: sent once, on a Claude Code that records no delivery.
   */
  status: "delivered" | "pending" | "owed" | "re-sent" | "given up" | "unrecorded";
  call: string;
  sent: number;
  reason: string | undefined;
}

/** The state with receipts judged, what is owed now, and a phrase per delivery judged. */
export interface Settled {
  /** Deliveries updated; `afterCompact: "pending"` when the restatement is owed. */
  state: State;
  /** Labels to send again on this call (`"compact"` included when the restatement is owed). */
  owed: string[];
  /** One phrase per outstanding delivery: what its receipt showed. */
  notes: string[];
  /** Every delivery of the context, as it stands before this call's decision. */
  report: DeliveryReport[];
}

/**
 * Judges every outstanding delivery of `state` on `evidence` (none: nothing read, all stay
 * pending). A missed delivery sent once is owed (a missed restatement sets `afterCompact` back to
 * pending, so core/compaction_refresh.ts restates); one already sent twice is given up.
 */
export function settleDeliveries(state: State, evidence: ReceiptEvidence | undefined): Settled {
  const deliveries = state.deliveries;
  if (deliveries === undefined || deliveries.length === 0) {
    return { state, owed: [], notes: [], report: [] };
  }
  const owed: string[] = [];
  const notes: string[] = [];
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
      case "unrecorded": {
        notes.push(`${what} sent once: ${UNRECORDED}`);
        return { ...d, status: "unrecorded", reason: UNRECORDED };
      }
      case "unread": {
        const reason = "its claim lies beyond what one check reads: not checked";
        notes.push(`${what} given up: ${reason}`);
        return { ...d, status: "given up", reason };
      }
      case "missed":
        if (d.sent >= MAX_SENDS) {
          const reason = `sent ${d.sent} times, ${verdict.why}`;
          notes.push(`${what} given up: ${reason}`);
          return { ...d, status: "given up", reason };
        }
        owed.push(d.refresh);
        notes.push(`${what} ${verdict.why}: sending it again`);
        return { ...d, reason: verdict.why };
    }
  });
  let settled: State = { ...state, deliveries: next };
  if (owed.includes(COMPACT_LABEL)) settled = { ...settled, afterCompact: "pending" };
  return { state: settled, owed, notes, report: reportOf(next, owed) };
}

/** Each delivery as `status` shows it. */
export function reportOf(
  deliveries: readonly Delivery[] | undefined,
  owed: readonly string[] = [],
): DeliveryReport[] {
  return (deliveries ?? []).map((d) => ({
    refresh: d.refresh,
    status: d.status !== "pending"
      ? d.status
      : owed.includes(d.refresh)
      ? "owed"
      : d.sent > 1
      ? "re-sent"
      : "pending",
    call: d.call,
    sent: d.sent,
    reason: d.reason,
  }));
}

/** The labels a refresh answers, one delivery each: its thresholds, and `compact` for a restatement. */
export function labelsOf(cause: RefreshCause): string[] {
  if (cause.kind === "toolCount") return [];
  // Named as the refresh header names them: `30`, `60k`.
  const thresholds = cause.thresholds.map((t) => thresholdText(t, { bare: true }));
  return cause.kind === "compaction" ? [COMPACT_LABEL, ...thresholds] : thresholds;
}

/**
 * `decision` (for `settled.state`) with what is owed sent again, and each delivery it makes
 * recorded as pending on `claim` (this call's `tool_use_id` and the transcript size it was decided
 * at). Owed thresholds join the refresh (or make one, stated at this reading); the owed
 * restatement already fires through `afterCompact`. Without a claim (no `tool_use_id`, no
 * transcript) nothing can be checked later, so nothing is recorded. A periodic refresh (no
 * reading) is not receipted: the next comes within the interval anyway.
 */
export function withReceipts(
  decision: Step,
  settled: Settled,
  reading: Reading | NoReading,
  claim: { call: string | undefined; at: number | undefined },
): Step {
  const state = decision.next ?? settled.state;
  // The deliveries as settled: the decision's state was derived from them.
  const current = settled.state.deliveries ?? [];
  const owedThresholds = settled.owed.filter((l) => l !== COMPACT_LABEL).flatMap((l) => {
    const parsed = thresholdOf(l);
    return parsed.kind === "valid" ? [parsed.value] : [];
  });
  let cause = decision.cause;
  if (owedThresholds.length > 0) {
    if (cause?.kind === "thresholds" || cause?.kind === "compaction") {
      const thresholds = [...new Set([...cause.thresholds, ...owedThresholds])].sort((a, b) =>
        a - b
      );
      cause = { ...cause, thresholds };
    } else {
      cause = {
        kind: "thresholds",
        thresholds: owedThresholds,
        percent: isReading(reading)
          ? reading.percent
          : state.firedPercent ?? Math.max(...owedThresholds),
        ...(isReading(reading) && reading.window !== undefined ? { window: reading.window } : {}),
      };
    }
  }
  const reason = settled.owed.length > 0
    ? `${decision.reason}; sending ${settled.owed.join(", ")} again (not delivered)`
    : decision.reason;
  const { call, at } = claim;
  if (!cause) return { ...decision, reason };
  if (call === undefined || at === undefined) {
    if (settled.owed.length === 0) return { ...decision, cause, reason };
    // Sent again where no receipt can be looked for: never again on every call.
    const unchecked = "sent again on a call whose delivery cannot be checked";
    const deliveries = current.map((d) =>
      settled.owed.includes(d.refresh)
        ? { ...d, sent: d.sent + 1, status: "given up" as const, reason: unchecked }
        : d
    );
    return { cause, reason, next: { ...state, deliveries } };
  }
  const labels = labelsOf(cause);
  if (labels.length === 0) return { ...decision, cause, reason };
  const kept = current.filter((d) => !labels.includes(d.refresh));
  const made = labels.map((refresh): Delivery => {
    const before = current.find((d) => d.refresh === refresh);
    const again = before !== undefined && settled.owed.includes(refresh);
    return {
      refresh,
      call,
      at,
      sent: again ? before.sent + 1 : 1,
      status: "pending",
      ...(again && before.reason !== undefined ? { reason: before.reason } : {}),
    };
  });
  return { cause, reason, next: { ...state, deliveries: [...kept, ...made] } };
}
