/**
 * The list under the timeline chart: one line per event with the call's time, its tool, the
 * reading and what happened, laid out to a width. The SVG's marks carry the same sentences.
 */
import { formatTokens } from "../../core/header.ts";
import { groupDigits, percentText, thresholdText } from "../../core/numbers.ts";
import type { Delivery, Timeline, TimelineEvent } from "./model.ts";

/** A delivery as the list words it. */
const DELIVERY: Record<Delivery, string> = {
  delivered: "delivered",
  missed: "missed",
  pending: "not recorded yet",
  unchecked: "not checked",
};

/**
 * What `event` was, in a few words.
 *
 * @example
 * ```ts
 * eventText({ kind: "refresh", call: 12, thresholds: [30, 60_000], delivery: "missed" });
 * // "refresh 30%, 60k: missed"
 * ```
 */
export function eventText(event: TimelineEvent): string {
  switch (event.kind) {
    case "refresh":
      return `refresh ${event.thresholds.map((t) => thresholdText(t)).join(", ")}: ` +
        DELIVERY[event.delivery];
    case "resend": {
      // The header names a percentage bare ("30"); the list writes it as everywhere else.
      const named = event.refreshes.map((r) => /^\d{1,2}$/.test(r) ? `${r}%` : r);
      return `sent again (${named.join(", ")}): ${DELIVERY[event.delivery]}`;
    }
    case "restatement":
      return `rules restated after the compaction${
        event.call === "SessionStart" ? " (at SessionStart)" : ""
      }: ${DELIVERY[event.delivery]}`;
    case "compaction":
      return `${event.trigger ?? "unknown"} compaction ` +
        (event.preTokens === undefined ? "" : `at ${groupDigits(event.preTokens)} tokens, `) +
        `before call ${event.beforeCall}`;
    case "window":
      return `window ${formatTokens(event.from)} to ${formatTokens(event.to)}: ${event.evidence}`;
  }
}

/**
 * The event list: a heading, then a line per event (`  42  09:13:40  Edit   60,450 30%  refresh
 * 30%, 60k: delivered`, a long description wrapped under itself), none wider than `width`.
 * Times are the transcript's (UTC), with the date when the session spans days.
 */
export function eventList(timeline: Timeline, width: number): string[] {
  const { calls } = timeline;
  const days = new Set(calls.flatMap((c) => c.time?.slice(0, 10) ?? []));
  const clock = (iso = "") =>
    (days.size > 1 ? iso.slice(5, 19).replace("T", " ") : iso.slice(11, 19)) || "-";
  const toolColumn = Math.max(10, Math.floor(width / 6));
  const cut = (text: string) =>
    [...text].length > toolColumn ? [...text].slice(0, toolColumn - 1).join("") + "…" : text;
  const rows = timeline.events.map((event) => {
    const at = event.kind === "compaction" ? undefined : event.call;
    const call = typeof at === "number" ? calls[at - 1] : undefined;
    const base = call?.span ?? call?.window;
    const tokens = call?.tokens;
    const reading = tokens === undefined
      ? ""
      : groupDigits(tokens) + (base ? ` ${percentText((tokens * 100) / base)}` : "");
    const tool = at === "SessionStart" ? at : cut(call?.tool ?? "");
    return [call ? String(at) : "", call ? clock(call.time) : "", tool, reading, eventText(event)];
  });
  const head = ["call", "time", "tool", "reading", "what happened"];
  const widths = head.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => [...(r[i] ?? "")].length))
  );
  const lead = widths.slice(0, 4).reduce((sum, w) => sum + w + 2, 0);
  return [head, ...rows].flatMap((cells) => {
    const [call, time, tool, reading, what = ""] = cells.map((cell, i) =>
      i === 0 || i === 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)
    );
    // From 80 columns on, the description has at least 30 beside the others.
    const [first = "", ...more] = wrapWords(what.trim(), width - lead);
    return [
      `${call}  ${time}  ${tool}  ${reading}  ${first}`,
      ...more.map((m) => " ".repeat(lead) + m),
    ];
  });
}

/** `text` broken at spaces into lines of at most `width` characters; a longer word is cut. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    let rest = [...word];
    for (; rest.length > width; rest = rest.slice(width)) {
      if (line !== "") lines.push(line);
      lines.push(rest.slice(0, width).join(""));
      line = "";
    }
    const next = line === "" ? rest.join("") : `${line} ${rest.join("")}`;
    if ([...next].length <= width) line = next;
    else lines.push(line), line = rest.join("");
  }
  return [...lines, line];
}
