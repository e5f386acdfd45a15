import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { measure } from "../../../src/core/measure.ts";
import { figuresOf, reportedReading } from "../../../src/core/reading.ts";
import { percentOf, usedTokens } from "../../../src/core/window.ts";

Deno.test("figuresOf() prefers exact tokens over the rounded used_percentage", async (t) => {
  const cases: [string, Parameters<typeof figuresOf>[0], undefined, unknown][] = [
    [
      "tokens and window",
      { used_percentage: 31, context_window_size: 200_000, current_usage: 61_000 },
      undefined,
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
      undefined,
      { percent: 30, tokens: 60_000, window: 200_000 },
    ],
    ["only the percentage", { used_percentage: 41, context_window_size: 200_000 }, undefined, {
      percent: 41,
      tokens: undefined,
      window: 200_000,
    }],
    [
      "no reading yet",
      { used_percentage: null, context_window_size: 200_000 },
      undefined,
      undefined,
    ],
    ["tokens without any window", { current_usage: 58_000 }, undefined, undefined],
  ];
  for (const [name, cw, , expected] of cases) {
    await t.step(name, () => assertEquals(figuresOf(cw), expected));
  }
});

Deno.test("reportedReading(): LESSONS_CONTEXT_WINDOW replaces the window Claude Code reports", () => {
  const figures = { percent: 30, tokens: 60_000, window: 200_000 };
  const mine = reportedReading("stdin", figures, undefined, 100_000);
  assertEquals([mine.percent, mine.window, mine.windowSource], [
    60,
    100_000,
    "LESSONS_CONTEXT_WINDOW",
  ]);
  const theirs = reportedReading("statusline", figures, "m", undefined);
  assertEquals([theirs.percent, theirs.window, theirs.windowSource], [
    30,
    200_000,
    "reported by Claude Code",
  ]);
});

Deno.test("percentOf() is exact at whole-percent boundaries", () => {
  for (let p = 1; p < 100; p++) assertEquals(percentOf(p * 2000, 200_000), p);
});

Deno.test("usedTokens() adds the three input-side counts, missing or null as zero", () => {
  assertEquals(
    usedTokens({ input_tokens: 1, cache_creation_input_tokens: null, cache_read_input_tokens: 5 }),
    6,
  );
  assertEquals(usedTokens({}), 0);
});

/** The reading a `context_window` on stdin gives, should Claude Code ever send one to PostToolUse. */
const stdinReading = (contextWindow: unknown) => {
  const { reading } = measure({
    contextWindow,
    view: undefined,
    state: { fired: [], toolCount: 0 },
    settings: {
      thresholds: [30, 52, 70],
      windowOverride: undefined,
      disable1m: false,
      firstParty: true,
      compactEnv: {},
      scaleForAutocompact: true,
    },
    files: undefined,
  });
  return reading.kind === "reading" ? reading : undefined;
};

Deno.test("a stdin context_window is exact at whole-percent boundaries", async (t) => {
  // (58000 / 200000) * 100 is 28.999999999999996 in floating point: a 29 % threshold would miss.
  const cases: [number, number, number][] = [
    [58_000, 200_000, 29],
    [114_000, 200_000, 57],
    [116_000, 200_000, 58],
    [290_000, 1_000_000, 29],
    [60_000, 200_000, 30],
  ];
  for (const [tokens, window, percent] of cases) {
    await t.step(`${tokens} of ${window} is ${percent} %`, () => {
      assertEquals(
        stdinReading({ current_usage: tokens, context_window_size: window })?.percent,
        percent,
      );
    });
  }
});

Deno.test("a stdin context_window: used_percentage when there are no tokens, else nothing", () => {
  assertEquals(stdinReading({ used_percentage: 41, context_window_size: 200_000 })?.percent, 41);
  assertEquals(stdinReading({ current_usage: 58_000 }), undefined);
  assertEquals(stdinReading("nonsense"), undefined);
});
