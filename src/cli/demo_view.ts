/**
 * What `lessons-reinject demo` shows: rows in (one per tool call), lines out, laid out to the
 * width it is given, one number style (grouped digits, whole percents), colour only when asked
 * for. Pure: the replay that produces the rows lives in demo.ts.
 */
import { gauge, groupDigits, MARKETPLACE_ADD, PLUGIN_INSTALL, wrap } from "./common.ts";

/** One tool call of the replay, as the demo shows it. */
export interface DemoRow {
  step: number;
  event: string;
  tool: string;
  /** Context used by the call's own assistant message. */
  tokens: number;
  percent: number;
  /** Why the call stayed quiet, or why a refresh without thresholds fired. */
  reason: string;
  /** The thresholds a refresh names (empty when the call stayed quiet). */
  crossed: readonly number[];
  /** The injected text, or null when the call stayed quiet. */
  text: string | null;
}

/** The replay, and how to show it. */
export interface DemoView {
  model: string;
  window: number;
  thresholds: readonly number[];
  rows: readonly DemoRow[];
  /** Every line of each injected text (default: the first few). */
  full: boolean;
  color: boolean;
  /** The widest line, colour codes not counted. */
  width: number;
  /** The command that runs this program from where the user is, for `--help`. */
  program: string;
  /** One that runs it from any folder, for `doctor` in the user's project. */
  anywhere: string;
  readme: string | undefined;
}

/** Lines of an injected text shown without --full; the gauge's most and fewest cells. */
const PREVIEW_LINES = 6;
const GAUGE_CELLS = 40;
const MIN_GAUGE_CELLS = 20;
/** The widest "event tool" column that still leaves the gauge room on the same line. */
const CALL_COLUMN = 24;
const INDENT = "    ";
const QUOTE = "│ ";
const CODES = { bold: "\x1b[1m", dim: "\x1b[2m", green: "\x1b[32m", cyan: "\x1b[36m" };

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
  return parts.length <= 1
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** The demo's text: one string per line, none wider than `view.width` columns. */
export function demoLines(view: DemoView): string[] {
  const { width, rows, thresholds } = view;
  const paint = (style: keyof typeof CODES, text: string) =>
    view.color && text !== "" ? `${CODES[style]}${text}\x1b[0m` : text;
  const intro = `${rows.length} tool calls of a Claude Code session on ${view.model} ` +
    `(${groupDigits(view.window)}-token window) go through the hook's own code one at a time, ` +
    "with the bundled sample lessons. The transcript lines are ones Claude Code 2.1.328 wrote; " +
    "their token counts were rewritten so that the context climbs past the thresholds, " +
    `${listPercents(thresholds)}. Nothing leaves this machine and your own settings are not used.`;
  const title = "lessons-reinject demo: the hook in a session that keeps growing";
  const out = [...wrap(title, width).map((l) => paint("bold", l)), "", ...wrap(intro, width), ""];
  const stepWidth = String(rows.length).length;
  const tokenWidth = Math.max(0, ...rows.map((r) => groupDigits(r.tokens).length));
  const calls = rows.map((r) => `${r.event} ${r.tool}`);
  const callWidth = Math.min(Math.max(0, ...calls.map((c) => c.length)), CALL_COLUMN);
  const head = stepWidth + 1 + 2 + callWidth + 2 + tokenWidth + " tokens  ".length;
  // The gauge beside the figures when it fits there with enough cells, else on its own line;
  // either way whole, never wrapped mid-bar.
  const cells = (room: number) =>
    Math.min(GAUGE_CELLS, room - "[] 100%".length - thresholds.length);
  for (const [i, row] of rows.entries()) {
    const call = calls[i]!;
    const step = paint("bold", String(row.step).padStart(stepWidth + 1));
    const bar = (n: number) =>
      gauge(row.percent, thresholds, undefined, n).replace(
        /#+/g,
        (filled) => paint("cyan", filled),
      );
    const tokens = groupDigits(row.tokens);
    if (cells(width - head) >= MIN_GAUGE_CELLS && call.length <= callWidth) {
      out.push(
        `${step}  ${call.padEnd(callWidth)}  ${tokens.padStart(tokenWidth)} tokens  ${
          bar(cells(width - head))
        }`,
      );
    } else {
      // A narrow terminal, or a long tool name (an MCP tool's, say).
      out.push(
        ...wrap(`${step}  ${call}  ${tokens} tokens`, width),
        INDENT + bar(cells(width - INDENT.length)),
      );
    }
    const room = width - INDENT.length;
    if (row.text === null) {
      out.push(...wrap(`quiet: ${row.reason}`, room).map((l) => INDENT + paint("dim", l)));
    } else {
      const why = row.crossed.length > 0
        ? `${Math.floor(row.percent)}% crossed ${listPercents(row.crossed)}`
        : row.reason;
      const said = `refresh: ${why}, so ${groupDigits(row.text.length)} characters went into ` +
        "the model's context (additionalContext):";
      const [first = "", ...more] = wrap(said, room);
      out.push(INDENT + paint("green", paint("bold", "refresh:")) + first.slice("refresh:".length));
      out.push(...more.map((l) => INDENT + l), ...quoted(row.text, view, paint));
    }
    out.push("");
  }
  const at = rows.filter((r) => r.text !== null).map((r) => Math.floor(r.percent));
  const summary = `${at.length} ${at.length === 1 ? "refresh" : "refreshes"} over ${rows.length} ` +
    `tool calls${at.length > 0 ? `, at ${listPercents(at)}` : ""}; every other call stayed ` +
    "quiet. The demo's temporary folder has been removed.";
  return [...out, ...wrap(summary, width), "", paint("bold", "Next"), ...nextSteps(view)];
}

/**
 * What to do next, each command whole on a line so it can be copied: beside its label when the
 * width allows, else under it. A command longer than the width (a deep install path) is the one
 * line left longer than the width: cut, it could not be pasted.
 */
function nextSteps({ program, anywhere, readme, width }: DemoView): string[] {
  const steps: [string, string[]][] = [
    ["In Claude Code", [MARKETPLACE_ADD, PLUGIN_INSTALL]],
    ["Then, in your project", [`${anywhere} doctor`]],
    ["Read more", [`${program} --help`, ...(readme === undefined ? [] : [readme])]],
  ];
  const label = Math.max(...steps.map(([name]) => name.length)) + "  : ".length;
  const widest = Math.max(...steps.flatMap(([, lines]) => lines.map((l) => [...l].length)));
  if (label + widest > width) {
    return steps.flatMap(([name, lines]) => [`${name}:`, ...lines.map((line) => `  ${line}`)]);
  }
  return steps.flatMap(([name, lines]) =>
    lines.map((line, i) => (i === 0 ? `  ${name}:` : "").padEnd(label) + line)
  );
}

/** An injected text as a quote: its first lines (or all), wrapped to the demo's width. */
function quoted(
  text: string,
  view: DemoView,
  paint: (style: "green" | "dim", text: string) => string,
) {
  const lines = text.trimEnd().split("\n");
  const shown = view.full ? lines : lines.slice(0, PREVIEW_LINES);
  const bar = INDENT + paint("green", QUOTE);
  const room = view.width - INDENT.length - QUOTE.length;
  const hidden = lines.length - shown.length;
  const more = `... ${hidden} more ${hidden === 1 ? "line" : "lines"} (--full shows them)`;
  return [
    ...shown.flatMap((line) => wrap(line, room).map((piece) => (bar + piece).trimEnd())),
    ...(hidden > 0 ? [bar + paint("dim", more)] : []),
  ];
}
