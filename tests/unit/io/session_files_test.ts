/**
 * transcriptOf() against what real Claude Code 2.1.328 sends: a subagent's PostToolUse payload
 * carries the main session's transcript_path and an agent_id, but no agent_transcript_path.
 */
import { deepStrictEqual } from "node:assert/strict";
import { transcriptOf } from "../../../src/io/session_files.ts";
import { HookPayloadSchema } from "../../../src/schemas/payload.ts";
import { payload } from "../../_helpers.ts";

function parsed(raw: Record<string, unknown>) {
  return HookPayloadSchema.parse(raw);
}

Deno.test("transcriptOf() finds a subagent's own file beside the main transcript", () => {
  // Captured from a real subagent Bash call (tests/e2e, scenario "a subagent's tool calls ...").
  const subagent = payload("PostToolUse.subagent");
  deepStrictEqual(transcriptOf(parsed(subagent)), {
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
    [
      "derived from the main transcript",
      { transcript_path: main, agent_id: "a1" },
      {
        path: "/home/dev/.claude/projects/-home-dev-project/s1/subagents/agent-a1.jsonl",
        sidechainFile: true,
      },
    ],
    ["subagent without any path", { agent_id: "a1" }, undefined],
    // Session persistence off (2.1.332): an empty path is no transcript.
    ["an empty transcript_path", { transcript_path: "" }, undefined],
  ];
  for (const [name, fields, expected] of cases) {
    await t.step(name, () => {
      const input = parsed({ session_id: "s1", hook_event_name: "PostToolUse", ...fields });
      deepStrictEqual(transcriptOf(input), expected);
    });
  }
});
