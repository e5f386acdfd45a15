import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { applyFacts, markersFrom, proofOf } from "../../../src/core/facts.ts";
import { state } from "./_inputs.ts";

Deno.test("markersFrom() looks after the last fire, past what was checked, once something fired", () => {
  assertEquals(markersFrom(state([])), undefined);
  assertEquals(markersFrom(state([30], { firedAt: 800 })), 800);
  assertEquals(markersFrom(state([30], { firedAt: 800, checkedTo: 900 })), 900);
});

Deno.test("applyFacts() applies what the transcript taught, and never resets", async (t) => {
  await t.step("a marker alone changes nothing: the decision resets (decide_test.ts)", () => {
    const fired = state([30], { toolCount: 3, firedAt: 500, firedPercent: 31, epoch: 2 });
    assertEquals(applyFacts(fired, { marker: 700 }, true), fired);
  });
  await t.step("recovered refreshes apply only when the state file is missing", () => {
    const facts = { recovered: [30, 52], marker: 100 };
    const missing = applyFacts(state([]), facts, false);
    assertEquals([missing.fired, missing.firedAt], [[30, 52], 101]);
    assertEquals(applyFacts(state([]), facts, true).fired, []);
  });
  await t.step("checkedTo only moves forward", () => {
    const s = state([30], { checkedTo: 50 });
    assertEquals(applyFacts(s, { checkedTo: 40 }, true).checkedTo, 50);
    assertEquals(applyFacts(s, { checkedTo: 90 }, true).checkedTo, 90);
  });
  await t.step(
    "a proof is replaced whole: a new model's does not keep the old one's release",
    () => {
      const s = state([], {
        provenWindow: 1_000_000,
        provenModel: "claude-opus-5",
        provenVersion: "2.1.328",
      });
      const next = applyFacts(s, { proven: { window: 200_000, model: "glm-4.7" } }, true);
      assertEquals(proofOf(next), { window: 200_000, model: "glm-4.7", version: undefined });
      assertEquals("provenVersion" in next, false);
      assertEquals(proofOf(state([])), undefined);
    },
  );
  await t.step("the result sizes of the last 16 calls are kept, the newest last", () => {
    let s = state([]);
    for (let i = 1; i <= 20; i++) s = applyFacts(s, { result: [`toolu_${i}`, i * 100] }, true);
    const kept = Object.entries(s.results ?? {});
    assertEquals([kept.length, kept[0], kept.at(-1)], [16, ["toolu_5", 500], ["toolu_20", 2_000]]);
    // A reset forgets them (decide_test.ts, resetState()): results of the context that ended.
  });
});

Deno.test("after SessionStart(compact), the calls look for its marker from where it ran, until found", () => {
  const reset = state([], { compactedFrom: 4_000 });
  assertEquals(markersFrom(reset), 4_000);
  // Not found yet (Claude Code writes it after the hook): still looked for.
  assertEquals(applyFacts(reset, {}, true).compactedFrom, 4_000);
  // Found: what it proves is kept, and the look ends; nothing fired, so nothing resets.
  const found = applyFacts(reset, { marker: 4_100, compactedAt: 150_000 }, true);
  assertEquals([found.compactedFrom, found.compactedAt, found.epoch], [undefined, 150_000, 0]);
  assertEquals(markersFrom(found), undefined);
});
