import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  compareVersions,
  modelKey,
  resolveWindow,
  type WindowInputs,
  windowText,
} from "../../../src/core/window.ts";

type Case = [string, WindowInputs, number, string, boolean];

Deno.test("resolveWindow() takes the best evidence first", async (t) => {
  const cases: Case[] = [
    [
      "override wins",
      { model: "claude-opus-5-5", override: 300_000 },
      300_000,
      "LESSONS_CONTEXT_WINDOW",
      true,
    ],
    [
      "override is trusted even when exceeded",
      { override: 100_000, tokens: 150_000 },
      100_000,
      "LESSONS_CONTEXT_WINDOW",
      true,
    ],
    [
      "1M disabled wins over the table",
      { model: "claude-opus-5-5", version: "2.1.328", disable1m: true },
      200_000,
      "CLAUDE_CODE_DISABLE_1M_CONTEXT",
      true,
    ],
    [
      "1M disabled wins over [1m]",
      { model: "claude-sonnet-4-6[1m]", disable1m: true },
      200_000,
      "CLAUDE_CODE_DISABLE_1M_CONTEXT",
      true,
    ],
    ["[1m] suffix", { model: "claude-sonnet-4-6[1m]" }, 1_000_000, "[1m] model id", true],
    [
      "usage above 200k proves 1M",
      { model: "claude-sonnet-4-6", tokens: 250_000 },
      1_000_000,
      "usage above 200k",
      true,
    ],
    [
      "a window proven earlier outlives a compaction",
      { model: "claude-sonnet-4-6", tokens: 30_000, proven: { window: 1_000_000 } },
      1_000_000,
      "proven earlier in this session",
      true,
    ],
    // v2.1.112-compact-boundary.jsonl: auto-compacted at 167,766 tokens.
    [
      "an auto-compaction near 83.5 % of 200k proves 200k",
      {
        model: "claude-opus-4-7",
        version: "2.1.112",
        compaction: { trigger: "auto", preTokens: 167_766 },
      },
      200_000,
      "auto-compaction point",
      true,
    ],
    [
      "a compaction above 200k proves 1M",
      { model: "claude-sonnet-4-6", compaction: { trigger: "manual", preTokens: 420_000 } },
      1_000_000,
      "auto-compaction point",
      true,
    ],
    [
      "a small manual compaction proves nothing",
      {
        model: "claude-sonnet-4-6",
        version: "2.1.185",
        compaction: { trigger: "manual", preTokens: 40_000 },
      },
      200_000,
      "model and version",
      false,
    ],
  ];
  for (const [name, inputs, window, source, certain] of cases) {
    await t.step(name, () => {
      const got = resolveWindow(inputs);
      assertEquals([got.window, got.source, got.certain], [window, source, certain]);
    });
  }
});

Deno.test("resolveWindow() reads the model against the version that wrote the transcript", async (t) => {
  const cases: Case[] = [
    // Read in 2.1.112's cli.js: 1M only for [1m], the beta, or an experiment on sonnet-4-6.
    [
      "opus-4-7 in 2.1.112 is 200k, 1M possible",
      { model: "claude-opus-4-7", version: "2.1.112" },
      200_000,
      "model and version",
      false,
    ],
    [
      "opus-4-7 in 2.1.116 is 200k, 1M possible",
      { model: "claude-opus-4-7", version: "2.1.116" },
      200_000,
      "model and version",
      false,
    ],
    [
      "opus-4-7 in 2.1.117 is natively 1M",
      { model: "claude-opus-4-7", version: "2.1.117" },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "opus-4-7 in 2.1.328 is natively 1M",
      { model: "claude-opus-4-7", version: "2.1.328" },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "dated id of a 1M family",
      { model: "claude-opus-4-7-20260101", version: "2.1.328" },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "Bedrock-style id",
      { model: "us.anthropic.claude-opus-4-8-v1:0", version: "2.1.328" },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "the default model of 2.1.328",
      { model: "claude-opus-5-5", version: "2.1.328" },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "mythos-5-2 in 2.1.328",
      { model: "claude-mythos-5-2", version: "2.1.328" },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "a version between the ones read is uncertain",
      { model: "claude-fable-5", version: "2.1.170" },
      200_000,
      "model and version",
      false,
    ],
    [
      "no version recorded: the smaller window",
      { model: "claude-opus-5-5" },
      200_000,
      "model and version",
      false,
    ],
    // 2.1.150 to 2.1.275: native 1M only on the first-party API.
    [
      "opus-4-8 in 2.1.167, first party",
      { model: "claude-opus-4-8", version: "2.1.167", firstParty: true },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "opus-4-8 in 2.1.167 through a gateway",
      { model: "claude-opus-4-8", version: "2.1.167", firstParty: false },
      200_000,
      "model and version",
      false,
    ],
    [
      "fable-5 in 2.1.212, API not known",
      { model: "claude-fable-5", version: "2.1.212" },
      200_000,
      "model and version",
      false,
    ],
    [
      "opus-5-5 in 2.1.328 through a gateway: no gate any more",
      { model: "claude-opus-5-5", version: "2.1.328", firstParty: false },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "sonnet-4-6 may have opted in to 1M",
      { model: "claude-sonnet-4-6", version: "2.1.328" },
      200_000,
      "model and version",
      false,
    ],
    [
      "opus-4-5 is 200k in every version",
      { model: "claude-opus-4-5-20251101", version: "2.0.76" },
      200_000,
      "model and version",
      true,
    ],
    ["haiku-4-5 is 200k", { model: "claude-haiku-4-5" }, 200_000, "model and version", true],
    [
      "a gateway model is unknown",
      { model: "glm-4.7", version: "2.1.328" },
      200_000,
      "unknown model",
      false,
    ],
    [
      "a longer number is another model",
      { model: "claude-opus-4-70", version: "2.1.328" },
      200_000,
      "unknown model",
      false,
    ],
    ["no model at all", {}, 200_000, "no model", false],
  ];
  for (const [name, inputs, window, source, certain] of cases) {
    await t.step(name, () => {
      const got = resolveWindow(inputs);
      assertEquals([got.window, got.source, got.certain], [window, source, certain]);
    });
  }
});

Deno.test("the table matches families and versions, not prefixes of other numbers", () => {
  const on = (model: string, version = "2.1.328") => resolveWindow({ model, version }).window;
  assertEquals(on("claude-opus-5"), 1_000_000);
  assertEquals(on("claude-haiku-4-5"), 200_000);
  assertEquals(on("CLAUDE-FABLE-5"), 1_000_000);
  assertEquals(on("claude-opus-4-7", "2.1.112"), 200_000);
  assertEquals(on("claude-opus-4-7", "2.1.121"), 1_000_000);
  assertEquals(on("claude-opus-4-70"), 200_000);
  assertEquals(modelKey("claude-opus-4-7-20260101"), "claude-opus-4-7");
});

Deno.test("compareVersions() orders Claude Code versions numerically", () => {
  assertEquals(compareVersions("2.1.112", "2.1.117") < 0, true);
  assertEquals(compareVersions("2.1.1000", "2.1.999") > 0, true);
  assertEquals(compareVersions("2.1.117", "2.1.117"), 0);
  assertEquals(compareVersions("1.0.90", "2.0.0") < 0, true);
});

Deno.test("resolveWindow() takes a proof or a compaction only for the model and release it was made in", async (t) => {
  const opus5 = { window: 1_000_000, model: "claude-opus-5", version: "2.1.328" };
  const cases: [string, WindowInputs, number, string, boolean][] = [
    [
      "1M proven by claude-opus-5 says nothing about claude-sonnet-4-6 after /model",
      { model: "claude-sonnet-4-6", version: "2.1.328", tokens: 70_000, proven: opus5 },
      200_000,
      "model and version",
      false,
    ],
    [
      "it still speaks for claude-opus-5, dated ids included",
      { model: "claude-opus-5-20260301", version: "2.1.328", tokens: 70_000, proven: opus5 },
      1_000_000,
      "proven earlier in this session",
      true,
    ],
    [
      "200k proven by 2.1.112's auto-compaction says nothing about the same model in 2.1.328",
      {
        model: "claude-opus-4-7",
        version: "2.1.328",
        tokens: 62_000,
        proven: { window: 200_000, model: "claude-opus-4-7", version: "2.1.112" },
      },
      1_000_000,
      "model and version",
      true,
    ],
    [
      "a proof of an earlier release of this hook (no model, no version) speaks for every entry",
      {
        model: "claude-sonnet-4-6",
        version: "2.1.328",
        tokens: 70_000,
        proven: { window: 1_000_000 },
      },
      1_000_000,
      "proven earlier in this session",
      true,
    ],
    [
      "a compaction of claude-opus-5 at 350k says nothing about claude-sonnet-4-6 after it",
      {
        model: "claude-sonnet-4-6",
        version: "2.1.328",
        tokens: 20_000,
        compaction: {
          trigger: "manual",
          preTokens: 350_000,
          model: "claude-opus-5",
          version: "2.1.328",
        },
      },
      200_000,
      "model and version",
      false,
    ],
    [
      "a compaction whose model was not read speaks for the model measured",
      {
        model: "claude-sonnet-4-6",
        version: "2.1.328",
        tokens: 20_000,
        compaction: { trigger: "manual", preTokens: 350_000 },
      },
      1_000_000,
      "auto-compaction point",
      true,
    ],
  ];
  for (const [name, inputs, window, source, certain] of cases) {
    await t.step(name, () => {
      const got = resolveWindow(inputs);
      assertEquals([got.window, got.source, got.certain], [window, source, certain]);
    });
  }
  await t.step("the proof names the evidence's model and release", () => {
    assertEquals(
      resolveWindow({ model: "claude-sonnet-4-6", version: "2.1.328", tokens: 250_000 }).proves,
      { window: 1_000_000, model: "claude-sonnet-4-6", version: "2.1.328" },
    );
    assertEquals(
      resolveWindow({
        model: "claude-opus-4-7",
        version: "2.1.112",
        compaction: {
          trigger: "auto",
          preTokens: 167_766,
          model: "claude-opus-4-7",
          version: "2.1.112",
        },
      }).proves,
      { window: 200_000, model: "claude-opus-4-7", version: "2.1.112" },
    );
  });
});

Deno.test("a proof speaks only for its own model and release; what it does not name, it lets through", () => {
  const cases: [WindowInputs["proven"], string | undefined, string | undefined, boolean][] = [
    [
      { window: 1_000_000, model: "claude-opus-5", version: "2.1.328" },
      "claude-opus-5",
      "2.1.328",
      true,
    ],
    [
      { window: 1_000_000, model: "claude-opus-5", version: "2.1.328" },
      "claude-opus-5-20260301",
      "2.1.328",
      true,
    ],
    [
      { window: 1_000_000, model: "claude-opus-5", version: "2.1.328" },
      "claude-opus-5-5",
      "2.1.328",
      false,
    ],
    [
      { window: 1_000_000, model: "claude-opus-4-8", version: "2.1.328" },
      "claude-opus-5",
      "2.1.328",
      false,
    ],
    [
      { window: 1_000_000, model: "claude-opus-4-7", version: "2.1.112" },
      "claude-opus-4-7",
      "2.1.117",
      false,
    ],
    [{ window: 1_000_000, model: "glm-4.7" }, "GLM-4.7", undefined, true],
    [{ window: 1_000_000, model: "glm-4.7" }, "glm-4.6", undefined, false],
    [{ window: 1_000_000 }, "claude-sonnet-4-6", "2.1.328", true],
    [{ window: 1_000_000, model: "claude-opus-5" }, undefined, undefined, true],
  ];
  for (const [proven, model, version, speaks] of cases) {
    const { source } = resolveWindow({ model, version, proven });
    assertEquals(
      source === "proven earlier in this session",
      speaks,
      JSON.stringify([proven, model, version]),
    );
  }
});

Deno.test("windowText() gives the evidence, and says 200k is counted while more is possible", () => {
  assertEquals(
    windowText(resolveWindow({ model: "claude-sonnet-4-6", version: "2.1.328" })),
    "claude-sonnet-4-6 has 1M only if chosen; counted as 200k until a reading shows more",
  );
  assertEquals(
    windowText(resolveWindow({ model: "claude-opus-4-7", version: "2.1.117" })),
    "claude-opus-4-7 in Claude Code 2.1.117 has 1M natively",
  );
  assertEquals(
    windowText(resolveWindow({ model: "claude-opus-4-7", version: "2.1.112" })),
    "claude-opus-4-7 in Claude Code 2.1.112: 1M only from 2.1.117; counted as 200k until a " +
      "reading shows more",
  );
});
