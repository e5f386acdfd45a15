import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  crossedThresholds,
  firedUnder,
  nextThreshold,
  pointOf,
} from "../../../src/core/thresholds.ts";

Deno.test("crossedThresholds() returns every unfired threshold a reading reached", async (t) => {
  // Readings of a 200k span: tokens.
  const cases: [string, number, number[], number[]][] = [
    ["below all", 50_000, [], []],
    ["exactly at", 60_000, [], [30]],
    ["just below", 59_999, [], []],
    ["jump over several", 150_000, [], [30, 52, 70]],
    ["some fired", 120_000, [30], [52]],
    ["all fired", 180_000, [30, 52, 70], []],
  ];
  for (const [name, tokens, fired, expected] of cases) {
    await t.step(name, () => {
      assertEquals(crossedThresholds({ tokens, span: 200_000 }, [30, 52, 70], fired), expected);
    });
  }
});

Deno.test("crossedThresholds() takes token counts and percentages together, in reach order", async (t) => {
  const list = [30, 52, 20_000, 60_000];
  const cases: [string, number, number, number[], number[]][] = [
    ["a token count first on a 1M window", 25_000, 1_000_000, [], [20_000]],
    ["both token counts, no percentage yet", 61_000, 1_000_000, [20_000], [60_000]],
    ["on a 200k window 30% and 60k meet: the percentage first", 61_000, 200_000, [], [
      20_000,
      30,
      60_000,
    ]],
    ["30% of a 400k span, with both counts fired", 120_000, 400_000, [20_000, 60_000], [30]],
  ];
  for (const [name, tokens, span, fired, expected] of cases) {
    await t.step(name, () => {
      assertEquals(crossedThresholds({ tokens, span }, list, fired), expected);
    });
  }
});

Deno.test("percentages are reached exactly at their share: no rounding miss", () => {
  for (let p = 1; p < 100; p++) {
    assertEquals(crossedThresholds({ tokens: p * 2000, span: 200_000 }, [p], []), [p]);
    assertEquals(crossedThresholds({ tokens: p * 2000 - 1, span: 200_000 }, [p], []), []);
  }
});

Deno.test("nextThreshold() is the first unfired one in reach order", () => {
  assertEquals(nextThreshold([30, 52, 70], [30], 200_000), 52);
  assertEquals(nextThreshold([30, 52, 70], [30, 52, 70], 200_000), undefined);
  assertEquals(nextThreshold([30, 52, 100_000], [30], 1_000_000), 100_000);
  assertEquals(nextThreshold([30, 52, 100_000], [30], 150_000), 52);
});

Deno.test("pointOf() and the reach order", () => {
  const crossed = (tokens: number, span: number, list: number[]) =>
    crossedThresholds({ tokens, span }, list, []);
  assertEquals(pointOf(30, 400_000), 120_000);
  assertEquals(pointOf(60_000, 400_000), 60_000);
  assertEquals(crossed(900_000, 1_000_000, [70, 30, 60_000]), [60_000, 30, 70]);
  assertEquals(nextThreshold([70, 30, 60_000], [60_000], 1_000_000), 30);
  // At the same point the percentage comes first: one order everywhere.
  assertEquals(crossed(60_000, 200_000, [60_000, 30]), [30, 60_000]);
  assertEquals(nextThreshold([60_000, 30], [], 200_000), 30);
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
