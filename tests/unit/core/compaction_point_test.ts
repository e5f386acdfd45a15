/**
 * Where Claude Code 2.1.328 auto-compacts, as read from its code
 * (docs/maintainers/windows-by-release.md), and the span the percentage thresholds are measured
 * against.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  autocompactPctOf,
  autoCompactWindowOf,
  type CompactEnv,
  compactionPoint,
  type CompactSettings,
  mergeCompactSettings,
  spanFor,
} from "../../../src/core/compaction_point.ts";
import { DEFAULT_COMPACT_SHARE as CODEX_SHARE } from "../../../src/core/codex.ts";
import { modelKey } from "../../../src/core/window.ts";
import { pointOf } from "../../../src/core/thresholds.ts";

Deno.test("autoCompactWindowOf() reads CLAUDE_CODE_AUTO_COMPACT_WINDOW as Claude Code does", () => {
  const cases: [string | undefined, number | undefined][] = [
    [undefined, undefined],
    ["400000", 400_000],
    ["400k", 400_000],
    ["400K", 400_000],
    ["0.4m", 400_000],
    ["1M", 1_000_000],
    ["1e6", 1_000_000],
    ["1,000,000", 1_000_000],
    [" 300000 ", 300_000],
    // parseInt's leniency, as in Claude Code.
    ["250000tokens", 250_000],
    // Below the minimum counts as the minimum; unusable values are ignored.
    ["50000", 100_000],
    ["50k", 100_000],
    ["0", undefined],
    ["lots", undefined],
    ["", undefined],
  ];
  for (const [raw, expected] of cases) assertEquals(autoCompactWindowOf(raw), expected, raw);
});

Deno.test("autocompactPctOf() reads CLAUDE_AUTOCOMPACT_PCT_OVERRIDE as Claude Code does", () => {
  assertEquals(
    ["50", "12.5", "100", "0", "101", "-3", "abc", "", undefined].map(autocompactPctOf),
    [50, 12.5, 100, undefined, undefined, undefined, undefined, undefined, undefined],
  );
});

Deno.test("modelKey() keys a model as per-model settings do", () => {
  assertEquals(modelKey("claude-sonnet-4-5-20250929"), "claude-sonnet-4-5");
  assertEquals(modelKey("claude-opus-5-5[1m]"), "claude-opus-5-5");
  assertEquals(modelKey("us.anthropic.claude-opus-4-7-v1"), "claude-opus-4-7");
  assertEquals(modelKey("glm-4.7"), "glm-4.7");
});

Deno.test("mergeCompactSettings(): precedence of user, project, local and managed files", async (t) => {
  await t.step("the highest file with a top-level window replaces what is below it", () => {
    const merged = mergeCompactSettings([
      { file: "user", window: 300_000, byModel: { "claude-opus-5-5": 500_000 } },
      { file: "project", byModel: { "claude-sonnet-4-6": 150_000 } },
      { file: "local", window: 250_000 },
    ]);
    assertEquals(merged.window, { value: 250_000, file: "local" });
    assertEquals(merged.byModel, {});
  });
  await t.step("per-model entries without a top-level window add up", () => {
    const merged = mergeCompactSettings([
      { file: "user", window: 300_000, byModel: { "claude-opus-5-5": 500_000 } },
      { file: "project", byModel: { "claude-sonnet-4-6": "auto" } },
    ]);
    assertEquals(merged.window, { value: 300_000, file: "user" });
    assertEquals(Object.keys(merged.byModel).sort(), ["claude-opus-5-5", "claude-sonnet-4-6"]);
  });
  await t.step("autoCompactEnabled from the highest file that sets it", () => {
    const merged = mergeCompactSettings([
      { file: "user", enabled: false },
      { file: "managed", enabled: true },
    ]);
    assertEquals(merged.enabled, { value: true, file: "managed" });
  });
  await t.step("the canonical spelling wins over a dated one in the same file", () => {
    const merged = mergeCompactSettings([
      {
        file: "user",
        byModel: { "claude-sonnet-4-5-20250929": 120_000, "claude-sonnet-4-5": 140_000 },
      },
    ]);
    assertEquals(merged.byModel["claude-sonnet-4-5"]?.value, 140_000);
  });
});

const none: CompactEnv = {};
const filesWith = (files: Partial<CompactSettings>): CompactSettings => ({ byModel: {}, ...files });
const w400k: CompactEnv = { window: { tokens: 400_000, raw: "400k" } };

Deno.test("compactionPoint(): Claude Code 2.1.328's threshold, from each source", async (t) => {
  const ENV = "CLAUDE_CODE_AUTO_COMPACT_WINDOW";
  const SET = "autoCompactWindow setting";
  const OWN = "the model's window";
  const top = { window: { value: 300_000, file: "s" } };
  const opus = (value: number | "auto") => ({
    model: "claude-opus-5-5",
    files: filesWith({ ...top, byModel: { "claude-opus-5-5": { value, file: "s" } } }),
  });
  const [AUTO, v337] = ["Claude Code 2.1.334+", { model: "claude-opus-5-5", version: "2.1.337" }];
  const CODEX = "Codex's default";
  const host = { source: CODEX, evidence: "e" };
  type Inputs = Parameters<typeof compactionPoint>[0];
  const on = (window: number, env = none, more: Partial<Inputs> = {}): Inputs => ({
    window,
    env,
    ...more,
  });
  const cases: [string, Inputs, number | "off", string][] = [
    ["a 200k window: 167,000", on(200_000), 167_000, OWN],
    ["a 1M window: 967,000", on(1_000_000), 967_000, OWN],
    [`${ENV}=400k on 1M`, on(1_000_000, w400k), 367_000, ENV],
    [
      "an auto-compact window above the model's is capped to it",
      on(200_000, { window: { tokens: 500_000, raw: "500k" } }),
      167_000,
      ENV,
    ],
    [
      "the environment beats the settings",
      on(1_000_000, { window: { tokens: 400_000, raw: "400000" } }, { files: filesWith(top) }),
      367_000,
      ENV,
    ],
    ["the top-level setting", on(1_000_000, none, { files: filesWith(top) }), 267_000, SET],
    [
      "a per-model setting for this model beats the top-level one",
      on(1_000_000, none, opus(500_000)),
      467_000,
      SET,
    ],
    ['a per-model "auto" means the model\'s own window', on(1e6, none, opus("auto")), 967_000, OWN],
    // 2.1.334+: a natively-1M model's "auto" window, 400,000, until a reading passes its 367,000.
    ["2.1.337's auto window", on(1e6, none, v337), 367_000, AUTO],
    ['a per-model "auto" on 2.1.337', on(1e6, none, { ...opus("auto"), ...v337 }), 367_000, AUTO],
    ["2.1.337, a reading past 367,000", on(1e6, none, { ...v337, tokens: 367_001 }), 967_000, OWN],
    ["2.1.337, any CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", on(1e6, { pct: 100 }, v337), 967_000, OWN],
    ["2.1.332's full window", on(1e6, none, { ...v337, version: "2.1.332" }), 967_000, OWN],
    [
      "2.1.337, 1M opted into",
      on(1e6, none, { ...v337, model: "claude-sonnet-4-6" }),
      967_000,
      OWN,
    ],
    [
      "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50 on 200k: half of 180,000",
      on(200_000, { pct: 50 }),
      90_000,
      "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    ],
    ["the override never raises the point", on(200_000, { pct: 95 }), 167_000, OWN],
    [
      "an earlier auto-compaction below the point wins",
      on(1_000_000, none, { learned: 380_000 }),
      380_000,
      "an earlier auto-compaction",
    ],
    ["one above the point does not", on(200_000, none, { learned: 169_486 }), 167_000, OWN],
    ["DISABLE_AUTO_COMPACT", on(200_000, { off: "DISABLE_AUTO_COMPACT" }), "off", ""],
    ["DISABLE_COMPACT", on(200_000, { off: "DISABLE_COMPACT" }), "off", ""],
    [
      "autoCompactEnabled: false",
      on(200_000, none, { files: filesWith({ enabled: { value: false, file: "u" } }) }),
      "off",
      "",
    ],
    // Another host's own rule (Codex): a share of the stated window, or a limit.
    ["a host's share", on(190_000, { host: { ...host, share: CODEX_SHARE } }), 180_000, CODEX],
    ["a host's limit", on(190_000, { host: { ...host, tokens: 100_000 } }), 100_000, CODEX],
  ];
  for (const [name, inputs, tokens, source] of cases) {
    await t.step(name, () => {
      const point = compactionPoint(inputs);
      if (tokens === "off") return assertEquals(point.kind, "off");
      ok(point.kind === "point");
      assertEquals([point.tokens, point.source], [tokens, source]);
      ok(point.evidence.length > 0);
    });
  }
});

Deno.test("spanFor(): the window, unless Claude Code compacts before its usual point", async (t) => {
  const w100k: CompactEnv = { window: { tokens: 100_000, raw: "100000" } };
  const off: CompactEnv = { off: "DISABLE_AUTO_COMPACT" };
  const P = [30, 52, 70];
  // Name, window, environment, span; then the learned point, the thresholds (default P) and
  // whether percentages are scaled (default yes).
  type Case = [string, number, CompactEnv, number, (number | undefined)?, number[]?, boolean?];
  const cases: Case[] = [
    ["200k, nothing set: the window", 200_000, none, 200_000],
    ["1M, nothing set: the window", 1_000_000, none, 1_000_000],
    ["1M with a 400k auto-compact window: 400k", 1_000_000, w400k, 400_000],
    // Doctor warns about 70% there.
    ["a 100k window at its usual point: the window", 100_000, none, 100_000],
    ["the 100k minimum: narrowed so 70% lands before 67,000", 200_000, w100k, 91_428],
    ["override 50 on 200k: 70% lands before 90,000", 200_000, { pct: 50 }, 123_000],
    ["a learned point: the window that compacts there", 1_000_000, none, 413_000, 380_000],
    ["scaling off: the window", 1_000_000, w400k, 1_000_000, undefined, P, false],
    ["auto-compaction off: the window", 200_000, off, 200_000],
    ["token thresholds only: 400k", 1_000_000, w400k, 400_000, undefined, [20_000, 60_000]],
  ];
  for (const [name, window, env, expected, learned, thresholds = P, scale = true] of cases) {
    await t.step(name, () => {
      const context = { env, files: undefined, learned, thresholds, scale };
      const { compaction: point, span } = spanFor(window, undefined, context);
      assertEquals(span, expected);
      // Every percentage lands before an early compaction when measured against it.
      if (scale && point.kind === "point" && span < window) {
        for (const t of thresholds.filter((t) => t < 100)) ok(pointOf(t, span) < point.tokens);
      }
    });
  }
});

Deno.test("no window at least W has a span below the smaller of W's and the largest window's", () => {
  // What the ceiling relies on (src/hook/measure.ts): its window is never wider than the
  // reading's, and it takes the smaller of the two spans, so it never measures against more.
  const envs: CompactEnv[] = [
    none,
    { pct: 50 },
    { pct: 10 },
    { window: { tokens: 100_000, raw: "" } },
    { window: { tokens: 400_000, raw: "" } },
    { window: { tokens: 400_000, raw: "" }, pct: 70 },
  ];
  const lists = [[30, 52, 70], [95], [10], [5, 60_000], [80, 90, 99]];
  const spanAt = (window: number, env: CompactEnv, learned: number | undefined, list: number[]) =>
    spanFor(window, undefined, { env, files: undefined, learned, thresholds: list, scale: true })
      .span;
  for (const env of envs) {
    for (const learned of [undefined, 120_000, 380_000]) {
      for (const list of lists) {
        const largest = spanAt(100_000_000, env, learned, list);
        for (let small = 100_000; small <= 2_000_000; small += 50_000) {
          const floor = Math.min(spanAt(small, env, learned, list), largest);
          for (let window = small; window <= 2_000_000; window += 50_000) {
            ok(
              spanAt(window, env, learned, list) >= floor,
              JSON.stringify({ env, learned, list, small, window }),
            );
          }
        }
      }
    }
  }
});
