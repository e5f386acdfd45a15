import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { advanceChains, CHAINS_KEPT, firedOnChain } from "../../../src/core/chains.ts";
import { decideToolCall } from "../../../src/core/decide.ts";
import type { ChainFacts } from "../../../src/core/chains.ts";
import type { State } from "../../../src/schemas/state.ts";
import { call, reading, state as stateOf } from "./_inputs.ts";

/** A call at `percent` of 200k that met `chain`, if given. */
const at = (s: State, percent: number, chain?: ChainFacts) =>
  call(reading(percent), s, { facts: chain && { chain } });

/**
 * Runs calls in order, each `[chain entry, tip it met, percent, what it refreshed for]` (`-`:
 * nothing; `forked` after the first call that met a tip other than the newest: two chains
 * interleave), then whether a prompt lies between it and the tip it met. `(start)`: the walk
 * reached its chain's first entry and met no tip.
 */
function run(calls: [string, string | undefined, number, string, boolean?][]) {
  let state = stateOf([]);
  const got = calls.map(([entry, met, percent, _, turned]) => {
    const was = state.forked;
    const walked = met === "(start)" ? { started: true } : { met, ...(turned && { turned }) };
    const d = decideToolCall(at(state, percent, { entry, ...walked }));
    state = d.state;
    const fired = d.cause?.kind === "thresholds" ? d.cause.thresholds.join() : "-";
    return `${entry} ${fired}${state.forked && !was ? " forked" : ""}`;
  });
  assertEquals(got, calls.map(([entry, , , expected]) => `${entry} ${expected}`));
  return state;
}

Deno.test("each chain gets each threshold once, on its own crossing call", async (t) => {
  const sessions: Record<string, Parameters<typeof run>[0]> = {
    "two chains after a resume: each gets each threshold once, on its own crossing call": [
      ["a1", undefined, 31, "30"], // the session's first refresh: chain a's first tip
      ["a2", "a1", 40, "-"],
      ["b1", "a2", 45, "-", true], // a second process resumes from a2: a prompt lies between
      ["b2", "b1", 53, "52"], // b crosses 52 first
      ["a3", "a2", 50, "- forked", true], // a goes on from a2
      ["a4", "a3", 54, "52"], // and gets 52 on its own chain
      ["b3", "b2", 60, "-"], // b does not get it again
      ["a5", "a4", 71, "70"],
      ["b4", "b3", 72, "70"],
      ["a6", "a5", 80, "-"],
    ],
    "a call whose chain is unknown counts the session's fired thresholds: never twice": [
      ["a1", undefined, 31, "30"],
      ["b1", undefined, 53, "52"], // no tip met (out of reach): as before this change, 30 counts
      ["a2", "a1", 54, "52 forked"], // a's chain never received 52, and gets it
      ["b2", "b1", 55, "-"], // b's tip took what counted for it: 52 is not sent again
    ],
    "a branch from after a refresh (a rewind) meets where it was made: not sent again": [
      ["c1", undefined, 31, "30"],
      ["c2", "c1", 35, "-"],
      ["c3", "c2", 40, "-"],
      ["d1", "c1", 42, "- forked"], // the branch's walk passes c2, no longer a tip, and meets c1
      ["d2", "d1", 53, "52"],
    ],
    "one chain, turn after turn: each call meets the newest tip, never forked": [
      ["c1", undefined, 31, "30"],
      ["c2", "c1", 35, "-"],
      ["c3", "c2", 40, "-", true], // a new prompt: c2 kept beside c3
      ["c4", "c3", 53, "52"],
      ["c5", "c4", 60, "-", true],
      ["c6", "c5", 71, "70"],
    ],
  };
  for (const [name, calls] of Object.entries(sessions)) await t.step(name, () => void run(calls));
});

Deno.test("parallel calls of one response: the second finds the chain the first moved on", () => {
  // Both walked before either decided and met the tip t of chain a; the first replaced t with its
  // entry. Chain b got 52 already, chain a not: the first call gets it, the second not again.
  const state = stateOf([30, 52], {
    chains: [{ tip: "b", fired: [30, 52] }, { tip: "t", fired: [30] }],
  });
  const first = decideToolCall(at(state, 55, { entry: "x", message: "msg_m", met: "t" }));
  const second = decideToolCall(at(first.state, 56, { entry: "y", message: "msg_m", met: "t" }));
  assertEquals([first.cause?.kind, second.cause?.kind], ["thresholds", undefined]);
  // The moved tip first, then where the refresh was made; the other chain's tip says what it got.
  assertEquals(second.state.chains, [
    { tip: "y", message: "msg_m", fired: [30, 52] },
    { tip: "x", message: "msg_m", fired: [30, 52], anchor: true },
    { tip: "b", fired: [30, 52] },
  ]);
});

Deno.test("two chains sharing only the session's first entry: each gets its own 30 %", () => {
  const { chains } = run([
    ["a1", undefined, 20, "-"], // both processes' first calls, before anything fired
    ["b1", undefined, 22, "-"],
    ["a2", undefined, 31, "30"], // no tip yet: a's walk is not made
    ["b2", "(start)", 32, "30 forked"], // b's walk reaches the first entry: a chain of its own
    ["a3", "a2", 35, "-"], // a's chain kept its place
    ["b3", "b2", 36, "-"],
    ["b4", "b3", 53, "52"],
    ["a4", "a3", 54, "52"],
  ]);
  // b's chain began beside a's, which kept its place: each chain's refreshes, where each was made.
  const tips = chains?.map((c) => `${c.tip} ${c.fired.join()}${c.anchor ? " anchor" : ""}`);
  assertEquals(tips, ["a4 30,52 anchor", "b4 30,52 anchor", "b2 30 anchor", "a2 30 anchor"]);
});

Deno.test("one chain: the state is what it was before chains, plus the tip", () => {
  const before = stateOf([30], { firedWindow: { 30: 200_000 } });
  const withTip = decideToolCall(at(before, 53, { entry: "e2" }));
  const withoutFacts = decideToolCall(at(before, 53));
  const { chains, ...rest } = withTip.state;
  assertEquals(rest, withoutFacts.state);
  assertEquals(chains, [{ tip: "e2", fired: [30, 52], anchor: true }]);
  assertEquals(withTip.cause, withoutFacts.cause);
});

Deno.test("firedOnChain: the met tip's thresholds; none met, the session's", () => {
  const chains = [{ tip: "b", fired: [30, 52] }, { tip: "a", message: "msg_a", fired: [30] }];
  const state = stateOf([30, 52], { chains });
  assertEquals(firedOnChain(state, { entry: "x", met: "a" }), [30]);
  assertEquals(firedOnChain(state, { entry: "x", met: "msg_a" }), [30]); // a split response
  assertEquals(firedOnChain(state, { entry: "x" }), [30, 52]);
  assertEquals(firedOnChain(state, undefined), [30, 52]);
});

Deno.test("advanceChains: a tip moves on; kept where a turn began; at most CHAINS_KEPT", () => {
  const [a, b] = [{ tip: "a", fired: [30] }, { tip: "b", fired: [30] }];
  const state = stateOf([30], { chains: [a] });
  assertEquals(advanceChains(undefined, state, { entry: "b", met: "a" })?.chains, [b]);
  const turned = advanceChains(undefined, state, { entry: "b", met: "a", turned: true });
  assertEquals(turned?.chains, [b, a]);
  let s = state;
  for (let i = 0; i < CHAINS_KEPT + 3; i++) {
    s = advanceChains(undefined, s, { entry: `t${i}`, met: `t${i - 1}`, turned: true })!;
  }
  assertEquals(s.chains?.length, CHAINS_KEPT);
  // Nothing fired yet and no tip: nothing to keep, the state is left alone.
  assertEquals(advanceChains(undefined, stateOf([]), { entry: "e" }), undefined);
});
