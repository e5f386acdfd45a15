/**
 * The ceiling on a call's reading (src/core/ceiling.ts): table-driven cases, and the bound
 * checked against data: over every consecutive pair of main-chain readings in the real shared
 * transcripts and the repo's recorded ones, the ceiling from the first is never below the second;
 * and no crossing step of the e2e scenarios is answered without waiting.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { ceilingTokens, ceilingWindow, earlyCeiling } from "../../../src/core/ceiling.ts";
import { TOKENS_PER_BYTE, UNSEEN_TOKENS } from "../../../src/core/claude_code.ts";
import { isCompactionMarker, usageOf } from "../../../src/core/transcript_entry.ts";
import { DEFAULT_THRESHOLDS } from "../../../src/core/thresholds.ts";
import { RECORDINGS, SKELETONS } from "../../_helpers.ts";

Deno.test("ceilingTokens() adds output, bytes and the larger margin", async (t) => {
  const cases: [string, Parameters<typeof ceilingTokens>[0], number][] = [
    [
      "200k window: the window share (50,000) is the margin",
      { tokens: 40_000, outputTokens: 20, bytesAfter: 3_000, window: 200_000 },
      40_000 + 20 + 3_000 + 50_000,
    ],
    [
      "1M window",
      { tokens: 100_000, outputTokens: 500, bytesAfter: 4_000, window: 1_000_000 },
      354_500,
    ],
    [
      "a small window: the unseen tokens are the margin",
      { tokens: 1_000, outputTokens: 0, bytesAfter: 0, window: 10_000 },
      1_000 + UNSEEN_TOKENS,
    ],
    [
      "unknown output",
      { tokens: 1_000, outputTokens: undefined, bytesAfter: 0, window: 200_000 },
      Infinity,
    ],
    [
      "negative bytes (cannot happen): no ceiling",
      { tokens: 1_000, outputTokens: 1, bytesAfter: -1, window: 200_000 },
      Infinity,
    ],
  ];
  for (const [name, input, expected] of cases) {
    await t.step(name, () => assertEquals(ceilingTokens(input), expected));
  }
});

Deno.test("earlyCeiling() answers early only below every unfired threshold", async (t) => {
  const at = (tokens: number, window = 1_000_000) => ({
    tokens,
    outputTokens: 100,
    bytesAfter: 2_000,
    window,
  });
  const cases: [string, ReturnType<typeof at>, number[], number[], number | undefined][] = [
    ["far below 30 % of 1M", at(20_000), [30, 52, 70], [], 27.21],
    ["reaches 30 %", at(60_000), [30, 52, 70], [], undefined],
    ["30 fired, below 52", at(250_000), [30, 52, 70], [30], 50.21],
    ["30 fired, reaches 52", at(300_000), [30, 52, 70], [30], undefined],
    ["exactly at the threshold waits", at(47_900), [30], [], undefined],
    ["every threshold fired", at(900_000), [30, 52, 70], [30, 52, 70], 115.21],
    ["200k window, early in the session", at(5_000, 200_000), [30, 52, 70], [], 28.55],
    ["200k window, 30 fired: the share leaves no early zone", at(70_000, 200_000), [30, 52], [
      30,
    ], undefined],
    ["no window", at(1_000, 0), [30], [], undefined],
  ];
  for (const [name, input, thresholds, fired, expected] of cases) {
    await t.step(name, () => {
      const got = earlyCeiling(input, thresholds, fired);
      assertEquals(got === undefined ? undefined : Math.round(got * 100) / 100, expected);
    });
  }
  await t.step("unknown output: early only when every threshold has fired", () => {
    const unknown = { tokens: 1, outputTokens: undefined, bytesAfter: 0, window: 1_000_000 };
    assertEquals(earlyCeiling(unknown, [30], []), undefined);
    assertEquals(earlyCeiling(unknown, [30], [30]), Infinity);
  });
});

Deno.test("ceilingWindow() ignores token counts: never wider than the reading's window", () => {
  assertEquals(ceilingWindow({ model: "claude-sonnet-4-6" }), 200_000);
  // No version recorded: a natively-1M model's window is uncertain, so the smaller one.
  assertEquals(ceilingWindow({ model: "claude-opus-5-5" }), 200_000);
  assertEquals(ceilingWindow({ model: "claude-opus-5-5", version: "2.1.328" }), 1_000_000);
  assertEquals(ceilingWindow({ model: "claude-opus-5-5", disable1m: true }), 200_000);
  assertEquals(ceilingWindow({ model: "claude-opus-5-5", override: 50_000 }), 50_000);
});

interface Response {
  tokens: number;
  outputTokens: number | undefined;
  model: string | undefined;
  /** Offset of its first entry, and just past its last. */
  start: number;
  end: number;
  line: number;
}

/** Main-chain responses (entries sharing a message id merged) and compaction markers, in order. */
function responsesOf(bytes: Uint8Array, sidechainFile: boolean): (Response | "marker")[] {
  const decoder = new TextDecoder();
  const out: (Response | "marker")[] = [];
  let current: (Response & { id: string | undefined }) | undefined;
  let offset = 0;
  for (let line = 1; offset < bytes.length; line++) {
    let newline = bytes.indexOf(10, offset);
    if (newline < 0) newline = bytes.length;
    let entry: unknown;
    try {
      entry = JSON.parse(decoder.decode(bytes.subarray(offset, newline)));
    } catch {
      entry = undefined;
    }
    if (isCompactionMarker(entry)) {
      out.push("marker");
      current = undefined;
    }
    const usage = usageOf(entry, sidechainFile);
    if (usage) {
      if (current && current.id !== undefined && current.id === usage.messageId) {
        // The newest entry of a response is what the hook reads: its output count is final.
        current.end = newline + 1;
        current.outputTokens = usage.outputTokens;
      } else {
        current = {
          id: usage.messageId,
          tokens: usage.tokens,
          outputTokens: usage.outputTokens,
          model: usage.model,
          start: offset,
          end: newline + 1,
          line,
        };
        out.push(current);
      }
    }
    offset = newline + 1;
  }
  return out;
}

interface Pair {
  file: string;
  line: number;
  previous: Response;
  next: Response;
  bytes: number;
}

function pairsIn(folder: string, real: boolean): Pair[] {
  const pairs: Pair[] = [];
  const names = [...Deno.readDirSync(folder)].map((e) => e.name).filter((n) => n.endsWith(".jsonl"))
    .sort();
  for (const file of names) {
    const list = responsesOf(Deno.readFileSync(join(folder, file)), file.includes("subagent"));
    for (let i = 1; i < list.length; i++) {
      const previous = list[i - 1]!;
      const next = list[i]!;
      // Across a compaction the hook sees the marker first and takes no reading at all.
      if (previous === "marker" || next === "marker") continue;
      pairs.push({ file, line: next.line, previous, next, bytes: next.start - previous.end });
    }
  }
  ok(pairs.length > (real ? 700 : 5), `${folder}: only ${pairs.length} pairs`);
  return pairs;
}

// The skeletons keep every line's byte length and every usage figure: the same pairs as the originals.
const shared = () => pairsIn(SKELETONS, true);
const recorded = () => pairsIn(RECORDINGS, false);

function describe(p: Pair): string {
  return `${p.file}:${p.line}: ${p.previous.tokens} + ${p.previous.outputTokens} out + ` +
    `${p.bytes} bytes → ${p.next.tokens}`;
}

Deno.test("the ceiling is never below the next real reading (every consecutive pair)", () => {
  let checked = 0;
  let closest = Infinity;
  for (const pair of [...shared(), ...recorded()]) {
    const window = ceilingWindow({ model: pair.previous.model });
    const ceiling = ceilingTokens({
      tokens: pair.previous.tokens,
      outputTokens: pair.previous.outputTokens,
      bytesAfter: pair.bytes,
      window,
    });
    ok(ceiling >= pair.next.tokens, `${describe(pair)}, ceiling ${ceiling}`);
    closest = Math.min(closest, ceiling - pair.next.tokens);
    checked++;
  }
  ok(checked > 700 && closest >= 0, `${checked} pairs, closest ${closest}`);
});

Deno.test("real sessions need no window share: bytes and UNSEEN_TOKENS bound them alone", () => {
  // The window share exists for the e2e scripts' jumps; the real transcripts stay within this.
  let worst = -Infinity;
  let at = "";
  for (const pair of shared()) {
    const excess = pair.next.tokens - pair.previous.tokens - (pair.previous.outputTokens ?? 0) -
      TOKENS_PER_BYTE * pair.bytes;
    if (excess > worst) [worst, at] = [excess, describe(pair)];
  }
  ok(worst <= UNSEEN_TOKENS, `${worst} at ${at}`);
  // Measured on the public transcripts: 6,635 tokens (v2.1.112, 1,932 bytes between the readings).
  ok(worst > 5_000, `the worst real pair changed: ${worst} at ${at}`);
});

// Every crossing step of tests/e2e/scenarios_test.ts: the previous reading, the window, what has
// fired and the thresholds in force. With no bytes written in between (the hardest case), the
// ceiling must reach a threshold, so the hook waits for the call's own entry.
const E2E_CROSSINGS: [string, number, number, number[], readonly number[]][] = [
  ["climb c03 → c04", 58_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["climb c06 → c07", 103_000, 200_000, [30], DEFAULT_THRESHOLDS],
  ["climb c09 → c10", 139_000, 200_000, [30, 52], DEFAULT_THRESHOLDS],
  ["opus 1M o02 → o03", 250_000, 1_000_000, [], DEFAULT_THRESHOLDS],
  ["opus 1M o03 → o04 (310k → 530k)", 310_000, 1_000_000, [30], DEFAULT_THRESHOLDS],
  ["jump j01 → j02 (8 % → 75 %)", 16_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["parallel reads p01 → reads", 20_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["compact k01 → k02", 62_000, 200_000, [30], DEFAULT_THRESHOLDS],
  ["compact k03 → k04", 20_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["compact k04 → k05", 64_000, 200_000, [30], DEFAULT_THRESHOLDS],
  ["failing f01 → f02", 20_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["big manifest b01 → b02", 20_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["subagent main m02 → m03", 30_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["subagent main m03 → m04", 64_000, 200_000, [30], DEFAULT_THRESHOLDS],
  ["subagent a01 → a02", 80_000, 200_000, [30], DEFAULT_THRESHOLDS],
  ["own rules w01 → w02", 20_000, 200_000, [], DEFAULT_THRESHOLDS],
  ["own rules w03 → w04", 90_000, 200_000, [30], DEFAULT_THRESHOLDS],
  ["own rules w04 → w05", 105_000, 200_000, [30, 52], DEFAULT_THRESHOLDS],
  ["exact e01 → e02", 57_998, 200_000, [], [29, 57]],
  ["exact e03 → e04", 113_998, 200_000, [29], [29, 57]],
];

Deno.test("no crossing step of the e2e scenarios is answered without waiting", async (t) => {
  for (const [name, tokens, window, fired, thresholds] of E2E_CROSSINGS) {
    await t.step(name, () => {
      const input = { tokens, outputTokens: 20, bytesAfter: 0, window };
      assertEquals(earlyCeiling(input, thresholds, fired), undefined);
    });
  }
});
