/**
 * What `lessons-reinject demo` shows: rows in (one per tool call), lines out, laid out to the
 * width it is given, one number style (grouped digits, whole percents), colour only when asked
 * for. Pure: the replay that produces the rows lives in demo.ts.
 */
import { groupDigits, MARKETPLACE_ADD, PLUGIN_INSTALL } from "./common.ts";
import { gauge } from "./gauge.ts";

/** The demo's width when it cannot tell the terminal's (piped, say). */
export const DEMO_WIDTH = 100;
/** The narrowest width the demo lays itself out to; a narrower terminal wraps it. */
export const MIN_DEMO_WIDTH = 60;

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
  /** The widest line, colour codes not counted (see {@link demoWidth}). */
  width: number;
  /**
   * The command that runs this program from where the user is (`deno task hook` in a checkout,
   * the binary's path when installed): the closing hint names it.
   */
  program: string;
  /** Where the README is, from where the user is; undefined: not beside this program. */
  readme: string | undefined;
}

/** How many lines of an injected text the demo shows without --full. */
export const PREVIEW_LINES = 6;

/** The gauge's cells at most, and the fewest it may shrink to beside a call's figures. */
const GAUGE_CELLS = 40;
const MIN_GAUGE_CELLS = 20;
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
 * The width to lay the demo out to: the terminal's columns, else `COLUMNS`, else
 * {@link DEMO_WIDTH}; never under {@link MIN_DEMO_WIDTH}. Piped output has no terminal, so it
 * gets `COLUMNS` when set, else 100.
 *
 * @example
 * ```ts
 * demoWidth(80, undefined); // 80
 * demoWidth(undefined, "132"); // 132
 * demoWidth(40, undefined); // 60
 * demoWidth(undefined, "wide"); // 100
 * ```
 */
export function demoWidth(terminalColumns: number | undefined, columnsEnv: string | undefined) {
  const fromEnv = /^\s*\d+\s*$/.test(columnsEnv ?? "") ? Number(columnsEnv) : undefined;
  const columns = [terminalColumns, fromEnv].find((c) => c !== undefined && c > 0) ?? DEMO_WIDTH;
  return Math.max(MIN_DEMO_WIDTH, columns);
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

/** The demo's text: one string per line, none wider than `options.width` columns. */
export function demoLines(view: DemoView, options: DemoViewOptions): string[] {
  const width = options.width;
  const paint = (style: Style, text: string) =>
    options.color && text !== "" ? `${CODES[style]}${text}\x1b[0m` : text;
  const paragraph = (text: string) => wrap(text, width);
  const calls = view.rows.length;
  const out: string[] = [
    ...paragraph("lessons-reinject demo: the hook in a session that keeps growing")
      .map((line) => paint("bold", line)),
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
  const headWidth = stepWidth + 1 + 2 + callWidth + 2 + tokenWidth + " tokens  ".length;
  // The gauge beside the figures when it fits there with enough cells, else on its own line;
  // either way whole, never wrapped mid-bar.
  const besideCells = gaugeCells(width - headWidth, view.thresholds);
  const ownLineCells = gaugeCells(width - INDENT.length, view.thresholds);
  for (const row of view.rows) {
    const call = `${row.event} ${row.tool}`;
    const step = paint("bold", String(row.step).padStart(stepWidth + 1));
    const tokens = groupDigits(row.tokens);
    const bar = (cells: number) =>
      gauge(row.percent, view.thresholds, undefined, cells)
        .replace(/#+/g, (filled) => paint("cyan", filled));
    if (besideCells >= MIN_GAUGE_CELLS && call.length <= callWidth) {
      out.push(
        `${step}  ${call.padEnd(callWidth)}  ${tokens.padStart(tokenWidth)} tokens  ` +
          bar(besideCells),
      );
    } else {
      // A narrow terminal, or a long tool name (an MCP tool's, say).
      out.push(...wrap(`${step}  ${call}  ${tokens} tokens`, width), INDENT + bar(ownLineCells));
    }
    if (row.text === null) {
      for (const line of wrap(`quiet: ${row.reason}`, width - INDENT.length)) {
        out.push(INDENT + paint("dim", line));
      }
    } else {
      const why = row.crossed.length > 0
        ? `${Math.floor(row.percent)}% crossed ${listPercents(row.crossed)}`
        : row.reason;
      const said = `${why}, so ` +
        `${groupDigits(row.text.length)} characters went into the model's context ` +
        "(additionalContext):";
      const [first = "", ...more] = wrap(`refresh: ${said}`, width - INDENT.length);
      out.push(INDENT + paint("green", paint("bold", "refresh:")) + first.slice("refresh:".length));
      for (const line of more) out.push(INDENT + line);
      out.push(...quoted(row.text, options.full, width, paint));
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
    ...nextSteps(options.program, options.readme, width),
  );
  return out;
}

/**
 * How many cells a gauge gets in `room` columns: as many as fit beside its marks, brackets and
 * "100%", at most {@link GAUGE_CELLS}.
 */
function gaugeCells(room: number, thresholds: readonly number[]): number {
  const frame = "[] 100%".length;
  return Math.min(GAUGE_CELLS, room - frame - thresholds.length);
}

/**
 * What to do next, each command whole on a line so it can be copied: beside its label when the
 * width allows, else under it. A command longer than the width (a deep install path) is the one
 * line left longer than the width: cut, it could not be pasted.
 */
function nextSteps(program: string, readme: string | undefined, width: number): string[] {
  const steps: [string, string[]][] = [
    ["In Claude Code", [MARKETPLACE_ADD, PLUGIN_INSTALL]],
    ["Check it", [`${program} doctor`]],
    ["Read more", [`${program} --help`, ...(readme === undefined ? [] : [readme])]],
  ];
  const labelWidth = Math.max(...steps.map(([name]) => name.length)) + "  : ".length;
  const widest = Math.max(...steps.flatMap(([, lines]) => lines.map((l) => [...l].length)));
  if (labelWidth + widest <= width) {
    return steps.flatMap(([name, lines]) =>
      lines.map((line, i) =>
        (i === 0 ? `  ${name}:`.padEnd(labelWidth) : " ".repeat(labelWidth)) + line
      )
    );
  }
  // Narrow: labels flush left, so a command keeps the most room (the longest fits 60 columns).
  return steps.flatMap(([name, lines]) => [`${name}:`, ...lines.map((line) => `  ${line}`)]);
}

/** An injected text as a quote: its first lines (or all), wrapped to the demo's width. */
function quoted(
  text: string,
  full: boolean,
  width: number,
  paint: (style: Style, text: string) => string,
): string[] {
  const lines = text.trimEnd().split("\n");
  const shown = full ? lines : lines.slice(0, PREVIEW_LINES);
  const bar = INDENT + paint("green", QUOTE);
  const out: string[] = [];
  for (const line of shown) {
    for (const piece of wrap(line, width - INDENT.length - QUOTE.length)) {
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
