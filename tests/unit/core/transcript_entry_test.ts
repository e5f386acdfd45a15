import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  compactionOf,
  forkReferenceOf,
  holdsToolUse,
  isCompactionMarker,
  recordLineOf,
  usageOf,
} from "../../../src/core/transcript_entry.ts";
import { join } from "node:path";
import { entries, RECORDINGS } from "../../_helpers.ts";

const base = () => entries.assistant(40_000, ["toolu_a"], { messageId: "msg_1" });
// deno-lint-ignore no-explicit-any
const edit = (change: (entry: any) => void) => {
  const entry = structuredClone(base());
  change(entry);
  return entry;
};

Deno.test("usageOf() reads an assistant entry: null counts, a subagent's own sidechain, its version", () => {
  const read = (entry: unknown, sidechainFile = false) => {
    const usage = usageOf(entry, sidechainFile);
    return [usage?.tokens, usage?.messageId, usage?.toolUseIds, usage?.version];
  };
  const got = [40_000, "msg_1", ["toolu_a"], "2.1.328"];
  assertEquals(read(base()), got);
  assertEquals(read(edit((e) => (e.message.usage.input_tokens = null))), got);
  assertEquals(read(edit((e) => (e.isSidechain = true)), true), got);
  assertEquals(read(edit((e) => (e.version = "2.1.112"))), [...got.slice(0, 3), "2.1.112"]);
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

Deno.test("isCompactionMarker() knows both markers and nothing else", () => {
  const summary = { type: "user", isCompactSummary: true, parentUuid: null };
  const others = [{ type: "summary", summary: "title" }, { ...summary, isCompactSummary: "true" }];
  const got = [entries.compactBoundary(), summary, ...others, null].map(isCompactionMarker);
  assertEquals(got, [true, true, false, false, false]);
});

Deno.test("recordLineOf() reads markers and, of attachments, only hook answers as answers", () => {
  const header = "[lessons-reinject refresh 30 ref=0badc0de] Context refresh";
  const answer = recordLineOf(entries.refresh(header, "t"));
  assertEquals(answer?.kind === "answer" && answer.texts.includes(header), true);
  const other = entries.refresh(header, "t") as { attachment: { type: string } };
  other.attachment.type = "hook_success";
  assertEquals(recordLineOf(other)?.kind, "ran");
  other.attachment.type = "hook_blocking_error";
  assertEquals(recordLineOf(other), undefined);
  assertEquals(recordLineOf(entries.compactBoundary())?.kind, "compacted");
});

Deno.test("holdsToolUse() finds this call's entry even when its usage is all zero", () => {
  const zero = edit((e) => (e.message.usage.cache_read_input_tokens = 0));
  // No reading (a gateway's zeros: usageOf() refuses it, above), but the entry is there: no wait.
  assertEquals(holdsToolUse(zero, "toolu_a"), true);
  assertEquals(holdsToolUse(zero, "toolu_b"), false);
  assertEquals(holdsToolUse({ type: "user", message: { content: [] } }, "toolu_a"), false);
});

Deno.test("compactionOf() reads a boundary's trigger and preTokens", async (t) => {
  const boundary = (meta: unknown) => ({ ...entries.compactBoundary(), compactMetadata: meta });
  const auto = { trigger: "auto", preTokens: 167766 };
  const cases: [string, unknown, ReturnType<typeof compactionOf>][] = [
    ["auto", boundary({ ...auto, postTokens: 6977 }), auto],
    ["no trigger", boundary({ preTokens: 5 }), { trigger: undefined, preTokens: 5 }],
    ["no preTokens", boundary({ trigger: "manual" }), undefined],
    ["no metadata", boundary(undefined), undefined],
    ["a 1.0.x summary marker", { type: "user", isCompactSummary: true }, undefined],
  ];
  for (const [name, entry, expected] of cases) {
    await t.step(name, () => assertEquals(compactionOf(entry), expected));
  }
});

Deno.test("forkReferenceOf() reads a fork's first line as recorded by 2.1.328, and nothing else", () => {
  const fork = join(RECORDINGS, "recorded-2.1.328-fork-agent-ae76d425a14d91e5a.jsonl");
  const recorded = JSON.parse(Deno.readTextFileSync(fork).split("\n")[0]!);
  assertEquals(forkReferenceOf(recorded), {
    parentSessionId: "4b72c920-445c-453e-b371-aed56fd2d55f",
    parentLastUuid: "b35d6677-5e33-4108-9049-6ac1bae9a8c8",
  });
  assertEquals(forkReferenceOf({ ...recorded, parentLastUuid: undefined }), undefined);
  assertEquals(forkReferenceOf({ ...recorded, parentSessionId: "" }), undefined);
  assertEquals(forkReferenceOf({ ...recorded, type: "observer-ref" }), undefined);
  assertEquals(forkReferenceOf(base()), undefined);
  assertEquals(forkReferenceOf("fork-context-ref"), undefined);
});
