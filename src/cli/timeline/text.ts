/** `status --timeline` as text: a summary, the chart binned to the width, a legend, the events. */
import { formatTokens } from "../../core/header.ts";
import { groupDigits, percentText, thresholdText } from "../../core/numbers.ts";
import { count, labelText, wrap } from "../common.ts";
import { binTimeline, heightOf, type Scale, scaleOf, thresholdLabel, tokensAt } from "./bins.ts";
import type { Delivery, Timeline, TimelineEvent } from "./model.ts";

/** The plot's rows, and the columns of its labels: left (with the axis) and right. */
const [ROWS, LEFT, RIGHT] = [12, 8, 6];
const EIGHTHS = [..." ▁▂▃▄▅▆▇█"];
/** The ANSI colour (SGR code) of each character of the plot and marks. */
const COLOR: Record<string, number> = Object.fromEntries(
  "▁▂▃▄▅▆▇█W:36 ━:1 ┄S:33 ×!:31 RC:32 AM?:35 src:2".split(" ").flatMap((group) => {
    const [chars = "", code] = group.split(":");
    return [...chars].map((ch) => [ch, Number(code)]);
  }),
);
/** The marks of each row, most telling first (a re-send, which follows a miss, before it). */
const [CONTEXT_MARKS, REFRESH_MARKS] = ["AM?W", "S!RCsrc"];
const LEGEND = "█ context used, ━ window, ┄ threshold, × compaction point. context: A auto, " +
  "M manual, ? unknown compaction; W window proven larger. refresh: R refresh, S sent again, " +
  "C rules restated after a compaction, ! missed; lower case: not checked yet.";
const said = (d: Delivery, late?: number | false) =>
  d === "pending"
    ? "not recorded yet"
    : d === "unchecked"
    ? "not checked"
    : d === "delivered" && late
    ? `delivered, ${late === 1 ? "one call" : `${late} calls`} after the crossing`
    : d;

/** The whole text, no line wider than `max(width, 80)` (colour codes not counted). */
export function renderTimeline(
  timeline: Timeline,
  options: { width: number; color: boolean },
): string {
  const width = Math.max(80, Math.floor(options.width));
  const paint = (text: string) =>
    options.color
      ? text.replace(/(.)\1*/gu, (run, ch) => COLOR[ch] ? `\x1b[${COLOR[ch]}m${run}\x1b[0m` : run)
      : text;
  const scale = scaleOf(timeline);
  return [
    ...wrap(timelineSummary(timeline, scale), width),
    "",
    ...timeline.calls.length === 0
      ? ["No tool calls to chart."]
      : chart(timeline, scale, width - LEFT - RIGHT, paint),
    "",
    ...wrap(LEGEND, width),
    "",
    ...timeline.events.length === 0
      ? ["No refreshes, compactions or window changes."]
      : eventList(timeline, width),
  ].map((line) => line.trimEnd()).join("\n") + "\n";
}

/** The sentence over the chart: what the session holds, what was left out, the scale. */
export function timelineSummary(timeline: Timeline, scale: Scale): string {
  const { calls, events } = timeline;
  const of = (kind: TimelineEvent["kind"]) => events.filter((e) => e.kind === kind).length;
  const missed = events.filter((e) => "delivery" in e && e.delivery === "missed").length;
  const compaction = timeline.compaction;
  const near = compaction
    ? ` Compaction near ${groupDigits(compaction.tokens)}: ${compaction.evidence}.`
    : "";
  return `Session ${timeline.sessionId}: ${count(calls.length, "tool call")}, ` +
    `${count(of("compaction"), "compaction")}, ${count(of("refresh"), "refresh")}` +
    (missed > 0 ? ` (${groupDigits(missed)} missed)` : "") +
    `; ${count(timeline.subagents, "subagent transcript")} left out of the chart. ` +
    `Tokens in context, ${scale.kind === "sqrt" ? "square-root" : "linear"} scale.${near}`;
}

/** The chart's lines: the plot with its labels, the axis, the two rows of marks, the calls. */
function chart(timeline: Timeline, scale: Scale, plot: number, paint: (body: string) => string) {
  const bins = binTimeline(timeline, plot);
  const cell = Math.max(1, Math.floor(plot / bins.length));
  const rowOf = (tokens: number) => Math.min(ROWS - 1, Math.floor(heightOf(tokens, scale) * ROWS));
  // Left: each window, else the tokens atop every fourth row. Right: the last column's lines.
  const left = new Map<number, string>();
  for (const bin of bins) if (bin.window) left.set(rowOf(bin.window), formatTokens(bin.window));
  for (let row = ROWS - 1; row > 0; row -= 4) {
    if (![-1, 0, 1].some((d) => left.has(row + d))) {
      left.set(row, formatTokens(Math.round(tokensAt((row + 1) / ROWS, scale))));
    }
  }
  const end = bins.at(-1);
  const right = new Map<number, string>();
  if (end?.window !== undefined) right.set(rowOf(end.window), formatTokens(end.window));
  timeline.thresholds.forEach((t, k) => {
    const at = end?.points[k];
    if (at === undefined || right.has(rowOf(at))) return;
    right.set(rowOf(at), thresholdLabel(t, at, end));
  });
  const lines: string[] = [];
  for (let row = ROWS - 1; row >= 0; row--) {
    const body = bins.map((bin) => {
      const level = bin.tokens === undefined ? -1 : heightOf(bin.tokens, scale) * ROWS;
      const eighths = level > row ? Math.round(Math.min(1, level - row) * 8) : 0;
      const at = (tokens: number | undefined) => tokens !== undefined && rowOf(tokens) === row;
      const ch = eighths > 0 || (row === 0 && level >= 0)
        ? EIGHTHS[Math.max(1, eighths)] ?? "█"
        : at(bin.window)
        ? "━"
        : bin.points.some(at)
        ? "┄"
        : " ";
      const cross = bin.events.some((e) => e.kind === "compaction" && at(e.preTokens));
      return (cross ? "×" : ch) + ch.repeat(cell - 1);
    }).join("");
    // A label too long for its column (10M tokens or more) is left out, not cut.
    const label = right.get(row) ?? "";
    const tail = label.length < RIGHT ? ` ${label}` : "";
    lines.push(`${(left.get(row) ?? "").padStart(LEFT - 1)}┤${paint(body)}${tail}`);
  }
  const marks = (ranked: string) =>
    bins.map((bin) => {
      const letters = bin.events.map(letterOf);
      return ([...ranked].find((l) => letters.includes(l)) ?? " ").padEnd(cell);
    }).join("");
  // Call numbers under the first bin, each quarter's first bin and the last call.
  let ticks = "";
  for (const quarter of [0, 1, 2, 3, 4]) {
    const b = Math.min(bins.length - 1, Math.floor((quarter * bins.length) / 4));
    const label = String(quarter === 4 ? bins[b]?.last : bins[b]?.first);
    const at = quarter === 4 ? bins.length * cell - label.length : b * cell;
    if (at >= ticks.length + (ticks === "" ? 0 : 2)) ticks = ticks.padEnd(at) + label;
  }
  const labelled = (label: string, body: string) => `${label.padStart(LEFT - 1)} ${paint(body)}`;
  return [
    ...lines,
    `${"0".padStart(LEFT - 1)}└${"─".repeat(bins.length * cell)}`,
    labelled("context", marks(CONTEXT_MARKS)),
    labelled("refresh", marks(REFRESH_MARKS)),
    labelled("call", ticks),
  ];
}

/** The letter marking `event` (a refresh in lower case until its delivery is known). */
export function letterOf(event: TimelineEvent): string {
  if (event.kind === "window") return "W";
  if (event.kind === "compaction") {
    return event.trigger === "auto" ? "A" : event.trigger === "manual" ? "M" : "?";
  }
  if (event.delivery === "missed") return "!";
  const letter = { refresh: "R", resend: "S", restatement: "C" }[event.kind];
  return event.delivery === "delivered" ? letter : letter.toLowerCase();
}

/** What `event` was, for the list and the SVG's titles: `refresh 30%, 60k: missed`. */
export function eventText(event: TimelineEvent): string {
  switch (event.kind) {
    case "refresh":
      return `refresh ${event.thresholds.map((t) => thresholdText(t)).join(", ")}: ` +
        said(event.delivery, event.crossed && event.call - event.crossed);
    case "resend":
      return `sent again (${event.refreshes.map(labelText).join(", ")}): ${said(event.delivery)}`;
    case "restatement": {
      const at = event.call === "SessionStart" ? " (at SessionStart)" : "";
      const late = typeof event.call === "number" && event.crossed && event.call - event.crossed;
      return `rules restated after the compaction${at}: ${said(event.delivery, late)}`;
    }
    case "compaction":
      return `${event.trigger ?? "unknown"} compaction ` +
        (event.preTokens === undefined ? "" : `at ${groupDigits(event.preTokens)} tokens, `) +
        `before call ${event.beforeCall}` +
        (event.restated ? "" : "; nothing to restate after it beyond what Claude Code reloads");
    case "window":
      return `window ${formatTokens(event.from)} to ${formatTokens(event.to)}: ${event.evidence}`;
  }
}

/** Per event its call, time (UTC; dated when the session spans days), tool, reading, what. */
function eventList(timeline: Timeline, width: number): string[] {
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
    // Past a 200k span, in tokens only: a share of 200k would pass 100 %.
    const base = call?.large ? undefined : call?.span ?? call?.window;
    const tokens = call?.tokens;
    const reading = tokens === undefined
      ? ""
      : groupDigits(tokens) + (base ? ` ${percentText((tokens * 100) / base)}` : "");
    const tool = at === "SessionStart" ? at : cut(call?.tool ?? "");
    return [call ? String(at) : "", call ? clock(call.time) : "", tool, reading, eventText(event)];
  });
  const head = ["call", "time", "tool", "reading"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  const lead = widths.reduce((sum, w) => sum + w + 2, 0);
  return [[...head, "what happened"], ...rows].flatMap((cells) => {
    const columns = widths.map((w, i) =>
      i === 0 || i === 3 ? cells[i]!.padStart(w) : cells[i]!.padEnd(w)
    );
    const [first = "", ...more] = wrap(cells[4]!.trim(), width - lead);
    return [[...columns, first].join("  "), ...more.map((m) => " ".repeat(lead) + m)];
  });
}
