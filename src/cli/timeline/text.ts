/**
 * `status --timeline` as text: the context's use call by call (binned to the width), the window
 * and the thresholds as lines, compactions and refreshes marked under it, then the event list.
 * Pure: the caller gives the width and whether to colour.
 */
import { formatTokens } from "../../core/header.ts";
import { groupDigits, thresholdText } from "../../core/numbers.ts";
import { binTimeline, heightOf, type Scale, scaleOf, thresholdPoint, tokensAt } from "./bins.ts";
import { eventList, wrapWords } from "./list.ts";
import type { Timeline, TimelineEvent } from "./model.ts";

/** The narrowest chart; a wider terminal gets its whole width. */
export const MIN_TIMELINE_WIDTH = 80;
/** The plot's rows, and the columns of its labels: left (with the axis) and right. */
const [ROWS, LEFT, RIGHT] = [12, 8, 6];
const EIGHTHS = [..." ▁▂▃▄▅▆▇█"];
/** Each character of the plot and the marks with its ANSI colour (SGR code). */
const COLOR: Record<string, number> = Object.fromEntries(
  "▁▂▃▄▅▆▇█W:36 ━:1 ┄S:33 ×!:31 RC:32 AM?:35 src:2".split(" ").flatMap((group) => {
    const [chars = "", code] = group.split(":");
    return [...chars].map((ch) => [ch, Number(code)]);
  }),
);
/**
 * The marks' letters, most telling first: a bin with several shows the first. A re-send comes
 * before a miss: every re-send follows one, and it says what became of it.
 */
const RANK = "S!RCAM?Wsrc";
const LEGEND = "█ context used, ━ window, ┄ threshold, × compaction point. context: A auto, " +
  "M manual, ? unknown compaction; W window proven larger. refresh: R refresh, S sent again, " +
  "C rules restated after a compaction, ! missed; lower case: not checked yet.";

/**
 * The whole `status --timeline` text: a summary, the chart, its legend and the event list, no
 * line wider than `max(width, 80)` characters (colour codes not counted). `color` adds ANSI
 * colour; pass false with `NO_COLOR` or off a terminal.
 *
 * @example
 * ```ts
 * renderTimeline(timeline, { width: Deno.consoleSize().columns, color: true });
 * ```
 */
export function renderTimeline(
  timeline: Timeline,
  options: { width: number; color: boolean },
): string {
  const width = Math.max(MIN_TIMELINE_WIDTH, Math.floor(options.width));
  const paint = (text: string) =>
    options.color
      ? text.replace(/(.)\1*/gu, (run, ch) => COLOR[ch] ? `\x1b[${COLOR[ch]}m${run}\x1b[0m` : run)
      : text;
  const scale = scaleOf(timeline);
  const events = timeline.events;
  const out = [
    ...wrapWords(timelineSummary(timeline, scale), width),
    "",
    ...timeline.calls.length === 0
      ? ["No tool calls to chart."]
      : chart(timeline, scale, width - LEFT - RIGHT).map(([l, body, r]) => l + paint(body) + r),
    "",
    ...wrapWords(LEGEND, width),
    "",
    ...events.length === 0
      ? ["No refreshes, compactions or window changes."]
      : eventList(timeline, width),
  ];
  return out.map((line) => line.trimEnd()).join("\n") + "\n";
}

/**
 * The sentence over the chart: the session, its calls, compactions, refreshes and those missed,
 * the subagents left out (`2 subagent transcripts left out of the chart`), and the scale.
 */
export function timelineSummary(timeline: Timeline, scale: Scale): string {
  const { calls, events } = timeline;
  const count = (kind: TimelineEvent["kind"]) => events.filter((e) => e.kind === kind).length;
  const missed = events.filter((e) => "delivery" in e && e.delivery === "missed").length;
  const s = (n: number, word: string) =>
    `${groupDigits(n)} ${word}${n === 1 ? "" : word.endsWith("h") ? "es" : "s"}`;
  return `Session ${timeline.sessionId}: ${s(calls.length, "tool call")}, ` +
    `${s(count("compaction"), "compaction")}, ${s(count("refresh"), "refresh")}` +
    (missed > 0 ? ` (${groupDigits(missed)} missed)` : "") + `; ` +
    `${s(timeline.subagents, "subagent transcript")} left out of the chart. Tokens in context, ` +
    `${scale.kind === "sqrt" ? "square-root" : "linear"} scale.`;
}

/** The chart's lines, top to bottom, each as its left label, its body and its right label. */
function chart(timeline: Timeline, scale: Scale, plot: number): [string, string, string][] {
  const bins = binTimeline(timeline, plot);
  const cell = Math.max(1, Math.floor(plot / bins.length));
  const rowOf = (tokens: number) => Math.min(ROWS - 1, Math.floor(heightOf(tokens, scale) * ROWS));
  // Each bin's window row and threshold rows; a threshold past the window never fires: not drawn.
  const drawn = bins.map((bin) => ({
    window: bin.window === undefined ? -1 : rowOf(bin.window),
    points: timeline.thresholds.flatMap((t) => {
      const at = thresholdPoint(t, bin.span, bin.window);
      return at === undefined || at >= (bin.window ?? Infinity) ? [] : [{ t, row: rowOf(at) }];
    }),
  }));
  // Labels: on the left each window, and between them the tokens atop every fourth row; on the
  // right the last bin's lines.
  const left = new Map<number, string>();
  for (const bin of bins) if (bin.window) left.set(rowOf(bin.window), formatTokens(bin.window));
  for (let row = ROWS - 1; row > 0; row -= 4) {
    if (![-1, 0, 1].some((d) => left.has(row + d))) {
      left.set(row, formatTokens(Math.round(tokensAt((row + 1) / ROWS, scale))));
    }
  }
  const right = new Map<number, string>();
  const lastWindow = bins.at(-1)?.window;
  if (lastWindow !== undefined) right.set(rowOf(lastWindow), formatTokens(lastWindow));
  for (const { t, row } of drawn.at(-1)?.points ?? []) {
    if (!right.has(row)) right.set(row, t < 100 ? thresholdText(t) : formatTokens(t));
  }
  const lines: [string, string, string][] = [];
  for (let row = ROWS - 1; row >= 0; row--) {
    const body = bins.map((bin, b) => {
      const level = bin.tokens === undefined ? 0 : heightOf(bin.tokens, scale) * ROWS;
      const eighths = level > row ? Math.round(Math.min(1, level - row) * 8) : 0;
      const ch = eighths > 0 || (row === 0 && bin.tokens !== undefined)
        ? EIGHTHS[Math.max(1, eighths)] ?? "█"
        : drawn[b]?.window === row
        ? "━"
        : drawn[b]?.points.some((p) => p.row === row)
        ? "┄"
        : " ";
      const cross = bin.events.some((e) =>
        e.kind === "compaction" && e.preTokens !== undefined && rowOf(e.preTokens) === row
      );
      return (cross ? "×" : ch) + ch.repeat(cell - 1);
    });
    lines.push([
      `${(left.get(row) ?? "").padStart(LEFT - 1)}┤`,
      body.join(""),
      // A label too long for its column (10M tokens or more) is left out, not cut.
      ` ${[right.get(row) ?? ""].filter((r) => r.length < RIGHT)}`,
    ]);
  }
  const marks = (row: string) =>
    bins.map((bin) => {
      const letters = bin.events.map(letterOf).filter((l) =>
        "AM?W".includes(l) === (row === "context")
      );
      return (letters.sort((a, b) => RANK.indexOf(a) - RANK.indexOf(b))[0] ?? " ").padEnd(cell);
    }).join("");
  // Call numbers under the first bin, each quarter's first bin and the last call.
  let ticks = "";
  for (const quarter of [0, 1, 2, 3, 4]) {
    const b = Math.min(bins.length - 1, Math.floor((quarter * bins.length) / 4));
    const label = String(quarter === 4 ? bins[b]?.last : bins[b]?.first);
    const at = quarter === 4 ? bins.length * cell - label.length : b * cell;
    if (at >= ticks.length + (ticks === "" ? 0 : 2)) ticks = ticks.padEnd(at) + label;
  }
  const label = (text: string) => text.padStart(LEFT - 1) + " ";
  return [
    ...lines,
    ["0".padStart(LEFT - 1) + "└", "─".repeat(bins.length * cell), ""],
    [label("context"), marks("context"), ""],
    [label("refresh"), marks("refresh"), ""],
    [label("call"), ticks, ""],
  ];
}

/**
 * The letter marking `event`: on the context row a compaction by its kind or W, a window proven
 * larger; on the refresh row a refresh, in lower case until its delivery is known.
 */
function letterOf(event: TimelineEvent): string {
  if (event.kind === "window") return "W";
  if (event.kind === "compaction") {
    return event.trigger === "auto" ? "A" : event.trigger === "manual" ? "M" : "?";
  }
  if (event.delivery === "missed") return "!";
  const letter = { refresh: "R", resend: "S", restatement: "C" }[event.kind];
  return event.delivery === "delivered" ? letter : letter.toLowerCase();
}
