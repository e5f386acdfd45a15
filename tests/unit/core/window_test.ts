import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { isNative1m, resolveWindow, type WindowInputs } from "../../../src/core/window.ts";

Deno.test("resolveWindow() follows the documented order", async (t) => {
  const cases: [string, WindowInputs, number, string][] = [
    [
      "default model is 200k",
      { model: "claude-sonnet-4-6", tokens: 50_000 },
      200_000,
      "default 200k",
    ],
    ["native 1M model", { model: "claude-opus-5-5" }, 1_000_000, "native 1M model"],
    [
      "dated id of a 1M family",
      { model: "claude-opus-4-7-20260101" },
      1_000_000,
      "native 1M model",
    ],
    [
      "Bedrock-style id",
      { model: "us.anthropic.claude-opus-4-8-v1:0" },
      1_000_000,
      "native 1M model",
    ],
    ["fable and mythos families", { model: "claude-mythos-5-2" }, 1_000_000, "native 1M model"],
    ["[1m] suffix", { model: "claude-sonnet-4-6[1m]" }, 1_000_000, "[1m] model id"],
    [
      "1M disabled wins over the table",
      { model: "claude-opus-5-5", disable1m: true },
      200_000,
      "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    ],
    [
      "1M disabled wins over [1m]",
      { model: "claude-sonnet-4-6[1m]", disable1m: true },
      200_000,
      "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    ],
    [
      "override wins",
      { model: "claude-opus-5-5", override: 300_000 },
      300_000,
      "env LESSONS_CONTEXT_WINDOW",
    ],
    [
      "override is trusted even when exceeded",
      { override: 100_000, tokens: 150_000 },
      100_000,
      "env LESSONS_CONTEXT_WINDOW",
    ],
    [
      "usage above 200k proves 1M",
      { model: "claude-sonnet-4-6", tokens: 250_000 },
      1_000_000,
      "usage above 200k",
    ],
    ["unknown model", { model: "some-gateway-model" }, 200_000, "default 200k"],
    ["no model at all", {}, 200_000, "default 200k"],
    ["older opus is 200k", { model: "claude-opus-4-6" }, 200_000, "default 200k"],
    ["a longer number is another model", { model: "claude-opus-4-70" }, 200_000, "default 200k"],
  ];
  for (const [name, inputs, window, source] of cases) {
    await t.step(name, () => assertEquals(resolveWindow(inputs), { window, source }));
  }
});

Deno.test("isNative1m() matches families, not prefixes of other numbers", () => {
  assertEquals(isNative1m("claude-opus-5"), true);
  assertEquals(isNative1m("claude-haiku-4-5"), false);
  assertEquals(isNative1m("CLAUDE-FABLE-5"), true);
});
