/** The trace of one hook call: what each step saw and decided, for the debug line and commands. */
import type { ContextFacts } from "../core/facts.ts";
import type { Decision } from "../core/decide.ts";
import { formatTokens } from "../core/header.ts";
import { groupDigits, percentText } from "../core/numbers.ts";
import { isReading, type NoReading, type Reading } from "../core/reading.ts";
import type { State } from "../schemas/state.ts";
import type { RearmResult } from "../io/lessons_learned_dedup.ts";
import type { LeftOut } from "../core/lessons.ts";

/** A refresh's text and how the budget was spent; `invalid`: lessons failing validation. */
export interface RefreshAccount {
  text: string;
  chars: number;
  budget: number;
  whole: string[];
  summarized: string[];
  omitted: string[];
  /** Every lesson or rule section not restated, and why: scope, session start, this budget. */
  excluded: LeftOut[];
  invalid: string[];
  sources: string[]; // a line per source of rules: what it gave, or why nothing
  manifest: string | undefined;
}

/** One call, step by step; a step the call did not reach leaves its fields out. */
export interface Trace {
  result: "fired" | "silent" | "reset";
  reason: string;
  event?: string | undefined;
  tool?: string | undefined;
  agentId?: string | undefined;
  statePath?: string;
  stateFile?: "found" | "missing" | "corrupt";
  stateBefore?: State;
  reading?: Reading | NoReading;
  ceiling?: number | undefined; // percent, when the call answered on it instead of waiting
  waited?: number | undefined; // ms waited for its own entry (or its subagent's file)
  facts?: ContextFacts;
  decision?: Decision;
  refresh?: RefreshAccount;
  refused?: string; // why a refresh the decision called for was not given
  reloaded?: string; // after a compaction: why nothing was restated (Claude Code reloads it)
  rearm?: RearmResult | undefined;
}

/** A step's part of the trace (the payload gives the rest), and the answer when it has one. */
export type Part = Partial<Trace> & Pick<Trace, "result" | "reason"> & {
  answer?: string | undefined;
};

/** A part that stays silent, and why. */
export const silent = (reason: string): Part => ({ result: "silent", reason });

/** How a reading's numbers are written: the debug line's plain digits, or the reports' `200k`. */
export interface NumberStyle {
  tokens: (tokens: number) => string;
  window: (tokens: number) => string;
}

/** The debug line's: plain digits, as the hook has always logged them. */
const DIGITS: NumberStyle = { tokens: String, window: String };

/** The commands': `145,000` tokens of a `200k` window, as every report writes them. */
export const FOR_PEOPLE: NumberStyle = { tokens: groupDigits, window: formatTokens };

/** The reading in a few words: `31% of 200000 (why), 62000 tokens from transcript latest`. */
export function describeReading(reading: Reading | NoReading, style = DIGITS): string {
  if (!isReading(reading)) return reading.reason;
  const tokens = reading.tokens === undefined ? "" : `, ${style.tokens(reading.tokens)} tokens`;
  const window = reading.window === undefined
    ? ""
    : ` of ${style.window(reading.window)} (${reading.windowSource})`;
  return `${percentText(reading.percent)}${window}${tokens} from ${reading.source}`;
}

/** `; compaction at 367000 (why)[; percentages measured against 400000 tokens]`, or nothing. */
export function compactionText(reading: Reading, style = DIGITS): string {
  const point = reading.compaction;
  const n = style.tokens;
  if (point === undefined) return "";
  if (point.kind === "off") return `; no auto-compaction (${point.evidence})`;
  const span = reading.cadence !== undefined
    ? `; percentages of ${n(reading.span ?? 0)} tokens as on a 200k window, then every ` +
      `${n(reading.cadence.every)} tokens`
    : reading.span === undefined
    ? ""
    : `; percentages measured against ${n(reading.span)} tokens`;
  return `; compaction at ${n(point.tokens)} (${point.evidence})${span}`;
}

/** `PostToolUse Bash: fired: <reading> → <decision>; <accounting>`, or `...: nothing: <why>`. */
export function debugLine(trace: Trace): string {
  const who = trace.event === undefined
    ? ""
    : `${trace.event}${trace.tool ? ` ${trace.tool}` : ""}${trace.agentId ? " (subagent)" : ""}: `;
  if (trace.result === "reset") return `${who}${trace.reason}`;
  const bound = trace.ceiling === undefined
    ? ""
    : Number.isFinite(trace.ceiling)
    ? `this call's reading is at most ${Math.ceil(trace.ceiling)}%`
    : "every threshold has fired";
  const waited = trace.waited === undefined ? "" : `waited ${trace.waited} ms for its entry`;
  const early = !bound && !waited
    ? ""
    : ` (${waited || "not waited for"}${bound ? `${waited ? ", then" : ":"} ${bound}` : ""})`;
  const reading = trace.reading;
  const compaction = reading && isReading(reading) ? compactionText(reading) : "";
  const notes = trace.decision?.receipts ?? [];
  const receipts = notes.length > 0 ? `; receipts: ${notes.join("; ")}` : "";
  if (trace.result === "silent") {
    return `${who}nothing: ${trace.reason}${early}${compaction}${receipts}`;
  }
  const account = trace.refresh ? `; ${accountOf(trace.refresh)}` : "";
  const rearm = trace.rearm ? `; ${rearmOf(trace.rearm)}` : "";
  return `${who}fired: ${trace.reason}${early}${compaction}${account}${rearm}${receipts}`;
}

/** `812 chars, 3 whole, 1 summarized, 0 left out; sources: ...`. */
function accountOf(refresh: RefreshAccount): string {
  const { invalid: bad } = refresh;
  const invalid = bad.length > 0 ? `; invalid lessons skipped: ${bad.join(" | ")}` : "";
  const sources = refresh.sources.length > 0 ? `; sources: ${refresh.sources.join("; ")}` : "";
  return `${refresh.chars} chars, ${refresh.whole.length} whole, ${refresh.summarized.length} ` +
    `summarized, ${refresh.omitted.length} left out${invalid}${sources}`;
}

function rearmOf(rearm: RearmResult): string {
  const problems = rearm.problems.length > 0 ? ` (${rearm.problems.join(" | ")})` : "";
  const n = rearm.forgotten.length;
  return `re-armed lessons-learned: ${n} ${n === 1 ? "lesson" : "lessons"} can fire again` +
    `${rearm.seenFileRemoved ? ", seen file removed" : ""}${problems}`;
}
