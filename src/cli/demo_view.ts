/**
 * How `demo` shows its replays: rows in, lines out, within the width given, colour only when
 * asked (src/cli/demo.ts replays the session through the hook).
 */
import { formatTokens } from "../core/header.ts";
import { count, gauge, groupDigits, MARKETPLACE_ADD, PLUGIN_INSTALL, wrap } from "./common.ts";
import type { DemoJson } from "./schemas.ts";

/** One tool call of the replay: why it stayed quiet (or fired), and what a refresh crossed. */
export type DemoRow =
  & Pick<DemoJson["steps"][number], "step" | "event" | "tool" | "tokens" | "percent" | "text">
  & { reason: string; crossed: readonly number[] };

/** The replay, and how to show it. */
export interface DemoView {
  model: string;
  window: number;
  thresholds: readonly number[];
  rows: readonly DemoRow[];
  /** Every line of each injected text (default: the first six). */
  full: boolean;
  color: boolean;
  width: number;
  /** The commands that run this program from here and from any folder. */
  program: string;
  anywhere: string;
  readme: string | undefined;
  /** The same session on Claude Code's default model, its token counts scaled by `scale`. */
  defaultModel?: Pick<DemoView, "model" | "window" | "rows"> & { scale: number; span: number };
}

const INDENT = "    ";
const QUOTE = "│ ";
const CODES = { bold: "\x1b[1m", dim: "\x1b[2m", green: "\x1b[32m", cyan: "\x1b[36m" };

/** "30%, 52% and 70%". */
function listPercents(values: readonly number[]): string {
  const parts = values.map((v) => `${v}%`);
  return parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
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
  out.push(...rowLines(view, rows, paint));
  const at = rows.filter((r) => r.text !== null).map((r) => Math.floor(r.percent));
  const summary = `${count(at.length, "refresh")} over ${rows.length} ` +
    `tool calls${at.length > 0 ? `, at ${listPercents(at)}` : ""}; every other call stayed quiet.`;
  out.push(...wrap(summary, width), "");
  const large = view.defaultModel;
  if (large) {
    const given = large.rows.filter((r) => r.text !== null).map((r) => groupDigits(r.tokens));
    const heading = `The same session on Claude Code's default model, ${large.model} ` +
      `(${groupDigits(large.window)}-token window)`;
    const about = `Its token counts are ${large.scale} times the ones above. On a window over ` +
      "200k the thresholds land where a 200k session has them (60,000, 104,000 and 140,000 " +
      "tokens), then a refresh comes every 40,000 tokens up to the compaction point.";
    out.push(...wrap(heading, width).map((l) => paint("bold", l)), "", ...wrap(about, width), "");
    out.push(...rowLines(view, large.rows, paint, large));
    const summary = `${given.length} refreshes over ${large.rows.length} tool calls, at ` +
      `${given.join(", ")} tokens.`;
    out.push(...wrap(summary, width), "");
  }
  out.push(...wrap("The demo's temporary folders have been removed.", width));
  return [...out, "", paint("bold", "Next"), ...nextSteps(view)];
}

/** Each call of a replay: its figures and gauge, then why it stayed quiet or what it injected. */
function rowLines(
  view: DemoView,
  rows: readonly DemoRow[],
  paint: (style: keyof typeof CODES, text: string) => string,
  scale?: { window: number; span: number },
): string[] {
  const inTokens = scale !== undefined;
  const { width, thresholds } = view;
  const cyan = (filled: string) => paint("cyan", filled);
  const room = width - INDENT.length;
  const out: string[] = [];
  const stepWidth = String(rows.length).length + 1;
  const tokenWidth = Math.max(0, ...rows.map((r) => groupDigits(r.tokens).length));
  // The "event tool" column is at most 24 wide, so that the gauge keeps room beside it.
  const callWidth = Math.min(Math.max(0, ...rows.map((r) => `${r.event} ${r.tool}`.length)), 24);
  const suffix = scale ? ` of ${formatTokens(scale.window)}`.length : 0;
  const cells = (columns: number) =>
    Math.min(40, columns - "[] 100%".length - suffix - thresholds.length);
  // Beside the head: "<step>  <call>  <tokens> tokens  ".
  const beside = cells(width - stepWidth - callWidth - tokenWidth - 13);
  for (const row of rows) {
    const call = `${row.event} ${row.tool}`;
    const bar = (n: number) =>
      gauge(row.percent, thresholds, scale?.window, n, scale?.span).replace(/#+/g, cyan);
    const head = (pad: boolean) =>
      `${paint("bold", String(row.step).padStart(stepWidth))}  ${
        pad ? call.padEnd(callWidth) : call
      }  ${groupDigits(row.tokens).padStart(pad ? tokenWidth : 0)} tokens`;
    // The gauge whole, never wrapped: beside the figures when 20 cells fit there, else below.
    if (beside >= 20 && call.length <= callWidth) out.push(`${head(true)}  ${bar(beside)}`);
    else out.push(...wrap(head(false), width), INDENT + bar(cells(room)));
    if (row.text === null) {
      out.push(...wrap(`quiet: ${row.reason}`, room).map((l) => INDENT + paint("dim", l)));
    } else {
      const why = row.crossed.length > 0 && !inTokens
        ? `${Math.floor(row.percent)}% crossed ${listPercents(row.crossed)}`
        : row.reason;
      const [first = "", ...more] = wrap(
        `refresh: ${why}, so ${groupDigits(row.text.length)} characters went into the model's ` +
          "context (additionalContext):",
        room,
      );
      out.push(INDENT + paint("green", paint("bold", "refresh:")) + first.slice("refresh:".length));
      out.push(...more.map((l) => INDENT + l));
      const lines = row.text.trimEnd().split("\n");
      const shown = view.full ? lines : lines.slice(0, 6);
      const hidden = lines.length - shown.length;
      const quote = INDENT + paint("green", QUOTE);
      for (const line of shown) {
        out.push(...wrap(line, room - QUOTE.length).map((piece) => (quote + piece).trimEnd()));
      }
      const rest = `... ${count(hidden, "more line")} (--full shows them)`;
      if (hidden > 0) out.push(quote + paint("dim", rest));
    }
    out.push("");
  }
  return out;
}

/** What to do next, each command whole on a line (to copy it): beside its label, else under it. */
function nextSteps({ program, anywhere, readme, width }: DemoView): string[] {
  const steps: [string, string[]][] = [
    ["In Claude Code", [MARKETPLACE_ADD, PLUGIN_INSTALL]],
    ["Then, in your project", [`${anywhere} doctor`]],
    ["Read more", [`${program} --help`, ...(readme === undefined ? [] : [readme])]],
  ];
  const label = Math.max(...steps.map(([name]) => name.length)) + "  : ".length;
  const widest = Math.max(...steps.flatMap(([, lines]) => lines.map((l) => [...l].length)));
  return steps.flatMap(([name, lines]) =>
    label + widest > width
      ? [`${name}:`, ...lines.map((line) => `  ${line}`)]
      : lines.map((line, i) => (i === 0 ? `  ${name}:` : "").padEnd(label) + line)
  );
}
