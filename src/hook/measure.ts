/**
 * Step 3: how full the context is, and from what: stdin's `context_window` (never sent to
 * PostToolUse by 2.1.328, kept should it come), a fresh statusline record, or the transcript's
 * usage for this call; with the window it is measured against and why.
 */
import type { ContextFacts } from "../core/context_facts.ts";
import {
  type CompactionPoint,
  compactsEarly,
  type CompactSettings,
  measuredAgainst,
  saysNothing,
  usualPoint,
} from "../core/compaction_point.ts";
import { AUTOCOMPACT_MARGIN } from "../core/claude_code.ts";
import { NO_SETTINGS } from "./compaction_settings.ts";
import { figuresOf } from "../core/context_window.ts";
import type { NoReading, Reading } from "../core/decide.ts";
import { ceilingTokens, ceilingWindow, earlyCeiling } from "../core/ceiling.ts";
import type { Fill } from "../core/thresholds.ts";
import { MAX_TOKENS } from "../core/numbers.ts";
import {
  firedUnder,
  newProof,
  percentOf,
  resolveWindow,
  type WindowChoice,
  type WindowProof,
  windowText,
} from "../core/window.ts";
import { bridgedReading } from "../io/statusline_store.ts";
import { readUsageWaiting, type ReceiptQuery, type UsageScan } from "../io/transcript.ts";
import type { ReceiptEvidence } from "../core/receipts.ts";
import type { HookPayload } from "../schemas/payload.ts";
import { isContextWindow } from "../schemas/guards.ts";
import type { Settings } from "../settings/resolve.ts";
import type { TranscriptRef } from "./context_files.ts";

/** A reading (or why there is none), what the read showed about compactions, and the size. */
export interface Measured {
  reading: Reading | NoReading;
  facts: ContextFacts;
  /** Transcript size when read, if it was read. */
  size: number | undefined;
  /**
   * Set when the call did not wait for its own transcript entry: the ceiling on its reading (tokens,
   * over the span its thresholds are measured against), below every threshold not yet fired
   * (src/core/ceiling.ts).
   */
  ceiling?: Fill;
  /** What the transcript shows about outstanding deliveries, when asked. */
  receipts?: ReceiptEvidence;
}

/** The deliveries to check (core/receipts.ts), and when the evidence settles all of them. */
export interface ReceiptCheck {
  query: ReceiptQuery;
  /** True when `evidence` tells every outstanding delivery: waiting longer cannot tell more. */
  settledBy: (evidence: ReceiptEvidence | undefined) => boolean;
}

/** What this context's state already knows that the reading's window and span depend on. */
export interface KnownWindow {
  proven?: WindowProof | undefined;
  firedWindow?: Readonly<Record<string, number>> | undefined;
  /** `preTokens` of the session's newest auto-compaction. */
  compactedAt?: number | undefined;
  /** Claude Code's auto-compaction settings for this context (step 3a). */
  compactFiles?: CompactSettings | undefined;
}

/** What measuring needs from the settings. */
export type MeasureSettings = Pick<
  Settings,
  | "windowOverride"
  | "disable1m"
  | "firstParty"
  | "waitMs"
  | "stateDir"
  | "thresholds"
  | "compactEnv"
  | "scaleForAutocompact"
>;

/**
 * Where `model` on `window` is auto-compacted and the span its percentages are measured against.
 * The usual case (nothing set, nothing learned) is answered here without calling into
 * core/compaction_point.ts: a hook call compiles each function it runs, and most calls need none
 * of that module's.
 */
function spanOf(
  window: number,
  model: string | undefined,
  settings: MeasureSettings,
  known: KnownWindow,
): { compaction: CompactionPoint; span: number } {
  const env = settings.compactEnv;
  const files = known.compactFiles;
  if (
    env.window === undefined && env.pct === undefined && env.off === undefined &&
    known.compactedAt === undefined &&
    (files === undefined || files === NO_SETTINGS || saysNothing(files))
  ) {
    return {
      compaction: {
        kind: "point",
        tokens: window - AUTOCOMPACT_MARGIN,
        window,
        source: "the model's window",
        // Written only when read (status, doctor, the debug line): the same as usualPoint's.
        get evidence() {
          return usualPoint(window).evidence;
        },
      },
      span: window,
    };
  }
  return measuredAgainst(window, model, {
    env,
    files,
    learned: known.compactedAt,
    thresholds: settings.thresholds,
    scale: settings.scaleForAutocompact,
  });
}

/** `reading` with the span its thresholds are measured against, when its window is known. */
export function withSpan(
  reading: Reading,
  settings: MeasureSettings,
  known: KnownWindow,
): Reading {
  if (reading.window === undefined || !(reading.window > 0)) return reading;
  const { compaction, span } = spanOf(reading.window, reading.model, settings, known);
  const { span: _before, ...rest } = reading;
  return { ...rest, compaction, ...(span !== reading.window ? { span } : {}) };
}

/**
 * The compaction point an auto-compaction in the transcript shows (its `preTokens`), as a fact
 * the state keeps, when it is new.
 */
export function learnedCompaction(
  compaction: UsageScan["compaction"],
  known: number | undefined,
): ContextFacts {
  if (compaction?.trigger !== "auto" || !(compaction.preTokens > 0)) return {};
  return compaction.preTokens === known ? {} : { compactedAt: compaction.preTokens };
}

/**
 * The ceiling on this call's reading when the newest usage in `scan` is not this call's and even
 * the ceiling cannot cross a threshold outside `fired`; else undefined.
 */
function ceilingOf(
  scan: UsageScan,
  settings: MeasureSettings,
  fired: readonly number[],
  known: KnownWindow,
): Fill | undefined {
  const usage = scan.usage;
  // Without the start of the previous response, bytes written inside it may be missed: no bound.
  if (!usage || usage.matched || usage.window !== undefined || usage.firstEnd === undefined) {
    return undefined;
  }
  // A new turn may run another model (`/model`): the newest usage's window is not this call's.
  if (scan.promptAfterUsage) return undefined;
  // Every piece of evidence the reading's window gets, but its token count (which only widens
  // it): the ceiling's window is never wider than the reading's.
  const window = ceilingWindow({
    model: usage.model,
    version: usage.version,
    override: settings.windowOverride,
    disable1m: settings.disable1m,
    firstParty: settings.firstParty,
    compaction: scan.compaction,
    proven: known.proven,
    compactsEarly: scan.compaction !== undefined &&
      compactsEarly(settings.compactEnv, known.compactFiles),
  });
  // The reading's window may be larger, and a larger window's span smaller (an early point set
  // for the larger window): the smaller of this window's and the largest window's is safe.
  const span = Math.min(
    spanOf(window, usage.model, settings, known).span,
    spanOf(MAX_TOKENS, usage.model, settings, known).span,
  );
  const input = {
    tokens: usage.tokens,
    outputTokens: usage.outputTokens,
    bytesAfter: Math.max(0, scan.size - usage.firstEnd),
    window,
    span,
  };
  const counting = firedUnder(fired, known.firedWindow, span);
  if (earlyCeiling(input, settings.thresholds, counting) === undefined) return undefined;
  return { tokens: ceilingTokens(input), span };
}

const none = (reason: string, countCalls: boolean): NoReading => ({
  kind: "none",
  reason,
  countCalls,
});

/** A reading from stdin's `context_window`, should Claude Code ever send one to this event. */
export function stdinReading(
  contextWindow: unknown,
  windowOverride: number | undefined,
): Reading | undefined {
  if (!isContextWindow(contextWindow)) return undefined;
  const figures = figuresOf(contextWindow, windowOverride);
  if (!figures) return undefined;
  return {
    kind: "reading",
    source: "stdin",
    ...figures,
    windowSource: figures.window === undefined
      ? undefined
      : windowOverride !== undefined
      ? "env LESSONS_CONTEXT_WINDOW"
      : "reported by Claude Code",
    model: undefined,
  };
}

/**
 * Measures this call's context. Never throws: a missing transcript is a reason, not an error.
 * `known` is what this context's state already proved about the window.
 */
export async function measure(
  payload: HookPayload,
  transcript: TranscriptRef | undefined,
  settings: MeasureSettings,
  /** The session's key from the context's files (`StatePaths.sessionKey`): names the record. */
  sessionKey?: string,
  /** Thresholds already fired: given, the call stops waiting once a ceiling rules a crossing out. */
  earlyFired?: readonly number[],
  /** What this context's state already proved about the window. */
  known: KnownWindow = {},
  /** Outstanding deliveries: their receipts are read from the same bytes, in the same wait. */
  receipts?: ReceiptCheck,
): Promise<Measured> {
  const fromStdin = stdinReading(payload.context_window, settings.windowOverride);
  if (fromStdin) {
    return { reading: withSpan(fromStdin, settings, known), facts: {}, size: undefined };
  }
  if (!transcript) return { reading: none("no transcript_path", true), facts: {}, size: undefined };
  // Only a call that would wait for its own entry (it names its tool_use) can skip the wait.
  const fired = payload.tool_use_id === undefined ? undefined : earlyFired;
  // While a delivery awaits its receipt, the call waits for its own entry unless the receipts
  // are already told: that entry is the response that settles them.
  const told = (s: UsageScan) => receipts === undefined || receipts.settledBy(s.receipts);
  const scan = await readUsageWaiting(
    transcript.path,
    {
      toolUseId: payload.tool_use_id,
      sidechainFile: transcript.sidechainFile,
      receipts: receipts?.query,
    },
    {
      waitMs: settings.waitMs,
      ...(fired
        ? { enough: (s) => ceilingOf(s, settings, fired, known) !== undefined && told(s) }
        : {}),
    },
  );
  if ("error" in scan) return { reading: none(scan.error, true), facts: {}, size: undefined };
  const evidence = scan.receipts ? { receipts: scan.receipts } : {};
  // Only a compaction in the scan makes these matter (window evidence, the point it shows).
  const early = scan.compaction !== undefined &&
    compactsEarly(settings.compactEnv, known.compactFiles);
  const learned = scan.compaction ? learnedCompaction(scan.compaction, known.compactedAt) : {};
  const windowFacts = (choice: WindowChoice | undefined): ContextFacts => {
    const proven = choice === undefined ? undefined : newProof(choice, known.proven);
    return proven === undefined ? learned : { proven, ...learned };
  };
  if (scan.markerAfterUsage !== undefined) {
    const compacted = scan.compaction
      ? resolveWindow({
        compaction: scan.compaction,
        disable1m: settings.disable1m,
        compactsEarly: early,
      })
      : undefined;
    return {
      reading: none("compacted since the last usage: no reading yet", false),
      facts: { marker: scan.markerAfterUsage, ...windowFacts(compacted) },
      size: scan.size,
      ...evidence,
    };
  }
  const usage = scan.usage;
  const ceiling = fired ? ceilingOf(scan, settings, fired, known) : undefined;
  const atOnce = ceiling === undefined ? {} : { ceiling };
  // A fresh statusline reading is Claude Code's own figure and window: prefer it.
  const bridged = await bridgedReading(
    settings.stateDir,
    payload.session_id,
    payload.agent_id,
    settings.windowOverride,
    usage,
    Date.now(),
    sessionKey,
  );
  if (bridged) {
    return {
      reading: withSpan(bridged, settings, known),
      facts: learned,
      size: scan.size,
      ...atOnce,
      ...evidence,
    };
  }
  if (!usage) {
    return {
      reading: none("no usage in the transcript", true),
      facts: learned,
      size: scan.size,
      ...evidence,
    };
  }
  // The version that wrote the entry decides the model's window (data/window_table.ts).
  const choice: WindowChoice | undefined = usage.window !== undefined ? undefined : resolveWindow({
    model: usage.model,
    version: usage.version,
    tokens: usage.tokens,
    override: settings.windowOverride,
    disable1m: settings.disable1m,
    firstParty: settings.firstParty,
    compaction: scan.compaction,
    proven: known.proven,
    compactsEarly: early,
  });
  const window = usage.window ?? choice?.window ?? 0;
  const reading: Reading = {
    kind: "reading",
    source: usage.window !== undefined
      ? "transcript Token usage"
      : usage.matched
      ? "transcript tool_use match"
      : "transcript latest",
    percent: percentOf(usage.tokens, window),
    tokens: usage.tokens,
    window,
    windowSource: choice ? windowText(choice) : "stated in the transcript",
    model: usage.model,
  };
  return {
    reading: withSpan(reading, settings, known),
    facts: windowFacts(choice),
    size: scan.size,
    ...atOnce,
    ...evidence,
  };
}
