import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  crossedThresholds,
  nextThreshold,
  scaleForAutocompact,
} from "../../../src/core/thresholds.ts";

Deno.test("crossedThresholds() returns every unfired threshold a reading reached", async (t) => {
  const cases: [string, number, number[], number[]][] = [
    ["below all", 25, [], []],
    ["exactly at", 30, [], [30]],
    ["just below", 29.99, [], []],
    ["jump over several", 75, [], [30, 52, 70]],
    ["some fired", 60, [30], [52]],
    ["all fired", 90, [30, 52, 70], []],
  ];
  for (const [name, percent, fired, expected] of cases) {
    await t.step(
      name,
      () => assertEquals(crossedThresholds(percent, [30, 52, 70], fired), expected),
    );
  }
});

Deno.test("nextThreshold() is the lowest unfired one", () => {
  assertEquals(nextThreshold([30, 52, 70], [30]), 52);
  assertEquals(nextThreshold([30, 52, 70], [30, 52, 70]), undefined);
});

Deno.test("scaleForAutocompact() keeps the last refresh before an early auto-compaction", async (t) => {
  const cases: [string, number, number[]][] = [
    ["compaction after the highest: unchanged", 80, [30, 52, 70]],
    ["compaction at 50", 50, [20, 34, 47]],
    ["compaction at the highest", 70, [28, 49, 67]],
    ["very early compaction stays at least 1", 3, [1]],
  ];
  for (const [name, at, expected] of cases) {
    await t.step(name, () => {
      const scaled = scaleForAutocompact([30, 52, 70], at);
      assertEquals(scaled, expected);
      ok(scaled.every((t) => t < at || at <= 3));
    });
  }
});
