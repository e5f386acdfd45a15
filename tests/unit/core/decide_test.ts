import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  compactionCheckFrom,
  decide,
  type DecideInput,
  markerEndsContext,
  type NoReading,
  type Reading,
  resetState,
} from "../../../src/core/decide.ts";
import { applyFacts, proofOf } from "../../../src/core/context_facts.ts";
import type { State } from "../../../src/schemas/state.ts";

const reading = (percent: number): Reading => ({
  kind: "reading",
  source: "transcript tool_use match",
  percent,
  tokens: percent * 2000,
  window: 200_000,
  windowSource: "default 200k",
  model: "claude-sonnet-4-6",
});
const none = (countCalls = true): NoReading => ({
  kind: "none",
  reason: "no transcript_path",
  countCalls,
});
const state = (fired: number[], toolCount = 0, extra: Partial<State> = {}): State => ({
  fired,
  toolCount,
  epoch: 0,
  ...extra,
});
const input = (r: Reading | NoReading, s: State): DecideInput => ({
  reading: r,
  thresholds: [30, 52, 70],
  state: s,
  toolCountInterval: 20,
  transcriptSize: 1000,
});

Deno.test("decide() with a reading", async (t) => {
  const cases: [string, number, number[], number[] | undefined, number[]][] = [
    // name, percent, fired before, thresholds in the refresh (undefined: silent), fired after
    ["31% fires 30", 31, [], [30], [30]],
    ["25% is silent", 25, [], undefined, []],
    ["31% again is silent", 31, [30], undefined, [30]],
    ["a jump to 75% fires all three at once", 75, [], [30, 52, 70], [30, 52, 70]],
    ["a resumed session at 60% fires 30 and 52 once", 60, [], [30, 52], [30, 52]],
    ["52 after 30", 53, [30], [52], [30, 52]],
    ["all fired is silent", 95, [30, 52, 70], undefined, [30, 52, 70]],
    ["exactly on a threshold fires", 70, [30, 52], [70], [30, 52, 70]],
  ];
  for (const [name, percent, before, refreshed, after] of cases) {
    await t.step(name, () => {
      const d = decide(input(reading(percent), state(before)));
      assertEquals(d.cause?.kind === "thresholds" ? [...d.cause.thresholds] : undefined, refreshed);
      assertEquals((d.next ?? state(before)).fired, after);
      if (d.next) assertEquals([d.next.firedAt, d.next.firedPercent], [1000, percent]);
    });
  }
});

Deno.test("decide() without a reading counts tool calls", async (t) => {
  const cases: [string, number, boolean, boolean, number][] = [
    // name, toolCount before, countCalls, refreshes, toolCount after
    ["first call counts 1", 0, true, false, 1],
    ["the 20th call refreshes", 19, true, true, 20],
    ["the 21st is silent", 20, true, false, 21],
    ["the 40th refreshes", 39, true, true, 40],
    ["just compacted: nothing counted", 19, false, false, 19],
  ];
  for (const [name, before, countCalls, refreshes, after] of cases) {
    await t.step(name, () => {
      const d = decide(input(none(countCalls), state([], before)));
      assertEquals(d.cause !== undefined, refreshes);
      if (refreshes) assertEquals(d.cause, { kind: "toolCount", calls: after });
      assertEquals((d.next ?? state([], before)).toolCount, after);
    });
  }
});

Deno.test("resetState() forgets fired thresholds and the count, and moves the epoch", () => {
  assertEquals(resetState(state([30, 52], 7, { epoch: 4, firedAt: 10 })), {
    fired: [],
    toolCount: 0,
    epoch: 5,
  });
});

Deno.test("markerEndsContext() only for a marker written after the last fire", () => {
  const s = state([30], 0, { firedAt: 500 });
  assertEquals(markerEndsContext(s, 600), true);
  assertEquals(markerEndsContext(s, 400), false);
  assertEquals(markerEndsContext(state([]), 600), false);
});

Deno.test("compactionCheckFrom() looks back whenever a fired threshold holds the reading back", async (t) => {
  const s = state([30, 52], 0, { firedAt: 800, firedPercent: 55, checkedTo: 900 });
  const cases: [string, State, number, number | undefined][] = [
    // Issue 11: fell (unreported compaction) and climbed back above the last fire: must look.
    ["above the reading that last fired, held back by 30 and 52: look from checkedTo", s, 60, 900],
    ["dropped below every fired threshold: no look (nothing is held back)", s, 20, undefined],
    ["dropped to 35%, held back by 30: look from checkedTo", s, 35, 900],
    ["never fired: no look", state([]), 35, undefined],
  ];
  for (const [name, st, percent, from] of cases) {
    await t.step(name, () => assertEquals(compactionCheckFrom(st, reading(percent)), from));
  }
});

Deno.test("applyFacts() resets on a newer marker, keeps recovered refreshes from after it", async (t) => {
  const fired = state([30], 3, { firedAt: 500, firedPercent: 31, epoch: 2 });
  await t.step("marker after the last fire resets", () => {
    assertEquals(applyFacts(fired, { marker: 700 }, true), {
      fired: [],
      toolCount: 0,
      epoch: 3,
      checkedTo: 700,
    });
  });
  await t.step("marker before the last fire changes nothing", () => {
    assertEquals(applyFacts(fired, { marker: 100 }, true), fired);
  });
  await t.step("recovered refreshes apply only when the state file is missing", () => {
    assertEquals(applyFacts(state([]), { recovered: [30, 52], marker: 100 }, false).fired, [
      30,
      52,
    ]);
    assertEquals(applyFacts(state([]), { recovered: [30, 52], marker: 100 }, true).fired, []);
  });
  await t.step("checkedTo only moves forward", () => {
    assertEquals(
      applyFacts(state([30], 0, { checkedTo: 50 }), { checkedTo: 40 }, true).checkedTo,
      50,
    );
    assertEquals(
      applyFacts(state([30], 0, { checkedTo: 50 }), { checkedTo: 90 }, true).checkedTo,
      90,
    );
  });
});

Deno.test("decide() records the window each threshold fired under; a larger one re-arms it", async (t) => {
  const at = (percent: number, window: number): Reading => ({
    ...reading(percent),
    tokens: (percent * window) / 100,
    window,
  });
  await t.step("a fire under 200k records 200k", () => {
    const d = decide(input(at(31, 200_000), state([])));
    assertEquals(d.next?.firedWindow, { "30": 200_000 });
  });
  await t.step("once 1M is proven, refreshes under 200k stop counting", () => {
    const s = state([30, 52], 0, { firedWindow: { "30": 200_000, "52": 200_000 } });
    const silent = decide(input(at(25, 1_000_000), s));
    assertEquals(silent.cause, undefined);
    const d = decide(input(at(31, 1_000_000), s));
    assertEquals(d.cause?.kind === "thresholds" ? d.cause.thresholds : undefined, [30]);
    assertEquals(d.next?.fired, [30]);
    assertEquals(d.next?.firedWindow, { "30": 1_000_000 });
  });
  await t.step("a refresh under the same window still counts", () => {
    const s = state([30], 0, { firedWindow: { "30": 1_000_000 } });
    assertEquals(decide(input(at(31, 1_000_000), s)).cause, undefined);
  });
});

Deno.test("resetState() keeps what the session proved: its window and a subagent's file", () => {
  const s = state([30], 3, {
    epoch: 1,
    provenWindow: 1_000_000,
    provenModel: "claude-opus-5",
    provenVersion: "2.1.328",
    agentTranscript: "/p/a.jsonl",
  });
  assertEquals(resetState(s), {
    fired: [],
    toolCount: 0,
    epoch: 2,
    provenWindow: 1_000_000,
    provenModel: "claude-opus-5",
    provenVersion: "2.1.328",
    agentTranscript: "/p/a.jsonl",
  });
});

Deno.test("decide() with token thresholds and a span before an early compaction", async (t) => {
  // A 1M window whose auto-compact window is 400k: percentages of 400k, tokens as they are.
  const at = (tokens: number): Reading => ({
    kind: "reading",
    source: "transcript tool_use match",
    percent: tokens / 10_000,
    tokens,
    window: 1_000_000,
    windowSource: "model and version",
    model: "claude-opus-5-5",
    span: 400_000,
  });
  const list = { thresholds: [30, 52, 70, 60_000] };
  await t.step("60k at 61,000 tokens, 30 % of 400k not yet", () => {
    const d = decide({ ...input(at(61_000), state([])), ...list });
    assertEquals(d.cause?.kind === "thresholds" ? [...d.cause.thresholds] : [], [60_000]);
    assertEquals(d.reason, "15% of 400000 (the span before auto-compaction) crossed 60k");
    // Token thresholds do not move with the span: nothing recorded for them.
    assertEquals(d.next?.firedWindow, {});
  });
  await t.step("30 % of 400k at 120,000 tokens, its span recorded", () => {
    const d = decide({ ...input(at(120_000), state([60_000])), ...list });
    assertEquals(d.cause?.kind === "thresholds" ? [...d.cause.thresholds] : [], [30]);
    assertEquals(d.next?.fired, [30, 60_000]);
    assertEquals(d.next?.firedWindow, { "30": 400_000 });
    assertEquals(d.cause?.kind === "thresholds" ? d.cause.span : undefined, 400_000);
  });
  await t.step("a percentage fired under a smaller span fires again at the larger one", () => {
    const s = state([30], 0, { firedWindow: { "30": 200_000 } });
    const d = decide({ ...input(at(125_000), s), ...list });
    // In reach order: 60k comes before 30 % of 400k.
    assertEquals(d.cause?.kind === "thresholds" ? [...d.cause.thresholds] : [], [60_000, 30]);
  });
  await t.step("the next threshold is named in reach order", () => {
    const d = decide({ ...input(at(50_000), state([])), ...list });
    assertEquals(
      d.reason,
      "12% of 400000 (the span before auto-compaction) is below the next " +
        "threshold, 60k",
    );
  });
});

Deno.test("a reset keeps where the session compacts, and drops the settings read for the context", () => {
  const s = state([30], 0, { compactedAt: 67_044, claudeSettings: '{"byModel":{}}' });
  const reset = resetState(s);
  assertEquals([reset.compactedAt, reset.claudeSettings], [67_044, undefined]);
  // Facts learned on a call that also finds the compaction outlive its reset.
  const after = applyFacts(
    state([30], 0, { firedAt: 100 }),
    { marker: 500, compactedAt: 67_044, claudeSettings: '{"byModel":{}}' },
    true,
  );
  assertEquals([after.fired, after.compactedAt, after.claudeSettings], [
    [],
    67_044,
    '{"byModel":{}}',
  ]);
});

Deno.test("applyFacts() replaces a proof whole: a new model's proof does not keep the old one's release", () => {
  const s = state([], 0, {
    provenWindow: 1_000_000,
    provenModel: "claude-opus-5",
    provenVersion: "2.1.328",
  });
  const next = applyFacts(s, { proven: { window: 200_000, model: "glm-4.7" } }, true);
  assertEquals(proofOf(next), { window: 200_000, model: "glm-4.7", version: undefined });
  assertEquals("provenVersion" in next, false);
  assertEquals(proofOf(state([], 0)), undefined);
});
