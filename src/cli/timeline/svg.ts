/**
 * `status --timeline --svg FILE`: the chart as one standalone SVG, every call drawn; each event an
 * element with its fields as `data-*` attributes, so a test can read them back.
 */
import { formatTokens } from "../../core/header.ts";
import { wrap } from "../common.ts";
import { type Bin, binTimeline, heightOf, scaleOf, thresholdLabel, tokensAt } from "./bins.ts";
import type { Timeline, TimelineEvent } from "./model.ts";
import { eventText, letterOf, timelineSummary } from "./text.ts";

/** The picture's size, and the plot's box in it: left, right, top, bottom. */
const [W, H] = [1000, 450];
const [L, R, T, B] = [70, 940, 60, 340];
const FILL = { delivered: "#1a8a3a", missed: "#d0202a", pending: "#8a8a8a", unchecked: "#8a8a8a" };
const LEGEND = [
  "circle: refresh, diamond: sent again, square: rules restated after a compaction; " +
  "green: delivered, red: missed, grey: not checked yet.",
  "Black: the window; orange, dashed: the thresholds; grey, dashed: a compaction " +
  "(A auto, M manual), its point crossed.",
];

/** `text` safe inside an element or a double-quoted attribute. */
const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const label = (x: number, y: number, body: string, anchor = "start") =>
  `<text x="${x}" y="${y}" text-anchor="${anchor}">${esc(body)}</text>`;

/** The event's fields as `data-*` attributes. */
const dataOf = (event: TimelineEvent) =>
  Object.entries(event).map(([key, value]) => {
    const name = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return ` data-${name}="${esc(Array.isArray(value) ? value.join(",") : String(value ?? ""))}"`;
  }).join("");

/** The context used as an area, the window and thresholds as lines, the events as marks. */
export function timelineSvg(timeline: Timeline): string {
  const scale = scaleOf(timeline);
  const bins = binTimeline(timeline, timeline.calls.length);
  const n = Math.max(1, bins.length);
  const r1 = (v: number) => Math.round(v * 10) / 10;
  const x = (edge: number) => r1(L + (edge * (R - L)) / n);
  const y = (tokens: number) => r1(B - Math.min(1, heightOf(tokens, scale)) * (B - T));
  // A step line: a horizontal run per call, joined to the run before when there is one.
  const steps = (value: (bin: Bin) => number | undefined) =>
    bins.map((bin, i) => {
      const v = value(bin);
      const join = i > 0 && value(bins[i - 1] ?? bin) !== undefined ? "L" : "M";
      return v === undefined ? "" : `${join}${x(i)} ${y(v)}H${x(i + 1)}`;
    }).join("");
  const area = bins.map((bin, i) =>
    bin.tokens === undefined ? "" : (bins[i - 1]?.tokens === undefined ? `M${x(i)} ${B}` : "") +
      `L${x(i)} ${y(bin.tokens)}H${x(i + 1)}` + (bins[i + 1]?.tokens === undefined ? `V${B}Z` : "")
  ).join("");
  const first = bins.find((b) => b.window !== undefined)?.window;
  const end = bins.at(-1);
  const parts = [
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    ...wrap(timelineSummary(timeline, scale), 150).map((line, i) => label(L, 18 + 16 * i, line)),
    `<path data-line="context" d="${area}" fill="#8cbce6"/>`,
    `<path data-line="window" d="${steps((b) => b.window)}" ` +
    `fill="none" stroke="#222222" stroke-width="2"/>`,
    first === undefined ? "" : label(L + 4, y(first) + 14, `window ${formatTokens(first)}`),
    `<path d="M${L} ${T}V${B}H${R}" fill="none" stroke="#444444"/>`,
    label(R, B + 32, "tool call", "end"),
    ...LEGEND.map((line, i) => label(L, H - 40 + 20 * i, line)),
    ...timeline.thresholds.flatMap((t, k) => {
      const last = end?.points[k];
      return [
        `<path data-line="threshold" data-threshold="${t}" d="${
          steps((bin) => bin.points[k])
        }" fill="none" stroke="#e08a00" stroke-dasharray="4 3"/>`,
        last === undefined ? "" : label(R + 6, y(last) + 4, thresholdLabel(t, last, end)),
      ];
    }),
    // Axes: the tokens at each quarter of the height; the first call, the last, and the calls
    // at each quarter between, each under the middle of its own column, where its marks are.
    ...[0, 0.25, 0.5, 0.75, 1].map((q) =>
      label(L - 6, y(tokensAt(q, scale)) + 4, formatTokens(Math.round(tokensAt(q, scale))), "end")
    ),
    ...[...new Set([0, 0.25, 0.5, 0.75, 1].map((q) => Math.max(1, Math.round(q * n))))].map(
      (call) => label(x(call - 0.5), B + 16, String(call), "middle"),
    ),
  ];
  bins.forEach((bin, i) => {
    // A restatement at SessionStart is marked where the bin's last compaction was.
    let at = x(i);
    for (const event of bin.events) {
      if (event.kind === "compaction") at = x(Math.min(n, event.beforeCall - 1));
      const cx = event.kind === "compaction" || event.call === "SessionStart" ? at : x(i + 0.5);
      const mark = shape(event, cx, y(bin.tokens ?? 0));
      parts.push(`<g${dataOf(event)}><title>${esc(eventText(event))}</title>${mark}</g>`);
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ` +
    `font-family="sans-serif" font-size="11" fill="#222222">\n` +
    `<title>${esc(`lessons-reinject timeline: ${timeline.sessionId}`)}</title>\n` +
    `${parts.filter((p) => p !== "").join("\n")}\n</svg>\n`;

  /** The mark of `event` on its call at `cx`, whose reading is at `cy`. */
  function shape(event: TimelineEvent, cx: number, cy: number): string {
    if (event.kind === "compaction") {
      const point = event.preTokens === undefined
        ? ""
        : `<path d="M${cx - 4} ${y(event.preTokens) - 4}l8 8m0 -8l-8 8" stroke="#d0202a" ` +
          `stroke-width="2"/>`;
      return `<path d="M${cx} ${T}V${B}" stroke="#888888" stroke-dasharray="2 3"/>${point}` +
        label(cx, T - 4, letterOf(event), "middle");
    }
    if (event.kind === "window") {
      return label(cx + 4, y(event.to) + 14, `window ${formatTokens(event.to)}`);
    }
    const fill = FILL[event.delivery];
    // A re-send sits above its call: it follows a missed refresh, often on the call before.
    if (event.kind === "resend") {
      return `<path d="M${cx} ${cy - 20}l6 6l-6 6l-6 -6z" fill="${fill}"/>`;
    }
    return event.kind === "refresh"
      ? `<circle cx="${cx}" cy="${cy}" r="4" fill="${fill}"/>`
      : `<rect x="${cx - 4}" y="${cy - 4}" width="8" height="8" fill="${fill}"/>`;
  }
}
