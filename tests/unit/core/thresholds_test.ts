import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  crossedThresholds,
  firedUnder,
  nextThreshold,
  pointOf,
} from "../../../src/core/thresholds.ts";

// Which percentages a reading crosses, once each and together: decide_test.ts's first table
// (below, exactly at, a jump over several, some fired, all fired); just below: the next test.
Deno.test("crossedThresholds() takes token counts and percentages together, in reach order", async (t) => {
  const list = [30, 52, 20_000, 60_000];
  // name, tokens, span, fired, what is crossed; then the thresholds, when not `list`
  type Case = [string, number, number, number[], number[], number[]?];
  const cases: Case[] = [
    ["a token count first on a 1M window", 25_000, 1_000_000, [], [20_000]],
    ["both token counts, no percentage yet", 61_000, 1_000_000, [20_000], [60_000]],
    ["on a 200k window 30% and 60k meet: the percentage first", 61_000, 200_000, [], [
      20_000,
      30,
      60_000,
    ]],
    ["30% of a 400k span, with both counts fired", 120_000, 400_000, [20_000, 60_000], [30]],
    ["reach order, not the list's", 900_000, 1e6, [], [60_000, 30, 70], [70, 30, 60_000]],
    ["at one point the percentage first, whatever the list", 60_000, 2e5, [], [30, 60_000], [
      60_000,
      30,
    ]],
  ];
  for (const [name, tokens, span, fired, expected, thresholds = list] of cases) {
    await t.step(name, () => {
      assertEquals(crossedThresholds({ tokens, span }, thresholds, fired), expected);
    });
  }
});

Deno.test("percentages are reached exactly at their share: no rounding miss", () => {
  for (let p = 1; p < 100; p++) {
    assertEquals(crossedThresholds({ tokens: p * 2000, span: 200_000 }, [p], []), [p]);
    assertEquals(crossedThresholds({ tokens: p * 2000 - 1, span: 200_000 }, [p], []), []);
  }
});

Deno.test("nextThreshold() is the first unfired one in reach order; pointOf() where one lies", () => {
  const cases: [number[], number[], number, number | undefined][] = [
    [[30, 52, 70], [30], 200_000, 52],
    [[30, 52, 70], [30, 52, 70], 200_000, undefined],
    [[30, 52, 100_000], [30], 1_000_000, 100_000],
    [[30, 52, 100_000], [30], 150_000, 52],
    [[70, 30, 60_000], [60_000], 1_000_000, 30],
    // At the same point the percentage comes first: one order everywhere.
    [[60_000, 30], [], 200_000, 30],
  ];
  for (const [list, fired, span, next] of cases) {
    assertEquals(nextThreshold(list, fired, span), next, JSON.stringify([list, fired, span]));
  }
  assertEquals([pointOf(30, 400_000), pointOf(60_000, 400_000)], [120_000, 60_000]);
});

Deno.test("firedUnder() drops refreshes made under a smaller window than the one proven", async (t) => {
  // name, fired, the window each fired under, the window proven, what still counts
  type Case = [string, number[], Record<string, number> | undefined, number | undefined, number[]];
  const cases: Case[] = [
    ["no record: all count", [30, 52], undefined, 1_000_000, [30, 52]],
    ["same window: all count", [30, 52], { "30": 200_000, "52": 200_000 }, 200_000, [30, 52]],
    [
      "larger window proven: those under 200k stop counting",
      [30, 52, 70],
      { "30": 200_000, "52": 200_000, "70": 1_000_000 },
      1_000_000,
      [70],
    ],
    [
      "a smaller window later: refreshes under the larger still count",
      [30],
      { "30": 1_000_000 },
      200_000,
      [30],
    ],
  ];
  for (const [name, fired, windows, window, expected] of cases) {
    await t.step(name, () => assertEquals(firedUnder(fired, windows, window), expected));
  }
});
