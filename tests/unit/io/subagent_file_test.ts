import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { findFileUnder, transcriptOf } from "../../../src/io/session_files.ts";

function tree(): string {
  const root = Deno.makeTempDirSync({ prefix: "lessons-subagents-" });
  // 2.1.167's layout: subagents/workflows/wf_<id>/agent-<id>.jsonl
  Deno.mkdirSync(join(root, "workflows", "wf_f5b3cd7b-844"), { recursive: true });
  Deno.writeTextFileSync(join(root, "workflows", "wf_f5b3cd7b-844", "agent-a1.jsonl"), "");
  Deno.writeTextFileSync(join(root, "agent-a2.jsonl"), "");
  return root;
}

Deno.test("findFileUnder() finds an agent's file at any depth, within its limits", async (t) => {
  const root = tree();
  try {
    const nested = join(root, "workflows", "wf_f5b3cd7b-844", "agent-a1.jsonl");
    await t.step("nested two levels down", () => {
      assertEquals(findFileUnder(root, "agent-a1.jsonl"), nested);
    });
    await t.step("beside the folders", () => {
      assertEquals(findFileUnder(root, "agent-a2.jsonl"), join(root, "agent-a2.jsonl"));
    });
    await t.step("deeper than maxDepth: not found", () => {
      assertEquals(findFileUnder(root, "agent-a1.jsonl", { maxDepth: 1 }), undefined);
    });
    await t.step("over the entry budget: not found", () => {
      assertEquals(findFileUnder(root, "agent-a1.jsonl", { maxEntries: 2 }), undefined);
    });
    await t.step("absent, or no folder at all", () => {
      assertEquals(findFileUnder(root, "agent-zz.jsonl"), undefined);
      assertEquals(findFileUnder(join(root, "missing"), "agent-a1.jsonl"), undefined);
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("transcriptOf() searches once, then uses the path the state remembered", async (t) => {
  const base = Deno.makeTempDirSync({ prefix: "lessons-session-" });
  const root = join(base, "s1", "subagents");
  Deno.mkdirSync(root, { recursive: true });
  Deno.removeSync(root, { recursive: true });
  Deno.renameSync(tree(), root);
  const call = (agent: string) => ({
    session_id: "s1",
    hook_event_name: "PostToolUse",
    transcript_path: join(base, "s1.jsonl"),
    agent_id: agent,
  });
  try {
    const nested = join(root, "workflows", "wf_f5b3cd7b-844", "agent-a1.jsonl");
    await t.step("not at the expected place: found and to be remembered", () => {
      assertEquals(transcriptOf(call("a1")), { path: nested, sidechainFile: true, found: nested });
    });
    await t.step("remembered: used without a search", () => {
      assertEquals(transcriptOf(call("a1"), nested), { path: nested, sidechainFile: true });
    });
    await t.step("at the expected place (2.1.328): no search", () => {
      assertEquals(transcriptOf(call("a2")), {
        path: join(root, "agent-a2.jsonl"),
        sidechainFile: true,
      });
    });
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("findFileUnder() finds agents whose ids are not hex, by their exact name only", () => {
  const root = Deno.makeTempDirSync({ prefix: "lessons-subagents-" });
  try {
    // Ids as 2.1.328 makes them: a + label + - + 16 hex, and agent hooks' hook-agent-<uuid>.
    const ids = [
      "acommentd41d8cd9-8f00b204e9800998",
      "acompact-3d346a6bf6f19caa",
      "hook-agent-5c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5",
    ];
    Deno.mkdirSync(join(root, "workflows", "wf_1"), { recursive: true });
    for (const id of ids) Deno.writeTextFileSync(join(root, `agent-${id}.jsonl`), "");
    Deno.writeTextFileSync(
      join(root, "workflows", "wf_1", "agent-afork-x-0123456789abcdef.jsonl"),
      "",
    );
    for (const id of ids) {
      assertEquals(findFileUnder(root, `agent-${id}.jsonl`), join(root, `agent-${id}.jsonl`));
    }
    assertEquals(
      findFileUnder(root, "agent-afork-x-0123456789abcdef.jsonl"),
      join(root, "workflows", "wf_1", "agent-afork-x-0123456789abcdef.jsonl"),
    );
    // A prefix of a real id is another agent: never the summariser's file for "acompact".
    assertEquals(findFileUnder(root, "agent-acompact.jsonl"), undefined);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
