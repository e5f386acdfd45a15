import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  compareVersions,
  resolveWindow,
  type WindowInputs,
  windowText,
} from "../../../src/core/window.ts";

const [S, L] = [200_000, 1_000_000];
const TABLE = "model and version";
const PROVEN = "proven earlier in this session";
const POINT = "auto-compaction point";
const OFF = "CLAUDE_CODE_DISABLE_1M_CONTEXT";
const manual = (preTokens: number) => ({ trigger: "manual", preTokens });

/** Inputs, then the window, its source and whether it is certain; a note says why, if needed. */
type Case = [WindowInputs, number, string, boolean, string?];

async function check(t: Deno.TestContext, cases: Case[]) {
  for (const [inputs, window, source, certain, note] of cases) {
    await t.step(note ?? JSON.stringify(inputs), () => {
      const got = resolveWindow(inputs);
      assertEquals([got.window, got.source, got.certain], [window, source, certain]);
    });
  }
}

Deno.test("resolveWindow() takes the best evidence first", async (t) => {
  const auto = { trigger: "auto", preTokens: 167_766 };
  await check(t, [
    [{ model: "claude-opus-5-5", override: 300_000 }, 300_000, "LESSONS_CONTEXT_WINDOW", true],
    [{ override: 100_000, tokens: 150_000 }, 100_000, "LESSONS_CONTEXT_WINDOW", true, "trusted"],
    [{ model: "claude-opus-5-5", version: "2.1.328", disable1m: true }, S, OFF, true, "1M off"],
    [{ model: "claude-sonnet-4-6[1m]", disable1m: true }, S, OFF, true, "1M off over [1m]"],
    [{ model: "claude-sonnet-4-6[1m]" }, L, "[1m] model id", true],
    [{ model: "claude-sonnet-4-6", tokens: 250_000 }, L, "usage above 200k", true],
    [{ model: "claude-sonnet-4-6", tokens: 30_000, proven: { window: L } }, L, PROVEN, true],
    [
      { model: "claude-sonnet-4-6", tokens: 30_000, proven: { window: L }, compaction: auto },
      L,
      PROVEN,
      true,
      "a reading over 200k earlier outweighs an auto-compaction near 200k",
    ],
    // v2.1.112-compact-boundary.jsonl: auto-compacted at 167,766 tokens, 83.5 % of 200k.
    [{ model: "claude-opus-4-7", version: "2.1.112", compaction: auto }, S, POINT, true],
    [{ model: "claude-sonnet-4-6", compaction: manual(420_000) }, L, POINT, true],
    [
      { model: "claude-sonnet-4-6", version: "2.1.185", compaction: manual(40_000) },
      S,
      TABLE,
      false,
      "a small manual compaction proves nothing",
    ],
  ]);
});

Deno.test("resolveWindow() reads the model against the version that wrote the transcript", async (t) => {
  const on = (model: string, version?: string, firstParty?: boolean): WindowInputs =>
    firstParty === undefined ? { model, version } : { model, version, firstParty };
  await check(t, [
    // Read in 2.1.112's cli.js: 1M only for [1m], the beta, or an experiment on sonnet-4-6.
    [on("claude-opus-4-7", "2.1.112"), S, TABLE, false],
    [on("claude-opus-4-7", "2.1.116"), S, TABLE, false],
    [on("claude-opus-4-7", "2.1.117"), L, TABLE, true],
    [on("claude-opus-4-7", "2.1.328"), L, TABLE, true],
    [on("claude-opus-4-7-20260101", "2.1.328"), L, TABLE, true, "dated id of a 1M family"],
    [on("us.anthropic.claude-opus-4-8-v1:0", "2.1.328"), L, TABLE, true, "Bedrock-style id"],
    [on("claude-opus-5-5", "2.1.328"), L, TABLE, true, "the default model of 2.1.328"],
    [on("claude-mythos-5-2", "2.1.328"), L, TABLE, true],
    [on("claude-opus-5", "2.1.328"), L, TABLE, true, "a family with no minor number"],
    [on("CLAUDE-FABLE-5", "2.1.328"), L, TABLE, true, "the model id in capitals"],
    [on("claude-opus-4-7", "2.1.121"), L, TABLE, true, "a version after the first 1M one"],
    [on("claude-haiku-4-5", "2.1.328"), S, TABLE, true, "haiku-4-5 at 2.1.328"],
    [on("claude-fable-5", "2.1.170"), S, TABLE, false, "a version between the ones read"],
    [on("claude-opus-5-5"), S, TABLE, false, "no version recorded: the smaller window"],
    // 2.1.150 to 2.1.275: native 1M only on the first-party API.
    [on("claude-opus-4-8", "2.1.167", true), L, TABLE, true, "first party"],
    [on("claude-opus-4-8", "2.1.167", false), S, TABLE, false, "through a gateway"],
    [on("claude-fable-5", "2.1.212"), S, TABLE, false, "API not known"],
    [on("claude-opus-5-5", "2.1.328", false), L, TABLE, true, "2.1.328: no gate any more"],
    [on("claude-sonnet-4-6", "2.1.328"), S, TABLE, false, "sonnet-4-6 may have opted in to 1M"],
    [on("claude-opus-4-5-20251101", "2.0.76"), S, TABLE, true, "200k in every version"],
    [on("claude-haiku-4-5"), S, TABLE, true],
    [on("glm-4.7", "2.1.328"), S, "unknown model", false, "a gateway model is unknown"],
    [on("claude-opus-4-70", "2.1.328"), S, "unknown model", false, "a longer number: another"],
    [{}, S, "no model", false, "no model at all"],
  ]);
});

Deno.test("compareVersions() orders Claude Code versions numerically", () => {
  assertEquals(compareVersions("2.1.112", "2.1.117") < 0, true);
  assertEquals(compareVersions("2.1.1000", "2.1.999") > 0, true);
  assertEquals(compareVersions("2.1.117", "2.1.117"), 0);
  assertEquals(compareVersions("1.0.90", "2.0.0") < 0, true);
});

Deno.test("resolveWindow() takes a proof or a compaction only for the model and release it was made in", async (t) => {
  const [opus5, sonnet] = [{ model: "claude-opus-5", version: "2.1.328" }, "claude-sonnet-4-6"];
  const proven = { window: L, ...opus5 };
  const opus47 = { model: "claude-opus-4-7", version: "2.1.112" };
  const at328 = (model: string, more: Partial<WindowInputs>) => ({
    model,
    version: "2.1.328",
    ...more,
  });
  await check(t, [
    [
      at328(sonnet, { tokens: 70_000, proven }),
      S,
      TABLE,
      false,
      "1M proven by claude-opus-5 says nothing about claude-sonnet-4-6 after /model",
    ],
    [
      at328("claude-opus-5-20260301", { tokens: 70_000, proven }),
      L,
      PROVEN,
      true,
      "it still speaks for claude-opus-5, dated ids included",
    ],
    [
      at328("claude-opus-4-7", { tokens: 62_000, proven: { window: S, ...opus47 } }),
      L,
      TABLE,
      true,
      "200k proven by 2.1.112's auto-compaction says nothing about the same model in 2.1.328",
    ],
    [
      at328(sonnet, { tokens: 70_000, proven: { window: L } }),
      L,
      PROVEN,
      true,
      "a proof of an earlier release of this hook (no model, no version) speaks for every entry",
    ],
    [
      at328(sonnet, { tokens: 20_000, compaction: { ...manual(350_000), ...opus5 } }),
      S,
      TABLE,
      false,
      "a compaction of claude-opus-5 at 350k says nothing about claude-sonnet-4-6 after it",
    ],
    [
      at328(sonnet, { tokens: 20_000, compaction: manual(350_000) }),
      L,
      POINT,
      true,
      "a compaction whose model was not read speaks for the model measured",
    ],
  ]);
  await t.step("the proof names the evidence's model and release", () => {
    assertEquals(
      resolveWindow({ model: sonnet, version: "2.1.328", tokens: 250_000 }).proves,
      { window: L, model: sonnet, version: "2.1.328" },
    );
    const compaction = { trigger: "auto", preTokens: 167_766, ...opus47 };
    assertEquals(resolveWindow({ ...opus47, compaction }).proves, { window: S, ...opus47 });
  });
});

Deno.test("a proof speaks only for its own model and release; what it does not name, it lets through", () => {
  /** 1M proven by `model`, in `version` if given. */
  const by = (model: string, version?: string) => ({
    window: L,
    model,
    ...(version && { version }),
  });
  const cases: [WindowInputs["proven"], string | undefined, string | undefined, boolean][] = [
    [by("claude-opus-5", "2.1.328"), "claude-opus-5", "2.1.328", true],
    [by("claude-opus-5", "2.1.328"), "claude-opus-5-5", "2.1.328", false],
    [by("claude-opus-4-8", "2.1.328"), "claude-opus-5", "2.1.328", false],
    [by("claude-opus-4-7", "2.1.112"), "claude-opus-4-7", "2.1.117", false],
    [by("glm-4.7"), "GLM-4.7", undefined, true],
    [by("glm-4.7"), "glm-4.6", undefined, false],
    [by("claude-opus-5"), undefined, undefined, true],
  ];
  for (const [proven, model, version, speaks] of cases) {
    const { source } = resolveWindow({ model, version, proven });
    assertEquals(source === PROVEN, speaks, JSON.stringify([proven, model, version]));
  }
});

Deno.test("windowText() gives the evidence, and says 200k is counted while more is possible", () => {
  const text = (model: string, version: string) => windowText(resolveWindow({ model, version }));
  assertEquals(
    text("claude-sonnet-4-6", "2.1.328"),
    "claude-sonnet-4-6 has 1M only if chosen; counted as 200k until a reading shows more",
  );
  assertEquals(
    text("claude-opus-4-7", "2.1.117"),
    "claude-opus-4-7 in Claude Code 2.1.117 has 1M natively",
  );
  assertEquals(
    text("claude-opus-4-7", "2.1.112"),
    "claude-opus-4-7 in Claude Code 2.1.112: 1M only from 2.1.117; counted as 200k until a " +
      "reading shows more",
  );
});
