/**
 * Gemini CLI's facts and its reader on conversation files real Gemini CLI 0.61.0 wrote
 * (tests/fixtures/gemini), cut where each AfterTool hook found them.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { isChatPath, settingsOf, windowOf } from "../../../src/core/gemini.ts";
import { chatViewOf } from "../../../src/io/gemini_chat.ts";
import { ROOT } from "../../_helpers.ts";
import { memory } from "./_io.ts";

const chat = (name: string) =>
  memory(
    Deno.readTextFileSync(
      join(ROOT, "tests/fixtures/gemini/chats", `recorded-0.61.0-${name}.jsonl`),
    ),
  );

const view = (name: string, markersFrom?: number) => {
  const { source, size } = chat(name);
  return chatViewOf(source, size, { sidechainFile: false, markersFrom });
};

Deno.test("an AfterTool hook reads the prompt tokens of the response that made its call", () => {
  // Written before the hook: that message's tokens; its tool call's result comes after.
  const usage = view("basic.at-AfterTool").usage;
  assertEquals([usage?.tokens, usage?.window, usage?.model], [61_000, 1_048_576, "gemini-2.5-pro"]);
  assertEquals(view("basic").usage?.tokens, 62_000);
});

Deno.test("a compression is the $set of a history that starts with a snapshot", () => {
  const after = view("compress.at-AfterTool", 0);
  assertEquals([after.usage?.tokens, after.markerAfterUsage], [20_000, undefined]);
  assertEquals([after.markerSince !== undefined, after.markersChecked], [true, true]);
  // From past the marker, none.
  assertEquals(view("compress.at-AfterTool", after.markerSince! + 1).markerSince, undefined);
  assertEquals(view("basic", 0).markerSince, undefined);
});

Deno.test("the window by model, the conversation file's name, and Gemini's own settings", () => {
  const windows = ["gemini-2.5-pro", "gemini-3-flash-preview", "gemma-4-31b-it", undefined];
  assertEquals(windows.map(windowOf), [1_048_576, 1_048_576, 256_000, 1_048_576]);
  assertEquals(
    ["/h/.gemini/tmp/p/chats/session-2026-12-07T19-48-3e961710.jsonl", "/h/x/session-1.jsonl"]
      .map(isChatPath),
    [true, false],
  );
  const table: [unknown, ReturnType<typeof settingsOf>][] = [
    [undefined, {}],
    ["not settings", {}],
    [{ model: { compressionThreshold: 0.2 } }, { threshold: 0.2 }],
    [{ model: { compressionThreshold: 2 } }, {}],
    [{ context: { fileName: "AGENTS.md" } }, { files: ["AGENTS.md"] }],
    [{ context: { fileName: ["AGENTS.md", "GEMINI.md"] } }, { files: ["AGENTS.md", "GEMINI.md"] }],
  ];
  for (const [raw, expected] of table) assertEquals(settingsOf(raw), expected, String(raw));
});
