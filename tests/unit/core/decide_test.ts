import { deepStrictEqual as assertEquals, equal } from "node:assert/strict";
import { decideReset, decideToolCall, type Decision } from "../../../src/core/decide.ts";
import { resetState } from "../../../src/core/decide.ts";
import type { ContextFacts } from "../../../src/core/facts.ts";
import type { NoReading, Reading } from "../../../src/core/reading.ts";
import type { State } from "../../../src/schemas/state.ts";
import { call, crossed, none, reading, seen, state } from "./_inputs.ts";

/** `thresholds:30,52`, `compaction:30`, `toolCount:20` or undefined. */
function causeOf(d: Decision): string | undefined {
  const c = d.cause;
  if (c === undefined) return undefined;
  return c.kind === "toolCount" ? `toolCount:${c.calls}` : `${c.kind}:${c.thresholds.join(",")}`;
}

Deno.test("decideToolCall() with a reading: every threshold reached and not fired, once, together", async (t) => {
  const cases: [string, number, number[], string | undefined, number[]][] = [
    // name, percent, fired before, cause, fired after
    ["31% fires 30", 31, [], "thresholds:30", [30]],
    ["25% is silent", 25, [], undefined, []],
    ["31% again is silent", 31, [30], undefined, [30]],
    ["a jump to 75% fires all three at once", 75, [], "thresholds:30,52,70", [30, 52, 70]],
    ["52 after 30", 53, [30], "thresholds:52", [30, 52]],
    ["all fired is silent", 95, [30, 52, 70], undefined, [30, 52, 70]],
    ["exactly on a threshold fires", 70, [30, 52], "thresholds:70", [30, 52, 70]],
  ];
  for (const [name, percent, before, cause, after] of cases) {
    await t.step(name, () => {
      const d = decideToolCall(call(reading(percent), state(before)));
      assertEquals([causeOf(d), d.state.fired], [cause, after]);
      if (cause) assertEquals([d.state.firedAt, d.state.firedPercent], [1000, percent]);
    });
  }
});

Deno.test("decideToolCall() without a reading counts tool calls", async (t) => {
  const cases: [string, number, boolean, string | undefined, number][] = [
    // name, toolCount before, countCalls, cause, toolCount after
    ["first call counts 1", 0, true, undefined, 1],
    ["the 20th call refreshes", 19, true, "toolCount:20", 20],
    ["the 21st is silent", 20, true, undefined, 21],
    ["the 40th refreshes again", 39, true, "toolCount:40", 40],
    ["just compacted: nothing counted", 19, false, undefined, 19],
  ];
  for (const [name, before, countCalls, cause, after] of cases) {
    await t.step(name, () => {
      const d = decideToolCall(call(none(countCalls), state([], { toolCount: before })));
      assertEquals([causeOf(d), d.state.toolCount], [cause, after]);
    });
  }
});

Deno.test("decideToolCall() measures each threshold under the span it fired under", async (t) => {
  await t.step("a fire under 200k records 200k", () => {
    assertEquals(decideToolCall(call(reading(31), state([]))).state.firedWindow, { "30": 200_000 });
  });
  await t.step("once 1M is proven, refreshes under 200k stop counting", () => {
    const s = state([30, 52], { firedWindow: { "30": 200_000, "52": 200_000 } });
    const silent = decideToolCall(call(reading(25, 1_000_000), s));
    assertEquals([silent.cause, silent.fired, silent.upcoming], [undefined, [], 30]);
    const d = decideToolCall(call(reading(31, 1_000_000), s));
    equal(causeOf(d), "thresholds:30");
    assertEquals([d.state.fired, d.state.firedWindow], [[30], { "30": 1_000_000 }]);
  });
  await t.step("a refresh under the same window still counts", () => {
    const s = state([30], { firedWindow: { "30": 1_000_000 } });
    equal(decideToolCall(call(reading(31, 1_000_000), s)).cause, undefined);
  });
});

Deno.test("decideToolCall() with token thresholds and a span before an early compaction", async (t) => {
  // A 1M window whose auto-compact window is 400k: percentages of 400k, tokens as they are.
  const at = (tokens: number) => reading(tokens / 10_000, 1_000_000, { tokens, span: 400_000 });
  const thresholds = [30, 52, 70, 60_000];
  const OF_SPAN = "of 400000 (the span before auto-compaction)";
  await t.step("60k at 61,000 tokens, 30 % of 400k not yet", () => {
    const d = decideToolCall(call(at(61_000), state([]), { thresholds }));
    equal(causeOf(d), "thresholds:60000");
    equal(d.reason, `15% ${OF_SPAN} crossed 60k`);
    assertEquals(d.state.firedWindow, {});
  });
  await t.step("30 % of 400k at 120,000 tokens, its span recorded", () => {
    const d = decideToolCall(call(at(120_000), state([60_000]), { thresholds }));
    equal(causeOf(d), "thresholds:30");
    assertEquals([d.state.fired, d.state.firedWindow], [[30, 60_000], { "30": 400_000 }]);
    equal(d.cause?.kind === "thresholds" ? d.cause.span : undefined, 400_000);
  });
  await t.step("in reach order: 60k before 30 % of 400k", () => {
    const s = state([30], { firedWindow: { "30": 200_000 } });
    equal(causeOf(decideToolCall(call(at(125_000), s, { thresholds }))), "thresholds:60000,30");
  });
  await t.step("the next threshold is named in reach order", () => {
    const d = decideToolCall(call(at(50_000), state([]), { thresholds }));
    equal(d.reason, `12% ${OF_SPAN} is below the next threshold, 60k`);
    equal(d.upcoming, 60_000);
  });
});

Deno.test("decideToolCall() after a compaction: the rules restated once, then thresholds as before", async (t) => {
  const [pending, delivered] = [
    state([], { afterCompact: "pending" }),
    state([], { afterCompact: "delivered" }),
  ];
  const firedAt400 = state([30, 52], { firedAt: 400 });
  const marker = { marker: 600 };
  type Outcome = [cause: string | undefined, fired: number[], afterCompact: State["afterCompact"]];
  // name: [[state, reading, facts, refresh after compaction (default on)], outcome]
  const cases: Record<string, [[State, Reading | NoReading, ContextFacts?, boolean?], Outcome]> = {
    "pending, no reading yet: restate now; the first reading still absorbs": [
      [pending, none(false)],
      ["compaction:", [], "delivered"],
    ],
    "pending, a reading past 30: one restatement, naming 30, which is then fired": [
      [pending, reading(34)],
      ["compaction:30", [30], undefined],
    ],
    "delivered, a reading past 30: taken as fired, no second refresh": [
      [delivered, reading(34)],
      [undefined, [30], undefined],
    ],
    "delivered, no reading yet: waits for the first reading": [
      [delivered, none(false)],
      [undefined, [], "delivered"],
    ],
    "a marker no event reported, after the last fire: a new context, restated now": [
      [firedAt400, reading(12), marker],
      ["compaction:", [], undefined],
    ],
    "the same, with the refresh after compaction off: only the reset": [
      [firedAt400, reading(12), marker, false],
      [undefined, [], undefined],
    ],
    "a marker at the last fire's offset ends the context too": [
      [state([30], { firedAt: 600 }), reading(12), marker],
      ["compaction:", [], undefined],
    ],
    "a marker before anything fired changes nothing": [
      [state([]), reading(12), marker],
      [undefined, [], undefined],
    ],
    "a marker before the last fire changes nothing": [
      [state([30], { firedAt: 400 }), reading(33), { marker: 100 }],
      [undefined, [30], undefined],
    ],
  };
  for (const [name, [[s, r, facts, after], outcome]] of Object.entries(cases)) {
    await t.step(name, () => {
      const d = decideToolCall(call(r, s, { facts, after }));
      assertEquals([causeOf(d), d.state.fired, d.state.afterCompact], outcome);
    });
  }
});

Deno.test("decideToolCall() without a state file takes the refreshes the transcript shows as made", () => {
  const causeAt = (percent: number, found: boolean, facts: ContextFacts) =>
    causeOf(decideToolCall(call(reading(percent), state([]), { found, facts })));
  const recovered = { recovered: [30], marker: 50 };
  assertEquals(
    [causeAt(40, false, recovered), causeAt(55, false, { inherited: [30] })],
    [undefined, "thresholds:52"],
  );
  // A state file that exists is the record: the transcript is only a backup.
  equal(causeAt(40, true, recovered), "thresholds:30");
});

Deno.test("decideToolCall() sends a missed refresh again once, on a call that can be checked", () => {
  const missed: State = state([30], {
    firedAt: 100,
    deliveries: [{ refresh: "30", call: "toolu_1", at: 100, sent: 1, status: "pending" }],
  });
  const evidence = seen({ from: 100, results: { toolu_1: 150 }, responses: [400] });
  const d = decideToolCall(call(reading(35), missed, { receipts: evidence, toolUseId: "toolu_2" }));
  // Stated at this reading (withReceipts() in receipts_test.ts: the owed one's own refresh).
  assertEquals(d.cause, crossed([30], { percent: 35, window: 200_000, tokens: 70_000 }));
  assertEquals(d.deliveries.map((x) => x.status), ["owed"]);
  assertEquals(d.state.deliveries?.map((x) => [x.call, x.sent]), [["toolu_2", 2]]);
  equal(d.reason, "35% is below the next threshold, 52%; sending 30 again (not delivered)");
});

Deno.test("decideToolCall() resets at a marker, keeping what the call learned of the new context", () => {
  const before = state([30], { firedAt: 500, firedPercent: 31, epoch: 2, toolCount: 3 });
  const at700 = decideToolCall(call(none(false), before, { facts: { marker: 700 }, after: false }));
  assertEquals(at700.known, { fired: [], toolCount: 0, epoch: 3, checkedTo: 700 });
  const learned = { compactedAt: 67_044, claudeSettings: '{"byModel":{}}' };
  const found = { marker: 500, ...learned };
  const d = decideToolCall(call(none(false), state([30], { firedAt: 100 }), { facts: found }));
  const { fired, compactedAt, claudeSettings } = d.state;
  assertEquals({ fired, compactedAt, claudeSettings }, { fired: [], ...learned });
});

Deno.test("resetState() forgets what fired and what was counted, moves the epoch, keeps what the session proved", () => {
  const counted = state([30, 52], { toolCount: 7, epoch: 4, firedAt: 10 });
  assertEquals(resetState(counted), state([], { epoch: 5 }));
  const kept = {
    provenWindow: 1_000_000,
    provenModel: "claude-opus-5",
    provenVersion: "2.1.328",
    agentTranscript: "/p/a.jsonl",
    compactedAt: 67_044,
  };
  const proved = state([30], {
    toolCount: 3,
    epoch: 1,
    ...kept,
    claudeSettings: '{"byModel":{}}',
    results: { toolu_1: 100 },
  });
  assertEquals(resetState(proved), { fired: [], toolCount: 0, epoch: 2, ...kept });
});

Deno.test("decideReset() for the events that end a context", async (t) => {
  const before = state([30, 52], { toolCount: 4, epoch: 2, compactedAt: 90_000 });
  const restated = { afterCompact: "delivered", compactPrompt: "p1" } as const;
  type Input = ["clear" | "compact", restate: boolean, before: State];
  // name: [input, cause, what the state then says]
  const cases: Record<string, [Input, string | undefined, Partial<State>]> = {
    "clear forgets": [["clear", true, before], undefined, { epoch: 3 }],
    "SessionStart(compact) restates in its own answer": [
      ["compact", true, before],
      "compaction:",
      { ...restated, epoch: 3 },
    ],
    "off: SessionStart(compact) only resets": [
      ["compact", false, before],
      undefined,
      { afterCompact: undefined, compactPrompt: undefined, epoch: 3 },
    ],
    "after a tool call found the marker and restated: no second restatement": [
      ["compact", true, state([], { epoch: 2, afterCompact: "delivered", compactedAt: 90_000 })],
      undefined,
      { ...restated, epoch: 2 },
    ],
    "an earlier SessionStart's restatement lingers: a new compaction, restated": [
      ["compact", true, state([], { afterCompact: "delivered", compactPrompt: "p0", epoch: 2 })],
      "compaction:",
      { ...restated, epoch: 3 },
    ],
  };
  for (const [name, [[event, restate, s], cause, want]] of Object.entries(cases)) {
    await t.step(name, () => {
      const compact = event === "compact";
      const d = decideReset({
        event,
        state: s,
        facts: { compactedAt: 80_000 },
        promptId: "p1",
        restate,
        answerAt: 500,
        compactedFrom: compact ? 500 : undefined,
      });
      equal(causeOf(d), cause);
      // A compaction's marker, not written yet when SessionStart runs, is looked for from there.
      equal(d.state.compactedFrom, compact ? 500 : undefined);
      assertEquals([d.state.fired, d.state.toolCount], [[], 0]);
      for (const [key, value] of Object.entries(want)) {
        assertEquals(d.state[key as keyof State], value, key);
      }
      // What the compaction showed outlives the context it ended.
      equal(d.state.compactedAt, 80_000);
      // A restatement awaits its receipt on SessionStart's answer.
      assertEquals(d.deliveries.map((x) => x.refresh), cause ? ["compact"] : []);
    });
  }
});
