import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { compactionFacts, measure, type MeasureInput } from "../../../src/core/measure.ts";
import type { ContextFacts } from "../../../src/core/facts.ts";
import type { CompactionEvidence } from "../../../src/core/window.ts";
import type { State } from "../../../src/schemas/state.ts";
import { figuresOf } from "../../../src/core/reading.ts";
import { MEASURE_SETTINGS, state } from "./_inputs.ts";
import { payload } from "../../_helpers.ts";

const CAPTURED_337 = payload("statusline.mid-session-2.1.337") as {
  context_window: Parameters<typeof figuresOf>[0];
};

Deno.test("figuresOf() prefers exact tokens over the rounded used_percentage", async (t) => {
  const cases: [string, Parameters<typeof figuresOf>[0], unknown, string?][] = [
    [
      "tokens and window",
      { used_percentage: 31, context_window_size: 200_000, current_usage: 61_000 },
      { percent: 30.5, tokens: 61_000, window: 200_000 },
    ],
    [
      "usage object summed like Claude Code",
      {
        context_window_size: 200_000,
        current_usage: {
          input_tokens: 1000,
          cache_creation_input_tokens: 9000,
          cache_read_input_tokens: 50_000,
        },
      },
      { percent: 30, tokens: 60_000, window: 200_000 },
    ],
    [
      "usage counts missing from the object count as zero",
      {
        context_window_size: 200_000,
        current_usage: { input_tokens: 1, cache_read_input_tokens: 5 },
      },
      { percent: 0.003, tokens: 6, window: 200_000 },
    ],
    // From 2.1.336 used_percentage is of the auto-compact window: never multiplied by the size.
    ["only the percentage, 2.1.337", { used_percentage: 41, context_window_size: 200_000 }, {
      percent: 41,
      tokens: undefined,
      window: undefined,
    }, "2.1.337"],
    ["only the percentage, 2.1.332", { used_percentage: 41, context_window_size: 200_000 }, {
      percent: 41,
      tokens: 82_000,
      window: 200_000,
    }, "2.1.332"],
    [
      "total_input_tokens without current_usage",
      { used_percentage: 62, context_window_size: 1_000_000, total_input_tokens: 250_000 },
      { percent: 25, tokens: 250_000, window: 1_000_000 },
    ],
    // Captured from 2.1.337: used_percentage 47 is of its auto-compact window, raised to 533,000.
    ["2.1.337's statusLine stdin", CAPTURED_337.context_window, {
      percent: 25,
      tokens: 250_000,
      window: 1_000_000,
    }],
    ["no reading yet", { used_percentage: null, context_window_size: 200_000 }, undefined],
    ["tokens without any window", { current_usage: 58_000 }, undefined],
  ];
  for (const [name, cw, expected, version] of cases) {
    await t.step(name, () => assertEquals(figuresOf(cw, version), expected));
  }
});

const view = { size: 0, callPresent: false, promptAfterUsage: false, bytesRead: 0 };
/** measure()'s reading: nothing in the transcript, nothing fired, unless given. */
const measured = (more: Partial<MeasureInput>, windowOverride?: number) =>
  measure({
    view,
    state: state([]),
    settings: { ...MEASURE_SETTINGS, windowOverride },
    files: undefined,
    ...more,
  }).reading;

/** The reading measure() takes from Claude Code's own figures alone: stdin's, or the statusline's. */
function reportedReading(more: Partial<MeasureInput>, windowOverride?: number) {
  const reading = measured(more, windowOverride);
  return reading.kind === "reading" ? reading : undefined;
}

Deno.test("Claude Code's figures: LESSONS_CONTEXT_WINDOW replaces the window they report", () => {
  const figures = { current_usage: 60_000, context_window_size: 200_000 };
  const read = (more: Partial<MeasureInput>, windowOverride?: number) => {
    const r = reportedReading(more, windowOverride);
    return [r?.source, r?.percent, r?.window, r?.windowSource];
  };
  const mine = read({ contextWindow: figures }, 100_000);
  assertEquals(mine, ["stdin", 60, 100_000, "LESSONS_CONTEXT_WINDOW"]);
  const record = { sessionId: "s", recordedAt: 0, percent: 30, tokens: 60_000, window: 200_000 };
  const theirs = read({ bridged: { ...record, model: "m" } });
  assertEquals(theirs, ["statusline", 30, 200_000, "reported by Claude Code"]);
});

/** The reading a `context_window` on stdin gives, should Claude Code ever send one to PostToolUse. */
const stdinReading = (contextWindow: unknown) =>
  reportedReading({ contextWindow, view: undefined });

Deno.test("a stdin context_window is exact at whole-percent boundaries (percentOf())", () => {
  // (58000 / 200000) * 100 is 28.999999999999996 in floating point: a 29 % threshold would miss.
  for (const window of [200_000, 1_000_000]) {
    for (let percent = 1; percent < 100; percent++) {
      const tokens = (percent * window) / 100;
      const reading = stdinReading({ current_usage: tokens, context_window_size: window });
      assertEquals(reading?.percent, percent, `${tokens} of ${window}`);
    }
  }
});

Deno.test("a stdin context_window: used_percentage when there are no tokens, else nothing", () => {
  assertEquals(stdinReading({ used_percentage: 41, context_window_size: 200_000 })?.percent, 41);
  assertEquals(stdinReading({ current_usage: 58_000 }), undefined);
  assertEquals(stdinReading("nonsense"), undefined);
});

Deno.test("a usage written before a reported compaction is no reading, with or without its marker", async (t) => {
  const usage = {
    tokens: 62_000,
    model: "claude-sonnet-4-6",
    matched: false,
    offset: 4_000,
    toolUseIds: ["toolu_1"],
    unanswered: [],
  };
  const cases: [string, { compactedFrom?: number; markerAfterUsage?: number }, boolean][] = [
    ["SessionStart(compact) ran after the usage, no marker yet", { compactedFrom: 5_000 }, false],
    ["the marker is written after the usage", { markerAfterUsage: 5_000 }, false],
    ["the usage is the new context's, after where the reset ran", { compactedFrom: 3_000 }, true],
    ["no compaction", {}, true],
  ];
  for (const [name, { compactedFrom, markerAfterUsage }, isOne] of cases) {
    await t.step(name, () => {
      const marker = markerAfterUsage !== undefined && { markerAfterUsage, compactedUsage: usage };
      const reading = measured({
        view: { ...view, size: 9_000, usage, ...marker },
        state: state([], compactedFrom !== undefined ? { compactedFrom } : {}),
      });
      assertEquals(reading.kind === "reading", isOne);
      if (reading.kind === "none") {
        assertEquals([reading.countCalls, reading.before?.tokens], [false, 62_000]);
      }
    });
  }
});

Deno.test("compactionFacts() learns a window proof and the tightest auto-compaction point", async (t) => {
  const by = { model: "claude-sonnet-4-6", version: "2.1.328" };
  const auto = (preTokens: number) => ({ trigger: "auto", preTokens, ...by });
  const proof = (window: number) => ({ proven: { window, ...by } });
  const kept = { provenWindow: 200_000, provenModel: by.model, provenVersion: by.version };
  const cases: [string, CompactionEvidence | undefined, Partial<State>, ContextFacts][] = [
    ["no compaction: nothing", undefined, {}, {}],
    ["an auto-compaction near 200k", auto(167_766), {}, {
      ...proof(200_000),
      compactedAt: 167_766,
    }],
    ["one over 200k proves 1M", auto(420_000), {}, { ...proof(1_000_000), compactedAt: 420_000 }],
    ["a small manual one: nothing", { trigger: "manual", preTokens: 40_000, ...by }, {}, {}],
    ["a looser point than one seen", auto(180_000), { compactedAt: 150_000 }, proof(200_000)],
    ["the proof already kept is not learned again", auto(160_000), kept, { compactedAt: 160_000 }],
    ["an auto-compaction recorded at 0 tokens teaches no point", auto(0), {}, {}],
  ];
  for (const [name, compaction, extra, facts] of cases) {
    await t.step(name, () => {
      const got = compactionFacts(compaction, state([], extra), MEASURE_SETTINGS, undefined);
      assertEquals(got, facts);
    });
  }
});
