/**
 * Step 3: how full the context is, and from what: stdin's `context_window` (never sent to
 * PostToolUse by 2.1.328, kept should it come), a fresh statusline record, or the transcript's
 * usage for this call; with the window it is measured against and why.
 */
import type { ContextFacts } from "../core/context_facts.ts";
import { figuresOf } from "../core/context_window.ts";
import type { NoReading, Reading } from "../core/decide.ts";
import { ceilingWindow, earlyCeiling } from "../core/ceiling.ts";
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
   * Set when the call did not wait for its own transcript entry: the ceiling (percent) on its
   * reading, below every threshold not yet fired (src/core/ceiling.ts).
   */
  ceiling?: number;
  /** What the transcript shows about outstanding deliveries, when asked. */
  receipts?: ReceiptEvidence;
}

/** The deliveries to check (core/receipts.ts), and when the evidence settles all of them. */
export interface ReceiptCheck {
  query: ReceiptQuery;
  /** True when `evidence` tells every outstanding delivery: waiting longer cannot tell more. */
  settledBy: (evidence: ReceiptEvidence | undefined) => boolean;
}

/** What this context's state already proved about the window. */
export interface KnownWindow {
  proven?: WindowProof | undefined;
  firedWindow?: Readonly<Record<string, number>> | undefined;
}

/** What measuring needs from the settings. */
export type MeasureSettings = Pick<
  Settings,
  "windowOverride" | "disable1m" | "firstParty" | "waitMs" | "stateDir" | "thresholds"
>;

/**
 * The ceiling on this call's reading when the newest usage in `scan` is not this call's and even
 * the ceiling cannot cross a threshold outside `fired`; else undefined.
 */
function ceilingOf(
  scan: UsageScan,
  settings: MeasureSettings,
  fired: readonly number[],
  known: KnownWindow,
): number | undefined {
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
  });
  const input = {
    tokens: usage.tokens,
    outputTokens: usage.outputTokens,
    bytesAfter: Math.max(0, scan.size - usage.firstEnd),
    window,
  };
  return earlyCeiling(input, settings.thresholds, firedUnder(fired, known.firedWindow, window));
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
  if (fromStdin) return { reading: fromStdin, facts: {}, size: undefined };
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
  const windowFacts = (choice: WindowChoice | undefined): ContextFacts => {
    const proven = choice === undefined ? undefined : newProof(choice, known.proven);
    return proven === undefined ? {} : { proven };
  };
  if (scan.markerAfterUsage !== undefined) {
    const compacted = scan.compaction
      ? resolveWindow({ compaction: scan.compaction, disable1m: settings.disable1m })
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
  const early = ceiling === undefined ? {} : { ceiling };
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
  if (bridged) return { reading: bridged, facts: {}, size: scan.size, ...early, ...evidence };
  if (!usage) {
    return {
      reading: none("no usage in the transcript", true),
      facts: {},
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
  });
  const window = usage.window ?? choice?.window ?? 0;
  return {
    reading: {
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
    },
    facts: windowFacts(choice),
    size: scan.size,
    ...early,
    ...evidence,
  };
}
