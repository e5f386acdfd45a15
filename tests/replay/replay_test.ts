/**
 * Replays every real transcript tool call by tool call through the hook (the transcript cut just
 * after the entry holding each call, the payload built from a captured one), once with the
 * compaction events Claude Code sends and once without, and compares each decision with the
 * oracle's: every call must agree.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { DEFAULTS, replay, type ReplayConfig } from "./_replay.ts";
import { expectedText, TRUTH } from "./oracle.ts";

/**
 * The replay with nothing set, then with settings most sessions never change, each read by the
 * oracle on its own: token thresholds mixed with percentages, and an auto-compact window (Claude
 * Code's `CLAUDE_CODE_AUTO_COMPACT_WINDOW`) that compacts long before the window's usual point,
 * alone and with the percentage override.
 */
const CONFIGS: Record<string, ReplayConfig> = {
  "nothing set": DEFAULTS,
  "thresholds 20k,30,52,100k": {
    env: { LESSONS_REINJECT_THRESHOLDS: "20k,30,52,100k" },
    oracle: { thresholds: [30, 52, 20_000, 100_000] },
  },
  "CLAUDE_CODE_AUTO_COMPACT_WINDOW=120000": {
    env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "120000" },
    oracle: { thresholds: [30, 52, 70], autoCompactWindow: 120_000 },
  },
  "auto-compact window 150k, override 80, thresholds 40k,30,70": {
    env: {
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: "150k",
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "80",
      LESSONS_REINJECT_THRESHOLDS: "40k,30,70",
    },
    oracle: { thresholds: [30, 70, 40_000], autoCompactWindow: 150_000, pct: 80 },
  },
};

for (const [name, config] of Object.entries(CONFIGS)) {
  Deno.test(`replay with ${name}: every real transcript, call by call, agrees with the oracle`, async (t) => {
    const disagreements: string[] = [];
    const summary: string[] = [];
    let total = 0;
    let refreshes = 0;
    for (const file of Object.keys(TRUTH)) {
      for (const mode of ["events", "no-events"]) {
        await t.step(`${file} (${mode})`, async () => {
          const rows = await replay(file, mode === "events", undefined, config);
          total += rows.length;
          refreshes += rows.filter((r) => r.hook.kind === "thresholds").length;
          summary.push(
            `${file} ${mode}: ${rows.filter((r) => r.agree).length}/${rows.length} agree`,
          );
          for (const row of rows.filter((r) => !r.agree)) {
            const hook = `${row.hook.kind} ${row.hook.thresholds.join(",")}: ${row.hook.debug}`;
            disagreements.push(
              `${file} ${mode} ${row.call.toolUseId}: oracle ${
                expectedText(row.call.expected)
              } at ${row.call.tokens ?? "no"} tokens, hook ${hook}`,
            );
          }
        });
      }
    }
    // deno-lint-ignore no-console
    if (name === "nothing set") console.log(summary.join("\n"));
    deepStrictEqual(disagreements, []);
    // Every transcript is in the repository and replayed whole: ten skeletons of public sessions,
    // five recordings and ten generated shapes, 2,216 calls over both modes. Fewer means one was
    // skipped or cut short.
    deepStrictEqual(total, 2216);
    // A replay in which nothing fired would prove nothing about where the thresholds fall.
    ok(refreshes > 20, `${refreshes} threshold refreshes`);
  });
}

Deno.test("a subagent compacting twice in its own file: restated after each, the tighter point kept", async () => {
  const rows = await replay("shape-agent-compactions.jsonl", false);
  const decided = rows.map((r) =>
    `${r.call.toolUseId} ${r.hook.kind === "thresholds" ? r.hook.thresholds.join() : r.hook.kind}`
  );
  deepStrictEqual(decided, [
    "toolu_ac01 none",
    "toolu_ac02 30",
    "toolu_ac03 52",
    "toolu_ac04 70",
    "toolu_ac05 none",
    "toolu_ad01 compact", // the first call after the first compaction (150,000)
    "toolu_ad02 30", // 56,000 of 183,000
    "toolu_ad03 52",
    "toolu_ad04 70",
    "toolu_ad05 none",
    "toolu_ae01 compact", // after the second (160,000)
    "toolu_ae02 30", // 56,000: 30 % of 183,000 (the 150,000 point), not of 193,000
    "toolu_ae03 none",
  ]);
});

Deno.test("two processes on one session file: each chain gets each refresh once, on its own crossing", async () => {
  // v2.1.225-two-processes-one-session (tests/fixtures/transcripts/skeletons/README.md): a 2.1.226
  // process resumed the session at line 822 while the 2.1.225 one ran on, both on claude-opus-5.
  const rows = await replay("v2.1.225-two-processes-one-session.jsonl", true);
  const refreshes = rows.filter((r) => r.hook.kind === "thresholds").map((r) =>
    `${r.call.line + 1} ${r.hook.thresholds.join()}`
  );
  deepStrictEqual(refreshes, [
    "227 30", // 60k, 104k, 140k: one process, as a 200k session has them
    "356 52",
    "497 70",
    "686 180000", // the first reading over 200k proves the 1M window
    "746 220000",
    "857 260000", // 2.1.226's chain, 260,653 tokens
    "1070 260000", // 2.1.225's chain, 260,814: its own refresh, not used up by the other's
    "1106 300000", // 2.1.226's
    "1366 340000", // 2.1.226's
    "1500 300000", // 2.1.225's
  ]);
});
