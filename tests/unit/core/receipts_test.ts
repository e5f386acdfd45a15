/**
 * Delivery receipts (src/core/receipts.ts), table-driven: how one delivery is judged on what the
 * transcript showed, how a context's deliveries are settled, and how a decision sends again what
 * is owed and records what it delivers.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { RefreshCause } from "../../../src/core/header.ts";
import {
  answerAwaitingReceipt,
  judge,
  labelsOf,
  type ReceiptEvidence,
  type ReceiptInput,
  receiptQuery,
  receiptsSettled,
  type Settled,
  settleDeliveries,
  type Verdict,
  withReceipts,
} from "../../../src/core/receipts.ts";
import type { Delivery, State } from "../../../src/schemas/state.ts";
import { crossed, none, reading, seen, state } from "./_inputs.ts";

const THIRTY = answerAwaitingReceipt("30", "toolu_a", 1000);
const RESTATED = answerAwaitingReceipt("compact", "SessionStart", 1000);
const MOVED = "not recorded for toolu_a, and the session moved past it";
const UNRECORDED = "this Claude Code does not record deliveries";
const SESSION_START_MOVED = "not recorded for SessionStart, and the session moved past it";
const BEYOND = "its claim lies beyond what one check reads: not checked";

Deno.test("judge() tells a delivery from the transcript's records", async (t) => {
  const PENDING: Verdict = { kind: "pending" };
  const DELIVERED: Verdict = { kind: "delivered" };
  const UNREAD: Verdict = { kind: "unread" };
  const UNRECORDED_V: Verdict = { kind: "unrecorded" };
  const missed = (why: string): Verdict => ({ kind: "missed", why });
  // name: [evidence, verdict, delivery (default: 30 claimed on toolu_a at 1000)]
  const cases: Record<string, [ReceiptEvidence, Verdict, Delivery?]> = {
    "recorded after its claim: delivered": [
      seen({ answers: { toolu_a: [1500] }, results: { toolu_a: 1100 } }),
      DELIVERED,
    ],
    "nothing written since the claim: pending": [seen(), PENDING],
    "its result is written, the next request not answered yet: pending": [
      seen({ results: { toolu_a: 1100 } }),
      PENDING,
    ],
    "a response before its result (a sibling of the same message): pending": [
      seen({ results: { toolu_a: 1100 }, responses: [1050] }),
      PENDING,
    ],
    "a response after its result, no record: missed": [
      seen({ results: { toolu_a: 1100 }, responses: [1300] }),
      missed(MOVED),
    ],
    "a record older than the claim does not count": [
      seen({ answers: { toolu_a: [900] }, results: { toolu_a: 1100 }, responses: [1300] }),
      missed(MOVED),
    ],
    "the hook was cancelled: missed, and the reason says so": [
      seen({ results: { toolu_a: 1100 }, responses: [1300], cancelled: ["toolu_a"] }),
      missed(
        "not recorded for toolu_a (Claude Code cancelled the hook), and the session moved past it",
      ),
    ],
    "no result ever, two responses since the claim: missed": [
      seen({ responses: [1400, 1200] }),
      missed("no result of toolu_a was recorded, and the session went on"),
    ],
    "no result, one response since the claim: pending": [seen({ responses: [1400, 900] }), PENDING],
    "the check did not read back to the claim: unread": [
      seen({ from: 1200, responses: [1400] }),
      UNREAD,
    ],
    "a recorded answer is believed even past the reading budget": [
      seen({ from: 1200, answers: { toolu_a: [1300] } }),
      DELIVERED,
    ],
    "SessionStart's answer recorded: delivered": [
      seen({ answers: { SessionStart: [1100] }, responses: [1300] }),
      DELIVERED,
      RESTATED,
    ],
    "SessionStart's answer, the new context answered without it: missed": [
      seen({ responses: [1300] }),
      missed(SESSION_START_MOVED),
      RESTATED,
    ],
    "SessionStart's answer of an earlier compaction does not count": [
      seen({ answers: { SessionStart: [500] }, responses: [1300] }),
      missed(SESSION_START_MOVED),
      RESTATED,
    ],
    "SessionStart's answer, no response in the new context yet: pending": [
      seen({ responses: [800] }),
      PENDING,
      RESTATED,
    ],
    "a Claude Code that records no outcome, the session moved on: unrecorded": [
      seen({ results: { toolu_a: 1100 }, responses: [1300], records: false }),
      UNRECORDED_V,
    ],
    "one that records none, no result, two responses since: unrecorded": [
      seen({ responses: [1400, 1200], records: false }),
      UNRECORDED_V,
    ],
    "one that records none, SessionStart's answer, the context went on: unrecorded": [
      seen({ responses: [1300], records: false }),
      UNRECORDED_V,
      RESTATED,
    ],
    "one that records none, nothing after the call yet: pending": [
      seen({ results: { toolu_a: 1100 }, records: false }),
      PENDING,
    ],
    "one that records none, an answer recorded all the same: delivered": [
      seen({ answers: { toolu_a: [1500] }, responses: [1600], records: false }),
      DELIVERED,
    ],
  };
  for (const [name, [evidence, want, delivery]] of Object.entries(cases)) {
    await t.step(name, () => assertEquals(judge(delivery ?? THIRTY, evidence), want));
  }
});

const BASE = state([30], { epoch: 1 });
const MISSED = seen({ results: { toolu_a: 1100 }, responses: [1300] });

Deno.test("settleDeliveries() updates each outstanding delivery and says what is owed", async (t) => {
  const thirty = (more: Partial<Delivery> = {}): State => ({
    ...BASE,
    deliveries: [{ ...THIRTY, ...more }],
  });
  const settledEarlier = [
    { ...THIRTY, status: "delivered" },
    { ...THIRTY, refresh: "52", status: "given up", reason: "earlier" },
  ] satisfies Delivery[];
  const restating = state([], { epoch: 2, afterCompact: "delivered" });
  // The deliveries after (undefined: unchanged), what is owed, the statuses, afterCompact after.
  type Want = [Delivery[] | undefined, string[], string[], State["afterCompact"]?];
  // name: [state, evidence, want]
  const cases: Record<string, [State, ReceiptEvidence | undefined, Want]> = {
    "nothing outstanding: nothing changes": [BASE, undefined, [undefined, [], []]],
    "recorded: delivered": [
      thirty(),
      seen({ answers: { toolu_a: [1200] } }),
      [[{ ...THIRTY, status: "delivered" }], [], ["delivered"]],
    ],
    "not read (no transcript this call): still pending": [
      thirty(),
      undefined,
      [undefined, [], ["pending"]],
    ],
    "missed once: owed, kept pending until the re-send is recorded": [
      thirty(),
      MISSED,
      [[{ ...THIRTY, reason: MOVED }], ["30"], ["owed"]],
    ],
    "missed after the re-send: given up, with why": [
      thirty({ sent: 2 }),
      MISSED,
      [[{ ...THIRTY, sent: 2, status: "given up", reason: `sent 2 times, ${MOVED}` }], [], [
        "given up",
      ]],
    ],
    "on a Claude Code that records no outcome: sent once, unrecorded, nothing owed": [
      thirty(),
      seen({ results: { toolu_a: 1100 }, responses: [1300], records: false }),
      [[{ ...THIRTY, status: "unrecorded", reason: UNRECORDED }], [], ["unrecorded"]],
    ],
    "a re-send not recorded yet: re-sent": [thirty({ sent: 2 }), seen(), [
      undefined,
      [],
      ["re-sent"],
    ]],
    "the restatement missed: owed, and afterCompact pending again": [
      { ...restating, deliveries: [RESTATED] },
      seen({ responses: [1300] }),
      [[{ ...RESTATED, reason: SESSION_START_MOVED }], ["compact"], ["owed"], "pending"],
    ],
    "settled deliveries are not judged again": [
      { ...BASE, deliveries: settledEarlier },
      MISSED,
      [undefined, [], ["delivered", "given up"]],
    ],
    "claimed beyond what was read: given up, not checked": [
      thirty(),
      seen({ from: 5000 }),
      [[{ ...THIRTY, status: "given up", reason: BEYOND }], [], ["given up"]],
    ],
  };
  for (const [name, [before, evidence, want]] of Object.entries(cases)) {
    await t.step(name, () => {
      const [deliveries, owed, statuses, afterCompact] = want;
      const got = settleDeliveries(before, evidence);
      assertEquals(
        [got.state.deliveries, got.owed, got.report.map((r) => r.status), got.state.afterCompact],
        [deliveries ?? before.deliveries, owed, statuses, afterCompact ?? before.afterCompact],
      );
    });
  }
});

const CLAIM = { call: "toolu_b", at: 2000 };

Deno.test("withReceipts() sends owed refreshes again and records what a decision delivers", async (t) => {
  const owedThirty = settleDeliveries({ ...BASE, deliveries: [THIRTY] }, MISSED);
  const nothingOwed = settleDeliveries({ ...BASE, deliveries: [] }, undefined);
  const fiftyTwo = crossed([52], { percent: 53, window: 200_000 });
  const periodic: RefreshCause = { kind: "toolCount", calls: 20 };
  const sent = (refresh: string, times: number, reason?: string): Delivery => ({
    refresh,
    call: "toolu_b",
    at: 2000,
    sent: times,
    status: "pending",
    ...(reason ? { reason } : {}),
  });
  const input = (
    cause: RefreshCause | undefined,
    settled: Settled,
    more: Partial<ReceiptInput> = {},
  ): ReceiptInput => ({
    cause,
    owed: settled.owed,
    deliveries: settled.state.deliveries ?? [],
    reading: reading(35),
    firedPercent: undefined,
    claim: CLAIM,
    ...more,
  });
  const owedSixty = settleDeliveries(
    { ...BASE, deliveries: [answerAwaitingReceipt("60k", "toolu_a", 1000)] },
    MISSED,
  );
  const uncheckable = { claim: { call: undefined, at: 2000 } };
  const gaveUp = "sent again on a call whose delivery cannot be checked";
  // name: [input, the thresholds refreshed, the deliveries recorded (undefined: the settled stand)]
  const cases: Record<string, [ReceiptInput, readonly number[] | undefined, Delivery[]?]> = {
    "a fresh refresh is recorded as pending, sent once": [input(fiftyTwo, nothingOwed), [52], [
      sent("52", 1),
    ]],
    "an owed threshold makes a refresh of its own, at this reading": [
      input(undefined, owedThirty),
      [30],
      [sent("30", 2, MOVED)],
    ],
    "an owed token threshold is sent again as the header names it": [
      input(undefined, owedSixty),
      [60_000],
      [sent("60k", 2, MOVED)],
    ],
    "an owed threshold joins the refresh that fires anyway": [
      input(fiftyTwo, owedThirty),
      [30, 52],
      [sent("30", 2, MOVED), sent("52", 1)],
    ],
    "without a reading, an owed threshold replaces the periodic refresh": [
      input(periodic, owedThirty, { reading: none() }),
      [30],
      [sent("30", 2, MOVED)],
    ],
    "a periodic refresh is not receipted": [
      input(periodic, nothingOwed, { reading: none() }),
      undefined,
    ],
    "nothing to deliver: nothing recorded": [input(undefined, nothingOwed), undefined],
    "a call that cannot be checked later: the owed one is sent, then given up": [
      input(undefined, owedThirty, uncheckable),
      [30],
      [{ ...THIRTY, sent: 2, status: "given up", reason: gaveUp }],
    ],
  };
  for (const [name, [given, thresholds, recorded]] of Object.entries(cases)) {
    await t.step(name, () => {
      const { cause, deliveries } = withReceipts(given);
      assertEquals(
        cause?.kind === "thresholds" || cause?.kind === "compaction" ? cause.thresholds : undefined,
        thresholds,
      );
      assertEquals(deliveries, recorded);
    });
  }
  await t.step("an owed restatement is recorded under compact and the thresholds it names", () => {
    const settled = settleDeliveries(
      state([], { afterCompact: "delivered", deliveries: [RESTATED] }),
      seen({ responses: [1300] }),
    );
    const { deliveries } = withReceipts(input({ kind: "compaction", thresholds: [30] }, settled));
    assertEquals(
      deliveries?.map((d) => [d.refresh, d.call, d.sent]),
      [["compact", "toolu_b", 2], ["30", "toolu_b", 1]],
    );
  });
});

Deno.test("labelsOf() names one delivery per threshold, and compact for a restatement", () => {
  assertEquals(labelsOf(crossed([30, 52], { percent: 55 })), ["30", "52"]);
  assertEquals(labelsOf({ kind: "compaction", thresholds: [30] }), ["compact", "30"]);
  assertEquals(labelsOf({ kind: "compaction", thresholds: [] }), ["compact"]);
  assertEquals(labelsOf({ kind: "toolCount", calls: 20 }), []);
  // A token threshold as its header names it, and read back when it is owed.
  assertEquals(labelsOf(crossed([30, 60_000], { percent: 31, tokens: 62_000 })), ["30", "60k"]);
});

Deno.test("receiptQuery() reads back to the oldest outstanding claim, and only while one is", () => {
  const query = (deliveries: Delivery[]) => receiptQuery({ ...BASE, deliveries });
  assertEquals(receiptQuery(BASE), undefined);
  assertEquals(query([{ ...THIRTY, status: "delivered" }]), undefined);
  const later = { ...THIRTY, at: 3000, call: "toolu_c" };
  assertEquals(query([later, { ...later, refresh: "52" }, RESTATED]), {
    from: 1000,
    calls: ["toolu_c", "SessionStart"],
  });
});

Deno.test("receiptsSettled() is true once no outstanding delivery could still be on its way", () => {
  const state = { ...BASE, deliveries: [THIRTY] };
  assertEquals(receiptsSettled(BASE, undefined), true);
  assertEquals(receiptsSettled(state, undefined), false);
  assertEquals(receiptsSettled(state, seen()), false);
  assertEquals(receiptsSettled(state, MISSED), true);
  assertEquals(receiptsSettled(state, seen({ answers: { toolu_a: [1200] } })), true);
});
