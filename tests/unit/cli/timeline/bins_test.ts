/** The timeline's layout (src/cli/timeline/bins.ts): binning, the scale, where thresholds fall. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  binTimeline,
  heightOf,
  type Scale,
  scaleOf,
  tokensAt,
} from "../../../../src/cli/timeline/bins.ts";
import type { Timeline, TimelineEvent } from "../../../../src/cli/timeline/model.ts";
import { call, compaction, longSession, refresh, threeCompactions, timeline } from "./_session.ts";

/** A timeline of `readings` (one call each, 200k window) and `events`. */
function session(readings: (number | undefined)[], events: TimelineEvent[] = []): Timeline {
  const calls = readings.map((tokens, i) =>
    call(i + 1, tokens, tokens === undefined ? undefined : 200_000)
  );
  return timeline(calls, { events });
}

Deno.test("binTimeline() groups calls into at most one bin per column, each its highest reading", async (t) => {
  const cases: {
    name: string;
    readings: (number | undefined)[];
    columns: number;
    want: [first: number, last: number, tokens: number | undefined][];
  }[] = [
    { name: "no calls", readings: [], columns: 80, want: [] },
    {
      name: "fewer calls than columns: one bin per call",
      readings: [10_000, 20_000, 15_000],
      columns: 80,
      want: [[1, 1, 10_000], [2, 2, 20_000], [3, 3, 15_000]],
    },
    {
      name: "seven calls in three columns: sizes 3, 2, 2",
      readings: [1_000, 5_000, 2_000, 7_000, 3_000, 4_000, 9_000],
      columns: 3,
      want: [[1, 3, 5_000], [4, 5, 7_000], [6, 7, 9_000]],
    },
    {
      name: "a bin without a reading has none; one reading is enough",
      readings: [undefined, undefined, undefined, 8_000],
      columns: 2,
      want: [[1, 2, undefined], [3, 4, 8_000]],
    },
    {
      name: "a width under one column is one bin",
      readings: [1_000, 2_000],
      columns: 0,
      want: [[1, 2, 2_000]],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const bins = binTimeline(session(c.readings), c.columns);
      assertEquals(bins.map((b) => [b.first, b.last, b.tokens]), c.want);
    });
  }
  await t.step("2,000 calls in 80 columns: 25 calls a bin, none lost", () => {
    const long = longSession(2_000);
    const bins = binTimeline(long, 80);
    assertEquals(bins.length, 80);
    ok(bins.every((b) => b.last - b.first + 1 === 25));
    const highest = Math.max(...long.calls.slice(0, 25).map((c) => c.tokens ?? 0));
    assertEquals(bins[0]?.tokens, highest);
  });
});

Deno.test("binTimeline() keeps every event in the bin of its call, in order", async (t) => {
  const atStart: TimelineEvent = {
    kind: "restatement",
    call: "SessionStart",
    delivery: "delivered",
  };
  const readings = Array.from({ length: 100 }, () => 50_000);
  const cases: { name: string; events: TimelineEvent[]; want: number[] }[] = [
    {
      name: "refreshes by their call",
      events: [refresh(1), refresh(10), refresh(11), refresh(100)],
      want: [0, 0, 1, 9],
    },
    { name: "a compaction in the bin of the call after it", events: [compaction(21)], want: [2] },
    {
      name: "a compaction after the last call in the last bin",
      events: [compaction(101)],
      want: [9],
    },
    {
      name: "a restatement at SessionStart where its compaction went",
      events: [compaction(55), refresh(70), atStart],
      want: [5, 6, 5],
    },
    {
      name: "a restatement at SessionStart before any compaction: the first bin",
      events: [atStart],
      want: [0],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const bins = binTimeline(session(readings, c.events), 10);
      assertEquals(c.events.map((e) => bins.findIndex((b) => b.events.includes(e))), c.want);
    });
  }
  await t.step("many events in one bin stay there, in order", () => {
    const many = Array.from({ length: 30 }, (_, i) => refresh(1 + (i % 10)));
    const bins = binTimeline(session(readings, many), 10);
    assertEquals(bins[0]?.events, many);
    ok(bins.slice(1).every((b) => b.events.length === 0));
  });
});

Deno.test("binTimeline() carries the window and span over calls without them", () => {
  const calls = session([10_000, undefined, undefined, undefined]).calls;
  const bins = binTimeline(timeline([{ ...calls[0]!, span: 160_000 }, ...calls.slice(1)]), 4);
  assertEquals(bins.map((b) => [b.window, b.span]), Array(4).fill([200_000, 160_000]));
  assertEquals(binTimeline(threeCompactions(), 600)[349]?.window, 1_000_000);
});

Deno.test("scaleOf() is linear unless the session would sit squashed at the bottom", async (t) => {
  const withWindows = (windows: number[], tokens: number) =>
    timeline(windows.map((w, i) => call(i + 1, tokens, w)));
  const linear = (top: number): Scale => ({ top, kind: "linear" });
  const sqrt = (top: number): Scale => ({ top, kind: "sqrt" });
  const cases: [string, Timeline, Scale][] = [
    ["one 200k window", withWindows([200_000, 200_000], 150_000), linear(200_000)],
    ["200k proven 1M part-way", withWindows([200_000, 1_000_000], 150_000), sqrt(1_000_000)],
    ["1M, readings under a quarter", withWindows([1_000_000], 240_000), sqrt(1_000_000)],
    ["1M, readings from a quarter", withWindows([1_000_000], 250_000), linear(1_000_000)],
    [
      "no window: the readings set the top",
      timeline([call(1, 40_000, undefined), call(2, 80_000, undefined)]),
      linear(80_000),
    ],
    ["nothing known", session([]), linear(1)],
    [
      "a compaction point above the window",
      session([150_000], [compaction(2, 210_000)]),
      linear(210_000),
    ],
    ["the three-compaction session", threeCompactions(), sqrt(1_000_000)],
  ];
  for (const [name, session, want] of cases) {
    await t.step(name, () => assertEquals(scaleOf(session), want));
  }
});

Deno.test("heightOf() and tokensAt() are each other's inverse on both scales", () => {
  const sqrt: Scale = { top: 1_000_000, kind: "sqrt" };
  const linear: Scale = { top: 200_000, kind: "linear" };
  assertEquals(heightOf(250_000, sqrt), 0.5);
  assertEquals(heightOf(50_000, linear), 0.25);
  assertEquals(heightOf(-5, linear), 0);
  for (const scale of [sqrt, linear]) {
    for (const h of [0, 0.1, 0.5, 0.9, 1]) {
      ok(Math.abs(heightOf(tokensAt(h, scale), scale) - h) < 1e-9);
    }
  }
});

Deno.test("binTimeline() puts a percentage threshold on the span, else the window; tokens stay", () => {
  const points = (span: number | undefined, window: number | undefined) => {
    const calls = [{ ...call(1, 10_000, window), span }];
    return binTimeline(timeline(calls, { thresholds: [30, 60_000, 200_000] }), 1)[0]?.points;
  };
  assertEquals(points(160_000, 200_000), [48_000, 60_000, undefined]);
  assertEquals(points(undefined, 200_000), [60_000, 60_000, undefined]);
  assertEquals(points(undefined, undefined), [undefined, 60_000, 200_000]);
  // At or past the window a threshold never fires: no point.
  assertEquals(points(50_000, 100_000), [15_000, 60_000, undefined]);
});
