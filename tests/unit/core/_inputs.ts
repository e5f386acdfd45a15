/**
 * What the core's unit tests give the decision and the measure: a reading, a state, receipt
 * evidence, a tool call's input, a refresh's cause and the measure's settings, each with defaults
 * a test overrides.
 */
import type { ToolCallInput } from "../../../src/core/decide.ts";
import type { RefreshCause } from "../../../src/core/header.ts";
import type { ContextFacts } from "../../../src/core/facts.ts";
import type { MeasureSettings } from "../../../src/core/measure.ts";
import type { NoReading, Reading } from "../../../src/core/reading.ts";
import type { ReceiptEvidence } from "../../../src/core/receipts.ts";
import type { State } from "../../../src/schemas/state.ts";

/** The default thresholds and cadence, no override, first party, no compaction settings. */
export const MEASURE_SETTINGS: MeasureSettings = {
  thresholds: [30, 52, 70],
  windowOverride: undefined,
  disable1m: false,
  firstParty: true,
  compactEnv: {},
  scaleForAutocompact: true,
  cadence: 40_000,
};

/** A refresh for `thresholds` crossed at `figures`. */
export const crossed = (
  thresholds: number[],
  figures: { percent: number; window?: number; span?: number; tokens?: number },
): RefreshCause => ({ kind: "thresholds", thresholds, ...figures });

/** A transcript reading of `percent` of `window` by claude-sonnet-4-6. */
export const reading = (percent: number, window = 200_000, extra: Partial<Reading> = {}) => ({
  kind: "reading",
  source: "transcript tool_use match",
  percent,
  tokens: (percent * window) / 100,
  window,
  windowSource: "test",
  model: "claude-sonnet-4-6",
  ...extra,
} satisfies Reading);

/** No reading: no transcript (calls are counted), or just compacted (they are not). */
export const none = (countCalls = true): NoReading => ({
  kind: "none",
  reason: countCalls ? "no transcript_path" : "compacted since the last usage: no reading yet",
  countCalls,
});

/** Receipt evidence read from offset 1000 on, with nothing found unless given. */
export const seen = (found: Partial<ReceiptEvidence> = {}): ReceiptEvidence => ({
  from: 1000,
  results: {},
  answers: {},
  cancelled: [],
  responses: [],
  records: true,
  ...found,
});

export const state = (fired: number[], extra: Partial<State> = {}): State => ({
  fired,
  toolCount: 0,
  epoch: 0,
  ...extra,
});

/** A tool call's input: the default settings, its claim at offset 1000 unless given. */
export function call(
  r: Reading | NoReading,
  s: State,
  more: {
    found?: boolean;
    facts?: ContextFacts | undefined;
    receipts?: ReceiptEvidence;
    thresholds?: readonly number[];
    toolUseId?: string;
    at?: number;
    after?: boolean | undefined;
  } = {},
): ToolCallInput {
  return {
    state: s,
    stateFound: more.found ?? true,
    reading: r,
    facts: more.facts ?? {},
    receipts: more.receipts,
    claim: { call: more.toolUseId, at: more.at ?? 1000 },
    settings: {
      thresholds: more.thresholds ?? [30, 52, 70],
      toolCountInterval: 20,
      refreshAfterCompact: more.after ?? true,
    },
  };
}
