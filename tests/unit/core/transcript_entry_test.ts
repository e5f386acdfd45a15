import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  isCompactionMarker,
  refreshRecordedIn,
  usageOf,
} from "../../../src/core/transcript_entry.ts";
import { entries } from "../../_helpers.ts";

const base = () => entries.assistant(40_000, ["toolu_a"], { messageId: "msg_1" });
// deno-lint-ignore no-explicit-any
const edit = (change: (entry: any) => void) => {
  const entry = structuredClone(base());
  change(entry);
  return entry;
};

Deno.test("usageOf() reads a real assistant entry", () => {
  const usage = usageOf(base(), false);
  assertEquals([usage?.tokens, usage?.messageId, usage?.toolUseIds], [40_000, "msg_1", [
    "toolu_a",
  ]]);
});

Deno.test("usageOf() refuses entries of the wrong shape or kind", async (t) => {
  const cases: [string, unknown][] = [
    ["not an object", "assistant"],
    ["an array", [base()]],
    ["another type", edit((e) => (e.type = "user"))],
    ["no message", edit((e) => delete e.message)],
    ["no usage", edit((e) => delete e.message.usage)],
    ["usage as a string", edit((e) => (e.message.usage = "40000"))],
    ["a token count as a string", edit((e) => (e.message.usage.cache_read_input_tokens = "40000"))],
    ["isSidechain as a string", edit((e) => (e.isSidechain = "false"))],
    ["a numeric model", edit((e) => (e.message.model = 4))],
    ["a numeric timestamp", edit((e) => (e.timestamp = 1))],
    ["a sidechain entry in a main transcript", edit((e) => (e.isSidechain = true))],
    ["an API error", edit((e) => (e.isApiErrorMessage = true))],
    ["the <synthetic> model", edit((e) => (e.message.model = "<synthetic>"))],
    ["all-zero usage", edit((e) => (e.message.usage.cache_read_input_tokens = 0))],
  ];
  for (const [name, entry] of cases) {
    await t.step(name, () => assertEquals(usageOf(entry, false), undefined));
  }
});

Deno.test("usageOf() accepts null counts and a sidechain entry in a subagent's own file", () => {
  assertEquals(usageOf(edit((e) => (e.message.usage.input_tokens = null)), false)?.tokens, 40_000);
  assertEquals(usageOf(edit((e) => (e.isSidechain = true)), true)?.tokens, 40_000);
});

Deno.test("isCompactionMarker() knows both markers and nothing else", () => {
  assertEquals(isCompactionMarker(entries.compactBoundary()), true);
  assertEquals(
    isCompactionMarker({ type: "user", isCompactSummary: true, parentUuid: null }),
    true,
  );
  assertEquals(isCompactionMarker({ type: "summary", summary: "title" }), false);
  assertEquals(isCompactionMarker({ type: "user", isCompactSummary: "true" }), false);
  assertEquals(isCompactionMarker(null), false);
});

Deno.test("refreshRecordedIn() reads only hook_additional_context attachments", () => {
  const header = "[lessons-reinject refresh 30 ref=0badc0de] Context refresh";
  assertEquals(refreshRecordedIn(entries.refresh(header, "t"), "0badc0de"), [30]);
  const other = entries.refresh(header, "t") as { attachment: { type: string } };
  other.attachment.type = "hook_success";
  assertEquals(refreshRecordedIn(other, "0badc0de"), undefined);
});
