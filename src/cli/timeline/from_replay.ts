/**
 * A session's timeline from its replay (hook/replay.ts): each call's reading as the hook took it,
 * each refresh on the call that carried it, with what the receipts later showed of it, each
 * compaction, and each window proven larger. Pure.
 */
import { labelsOf } from "../../core/receipts.ts";
import type { Replayed } from "../../hook.ts";
import { type Threshold, thresholdText } from "../../core/numbers.ts";
import type { Delivery, Timeline, TimelineCall, TimelineEvent } from "./model.ts";

/** A delivery's status, as the timeline shows it. */
const SHOWN: Record<string, Delivery> = {
  delivered: "delivered",
  owed: "missed",
  "given up": "missed",
  pending: "pending",
  "re-sent": "pending",
};

/** The timeline of `replayed`. */
export function timelineOf(
  replayed: readonly Replayed[],
  session: { transcript: string; sessionId: string; thresholds: Threshold[]; subagents: number },
): Timeline {
  const calls: TimelineCall[] = [];
  const events: TimelineEvent[] = [];
  /** The events awaiting their receipt, by `<call>|<label>`. */
  const awaiting = new Map<string, { delivery: Delivery }>();
  let window: number | undefined;
  for (const r of replayed) {
    const d = r.decision;
    // What the receipts show now of earlier refreshes.
    for (const report of d.deliveries) {
      const event = awaiting.get(`${report.call}|${report.refresh}`);
      if (event) event.delivery = SHOWN[report.status] ?? event.delivery;
    }
    const n = calls.length + (r.kind === "call" ? 1 : 0);
    const claim = (
      event: TimelineEvent & { delivery: Delivery },
      call: string,
      labels: string[],
    ) => {
      events.push(event);
      for (const label of labels) awaiting.set(`${call}|${label}`, event);
    };
    if (r.kind === "compaction") {
      events.push({
        kind: "compaction",
        beforeCall: n + 1,
        trigger: trigger(r.trigger),
        preTokens: r.preTokens,
      });
      if (d.cause) {
        claim({ kind: "restatement", call: "SessionStart", delivery: "pending" }, "SessionStart", [
          "compact",
        ]);
      }
      continue;
    }
    const reading = r.reading.kind === "reading" ? r.reading : undefined;
    calls.push({
      call: n,
      time: r.time,
      tool: r.tool,
      tokens: reading?.tokens,
      window: reading?.window,
      span: reading?.span ?? reading?.window,
    });
    if (reading?.window !== undefined) {
      if (window !== undefined && reading.window > window) {
        events.push({
          kind: "window",
          call: n,
          from: window,
          to: reading.window,
          evidence: reading.windowSource ?? "",
        });
      }
      window = reading.window;
    }
    const cause = d.cause;
    if (!cause) continue;
    if (cause.kind === "toolCount") {
      events.push({ kind: "refresh", call: n, thresholds: [], delivery: "unchecked" });
      continue;
    }
    const owed = d.deliveries.filter((x) => x.status === "owed").map((x) => x.refresh);
    const labels = labelsOf(cause);
    const fresh = labels.filter((l) => !owed.includes(l) && l !== "compact");
    if (cause.kind === "compaction") {
      claim({ kind: "restatement", call: n, delivery: "pending" }, r.toolUseId, ["compact"]);
    } else if (fresh.length > 0) {
      const named = cause.thresholds.filter((t) =>
        fresh.includes(thresholdText(t, { bare: true }))
      );
      claim(
        { kind: "refresh", call: n, thresholds: named, delivery: "pending" },
        r.toolUseId,
        fresh,
      );
    }
    const again = owed.filter((l) => labels.includes(l));
    if (again.length > 0) {
      claim({ kind: "resend", call: n, refreshes: again, delivery: "pending" }, r.toolUseId, again);
    }
  }
  return { ...session, calls, events };
}

function trigger(value: string | undefined): "manual" | "auto" | undefined {
  return value === "manual" || value === "auto" ? value : undefined;
}
