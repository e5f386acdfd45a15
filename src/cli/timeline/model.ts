/**
 * What `status --timeline` draws, from the hook's own replay of a session: each main-chain tool
 * call's reading, each refresh with what its receipts showed, each compaction, each larger window.
 */
import { type Threshold, thresholdText } from "../../core/numbers.ts";
import { type DeliveryReport, labelsOf } from "../../core/receipts.ts";
import type { Replayed } from "../../hook.ts";

/** Whether a refresh was seen in the transcript, as the hook's receipts say. */
export type Delivery = "delivered" | "missed" | "pending" | "unchecked";

/** What happened at a call. A re-send names refreshes as their header does: `"30"`, `"60k"`. */
export type TimelineEvent =
  | {
    kind: "refresh";
    call: number;
    thresholds: Threshold[];
    delivery: Delivery;
    /** The call whose reading crossed them, when the hook sent them on a later one. */
    crossed?: number;
  }
  | { kind: "resend"; call: number; refreshes: string[]; delivery: Delivery }
  | { kind: "restatement"; call: number | "SessionStart"; delivery: Delivery; crossed?: number }
  | {
    kind: "compaction";
    beforeCall: number;
    trigger: "manual" | "auto" | undefined;
    preTokens: number | undefined;
    /** The rules were restated after it (none: nothing beyond what Claude Code reloads). */
    restated: boolean;
  }
  | { kind: "window"; call: number; from: number; to: number; evidence: string };

/** One session, ready to draw; `subagents` counts its subagent transcripts, left out. */
export interface Timeline {
  transcript: string;
  sessionId: string;
  /** Every threshold line: the settings', then the cadence's points (core/schedule.ts). */
  thresholds: Threshold[];
  /** The cadence's points among them, drawn only where a call's span was over 200k. */
  cadence: number[];
  calls: {
    call: number;
    time: string | undefined;
    tool: string;
    tokens: number | undefined;
    window: number | undefined;
    span: number | undefined;
    /** Its span was over 200k: the cadence's points applied. */
    large: boolean;
  }[];
  events: TimelineEvent[];
  subagents: number;
  /** Where the last call's context compacts, as the hook measured it, and why. */
  compaction?: { tokens: number; evidence: string } | undefined;
}

const SHOWN: Record<DeliveryReport["status"], Delivery> = {
  delivered: "delivered",
  owed: "missed",
  "given up": "missed",
  pending: "pending",
  "re-sent": "pending",
  unrecorded: "unchecked",
};

export function timelineOf(
  replayed: readonly Replayed[],
  session: { transcript: string; sessionId: string; thresholds: Threshold[]; subagents: number },
): Timeline {
  const calls: Timeline["calls"] = [];
  const events: TimelineEvent[] = [];
  // The events awaiting a receipt, by `<tool_use_id>|<label>`; an event with no label is none.
  const awaiting = new Map<string, { delivery: Delivery }>();
  // The call whose reading first crossed each label the hook sent later, by label.
  const crossedAt = new Map<string, number>();
  const claim = (
    event: Extract<TimelineEvent, { delivery: Delivery }> & { crossed?: number },
    id: string,
    labels: string[],
  ) => {
    if (labels.length === 0) return;
    const crossed = Math.min(...labels.map((l) => crossedAt.get(l) ?? Infinity));
    if (crossed < Number(event.call) && event.kind !== "resend") event.crossed = crossed;
    labels.forEach((label) => crossedAt.delete(label));
    events.push(event);
    for (const label of labels) awaiting.set(`${id}|${label}`, event);
  };
  let window: number | undefined;
  let compaction: Timeline["compaction"];
  const cadence = new Set<number>();
  for (const r of replayed) {
    // A reset reports only the claim it makes: the last context's are settled before it.
    const reports = r.kind === "settled"
      ? r.deliveries
      : r.kind === "call"
      ? r.decision.deliveries
      : [];
    for (const report of reports) {
      const event = awaiting.get(`${report.call}|${report.refresh}`);
      if (event) event.delivery = SHOWN[report.status];
    }
    if (r.kind === "settled") continue;
    const d = r.decision;
    const n = calls.length + 1;
    if (r.kind === "compaction") {
      const trigger = r.trigger === "manual" || r.trigger === "auto" ? r.trigger : undefined;
      const { preTokens } = r;
      events.push({ kind: "compaction", beforeCall: n, trigger, preTokens, restated: !!d.cause });
      crossedAt.clear();
      const at = "SessionStart";
      if (d.cause) claim({ kind: "restatement", call: at, delivery: "pending" }, at, ["compact"]);
      continue;
    }
    const reading = r.reading.kind === "reading" ? r.reading : undefined;
    const [tokens, to, span] = [reading?.tokens, reading?.window, reading?.span ?? reading?.window];
    const large = reading?.cadence !== undefined;
    const point = reading?.compaction;
    compaction = point?.kind === "point"
      ? { tokens: point.tokens, evidence: point.evidence }
      : undefined;
    for (const t of d.thresholds) if (!session.thresholds.includes(t)) cadence.add(t);
    calls.push({ call: n, time: r.time, tool: r.tool, tokens, window: to, span, large });
    if (window !== undefined && to !== undefined && to > window) {
      const evidence = reading?.windowSource ?? "";
      events.push({ kind: "window", call: n, from: window, to, evidence });
    }
    window = to ?? window;
    for (const label of r.withheld ? labelsOf(r.withheld) : []) {
      if (!crossedAt.has(label)) crossedAt.set(label, n);
    }
    const cause = d.cause;
    if (!cause) continue;
    if (cause.kind === "toolCount") {
      events.push({ kind: "refresh", call: n, thresholds: [], delivery: "unchecked" });
      continue;
    }
    const owed = d.deliveries.filter((x) => x.status === "owed").map((x) => x.refresh);
    const labels = labelsOf(cause);
    if (cause.kind === "compaction") {
      claim({ kind: "restatement", call: n, delivery: "pending" }, r.toolUseId, ["compact"]);
    } else {
      const bare = (t: Threshold) => thresholdText(t, { bare: true });
      const thresholds = cause.thresholds.filter((t) => !owed.includes(bare(t)));
      const fresh = thresholds.map(bare);
      claim({ kind: "refresh", call: n, thresholds, delivery: "pending" }, r.toolUseId, fresh);
    }
    const again = owed.filter((l) => labels.includes(l));
    claim({ kind: "resend", call: n, refreshes: again, delivery: "pending" }, r.toolUseId, again);
  }
  const points = [...cadence].sort((a, b) => a - b);
  return {
    ...session,
    thresholds: [...session.thresholds, ...points],
    cadence: points,
    calls,
    events,
    compaction,
  };
}

/** `status --timeline --json`: the timeline on one line, `null` where unknown. */
export function timelineJson(timeline: Timeline): string {
  return JSON.stringify(timeline, (_key, value) => value === undefined ? null : value);
}
