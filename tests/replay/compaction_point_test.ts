/**
 * The compaction point on a real recording: Claude Code 2.1.328 auto-compacted this session at
 * 67,044 tokens because `CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000` was set. Replayed without that
 * variable, the hook learns the point from the boundary and measures the next context against
 * it; replayed with it, the hook knows the point from the start.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { replay } from "./_replay.ts";

const FILE = "recorded-2.1.328-auto-compact-window.jsonl";

/** `toolu_id: thresholds` for each call that refreshed for thresholds. */
function refreshed(rows: Awaited<ReturnType<typeof replay>>): string[] {
  return rows.filter((r) => r.hook.kind === "thresholds").map((r) =>
    `${r.call.toolUseId}: ${r.hook.thresholds.join(",")}`
  );
}

for (const withEvents of [true, false]) {
  const mode = withEvents ? "with" : "without";
  Deno.test(`the point an auto-compaction shows measures the next context, ${mode} compaction events`, async () => {
    const rows = await replay(FILE, withEvents);
    ok(rows.every((r) => r.agree), "the oracle agrees");
    // Before the boundary 30 % of 200k (60,000) at 65,000; after it, 30/52/70 % of the span
    // before a compaction at 67,044 (91,489 tokens): 27,447 and 47,574.
    deepStrictEqual(refreshed(rows), [
      "toolu_w6: 30",
      "toolu_wa2: 30",
      "toolu_wa4: 52",
    ]);
    ok(rows.find((r) => r.call.toolUseId === "toolu_wa2")!.hook.debug.includes(
      "compaction at 67044 (this session auto-compacted at 67,044 tokens",
    ));
    // Without an event, the first call after the boundary finds it and restates.
    if (!withEvents) {
      deepStrictEqual(rows.find((r) => r.call.toolUseId === "toolu_wa0")!.hook.kind, "compact");
    }
  });
}

Deno.test("with the variable set, every threshold fires before the compaction, at its point", async () => {
  const rows = await replay(FILE, true, undefined, {
    env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000", LESSONS_REINJECT_THRESHOLDS: "15k,30,52,70" },
    oracle: { thresholds: [30, 52, 70, 15_000], autoCompactWindow: 100_000 },
  });
  ok(rows.every((r) => r.agree), "the oracle agrees");
  // As recorded live: 15k at 16,000, then 30/52/70 % of 91,428 at 29,000, 49,000 and 65,000.
  deepStrictEqual(refreshed(rows).slice(0, 4), [
    "toolu_w1: 15000",
    "toolu_w2: 30",
    "toolu_w4: 52",
    "toolu_w6: 70",
  ]);
});
