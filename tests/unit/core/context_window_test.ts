import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { figuresOf } from "../../../src/core/context_window.ts";
import { percentOf, usedTokens } from "../../../src/core/window.ts";

Deno.test("figuresOf() prefers exact tokens over the rounded used_percentage", async (t) => {
  const cases: [string, Parameters<typeof figuresOf>[0], number | undefined, unknown][] = [
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
      "override replaces the window",
      { context_window_size: 200_000, current_usage: 60_000 },
      100_000,
      {
        percent: 60,
        tokens: 60_000,
        window: 100_000,
      },
    ],
    [
      "no reading yet",
      { used_percentage: null, context_window_size: 200_000 },
      undefined,
      undefined,
    ],
    ["tokens without any window", { current_usage: 58_000 }, undefined, undefined],
  ];
  for (const [name, cw, override, expected] of cases) {
    await t.step(name, () => assertEquals(figuresOf(cw, override), expected));
  }
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
