import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { decideToolCall } from "../../../src/core/decide.ts";
import { measure } from "../../../src/core/measure.ts";
import {
  plannedRefreshes,
  scheduledThresholds,
  scheduleFor,
  widestGap,
} from "../../../src/core/schedule.ts";
import { call, MEASURE_SETTINGS, state as stateOf } from "./_inputs.ts";

Deno.test("scheduleFor() keeps a span of 200k or less as it is, and paces a larger one", async (t) => {
  const P = [30, 52, 70];
  /** Token counts written in thousands. */
  const k = (...thousands: number[]) => thousands.map((n) => n * 1000);
  // name, thresholds, cadence, span, end, the percentages' span, the cadence's points
  type Case = [string, number[], number, number, number | undefined, number, number[]];
  const cases: Case[] = [
    ["200k: as before", P, 40_000, 200_000, 167_000, 200_000, []],
    ["a 100k auto-compact window: as before", P, 40_000, 91_428, 67_000, 91_428, []],
    ["1M, cadence off: percentages of 1M", P, 0, 1_000_000, 967_000, 1_000_000, []],
    ["400k auto-compact window", P, 40_000, 400_000, 367_000, 2e5, k(180, 220, 260, 300, 340)],
    ["1M, a 50k cadence", P, 50_000, 1_000_000, 400_000, 2e5, k(190, 240, 290, 340, 390)],
    ["1M, token thresholds past the percentages", [30, 250_000], 40_000, 1e6, 380_000, 2e5, [
      290_000,
      330_000,
      370_000,
    ]],
    ["1M, compaction point unknown: no cadence", P, 40_000, 1e6, undefined, 2e5, []],
  ];
  for (const [name, thresholds, cadence, span, end, percentSpan, points] of cases) {
    await t.step(name, () => {
      const schedule = scheduleFor(thresholds, cadence, span, end);
      assertEquals(schedule.span, percentSpan);
      assertEquals(schedule.cadence?.points ?? [], points);
    });
  }
});

Deno.test("scheduleFor() on 1M by default: 60k, 104k, 140k, then every 40k to the compaction", () => {
  const schedule = scheduleFor([30, 52, 70], 40_000, 1_000_000, 967_000);
  const all = scheduledThresholds([30, 52, 70], schedule);
  const points = plannedRefreshes(all, schedule.span).map((p) => p.tokens);
  // 180k to 940k: 20 points 40k apart.
  const every40k = Array.from({ length: 20 }, (_, i) => 180_000 + i * 40_000);
  assertEquals(points, [60_000, 104_000, 140_000, ...every40k]);
  assertEquals(widestGap(points), { from: 0, tokens: 60_000 });
});

Deno.test("plannedRefreshes() merges thresholds that land on one token count", () => {
  assertEquals(plannedRefreshes([30, 60_000, 52], 200_000), [
    { thresholds: [30, 60_000], tokens: 60_000 },
    { thresholds: [52], tokens: 104_000 },
  ]);
});

/** Climbs from 9k to `top` in steps of `step` on `window`: the token counts that refreshed. */
function climb(window: number, top: number, step: number, settings = MEASURE_SETTINGS): number[] {
  let state = stateOf([]);
  const refreshedAt: number[] = [];
  for (let tokens = step; tokens <= top; tokens += step) {
    const contextWindow = { context_window_size: window, current_usage: tokens };
    const { reading, facts } = measure({
      contextWindow,
      view: undefined,
      state,
      settings,
      files: undefined,
    });
    const { thresholds } = settings;
    const claim = { toolUseId: `toolu_${tokens}`, at: tokens };
    const decision = decideToolCall(call(reading, state, { facts, thresholds, ...claim }));
    if (decision.cause) refreshedAt.push(tokens);
    state = decision.state;
  }
  return refreshedAt;
}

Deno.test("a 1M session climbing to 270k in steps of 9k: by 70k, three by 150k, then 25k-50k apart", () => {
  const at = climb(1_000_000, 270_000, 9_000);
  // The first at 63k, three by 144k, then 36k to 45k apart.
  assertEquals(at, [63_000, 108_000, 144_000, 180_000, 225_000, 261_000]);
});

Deno.test("a 200k session, and a 1M one with the cadence off, refresh at 30, 52 and 70 %", () => {
  assertEquals(climb(200_000, 160_000, 9_000), [63_000, 108_000, 144_000]);
  const off = climb(1_000_000, 720_000, 9_000, { ...MEASURE_SETTINGS, cadence: 0 });
  assertEquals(off, [306_000, 522_000, 702_000]);
});
