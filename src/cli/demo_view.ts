/**
 * What `lessons-reinject demo` shows: rows in (one per tool call), lines out, at most 100 columns,
 * one number style (grouped digits, whole percents), colour only when asked for. Pure: the
 * replay that produces the rows lives in demo.ts.
 */
import { groupDigits } from "./common.ts";
import { gauge } from "./gauge.ts";

/** The widest line the demo prints, colour codes not counted. */
export const DEMO_WIDTH = 100;

/** One tool call of the replay, as the demo shows it. */
export interface DemoRow {
  step: number;
  event: string;
  tool: string;
  /** Context used by this call's own assistant message, in tokens, and the percentage. */
  tokens: number;
  percent: number;
  /**
   * Why the call stayed quiet, or why a refresh without thresholds fired, in a few words ("12% is
   * below the next threshold, 30%").
   */
  reason: string;
  /** The thresholds a refresh names (empty when the call stayed quiet). */
  crossed: readonly number[];
  /** The injected text, or null when the call stayed quiet. */
  text: string | null;
}

/** The whole replay, as the demo shows it. */
export interface DemoView {
  model: string;
  window: number;
  thresholds: readonly number[];
  rows: readonly DemoRow[];
}

export interface DemoViewOptions {
  /** Every line of each injected text (default: the first few). */
  full: boolean;
  /** ANSI colour and bold. */
  color: boolean;
}

/** How many lines of an injected text the demo shows without --full. */
export const PREVIEW_LINES = 6;

const GAUGE_CELLS = 40;
/** The widest "event tool" column that still leaves the gauge room on the same line. */
const CALL_COLUMN = 24;
const INDENT = "    ";
const QUOTE = "│ ";

type Style = "bold" | "dim" | "green" | "cyan";
const CODES: Record<Style, string> = {
  bold: "\x1b[1m",
  dim: "\x1b[2m",
  green: "\x1b[32m",
  cyan: "\x1b[36m",
};

/**
 * Whether to colour: on a terminal, unless `NO_COLOR` asks for none (see `Settings.noColor`).
 *
 * @example
 * ```ts
 * useColor(true, false); // true
 * useColor(true, true); // false: NO_COLOR
 * useColor(false, false); // false: piped or redirected
 * ```
 */
export function useColor(isTerminal: boolean, noColor: boolean): boolean {
  return isTerminal && !noColor;
}

/**
 * "30%, 52% and 70%".
 *
 * @example
 * ```ts
 * listPercents([30, 52, 70]); // "30%, 52% and 70%"
 * ```
 */
export function listPercents(values: readonly number[]): string {
  const parts = values.map((v) => `${v}%`);
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * `text` broken at spaces into lines of at most `width` characters; a word longer than the
 * width is cut. Leading spaces of the line are kept on its first piece.
 */
export function wrap(text: string, width: number): string[] {
  if ([...text].length <= width) return [text];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    let rest = word;
    while ([...rest].length > width) {
      if (line !== "") {
        lines.push(line);
        line = "";
      }
      const chars = [...rest];
      lines.push(chars.slice(0, width).join(""));
      rest = chars.slice(width).join("");
    }
    const candidate = line === "" ? rest : `${line} ${rest}`;
    if ([...candidate].length <= width) {
      line = candidate;
    } else {
      lines.push(line);
      line = rest;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** The demo's text: one string per line, none wider than {@link DEMO_WIDTH} columns. */
export function demoLines(view: DemoView, options: DemoViewOptions): string[] {
  const paint = (style: Style, text: string) =>
    options.color && text !== "" ? `${CODES[style]}${text}\x1b[0m` : text;
  const paragraph = (text: string) => wrap(text, DEMO_WIDTH);
  const calls = view.rows.length;
  const out: string[] = [
    paint("bold", "lessons-reinject demo: the hook in a session that keeps growing"),
    "",
    ...paragraph(
      `${calls} tool calls of a Claude Code session on ${view.model} ` +
        `(${groupDigits(view.window)}-token window) go through the hook's own code one at a ` +
        `time, with the bundled sample lessons. The transcript lines are ones Claude Code ` +
        `2.1.328 wrote; their token counts were rewritten so that the context climbs past the ` +
        `thresholds, ${listPercents(view.thresholds)}. Nothing leaves this machine and your ` +
        `own settings are not used.`,
    ),
    "",
  ];
  const stepWidth = String(calls).length;
  const tokenWidth = Math.max(0, ...view.rows.map((r) => groupDigits(r.tokens).length));
  const callWidth = Math.min(
    Math.max(0, ...view.rows.map((r) => `${r.event} ${r.tool}`.length)),
    CALL_COLUMN,
  );
  for (const row of view.rows) {
    const bar = gauge(row.percent, view.thresholds, undefined, GAUGE_CELLS)
      .replace(/#+/g, (filled) => paint("cyan", filled));
    const call = `${row.event} ${row.tool}`;
    const head = `${String(row.step).padStart(stepWidth + 1)}  ${call.padEnd(callWidth)}  ` +
      `${groupDigits(row.tokens).padStart(tokenWidth)} tokens  `;
    const plainBar = gauge(row.percent, view.thresholds, undefined, GAUGE_CELLS);
    const step = paint("bold", String(row.step).padStart(stepWidth + 1));
    if ([...head].length + plainBar.length <= DEMO_WIDTH) {
      out.push(step + head.slice(stepWidth + 1) + bar);
    } else {
      // A long tool name (an MCP tool's, say): the gauge goes on a line of its own.
      out.push(`${step}  ${call}  ${groupDigits(row.tokens)} tokens`, INDENT + bar);
    }
    if (row.text === null) {
      for (const line of wrap(`quiet: ${row.reason}`, DEMO_WIDTH - INDENT.length)) {
        out.push(INDENT + paint("dim", line));
      }
    } else {
      const why = row.crossed.length > 0
        ? `${Math.floor(row.percent)}% crossed ${listPercents(row.crossed)}`
        : row.reason;
      const said = `${why}, so ` +
        `${groupDigits(row.text.length)} characters went into the model's context ` +
        "(additionalContext):";
      const [first = "", ...more] = wrap(`refresh: ${said}`, DEMO_WIDTH - INDENT.length);
      out.push(INDENT + paint("green", paint("bold", "refresh:")) + first.slice("refresh:".length));
      for (const line of more) out.push(INDENT + line);
      out.push(...quoted(row.text, options.full, paint));
    }
    out.push("");
  }
  const refreshed = view.rows.filter((r) => r.text !== null);
  const at = refreshed.map((r) => Math.floor(r.percent));
  out.push(
    ...paragraph(
      `${refreshed.length} ${refreshed.length === 1 ? "refresh" : "refreshes"} over ${calls} ` +
        `tool calls` + (at.length > 0 ? `, at ${listPercents(at)}` : "") +
        `; every other call stayed quiet. The demo's temporary folder has been removed.`,
    ),
    "",
    paint("bold", "Next"),
    "  Install it:  in Claude Code, /plugin marketplace add lessons-reinject/lessons-reinject",
    "               then /plugin install lessons-reinject@lessons-reinject",
    "  Check it:    hooks/run doctor in the plugin's folder (in this checkout: deno task hook doctor)",
    "  Read more:   README.md; lessons-reinject --help",
  );
  return out;
}

/** An injected text as a quote: its first lines (or all), wrapped to the demo's width. */
function quoted(
  text: string,
  full: boolean,
  paint: (style: Style, text: string) => string,
): string[] {
  const lines = text.trimEnd().split("\n");
  const shown = full ? lines : lines.slice(0, PREVIEW_LINES);
  const bar = INDENT + paint("green", QUOTE);
  const out: string[] = [];
  for (const line of shown) {
    for (const piece of wrap(line, DEMO_WIDTH - INDENT.length - QUOTE.length)) {
      out.push((bar + piece).trimEnd());
    }
  }
  const hidden = lines.length - shown.length;
  if (hidden > 0) {
    out.push(
      `${bar}${
        paint("dim", `... ${hidden} more ${hidden === 1 ? "line" : "lines"} (--full shows them)`)
      }`,
    );
  }
  return out;
}
