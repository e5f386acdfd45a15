/**
 * One call's reading, from what the transcript showed (or Claude Code's own figures), with the
 * window and span it is measured against and the facts the read taught: a compaction, where the
 * session compacts, a window proven. Pure.
 */
import {
  type CompactEnv,
  compactsEarly,
  type CompactSettings,
  spanFor,
} from "./compaction_point.ts";
import { CHECKPOINT_BYTES, type ContextFacts, markersFrom, proofOf } from "./facts.ts";
import type { Threshold } from "./numbers.ts";
import { figuresOf, type NoReading, type Reading, reportedReading } from "./reading.ts";
import {
  type CompactionEvidence,
  newProof,
  percentOf,
  resolveWindow,
  windowText,
} from "./window.ts";
import type { State } from "../schemas/state.ts";
import type { StatuslineRecord } from "../schemas/statusline.ts";
import type { TranscriptView } from "./view.ts";
import { isContextWindow } from "../schemas/guards.ts";

/** What measuring needs from the settings. */
export interface MeasureSettings {
  thresholds: readonly Threshold[];
  windowOverride: number | undefined;
  disable1m: boolean;
  firstParty: boolean;
  compactEnv: CompactEnv;
  scaleForAutocompact: boolean;
}

/** Everything a reading is taken from. */
export interface MeasureInput {
  /** stdin's `context_window` (no release sends one to PostToolUse; honoured should one come). */
  contextWindow?: unknown;
  /** The transcript's view, why it could not be read, or undefined: no transcript. */
  view: TranscriptView | { error: string } | undefined;
  /** A fresh statusline record for this context (main thread only). */
  bridged?: StatuslineRecord | undefined;
  /** The context's state as loaded: what it proved and learned. */
  state: State;
  settings: MeasureSettings;
  /** Claude Code's auto-compaction settings files, merged; undefined when not read. */
  files: CompactSettings | undefined;
}

const none = (reason: string, countCalls: boolean): NoReading => ({
  kind: "none",
  reason,
  countCalls,
});

/** The reading and the facts this call's read taught. */
export function measure(
  input: MeasureInput,
): { reading: Reading | NoReading; facts: ContextFacts } {
  const { view, state, settings } = input;
  if (isContextWindow(input.contextWindow)) {
    const figures = figuresOf(input.contextWindow);
    if (figures) {
      const reading = reportedReading("stdin", figures, undefined, settings.windowOverride);
      return { reading: withSpan(reading, input, state.compactedAt), facts: {} };
    }
  }
  if (view === undefined) return { reading: none("no transcript_path", true), facts: {} };
  if ("error" in view) return { reading: none(view.error, true), facts: {} };
  const facts = compactionFacts(view.compaction, state, settings, input.files);
  const marker = view.markerAfterUsage ?? view.markerSince;
  if (marker !== undefined) facts.marker = marker;
  const from = markersFrom(state);
  if (
    view.markersChecked && view.markerSince === undefined && from !== undefined &&
    view.size - from >= CHECKPOINT_BYTES
  ) {
    facts.checkedTo = view.size;
  }
  const learned = facts.compactedAt ?? state.compactedAt;
  if (view.markerAfterUsage !== undefined) {
    const reading = none("compacted since the last usage: no reading yet", false);
    const last = view.compactedUsage;
    if (last) {
      const { window } = resolveWindow({ ...last, ...windowSettings(settings) });
      reading.before = { tokens: last.tokens, window, model: last.model };
    }
    return { reading, facts };
  }
  if (input.bridged) {
    const record = input.bridged;
    const reading = reportedReading("statusline", record, record.model, settings.windowOverride);
    return { reading: withSpan(reading, input, learned), facts };
  }
  const usage = view.usage;
  if (!usage) return { reading: none("no usage in the transcript", true), facts };
  const choice = usage.window !== undefined ? undefined : resolveWindow({
    ...usage,
    ...windowSettings(settings),
    compaction: view.compaction,
    proven: facts.proven ?? proofOf(state),
    compactsEarly: view.compaction !== undefined && compactsEarly(settings.compactEnv, input.files),
  });
  const proof = choice && newProof(choice, facts.proven ?? proofOf(state));
  if (proof) facts.proven = proof;
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
  return { reading: withSpan(reading, input, learned), facts };
}

const windowSettings = (settings: MeasureSettings) => ({
  override: settings.windowOverride,
  disable1m: settings.disable1m,
  firstParty: settings.firstParty,
});

/**
 * What a compaction's recorded size proves about the window (auto near 167k: 200k; above 200k:
 * 1M) and, for an auto-compaction, where this session compacts (the tightest point seen), when
 * that is news to `state`.
 */
export function compactionFacts(
  compaction: CompactionEvidence | undefined,
  state: State,
  settings: Pick<MeasureSettings, "disable1m" | "compactEnv">,
  files: CompactSettings | undefined,
): ContextFacts {
  if (compaction === undefined) return {};
  const facts: ContextFacts = {};
  const proven = proofOf(state);
  // Measured as the compacted context's own model would be.
  const choice = resolveWindow({
    compaction,
    disable1m: settings.disable1m,
    proven,
    model: compaction.model,
    version: compaction.version,
    compactsEarly: compactsEarly(settings.compactEnv, files),
  });
  const proof = newProof(choice, proven);
  if (proof) facts.proven = proof;
  const at = compaction.preTokens;
  if (
    compaction.trigger === "auto" && at > 0 &&
    !(state.compactedAt !== undefined && state.compactedAt <= at)
  ) {
    facts.compactedAt = at;
  }
  return facts;
}

/** `reading` with where it compacts and the span its percentages are measured against. */
export function withSpan(
  reading: Reading,
  input: Pick<MeasureInput, "settings" | "files">,
  learned: number | undefined,
): Reading {
  if (reading.window === undefined || !(reading.window > 0)) return reading;
  const { settings, files } = input;
  const { compaction, span } = spanFor(reading.window, reading.model, {
    env: settings.compactEnv,
    files,
    learned,
    thresholds: settings.thresholds,
    scale: settings.scaleForAutocompact,
  });
  const { span: _before, ...rest } = reading;
  return { ...rest, compaction, ...(span !== reading.window ? { span } : {}) };
}
