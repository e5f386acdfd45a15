/** What every command shares: its context, strict flags, output, text wrapped to a width. */
import { formatTokens } from "../core/header.ts";
import { groupDigits, percentText, type Threshold, thresholdText } from "../core/numbers.ts";
import { resolve } from "../core/path.ts";
import { pointOf } from "../core/thresholds.ts";
import { failed } from "../core/result.ts";
import { statOrWhy } from "../io/files.ts";
import { writeAll } from "../io/write_all.ts";
import type { CliSettings, ConfigFileOutcome } from "../settings/resolve.ts";
import type { Program } from "./program.ts";
import { renderHelp, wrap } from "./help.ts";

export { groupDigits, wrap };

/** What a command runs with, resolved once by dispatch.ts. */
export interface Ctx {
  settings: CliSettings;
  program: () => Program;
  /** Columns to fit (see {@link widthOf}). */
  width: number;
  /** Stdout is a terminal and NO_COLOR is not set. */
  color: boolean;
}

/** Exit codes: 0 all well, 1 a problem was found (2: the command line was wrong). */
export const EXIT_OK = 0;
export const EXIT_PROBLEM = 1;

/** The commands that install the plugin in Claude Code, exactly as the README gives them. */
export const MARKETPLACE_ADD = "/plugin marketplace add lessons-reinject/lessons-reinject";
export const PLUGIN_INSTALL = "/plugin install lessons-reinject@lessons-reinject";

export const out = (text: string): Promise<void> => writeAll(Deno.stdout, text);
export const err = (text: string): Promise<void> =>
  writeAll(Deno.stderr, `lessons-reinject: ${text}\n`);
export const printJson = (value: unknown): Promise<void> =>
  out(JSON.stringify(value, null, 2) + "\n");

/** Says why a command has nothing to report: on stderr, and as `{error}` with --json; exit 1. */
export async function fail(error: string, json: boolean | undefined): Promise<number> {
  if (json) await printJson({ error });
  await err(error);
  return EXIT_PROBLEM;
}

/** Prints a usage error and the command's help, and returns exit code 2. */
export async function usageError(message: string, help: string): Promise<number> {
  await writeAll(Deno.stderr, `lessons-reinject: ${message}\n\n${helpText(help, Deno.stderr)}`);
  return 2;
}

/** `n` and a noun, plural unless `n` is 1: `1 section`, `2 sections`, `2 refreshes`. */
export const count = (n: number, noun: string): string =>
  `${groupDigits(n)} ${noun}${n === 1 ? "" : noun.endsWith("h") ? "es" : "s"}`;

/** The config file used and where it was found, or where none was: `none (looked for a, b)`. */
export function configFileText(file: ConfigFileOutcome): string {
  if (file.path !== undefined) return `${file.path} (${file.via})`;
  const looked = file.looked ?? [];
  return looked.length > 0 ? `none (looked for ${looked.join(", ")})` : "none";
}

/** A refresh as its header labels it (`"30"`, `"60k"`), written as everywhere else: `30%`, `60k`. */
export const labelText = (label: string): string => /^[0-9.]+$/.test(label) ? `${label}%` : label;

/** Threshold names, or "none": `30%, 60k`. */
export const names = (list: readonly Threshold[]): string =>
  list.length > 0 ? list.map((t) => thresholdText(t)).join(", ") : "none";

/** Option kinds by long name (`-h` is `--help`). */
type Spec = Record<string, "boolean" | "string">;
export type Values<S extends Spec> = { [K in keyof S]?: S[K] extends "boolean" ? boolean : string };

/** The help's rows of the options that choose a session (`TARGET`). */
export const SESSION_OPTIONS = `  --transcript PATH  the session's transcript
  --session ID       the session's transcript under ~/.claude/projects/ (its id, or its start)
  --project DIR      the project whose rules and newest session to use (default: this folder)`;

/** Options of every command, of one that looks at a project, of one that looks at a session. */
export const COMMON = { help: "boolean", json: "boolean" } as const;
export const PROJECT = { ...COMMON, project: "string" } as const;
export const TARGET = { ...PROJECT, transcript: "string", session: "string" } as const;

/**
 * Parses `args` strictly against `spec` and handles a usage error (exit 2), `--help` (exit 0) and
 * `--project DIR` (the folder to act on, else where the user started).
 */
export async function readFlags<S extends Spec>(
  args: readonly string[],
  spec: S,
  help: string,
  ctx: Ctx,
): Promise<{ values: Values<S>; cwd: string } | { exit: number }> {
  const values: Record<string, string | boolean> = {};
  let problem: string | undefined;
  for (let i = 0; i < args.length && problem === undefined; i++) {
    const arg = args[i]!;
    const at = arg.indexOf("=");
    const name = arg === "-h" ? "help" : arg.slice(2, at < 0 ? undefined : at);
    const inline = at < 0 ? undefined : arg.slice(at + 1);
    const kind = arg.startsWith("--") || arg === "-h" ? spec[name] : undefined;
    if (!arg.startsWith("-")) {
      problem = `unexpected argument "${arg}": this command takes only options`;
    } else if (kind === undefined) problem = `unknown option ${arg.split("=")[0]}`;
    else if (kind === "boolean") {
      if (inline !== undefined) problem = `--${name} takes no value`;
      values[name] = true;
    } else {
      const value = inline ?? args[++i];
      if (value === undefined || value === "" || (inline === undefined && value.startsWith("--"))) {
        problem = `--${name} needs a value`;
      } else values[name] = value;
    }
  }
  const started = ctx.program().cwd;
  const cwd = typeof values.project === "string" ? resolve(started, values.project) : started;
  const folder = problem === undefined && cwd !== started ? statOrWhy(cwd) : undefined;
  if (folder && failed(folder)) {
    const why = failed(folder, "missing") ? "no such folder" : folder.error;
    problem = `--project ${values.project}: ${why}`;
  } else if (folder && !folder.isDirectory) problem = `--project ${values.project}: not a folder`;
  if (problem !== undefined) return { exit: await usageError(problem, help) };
  if (!values.help) return { values: values as Values<S>, cwd };
  await out(helpText(help, Deno.stdout));
  return { exit: EXIT_OK };
}

/** The terminal's columns, else `COLUMNS` when it is a whole number, else `fallback`. */
function columnsOf(terminal: number | undefined, env: string | undefined, fallback: number) {
  const fromEnv = /^\s*\d+\s*$/.test(env ?? "") ? Number(env) : undefined;
  return [terminal, fromEnv].find((c) => c !== undefined && c > 0) ?? fallback;
}

/** The width to fit: the terminal's columns, else `COLUMNS`, else 100; never under 60. */
export const widthOf = (terminal: number | undefined, columnsEnv: string | undefined): number =>
  Math.max(60, columnsOf(terminal, columnsEnv, 100));

/**
 * Columns for help text: the terminal's, else `COLUMNS`, else 80 (at most 100: longer lines read
 * badly; never under 40).
 */
export const helpWidthOf = (terminal: number | undefined, columnsEnv: string | undefined) =>
  Math.min(100, Math.max(40, columnsOf(terminal, columnsEnv, 80)));

/** `help` laid out for `stream`: its terminal's width when it is one (see {@link helpWidthOf}). */
export function helpText(help: string, stream: { isTerminal(): boolean }): string {
  let terminal: number | undefined;
  try {
    if (stream.isTerminal()) terminal = Deno.consoleSize().columns;
  } catch {
    // No size to be had: COLUMNS, else 80.
  }
  return renderHelp(help, helpWidthOf(terminal, Deno.env.get("COLUMNS")));
}

/** Rows of label and value: labels padded to `column`, each value line wrapped beside them. */
export function table(rows: readonly [string, string][], column: number, width: number): string {
  return rows.flatMap(([label, value]) =>
    value.split("\n").flatMap((part) => wrap(part, width - column)).map((line, i) =>
      `${(i === 0 ? label : "").padEnd(column)}${line}`.trimEnd()
    )
  ).join("\n") + "\n";
}

/**
 * A bar of `cells` cells, `#` up to `percent`, a `|` where each threshold falls (of `span`, else of
 * the window): `gauge(47, [30, 52, 70], 200_000, 20)` is `[######|###.|....|......] 47% of 200k`.
 */
export function gauge(
  percent: number | null | undefined,
  thresholds: readonly Threshold[],
  window: number | null | undefined,
  cells = 40,
  span?: number | null,
): string {
  const filled = Math.min(cells, Math.max(0, Math.round(((percent ?? 0) / 100) * cells)));
  const at = (t: Threshold) =>
    window ? (pointOf(t, span ?? window) * 100) / window : t < 100 ? t : Infinity;
  const marks = new Set(
    thresholds.map(at).filter((p) => p < 100).map((p) => Math.round(p * cells / 100)),
  );
  let bar = "";
  for (let cell = 0; cell < cells; cell++) {
    bar += (marks.has(cell) && cell > 0 ? "|" : "") + (cell < filled ? "#" : ".");
  }
  const of = window ? ` of ${formatTokens(window)}` : "";
  return `[${bar}] ${percent == null ? "?%" : percentText(percent)}${of}`;
}
