/**
 * The decision: given a context reading (or why there is none), the thresholds and this
 * context's state, whether to refresh now and what state to keep. Pure, and most of the tests.
 */
import type { State } from "../schemas/state.ts";
import type { CompactionPoint } from "./compaction_point.ts";
import type { RefreshCause } from "./header.ts";
import {
  isTokenThreshold,
  MIN_TOKENS,
  percentText,
  type Threshold,
  thresholdText,
} from "./numbers.ts";
import { crossedThresholds, type Fill, nextThreshold, reaches } from "./thresholds.ts";
import { firedUnder } from "./window.ts";

export { percentText };

/** Where a reading came from, best first. */
export type ReadingSource =
  | "stdin"
  | "statusline"
  | "transcript tool_use match"
  | "transcript latest"
  | "transcript Token usage";

/** How full the context is. */
export interface Reading {
  kind: "reading";
  source: ReadingSource;
  percent: number;
  tokens: number | undefined;
  window: number | undefined;
  windowSource: string | undefined;
  model: string | undefined;
  /**
   * Tokens the percentage thresholds are measured against: the window, or less when Claude Code
   * compacts before the window's usual point (core/compaction_point.ts). Undefined: the window.
   */
  span?: number | undefined;
  /** Where Claude Code will auto-compact this context, as far as the hook can tell. */
  compaction?: CompactionPoint | undefined;
}

/** Why there is no reading, and whether the fallback counter should count this call. */
export interface NoReading {
  kind: "none";
  reason: string;
  /** False when the context was just compacted: a reading will come, counting would misfire. */
  countCalls: boolean;
}

export interface DecideInput {
  reading: Reading | NoReading;
  thresholds: readonly Threshold[];
  state: State;
  toolCountInterval: number;
  /** Transcript size now, recorded with a fire so later compactions can be placed after it. */
  transcriptSize: number | undefined;
}

export interface Decision {
  /** What to refresh for, or undefined to stay silent. */
  cause: RefreshCause | undefined;
  /** The state to write, or undefined when nothing changed. */
  next: State | undefined;
  /** One phrase for the debug line. */
  reason: string;
}

/**
 * True when `reading` is a measurement rather than the reason for lacking one.
 *
 * @example
 * ```ts
 * isReading({ kind: "none", reason: "no transcript_path", countCalls: true }); // false
 * ```
 */
export function isReading(reading: Reading | NoReading): reading is Reading {
  return reading.kind === "reading";
}

/**
 * Decides one tool call. With a reading, every threshold it has reached that has not fired
 * fires now, together, in one refresh. Without one, every `toolCountInterval`-th call refreshes.
 *
 * @example
 * ```ts
 * const reading = { kind: "reading", source: "transcript latest", percent: 55, tokens: 110_000,
 *   window: 200_000, windowSource: "default 200k", model: undefined } as const;
 * decide({ reading, thresholds: [30, 52, 70], state: { fired: [30], toolCount: 0 },
 *   toolCountInterval: 20, transcriptSize: 4096 }).reason; // "55% crossed 52"
 * ```
 */
export function decide(input: DecideInput): Decision {
  const { reading, state } = input;
  if (!isReading(reading)) {
    if (!reading.countCalls) return { cause: undefined, next: undefined, reason: reading.reason };
    const toolCount = state.toolCount + 1;
    const next = { ...state, toolCount };
    if (toolCount % input.toolCountInterval === 0) {
      return {
        cause: { kind: "toolCount", calls: toolCount },
        next,
        reason:
          `${reading.reason}; tool call ${toolCount} is a multiple of ${input.toolCountInterval}`,
      };
    }
    return {
      cause: undefined,
      next,
      reason: `${reading.reason}; tool call ${toolCount}, next refresh at ${
        Math.ceil(toolCount / input.toolCountInterval) * input.toolCountInterval
      }`,
    };
  }
  // Refreshes made under a smaller span than this reading's no longer count (never miss).
  const fill = fillOf(reading);
  const counting = firedUnder(state.fired, state.firedWindow, fill.span);
  const crossed = crossedThresholds(fill, input.thresholds, counting);
  // The reading's share of its span, and the span when it is not the window: `31%`, or
  // `31% of 400000 (the span before auto-compaction)`.
  const shown = percentText((fill.tokens * 100) / fill.span) +
    (reading.span !== undefined && reading.span !== reading.window
      ? ` of ${reading.span} (the span before auto-compaction)`
      : "");
  if (crossed.length === 0) {
    const next = nextThreshold(input.thresholds, counting, fill.span);
    return {
      cause: undefined,
      next: undefined,
      reason: next === undefined
        ? "every threshold has fired in this context"
        : `${shown} is below the next threshold, ${
          next < MIN_TOKENS ? `${next}%` : thresholdText(next)
        }`,
    };
  }
  const fired = [...new Set([...counting, ...crossed])].sort((a, b) => a - b);
  // The span each percentage fired under (token thresholds do not move with it).
  const spans = crossed.filter((t) => !isTokenThreshold(t)).map((t) => [String(t), fill.span]);
  const firedWindow = reading.window === undefined ? state.firedWindow : {
    ...Object.fromEntries(
      Object.entries(state.firedWindow ?? {}).filter(([t]) => fired.includes(Number(t))),
    ),
    ...Object.fromEntries(spans),
  };
  return {
    cause: {
      kind: "thresholds",
      thresholds: crossed,
      percent: reading.percent,
      ...(reading.window !== undefined ? { window: reading.window } : {}),
      ...(reading.span !== undefined && reading.span !== reading.window
        ? { span: reading.span }
        : {}),
      ...(reading.tokens !== undefined ? { tokens: reading.tokens } : {}),
    },
    next: {
      ...state,
      fired,
      ...(firedWindow !== undefined ? { firedWindow } : {}),
      firedPercent: reading.percent,
      ...(input.transcriptSize !== undefined ? { firedAt: input.transcriptSize } : {}),
    },
    // Named as the refresh header names them: `30`, `60k`.
    reason: `${shown} crossed ${crossed.map((t) => thresholdText(t, { bare: true })).join(", ")}`,
  };
}

/**
 * The reading as thresholds see it: tokens used, and the span percentages are measured against.
 * A reading with only a percentage (a statusline record without a window) counts as that many
 * hundredths of a span of 100: percentage thresholds work, token thresholds wait for tokens.
 *
 * @example
 * ```ts
 * fillOf({ kind: "reading", source: "transcript latest", percent: 12.5, tokens: 125_000,
 *   window: 1_000_000, windowSource: "x", model: undefined, span: 400_000 });
 * // { tokens: 125_000, span: 400_000 }
 * ```
 */
export function fillOf(reading: Reading): Fill {
  const window = reading.window;
  const span = reading.span ?? window;
  const tokens = reading.tokens ??
    (window !== undefined ? (reading.percent * window) / 100 : undefined);
  if (span === undefined || tokens === undefined) return { tokens: reading.percent, span: 100 };
  return { tokens, span };
}

/**
 * The state after a reset (clear, compaction): nothing fired, nothing counted, a new epoch.
 *
 * @example
 * ```ts
 * resetState({ fired: [30, 52], toolCount: 7, epoch: 2 }); // { fired: [], toolCount: 0, epoch: 3 }
 * ```
 */
export function resetState(state: State, transcriptSize?: number): State {
  return {
    fired: [],
    toolCount: 0,
    epoch: (state.epoch ?? 0) + 1,
    // What the session proved about its window outlives the context that proved it.
    ...(state.provenWindow !== undefined ? { provenWindow: state.provenWindow } : {}),
    ...(state.compactedAt !== undefined ? { compactedAt: state.compactedAt } : {}),
    ...(state.provenModel !== undefined ? { provenModel: state.provenModel } : {}),
    ...(state.provenVersion !== undefined ? { provenVersion: state.provenVersion } : {}),
    ...(state.agentTranscript !== undefined ? { agentTranscript: state.agentTranscript } : {}),
    ...(transcriptSize !== undefined ? { checkedTo: transcriptSize } : {}),
  };
}

/**
 * True when a compaction marker at `markerOffset` ends the context `state` describes: something
 * fired, and the marker was written after it.
 *
 * @example
 * ```ts
 * markerEndsContext({ fired: [30], toolCount: 0, firedAt: 1000 }, 1500); // true
 * markerEndsContext({ fired: [30], toolCount: 0, firedAt: 1000 }, 500); // false
 * ```
 */
export function markerEndsContext(state: State, markerOffset: number): boolean {
  return state.fired.length > 0 && markerOffset >= (state.firedAt ?? 0);
}

/**
 * Where to look back for an unreported compaction, or undefined when no look is needed. Any
 * reading that a fired threshold holds back may be the victim of a compaction no event reported
 * (it may have fallen and climbed again since); the look covers only bytes not yet checked.
 *
 * @example
 * ```ts
 * const reading = { kind: "reading", source: "transcript latest", percent: 31, tokens: 62_000,
 *   window: 200_000, windowSource: "default 200k", model: undefined } as const;
 * compactionCheckFrom({ fired: [30], toolCount: 0, firedAt: 800, firedPercent: 40 }, reading); // 800
 * ```
 */
export function compactionCheckFrom(state: State, reading: Reading): number | undefined {
  if (state.fired.length === 0) return undefined;
  const fill = fillOf(reading);
  if (!state.fired.some((t) => reaches(fill, t))) return undefined;
  return Math.max(state.firedAt ?? 0, state.checkedTo ?? 0);
}
