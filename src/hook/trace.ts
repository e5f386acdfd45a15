/**
 * The trace of one hook call: what each step saw and decided, in order, with its time. The hook
 * returns it; the debug line, `status`, `preview`, `demo` and `doctor` are renderings of it.
 */
import {
  type Decision,
  isReading,
  type NoReading,
  percentText,
  type Reading,
} from "../core/decide.ts";
import type { ContextFacts } from "../core/context_facts.ts";
import type { DeliveryReport } from "../core/receipts.ts";
import type { State } from "../schemas/state.ts";
import type { RearmResult } from "../io/lessons_learned_dedup.ts";

/** How a call ended. */
export type Outcome =
  /** A refresh was printed for the model. */
  | "fired"
  /** Nothing to print; `reason` says why. */
  | "silent"
  /** A reset event: the context's state was started afresh. */
  | "reset";

/** A refresh's text and how the budget was spent on it. */
export interface RefreshAccount {
  text: string;
  chars: number;
  budget: number;
  /** Where the lessons came from. */
  source: string;
  whole: string[];
  summarized: string[];
  omitted: string[];
  invalid: string[];
  /** One line per source of rules: what it gave, or why nothing (io/standing_rules.ts). */
  sources: string[];
  /** The manifest the lessons came from, when they did. */
  manifest: string | undefined;
}

/** One call, step by step. Fields stay undefined for steps the call did not reach. */
export interface Trace {
  event: string | undefined;
  tool: string | undefined;
  sessionId: string | undefined;
  agentId: string | undefined;
  /** The transcript read for this call's reading, and whether it is a subagent's own file. */
  transcript: { path: string; sidechainFile: boolean } | undefined;
  statePath: string | undefined;
  stateFile: "found" | "missing" | "corrupt" | undefined;
  stateBefore: State | undefined;
  reading: Reading | NoReading | undefined;
  /** Transcript size when measured. */
  transcriptSize: number | undefined;
  /**
   * Set when the call did not wait for its own transcript entry: the ceiling (percent) on its
   * reading, below every threshold not yet fired (src/core/ceiling.ts).
   */
  ceiling: number | undefined;
  /** What looking back through the transcript found: markers, recovered refreshes. */
  facts: ContextFacts | undefined;
  /** The state decided with: the state file updated with `facts` and the receipts. */
  state: State | undefined;
  /**
   * What the receipts of earlier refreshes showed, one phrase per delivery awaiting one
   * (core/receipts.ts): delivered, not recorded yet, sent again, given up.
   */
  receipts: string[] | undefined;
  /** Every delivery of this context and how it stands (after the claim, when one was made). */
  deliveries: DeliveryReport[] | undefined;
  /** The decision on the state as read (before the lock). */
  planned: Decision | undefined;
  /** The decision under the lock, on the freshest state. */
  decision: Decision | undefined;
  stateAfter: State | undefined;
  refresh: RefreshAccount | undefined;
  /** What re-arming lessons-learned's dedup did, when the refresh was due to (src/hook/rearm.ts). */
  rearm: RearmResult | undefined;
  outcome: Outcome;
  /** One phrase: why this outcome. */
  reason: string;
  /** Milliseconds per step, in order. */
  timings: { step: string; ms: number }[];
}

/** A trace before any step ran. */
export function emptyTrace(): Trace {
  return {
    event: undefined,
    tool: undefined,
    sessionId: undefined,
    agentId: undefined,
    transcript: undefined,
    statePath: undefined,
    stateFile: undefined,
    stateBefore: undefined,
    reading: undefined,
    transcriptSize: undefined,
    ceiling: undefined,
    facts: undefined,
    state: undefined,
    receipts: undefined,
    deliveries: undefined,
    planned: undefined,
    decision: undefined,
    stateAfter: undefined,
    refresh: undefined,
    rearm: undefined,
    outcome: "silent",
    reason: "",
    timings: [],
  };
}

/** Runs `step`, recording its time in `trace` under `name`. */
export async function timed<T>(trace: Trace, name: string, step: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    trace.timings.push({ step: name, ms: performance.now() - started });
  }
}

/** The reading in a few words: `31% of 200000 (default 200k), 62000 tokens from ...`. */
function describeReading(reading: Reading | NoReading): string {
  if (!isReading(reading)) return reading.reason;
  const tokens = reading.tokens === undefined ? "" : `, ${reading.tokens} tokens`;
  const window = reading.window === undefined
    ? ""
    : ` of ${reading.window} (${reading.windowSource})`;
  return `${percentText(reading.percent)}${window}${tokens} from ${reading.source}`;
}

/** `; compaction at 367000 (why)[, thresholds measured against 400000]`, or nothing. */
export function compactionText(reading: Reading): string {
  const point = reading.compaction;
  if (point === undefined) return "";
  if (point.kind === "off") return `; no auto-compaction (${point.evidence})`;
  const span = reading.span === undefined
    ? ""
    : `; percentages measured against ${reading.span} tokens`;
  return `; compaction at ${point.tokens} (${point.evidence})${span}`;
}

/** The decision with the reading it was made on, without saying the same reason twice. */
export function describeDecision(reading: Reading | NoReading, decision: Decision): string {
  // Without a reading, the decision's reason already starts with why there is none.
  return isReading(reading) ? `${describeReading(reading)} → ${decision.reason}` : decision.reason;
}

/**
 * The debug line: `PostToolUse Bash: fired: <reading> → <decision>; <accounting>`, or
 * `...: nothing: <why>`.
 */
export function debugLine(trace: Trace): string {
  const who = trace.event === undefined
    ? ""
    : `${trace.event}${trace.tool ? ` ${trace.tool}` : ""}${trace.agentId ? " (subagent)" : ""}: `;
  if (trace.outcome === "reset") return `${who}${trace.reason}`;
  const early = trace.ceiling === undefined
    ? ""
    : Number.isFinite(trace.ceiling)
    ? ` (not waited for: this call's reading is at most ${Math.ceil(trace.ceiling)}%)`
    : " (not waited for: every threshold has fired)";
  // Where Claude Code will compact, and why: written only here, for the debug line.
  const reading = trace.reading;
  const compaction = reading && isReading(reading) ? compactionText(reading) : "";
  const receipts = trace.receipts?.length ? `; receipts: ${trace.receipts.join("; ")}` : "";
  if (trace.outcome === "silent") {
    return `${who}nothing: ${trace.reason}${early}${compaction}${receipts}`;
  }
  const refresh = trace.refresh;
  const account = refresh === undefined ? "" : `; ${accountOf(refresh)}`;
  return `${who}fired: ${trace.reason}${early}${compaction}${account}${
    trace.rearm ? `; ${rearmOf(trace.rearm)}` : ""
  }${receipts}`;
}

/** `812 chars, 3 whole, 1 summarized, 0 left out`. */
function accountOf(refresh: RefreshAccount): string {
  const invalid = refresh.invalid.length > 0
    ? `; invalid lessons skipped: ${refresh.invalid.join(" | ")}`
    : "";
  const sources = refresh.sources.length > 0 ? `; sources: ${refresh.sources.join("; ")}` : "";
  return `${refresh.chars} chars, ${refresh.whole.length} whole, ` +
    `${refresh.summarized.length} summarized, ${refresh.omitted.length} left out${invalid}` +
    sources;
}

/** `re-armed lessons-learned: 2 lessons can fire again` (and what could not be done). */
function rearmOf(rearm: RearmResult): string {
  const problems = rearm.problems.length > 0 ? ` (${rearm.problems.join(" | ")})` : "";
  const n = rearm.forgotten.length;
  return `re-armed lessons-learned: ${n} ${n === 1 ? "lesson" : "lessons"} can fire again` +
    `${rearm.seenFileRemoved ? ", seen file removed" : ""}${problems}`;
}
