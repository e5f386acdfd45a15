/** One call's reading, and what the read taught: a compaction, where it compacts, a window. */
import { failed, type Result } from "./result.ts";
import type { CompactEnv, CompactSettings } from "./compaction_point.ts";
import { compactsEarly, endOf, spanFor } from "./compaction_point.ts";
import { scheduleFor } from "./schedule.ts";
import { CHECKPOINT_BYTES, type ContextFacts, markersFrom, proofOf } from "./facts.ts";
import type { Threshold } from "./numbers.ts";
import { figuresOf, type NoReading, type Reading } from "./reading.ts";
import { type CompactionEvidence, percentOf, resolveWindow, type WindowChoice } from "./window.ts";
import { type WindowProof, windowText } from "./window.ts";
import type { State } from "../schemas/state.ts";
import type { StatuslineRecord } from "../schemas/statusline.ts";
import type { TranscriptView } from "./view.ts";
import { isContextWindow } from "../schemas/payload.ts";

export interface MeasureSettings {
  thresholds: readonly Threshold[];
  windowOverride: number | undefined;
  disable1m: boolean;
  firstParty: boolean;
  compactEnv: CompactEnv;
  scaleForAutocompact: boolean;
  cadence: number;
}

/** `contextWindow`: stdin's (no release sends one yet); `bridged`: a fresh statusline record. */
export interface MeasureInput {
  contextWindow?: unknown;
  view: Result<TranscriptView> | undefined;
  bridged?: StatuslineRecord | undefined;
  state: State;
  settings: MeasureSettings;
  files: CompactSettings | undefined;
}

function none(reason: string, countCalls = true): NoReading {
  return { kind: "none", reason, countCalls };
}

/** The reading and the facts this call's read taught. */
type Measured = { reading: Reading | NoReading; facts: ContextFacts };

export function measure(input: MeasureInput): Measured {
  const { view, state, settings } = input;
  const figures = isContextWindow(input.contextWindow) ? figuresOf(input.contextWindow) : undefined;
  if (figures) return { reading: reported(input, "stdin", figures, state.compactedAt), facts: {} };
  if (view === undefined) return { reading: none("no transcript_path"), facts: {} };
  if (failed(view)) return { reading: none(view.error), facts: {} };
  const facts = compactionFacts(view.compaction, state, settings, input.files);
  if (view.chain) facts.chain = view.chain;
  const marker = view.markerAfterUsage ?? view.markerSince;
  if (marker !== undefined) facts.marker = marker;
  const from = markersFrom(state);
  const unchecked = from === undefined ? 0 : view.size - from;
  if (view.markersChecked && view.markerSince === undefined && unchecked >= CHECKPOINT_BYTES) {
    facts.checkedTo = view.size;
  }
  const learned = facts.compactedAt ?? state.compactedAt;
  // A compaction reported before its marker was written ends the context at `compactedFrom`.
  const endedEarlier = state.compactedFrom !== undefined && view.usage !== undefined &&
    view.usage.offset < state.compactedFrom;
  if (view.markerAfterUsage !== undefined || endedEarlier) {
    const reading = none("compacted since the last usage: no reading yet", false);
    const last = view.compactedUsage ?? (endedEarlier ? view.usage : undefined);
    if (last) {
      const { window } = windowFor(last, undefined, undefined, settings, input.files);
      reading.before = { tokens: last.tokens, window, model: last.model };
    }
    return { reading, facts };
  }
  const { bridged } = input;
  if (bridged) return { reading: reported(input, "statusline", bridged, learned), facts };
  const usage = view.usage;
  if (!usage) return { reading: none("no usage in the transcript"), facts };
  const kept = facts.proven ?? proofOf(state);
  const choice = usage.window === undefined
    ? windowFor(usage, view.compaction, kept, settings, input.files)
    : undefined;
  const proof = choice && newProof(choice, kept);
  if (proof) facts.proven = proof;
  const window = usage.window ?? choice?.window ?? 0;
  const reading: Reading = {
    kind: "reading",
    source: usage.window !== undefined
      ? "transcript Token usage"
      : `transcript ${usage.matched ? "tool_use match" : "latest"}`,
    percent: percentOf(usage.tokens, window),
    tokens: usage.tokens,
    window,
    windowSource: choice ? windowText(choice) : usage.windowSource ?? "stated in the transcript",
    model: usage.model,
  };
  return { reading: withSpan(reading, input, learned), facts };
}

/** The window of `usage` (its tokens may widen it) under the hook's settings. */
export function windowFor(
  usage: { model?: string | undefined; version?: string | undefined; tokens?: number },
  compaction: CompactionEvidence | undefined,
  proven: WindowProof | undefined,
  settings: MeasureSettings,
  files: CompactSettings | undefined,
): WindowChoice {
  const { model, version, tokens } = usage;
  const { windowOverride: override, disable1m, firstParty, compactEnv } = settings;
  const early = compaction !== undefined && compactsEarly(compactEnv, files);
  const known = { model, version, tokens, override, disable1m, firstParty };
  return resolveWindow({ ...known, compaction, proven, compactsEarly: early });
}

/** The proof `choice` makes, unless it is the one kept. */
function newProof(choice: WindowChoice, kept: WindowProof | undefined): WindowProof | undefined {
  const proof = choice.proves;
  const same = proof && kept && proof.window === kept.window && proof.model === kept.model &&
    proof.version === kept.version;
  return same ? undefined : proof;
}

/**
 * What a compaction's size proves about the window, and where the session auto-compacts; with
 * `claudeSettings`, Claude Code's settings as read afresh for the new context.
 */
export function compactionFacts(
  compaction: CompactionEvidence | undefined,
  state: State,
  settings: MeasureSettings,
  files: CompactSettings | undefined,
  claudeSettings?: string,
): ContextFacts {
  if (compaction === undefined) return {};
  const facts: ContextFacts = claudeSettings === undefined ? {} : { claudeSettings };
  const kept = proofOf(state);
  // As the compacted context's own model would be, whatever window is set.
  const unset = { ...settings, windowOverride: undefined };
  const proof = newProof(windowFor(compaction, compaction, kept, unset, files), kept);
  if (proof) facts.proven = proof;
  const at = compaction.preTokens;
  const tighter = state.compactedAt === undefined || at < state.compactedAt;
  if (compaction.trigger === "auto" && at > 0 && tighter) facts.compactedAt = at;
  return facts;
}

/** A reading from Claude Code's own figures; `LESSONS_CONTEXT_WINDOW` replaces their window. */
function reported(
  input: MeasureInput,
  source: "stdin" | "statusline",
  figures: Pick<StatuslineRecord, "percent" | "tokens" | "window" | "model">,
  learned: number | undefined,
): Reading {
  const { tokens } = figures;
  const override = input.settings.windowOverride;
  const window = override !== undefined && tokens !== undefined ? override : figures.window;
  const known = window !== undefined;
  const named = window === override ? "LESSONS_CONTEXT_WINDOW" : "reported by Claude Code";
  const reading: Reading = {
    kind: "reading",
    source,
    percent: known && tokens !== undefined ? percentOf(tokens, window) : figures.percent,
    tokens,
    window,
    windowSource: known ? named : undefined,
    model: figures.model,
  };
  return withSpan(reading, input, learned);
}

/** `reading` with where it compacts and the span its percentages are measured in. */
function withSpan(reading: Reading, input: MeasureInput, learned: number | undefined): Reading {
  const { window, tokens } = reading;
  if (window === undefined || !(window > 0)) return reading;
  const { compactEnv: env, thresholds, scaleForAutocompact: scale } = input.settings;
  // The release that wrote the transcript's newest usage (2.1.334 lowered where it compacts), and
  // its model when Claude Code's own figures name none.
  const usage = input.view && !failed(input.view) ? input.view.usage : undefined;
  const model = reading.model ?? usage?.model;
  const context = { env, files: input.files, learned, thresholds, scale, tokens };
  const { compaction, span } = spanFor(window, model, { ...context, version: usage?.version });
  reading.compaction = compaction;
  const schedule = scheduleFor(thresholds, input.settings.cadence, span, endOf(compaction, window));
  if (schedule.span !== window) reading.span = schedule.span;
  if (schedule.cadence) reading.cadence = schedule.cadence;
  return reading;
}
