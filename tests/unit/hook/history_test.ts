import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { readForkReference } from "../../../src/hook/history.ts";
import { parentTranscriptOf } from "../../../src/io/session_files.ts";
import { RECORDINGS as FIXTURES, sandbox } from "../../_helpers.ts";

Deno.test("readForkReference() reads a fork's first line, and only a fork's", async (t) => {
  await t.step("the fork recorded from 2.1.328", () => {
    const fork = join(FIXTURES, "recorded-2.1.328-fork-agent-ae76d425a14d91e5a.jsonl");
    assertEquals(readForkReference(fork), {
      parentSessionId: "4b72c920-445c-453e-b371-aed56fd2d55f",
      parentLastUuid: "b35d6677-5e33-4108-9049-6ac1bae9a8c8",
    });
  });
  const { dir } = sandbox();
  await t.step("a main transcript or another subagent's file: none", () => {
    assertEquals(readForkReference(join(FIXTURES, "recorded-2.1.328-fork-main.jsonl")), undefined);
  });
  await t.step("missing, empty, a first line longer than the head, a partial first line", () => {
    const long = `{"type":"user","x":"${"y".repeat(5000)}"}\n`;
    for (const text of [undefined, "", long, `{"type":"fork-context-ref","agentId`]) {
      const file = join(dir, `${text?.length}.jsonl`);
      if (text !== undefined) Deno.writeTextFileSync(file, text);
      assertEquals(readForkReference(file), undefined, file);
    }
  });
});

Deno.test("parentTranscriptOf() finds the parent's transcript beside the fork's session folder", () => {
  const cases: [Parameters<typeof parentTranscriptOf>, string | undefined][] = [
    // The hook's call: the payload's transcript_path is the parent's.
    [["/p/s1/subagents/agent-a1.jsonl", "/p/s1.jsonl", "s1"], "/p/s1.jsonl"],
    // status --transcript on the fork's file: found from its place.
    [["/p/s1/subagents/agent-a1.jsonl", "/p/s1/subagents/agent-a1.jsonl", "s1"], "/p/s1.jsonl"],
    [["/p/s1/subagents/agent-a1.jsonl", undefined, "s1"], "/p/s1.jsonl"],
    // A nested folder under subagents/.
    [["/p/s1/subagents/forks/x/agent-a1.jsonl", undefined, "s1"], "/p/s1.jsonl"],
    // Another session's folder, or too deep: not guessed.
    [["/p/s2/subagents/agent-a1.jsonl", "/p/s2.jsonl", "s1"], undefined],
    [["/p/s1/a/b/c/d/agent-a1.jsonl", undefined, "s1"], undefined],
  ];
  for (const [args, expected] of cases) {
    assertEquals(parentTranscriptOf(...args), expected, JSON.stringify(args));
  }
});
