/**
 * The decision: given a context reading (or why there is none), the thresholds and this
 * context's state, whether to refresh now and what state to keep. Pure, and most of the tests.
 */
import type { State } from "../schemas/state.ts";
import type { RefreshCause } from "./header.ts";
import { crossedThresholds } from "./thresholds.ts";
import { firedUnder } from "./window.ts";

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
  thresholds: readonly number[];
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
  // Refreshes made under a smaller window than this reading's no longer count (never miss).
  const counting = firedUnder(state.fired, state.firedWindow, reading.window);
  const crossed = crossedThresholds(reading.percent, input.thresholds, counting);
  if (crossed.length === 0) {
    const next = input.thresholds.find((t) => !counting.includes(t));
    return {
      cause: undefined,
      next: undefined,
      reason: next === undefined
        ? "every threshold has fired in this context"
        : `${percentText(reading.percent)} is below the next threshold, ${next}%`,
    };
  }
  const fired = [...new Set([...counting, ...crossed])].sort((a, b) => a - b);
  const window = reading.window;
  const firedWindow = window === undefined ? state.firedWindow : {
    ...Object.fromEntries(
      Object.entries(state.firedWindow ?? {}).filter(([t]) => fired.includes(Number(t))),
    ),
    ...Object.fromEntries(crossed.map((t) => [String(t), window])),
  };
  return {
    cause: {
      kind: "thresholds",
      thresholds: crossed,
      percent: reading.percent,
      ...(reading.window !== undefined ? { window: reading.window } : {}),
    },
    next: {
      ...state,
      fired,
      ...(firedWindow !== undefined ? { firedWindow } : {}),
      firedPercent: reading.percent,
      ...(input.transcriptSize !== undefined ? { firedAt: input.transcriptSize } : {}),
    },
    reason: `${percentText(reading.percent)} crossed ${crossed.join(", ")}`,
  };
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
  if (!state.fired.some((t) => t <= reading.percent)) return undefined;
  return Math.max(state.firedAt ?? 0, state.checkedTo ?? 0);
}

/**
 * A percentage as the debug line shows it: rounded down, so a refresh never claims more.
 *
 * @example
 * ```ts
 * percentText(31.9); // "31%"
 * ```
 */
export function percentText(percent: number): string {
  return `${Math.floor(percent)}%`;
}
