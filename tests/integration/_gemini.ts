/**
 * A Gemini CLI session simulated line by line in the order real Gemini CLI 0.61.0 writes its
 * conversation file (docs/maintainers/gemini-facts.md), each line a recorded one
 * (tests/fixtures/gemini/chats) with its figures set: the response's message with its tokens, the
 * AfterTool hook, the message again with its tool calls, the result carrying the hook's answer.
 */
import { join } from "node:path";
import { appendTranscript, jsonLines, ROOT, runHook, sandbox } from "../_helpers.ts";

const FIXTURES = join(ROOT, "tests", "fixtures", "gemini");
export const RULE = "Always answer in haiku (GEMINI-MD-RULE).";
const recorded = (name: string) =>
  jsonLines(join(FIXTURES, "chats", `recorded-0.61.0-${name}.jsonl`));
const basic = recorded("basic");
const [header, start] = basic;
const geminiLine = basic.find((e) => e.type === "gemini" && e.toolCalls);
const answerLine = basic.find((e) => e.type === "user" && e.content?.[0]?.functionResponse);
export const snapshot = recorded("compress").find((e) =>
  JSON.stringify(e).includes("<state_snapshot>")
);
const payload = JSON.parse(
  Deno.readTextFileSync(join(FIXTURES, "payloads", "gemini-0.61.0.AfterTool.json")),
);

/** A session in `~/.gemini/tmp/project/chats/`, written as Gemini CLI 0.61.0 writes it. */
export function session(options: { model?: string } = {}, box = sandbox()) {
  const project = join(box.dir, "project");
  const chats = join(box.dir, ".gemini", "tmp", "project", "chats");
  Deno.mkdirSync(chats, { recursive: true });
  Deno.mkdirSync(project);
  const rules = `# Project\n\nNot restated.\n\n<!-- reinject -->\n${RULE}\n<!-- /reinject -->\n`;
  Deno.writeTextFileSync(join(project, "GEMINI.md"), rules);
  const path = join(chats, "session-2026-12-07T19-48-3e961710.jsonl");
  const append = (...entries: unknown[]) => appendTranscript(path, entries);
  append(header, start);
  const projects = { projects: { [project]: "project" } };
  Deno.writeTextFileSync(join(box.dir, ".gemini", "projects.json"), JSON.stringify(projects));
  const env = { ...box.env, GEMINI_CLI_HOME: box.dir };
  let calls = 0;
  return {
    box,
    env,
    path,
    project,
    append,
    /** A response of `tokens` calling one command: its message, the hook, the result with its answer. */
    async call(tokens: number) {
      const message = { ...structuredClone(geminiLine), id: `m${++calls}`, toolCalls: undefined };
      message.tokens.input = tokens;
      if (options.model) message.model = options.model;
      append(message);
      const run = await runHook({ ...payload, transcript_path: path, cwd: project }, env);
      const result = structuredClone(answerLine);
      const response = result.content[0].functionResponse;
      response.id = `run_shell_command__call_${calls}`;
      response.response.output = "Output: ok" +
        (run.context === undefined ? "" : `\n\n<hook_context>${run.context}</hook_context>`);
      const toolCall = { ...geminiLine.toolCalls[0], id: response.id, result: result.content };
      append({ ...message, toolCalls: [toolCall] }, result);
      return run;
    },
  };
}
