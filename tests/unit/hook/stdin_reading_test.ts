/**
 * stdinReading(): a `context_window` on stdin, should Claude Code ever send one to PostToolUse.
 * The percentage must be exact at whole-percent boundaries, or a threshold there fires late.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { stdinReading } from "../../../src/hook/measure.ts";

const config = undefined; // no LESSONS_CONTEXT_WINDOW

Deno.test("stdinReading() is exact at whole-percent boundaries", async (t) => {
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
      const reading = stdinReading(
        { current_usage: tokens, context_window_size: window },
        config,
      );
      equal(reading?.percent, percent);
    });
  }
});

Deno.test("stdinReading() prefers used_percentage and needs a window otherwise", () => {
  equal(stdinReading({ used_percentage: 41, context_window_size: 200_000 }, config)?.percent, 41);
  deepStrictEqual(stdinReading({ current_usage: 58_000 }, config), undefined);
  deepStrictEqual(stdinReading("nonsense", config), undefined);
});
