/**
 * The real entry point on a Gemini CLI session: the conversation file written in Gemini CLI
 * 0.61.0's measured order, each line a recorded one (tests/fixtures/gemini/chats) with its figures
 * set, and the AfterTool payload it sent. The same schedule, once each, with GEMINI.md's marked
 * rules; a compression's restatement on the next call; a lost state file.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runHook, sandbox } from "../_helpers.ts";

const FIXTURES = join(ROOT, "tests", "fixtures", "gemini");
const RULE = "Always answer in haiku (GEMINI-MD-RULE).";
const recorded = (name: string) =>
  Deno.readTextFileSync(join(FIXTURES, "chats", `recorded-0.61.0-${name}.jsonl`)).split("\n")
    .filter((l) => l !== "").map((l) => JSON.parse(l));
const basic = recorded("basic");
const [header, start] = basic;
const geminiLine = basic.find((e) => e.type === "gemini" && e.toolCalls);
const answerLine = basic.find((e) => e.type === "user" && e.content?.[0]?.functionResponse);
const snapshot = recorded("compress").find((e) => JSON.stringify(e).includes("<state_snapshot>"));
const payload = JSON.parse(
  Deno.readTextFileSync(join(FIXTURES, "payloads", "gemini-0.61.0.AfterTool.json")),
);

const labelOf = (text: string | undefined) => text?.match(/^\[lessons-reinject refresh (\S+)/)?.[1];

/** A session in `~/.gemini/tmp/project/chats/`, written as Gemini CLI 0.61.0 writes it. */
function session(options: { model?: string } = {}) {
  const box = sandbox();
  const project = join(box.dir, "project");
  const chats = join(box.dir, ".gemini", "tmp", "project", "chats");
  Deno.mkdirSync(chats, { recursive: true });
  Deno.mkdirSync(project);
  const rules = `# Project\n\nNot restated.\n\n<!-- reinject -->\n${RULE}\n<!-- /reinject -->\n`;
  Deno.writeTextFileSync(join(project, "GEMINI.md"), rules);
  const path = join(chats, "session-2026-12-07T19-48-3e961710.jsonl");
  const append = (...entries: unknown[]) =>
    Deno.writeTextFileSync(path, entries.map((e) => JSON.stringify(e) + "\n").join(""), {
      append: true,
    });
  append(header, start);
  const env = { ...box.env, GEMINI_CLI_HOME: box.dir };
  let calls = 0;
  return {
    box,
    env,
    append,
    /** A response of `tokens` calling one command: its message, the hook, the result with its answer. */
    async call(tokens: number) {
      const message = { ...structuredClone(geminiLine), id: `m${++calls}`, toolCalls: undefined };
      message.tokens.input = tokens;
      if (options.model) message.model = options.model;
      append(message);
      const run = await runHook({ ...payload, transcript_path: path, cwd: project }, env);
      const result = structuredClone(answerLine);
      result.content[0].functionResponse.response.output = "Output: ok" +
        (run.context === undefined ? "" : `\n\n<hook_context>${run.context}</hook_context>`);
      append({ ...message, toolCalls: [{ id: `c${calls}` }] }, result);
      return run;
    },
  };
}

Deno.test("Gemini CLI: 60k, 104k and 140k refresh once each, with GEMINI.md's rules", async () => {
  const s = session();
  const labels: (string | undefined)[] = [];
  let first: string | undefined;
  for (const tokens of [40_000, 61_000, 80_000, 106_000, 120_000, 142_000, 150_000]) {
    const run = await s.call(tokens);
    assertEquals([run.code, run.stderr], [0, ""]);
    labels.push(labelOf(run.context));
    first ??= run.context;
  }
  assertEquals(labels, [undefined, "30", undefined, "52", undefined, "70", undefined]);
  ok(first?.includes("of the 1049k-token context window"), first?.slice(0, 160));
  ok(first?.includes(RULE) && !first.includes("Not restated."), first);
  ok(first?.includes("## Non-Negotiable Directives"), "the manifest's lessons");
});

Deno.test("Gemini CLI: on Gemma 4's 256,000 window the schedule is its percentages", async () => {
  const s = session({ model: "gemma-4-31b-it" });
  assertEquals(labelOf((await s.call(70_000)).context), "30"); // 27 % of 256k: 60k crossed
  assertEquals(labelOf((await s.call(120_000)).context), "52"); // 104k crossed
});

Deno.test("Gemini CLI: after a compression the next call restates once, and 30 % comes again", async () => {
  const s = session();
  assertEquals(labelOf((await s.call(61_000)).context), "30");
  s.append(snapshot);
  const restated = await s.call(20_000);
  assertEquals(labelOf(restated.context), "compact");
  // Gemini keeps GEMINI.md in the compressed history (gemini-facts.md): the manifest is restated.
  ok(restated.context?.includes("## Non-Negotiable Directives"), restated.context);
  ok(!restated.context?.includes(RULE), restated.context);
  assertEquals((await s.call(30_000)).context, undefined);
  assertEquals(labelOf((await s.call(61_000)).context), "30");
});

Deno.test("Gemini CLI: with the state file lost, refreshes in the file are not made again", async () => {
  const s = session();
  assertEquals(labelOf((await s.call(61_000)).context), "30");
  Deno.removeSync(s.box.stateDir, { recursive: true });
  assertEquals((await s.call(64_000)).context, undefined);
  assertEquals(labelOf((await s.call(106_000)).context), "52");
});
