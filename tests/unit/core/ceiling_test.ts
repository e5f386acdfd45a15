/**
 * The ceiling on a call's reading (src/core/ceiling.ts): table-driven cases, and the facts it
 * rests on checked against data: every consecutive pair of main-chain readings in the real shared
 * transcripts stays under the ceiling; the rate and the largest unseen growth are what those
 * transcripts show; the pairs measured with real 2.1.328 (tests/fixtures/unseen-growth) stay under
 * it too, and docs/maintainers/claude-code-facts.md shows their table.
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { ceilingOf, ceilingTokens, MARGIN_TOKENS } from "../../../src/core/ceiling.ts";
import { LARGEST_UNSEEN_TOKENS, TOKENS_PER_BYTE } from "../../../src/core/claude_code.ts";
import type { MeasureSettings } from "../../../src/core/measure.ts";
import type { TranscriptView } from "../../../src/core/view.ts";
import type { State } from "../../../src/schemas/state.ts";
import { jsonLines, ROOT, SKELETONS } from "../../_helpers.ts";
import { MEASURE_SETTINGS, state } from "./_inputs.ts";
import {
  type GrowthPair,
  growthTable,
  roomOf,
  tokensOf,
  UNSEEN_GROWTH_FIXTURE,
} from "../../../scripts/measure/unseen_growth.ts";
import { SOURCES } from "../../../scripts/measure/measure_unseen_growth.ts";
import { describe, excessOf, pairsIn, pairsOf } from "../../../scripts/measure/reading_pairs.ts";
import { viewOf } from "../../../src/io/transcript.ts";
import { memory } from "../io/_io.ts";

Deno.test("ceilingTokens() adds output, bytes at the measured rate and the margin", async (t) => {
  const cases: [string, Parameters<typeof ceilingTokens>, number][] = [
    ["a reading", [40_000, 20, 3_000], 40_000 + 20 + 1_800 + MARGIN_TOKENS],
    ["no bytes: the margin alone", [1_000, 0, 0], 1_000 + MARGIN_TOKENS],
    ["a byte's fraction of a token rounds up", [0, 0, 1], 1 + MARGIN_TOKENS],
    ["unknown output", [1_000, undefined, 0], Infinity],
    ["negative bytes (cannot happen): no ceiling", [1_000, 1, -1], Infinity],
  ];
  for (const [name, args, expected] of cases) {
    await t.step(name, () => assertEquals(ceilingTokens(...args), expected));
  }
});

// Percentages of the whole window, as before the every-window schedule; that one is below.
const SETTINGS: MeasureSettings = { ...MEASURE_SETTINGS, cadence: 0 };
/** 1M: claude-opus-5-5 written by 2.1.328; 200k: claude-sonnet-4-6. */
const MODELS = {
  1_000_000: { model: "claude-opus-5-5", version: "2.1.328" },
  200_000: { model: "claude-sonnet-4-6", version: "2.1.328" },
};

/** What the transcript shows a call whose own entry is not written yet. */
function view(tokens: number, window: 200_000 | 1_000_000, more: Partial<TranscriptView> = {}) {
  const firstEnd = 10_000;
  return {
    size: firstEnd + 2_000,
    usage: {
      tokens,
      outputTokens: 100,
      ...MODELS[window],
      messageId: "msg_1",
      toolUseIds: ["toolu_prev"],
      timestamp: undefined,
      matched: false,
      offset: 9_000,
      firstEnd,
      unanswered: [],
    },
    callPresent: false,
    promptAfterUsage: false,
    bytesRead: 0,
    ...more,
  } satisfies TranscriptView;
}
/** The same at 20,000 of 1M, its usage changed: `unanswered`, `matched`. */
const usageView = (more: Partial<NonNullable<TranscriptView["usage"]>>) =>
  view(20_000, 1_000_000, { usage: { ...view(20_000, 1_000_000).usage!, ...more } });
/** The same on 1M. */
const v1m = (tokens: number, more: Partial<TranscriptView> = {}) => view(tokens, 1_000_000, more);
/** The ceiling's share of the span, undefined when the call waits for its own entry. */
function shareOf(v: TranscriptView, s: State, settings = SETTINGS) {
  const got = ceilingOf(v, s, settings, undefined);
  return got === undefined ? undefined : Math.round((got.tokens * 10_000) / got.span) / 100;
}

Deno.test("ceilingOf() with the cadence off answers at once only below every threshold that counts", async (t) => {
  const pending = usageView({ toolUseIds: ["p"], unanswered: ["p"] });
  const answered = { refresh: "30", call: "p", at: 1, sent: 1, status: "pending" } as const;
  // name: [view, state, the ceiling's share of the span (undefined: wait for the entry)]
  const cases: Record<string, [TranscriptView, State, number | undefined]> = {
    "far below 30 % of 1M": [v1m(20_000), state([]), 3.13],
    "1 % below 30 % of 1M: the margin reaches it": [v1m(290_000), state([]), undefined],
    "2 % below 30 % of 1M": [v1m(280_000), state([]), 29.13],
    "30 fired, below 52": [v1m(480_000), state([30]), 49.13],
    "30 fired, reaches 52": [v1m(510_000), state([30]), undefined],
    "every threshold fired": [v1m(900_000), state([30, 52, 70]), 91.13],
    "200k window, early in the session": [view(20_000, 200_000), state([]), 15.67],
    "200k window, 5 points below 30": [view(50_000, 200_000), state([]), undefined],
    "a fire under a smaller span no longer counts": [
      v1m(480_000),
      state([30], { firedWindow: { "30": 200_000 } }),
      undefined,
    ],
    "a result not written yet, its size unknown: the transcript lags, wait": [
      pending,
      state([]),
      undefined,
    ],
    // 20,000 + 100 + 0.6 × (2,000 + 2 × 10,000 + 4,096) + 10,038 = 45,796: 4.58 % of 1M
    "a result not written yet, its hook recorded 10 KB: counted twice with its entry's fields": [
      pending,
      state([], { results: { older: 1, p: 10_000 } }),
      4.58,
    ],
    // + 0.6 × 2 × 10,000 more: 57,796
    "a result not written yet, which this hook answered: the answer counts too": [
      pending,
      state([], { results: { p: 10_000 }, deliveries: [answered] }),
      5.78,
    ],
    // The hook of call q recorded it: q's response came after, and its entry is not written yet
    // (measured once on 2.1.337: the call after four parallel Reads started before any was on disk).
    "a call recorded after the newest response's own: a response not shown yet, wait": [
      pending,
      state([], { results: { older: 1, p: 10_000, q: 100 } }),
      undefined,
    ],
    "a recorded result whose size puts the ceiling past 30 %: wait": [
      pending,
      state([], { results: { p: 250_000 } }),
      undefined,
    ],
    "a prompt since: a new turn may switch model, wait": [
      v1m(20_000, { promptAfterUsage: true }),
      state([]),
      undefined,
    ],
    "a marker since the last fire: a reset may unfire thresholds, wait": [
      v1m(20_000, { markerSince: 5_000 }),
      state([30]),
      undefined,
    ],
    // A switch to a smaller window between responses costs at most one call: the ceiling takes the
    // window of the previous response's model, so a switch from 1M to 200k between two calls can
    // be answered early once; the next call's ceiling starts from the 200k reading, and waits.
    "150k of 1M, before a switch to 200k: early, once": [v1m(150_000), state([]), 16.13],
    "the next call, on the 200k model: wait": [view(151_000, 200_000), state([]), undefined],
    "this call's own entry: no ceiling needed": [
      usageView({ matched: true }),
      state([]),
      undefined,
    ],
  };
  for (const [name, [v, s, expected]] of Object.entries(cases)) {
    await t.step(name, () => assertEquals(shareOf(v, s), expected));
  }
});

Deno.test("ceilingOf() measures against the span, the token thresholds and the chain the hook uses", () => {
  // 110,000 tokens on a 1M window: the ceiling is past 120,000, 30 % of 1M is out of reach.
  const v = v1m(110_000, { size: 10_000 });
  const only = (thresholds: number[]) => ({ ...SETTINGS, thresholds });
  ok(ceilingOf(v, state([]), only([30]), undefined));
  // Where chains interleave the newest usage may be another's: wait.
  assertEquals(ceilingOf(v, state([], { forked: true }), only([30]), undefined), undefined);
  // Before an early compaction at 400k, 30 % is of 400,000 (120,000): the ceiling may reach it.
  const early = { ...only([30]), compactEnv: { window: { tokens: 400_000, raw: "400k" } } };
  assertEquals(ceilingOf(v, state([]), early, undefined), undefined);
  // A token threshold the ceiling may reach, and one it cannot.
  assertEquals(ceilingOf(v, state([]), only([30, 120_000]), undefined), undefined);
  ok(ceilingOf(v, state([]), only([30, 130_000]), undefined));
});

Deno.test("ceilingOf() on a 1M window: 200k's points make a call wait, the cadence's never do", async (t) => {
  const on = { ...SETTINGS, cadence: 40_000 };
  const all = [30, 52, 70];
  // The margin (about 10k tokens) and the 100 output tokens put the ceiling about 10k above.
  // name: [view, state, answered at once]
  const cases: Record<string, [TranscriptView, State, boolean]> = {
    "far below 60k": [v1m(20_000), state([]), true],
    "within the margin of 60k": [v1m(55_000), state([]), false],
    "30 fired, between 60k and 104k": [v1m(80_000), state([30]), true],
    "30, 52, 70 fired, within reach of 180k: no wait, 180k may come a call later": [
      v1m(175_000),
      state(all),
      true,
    ],
    "30, 52, 70 fired, far from 180k": [v1m(150_000), state(all), true],
    "up to 180k fired, within reach of 220k: no wait": [
      v1m(215_000),
      state([...all, 180_000]),
      true,
    ],
    "200k window: nothing after 70": [view(150_000, 200_000), state(all), true],
  };
  for (const [name, [v, s, early]] of Object.entries(cases)) {
    await t.step(name, () => assertEquals(shareOf(v, s, on) !== undefined, early));
  }
});

/**
 * Real transcripts: usage the Messages API reported, in the skeletons of the ten public ones
 * (tests/fixtures/transcripts/skeletons: every line as many bytes long, every usage figure kept,
 * free text replaced by filler of the same JSON length). The repo's own recordings
 * (tests/fixtures/transcripts) are not among them: their stand-in's usage was scripted before
 * e2e steps were backed (a 44,000-token jump on an `echo`), so it says nothing of what a
 * session can do. Real 2.1.328 is covered by the unseen-growth pairs below, whose usage is each
 * request's own size.
 */
const shared = () => {
  const pairs = pairsIn(SKELETONS);
  ok(pairs.length > 700, `only ${pairs.length} pairs`);
  return pairs;
};

Deno.test("the ceiling is never below the next real reading (every consecutive pair)", () => {
  // pairsIn() fails on fewer than 700 pairs.
  for (const pair of shared()) {
    const ceiling = ceilingTokens(pair.previous.tokens, pair.previous.outputTokens, pair.bytes);
    ok(ceiling >= pair.next.tokens, `${describe(pair)}, ceiling ${ceiling}`);
  }
});

Deno.test("LARGEST_UNSEEN_TOKENS is the largest excess over the byte term in real transcripts", () => {
  let worst = -Infinity;
  let at = "";
  for (const pair of shared()) {
    if (excessOf(pair) > worst) [worst, at] = [excessOf(pair), describe(pair)];
  }
  assertEquals(worst, LARGEST_UNSEEN_TOKENS, at);
  // Measured: v2.1.167, 42,019 + 768 out + 10,269 bytes of queued task notifications → 52,295.
  ok(at.startsWith("v2.1.167-main-with-workflow-subagents.jsonl:61:"), at);
});

Deno.test("TOKENS_PER_BYTE is the densest text real transcripts show", () => {
  // Pairs whose gap holds at least 8 KB of text and no image: what is left unseen is small
  // beside the text, so tokens gained per byte of text is the text's own rate.
  let densest = 0;
  let at = "";
  let count = 0;
  for (const pair of shared()) {
    const { text, image } = pair.previous;
    if (text < 8_000 || image) continue;
    count++;
    const rate = (pair.next.tokens - pair.previous.tokens - (pair.previous.outputTokens ?? 0)) /
      text;
    if (rate > densest) [densest, at] = [rate, describe(pair)];
  }
  ok(count >= 20, `only ${count} pairs with 8 KB of text`);
  // Measured: 0.556 (v2.1.212 behind a gateway, C++ source read with line numbers; 0.591 per byte
  // of the decoded text of the original, which the skeleton's filler does not keep).
  ok(densest <= TOKENS_PER_BYTE && densest > 0.55, `${densest} at ${at}`);
});

const recordedGrowth = () => jsonLines(join(ROOT, UNSEEN_GROWTH_FIXTURE)) as GrowthPair[];

Deno.test("real 2.1.328, every source of growth: each next reading stays under the ceiling", () => {
  const pairs = recordedGrowth();
  ok(pairs.length > 100, `${pairs.length} pairs`);
  // Every source ran with the request records on and off.
  for (const source of SOURCES) {
    for (const replay of [true, false]) {
      ok(pairs.some((p) => p.source === source.name && p.replay === replay), source.name);
    }
  }
  for (const pair of pairs) {
    const where = `${pair.source} (records ${pair.replay ? "on" : "off"}) pair ${pair.index}`;
    // The hook's bytes: what was on disk when the earliest hook of the next call started.
    const bytesAfter = pair.hookBytes ?? pair.transcriptBytes;
    // The assumption the byte term rests on: the previous response had begun on disk.
    ok(bytesAfter >= 0, `${where}: the previous response was not on disk at hook start`);
    const ceiling = ceilingTokens(pair.tokensBefore, pair.outputTokens, bytesAfter);
    ok(ceiling >= pair.tokensAfter, `${where}: ${pair.tokensAfter} above ceiling ${ceiling}`);
    ok(tokensOf(pair.unseenBytes) <= LARGEST_UNSEEN_TOKENS, `${where}: ${pair.unseenBytes} B`);
    // 2.1.328 needs no margin at all: the bytes it writes carry every request's growth.
    ok(roomOf(pair) >= 0, `${where}: room ${roomOf(pair)}`);
  }
});

Deno.test("docs/maintainers/claude-code-facts.md shows the table of the recorded pairs", () => {
  const table = growthTable(recordedGrowth(), new Map(SOURCES.map((s) => [s.name, s.what])));
  const facts = Deno.readTextFileSync(join(ROOT, "docs", "maintainers", "claude-code-facts.md"));
  // deno fmt aligns the table's columns: compare cell by cell.
  const cells = (text: string) =>
    text.split("\n").filter((l) => l.startsWith("|")).map((l) =>
      l.split("|").map((c) => c.trim()).join("|")
    );
  const shown = new Set(cells(facts));
  for (const row of cells(table).slice(2)) ok(shown.has(row), `missing or changed row: ${row}`);
});

Deno.test("deferred tool schemas loaded by ToolSearch: no byte shows them, so the call waits", () => {
  // v2.1.112 line 49: ToolSearch `select:` of three deferred tools; the next request (line 51) held
  // 1,694 tokens more than its reading, output and bytes carry: their schemas, never written. A
  // schema can be of any size, so no margin bounds it.
  const file = "v2.1.112-compact-boundary.jsonl";
  const text = Deno.readTextFileSync(join(SKELETONS, file));
  const pair = pairsOf(file, new TextEncoder().encode(text)).find((p) => p.line === 51)!;
  assertEquals(excessOf(pair), 1_694);
  // Line 51's call, before its response is written: the ToolSearch result is the file's end.
  const cut = text.split("\n").slice(0, 50);
  ok(cut.at(-1)!.includes('"tool_reference"'));
  const { source, size } = memory(cut);
  const v = viewOf(source, size, { sidechainFile: false, toolUseId: "toolu_not_written" });
  equal(v.usage?.loadsTools, true);
  equal(ceilingOf(v, state([30]), SETTINGS, undefined), undefined);
  // Only the ToolSearch makes it wait: the same view without it answers at once.
  const noSearch = { ...v, usage: { ...v.usage!, loadsTools: false } };
  ok(ceilingOf(noSearch, state([30]), SETTINGS, undefined));
});
