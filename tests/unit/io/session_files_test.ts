/**
 * Where a session's transcripts are: transcriptOf() against what real Claude Code sends (a
 * subagent's PostToolUse payload carries the main session's transcript_path and an agent_id, but
 * no agent_transcript_path), and the search for an agent's file.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { findFileUnder, transcriptOf } from "../../../src/io/session_files.ts";
import { type HookPayload, isHookPayload } from "../../../src/schemas/payload.ts";
import { payload, sandbox } from "../../_helpers.ts";
import { folderWith } from "./_io.ts";

/** `raw`, checked as the hook checks its stdin. */
function parsed(raw: Record<string, unknown>): HookPayload {
  if (!isHookPayload(raw)) throw new Error(`not a hook payload: ${JSON.stringify(raw)}`);
  return raw;
}

/** 2.1.167's layout, `subagents/workflows/wf_<id>/agent-<id>.jsonl`, and one agent beside it. */
const tree = (root?: string) =>
  folderWith({ "workflows/wf_f5b3cd7b-844/agent-a1.jsonl": "", "agent-a2.jsonl": "" }, root);

Deno.test("transcriptOf() finds a subagent's own file beside the main transcript", () => {
  // Captured from a real subagent Bash call (tests/e2e, scenario "a subagent's tool calls ...").
  assertEquals(transcriptOf(parsed(payload("PostToolUse.subagent"))), {
    path: "/home/dev/.claude/projects/-home-dev-project/d82993bb-5608-420b-9592-346df209b201/" +
      "subagents/agent-a40a044a563825531.jsonl",
    sidechainFile: true,
  });
});

Deno.test("transcriptOf() handles every shape of payload", async (t) => {
  const main = "/home/dev/.claude/projects/-home-dev-project/s1.jsonl";
  const cases: [string, Record<string, unknown>, ReturnType<typeof transcriptOf>][] = [
    ["main thread", { transcript_path: main }, { path: main, sidechainFile: false }],
    ["main thread without a transcript", {}, undefined],
    [
      "agent_transcript_path wins when sent",
      { transcript_path: main, agent_id: "a1", agent_transcript_path: "/x/agent-a1.jsonl" },
      { path: "/x/agent-a1.jsonl", sidechainFile: true },
    ],
    [
      "transcript_path already the agent's file",
      { transcript_path: "/p/s1/subagents/agent-a1.jsonl", agent_id: "a1" },
      { path: "/p/s1/subagents/agent-a1.jsonl", sidechainFile: true },
    ],
    // Derived from the main transcript: the captured payload's test above.
    ["subagent without any path", { agent_id: "a1" }, undefined],
    // Session persistence off (2.1.332): an empty path is no transcript.
    ["an empty transcript_path", { transcript_path: "" }, undefined],
  ];
  for (const [name, fields, expected] of cases) {
    await t.step(name, () => {
      const input = parsed({ session_id: "s1", hook_event_name: "PostToolUse", ...fields });
      assertEquals(transcriptOf(input), expected);
    });
  }
});

Deno.test("findFileUnder() finds an agent's file at any depth, within its limits", async (t) => {
  const root = tree();
  const nested = join(root, "workflows", "wf_f5b3cd7b-844", "agent-a1.jsonl");
  const cases: [string, string, string, Parameters<typeof findFileUnder>[2]?, string?][] = [
    ["nested two levels down", root, "agent-a1.jsonl", {}, nested],
    ["beside the folders", root, "agent-a2.jsonl", {}, join(root, "agent-a2.jsonl")],
    ["deeper than maxDepth: not found", root, "agent-a1.jsonl", { maxDepth: 1 }],
    ["over the entry budget: not found", root, "agent-a1.jsonl", { maxEntries: 2 }],
    ["absent", root, "agent-zz.jsonl"],
    ["no folder at all", join(root, "missing"), "agent-a1.jsonl"],
  ];
  for (const [name, under, file, limits, found] of cases) {
    await t.step(name, () => assertEquals(findFileUnder(under, file, limits), found));
  }
});

Deno.test("transcriptOf() searches once, then uses the path the state remembered", async (t) => {
  const { dir } = sandbox();
  const root = tree(join(dir, "s1", "subagents"));
  const call = (agent: string) =>
    parsed({
      session_id: "s1",
      hook_event_name: "PostToolUse",
      transcript_path: join(dir, "s1.jsonl"),
      agent_id: agent,
    });
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
});

Deno.test("findFileUnder() finds agents whose ids are not hex, by their exact name only", () => {
  // Ids as 2.1.328 makes them: a + label + - + 16 hex, and agent hooks' hook-agent-<uuid>.
  const ids = [
    "acommentd41d8cd9-8f00b204e9800998",
    "acompact-3d346a6bf6f19caa",
    "hook-agent-5c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5",
  ];
  const forked = "workflows/wf_1/agent-afork-x-0123456789abcdef.jsonl";
  const files = [...ids.map((id) => `agent-${id}.jsonl`), forked];
  const root = folderWith(Object.fromEntries(files.map((name) => [name, ""])));
  const fork = join(root, forked);
  for (const id of ids) {
    assertEquals(findFileUnder(root, `agent-${id}.jsonl`), join(root, `agent-${id}.jsonl`));
  }
  assertEquals(findFileUnder(root, "agent-afork-x-0123456789abcdef.jsonl"), fork);
  // A prefix of a real id is another agent: never the summariser's file for "acompact".
  assertEquals(findFileUnder(root, "agent-acompact.jsonl"), undefined);
});
