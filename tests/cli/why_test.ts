/**
 * `why`: one answer to "why no refresh?", from the hook's own steps for its next call (the same
 * trace its debug line is made of) and from what Claude Code recorded of the hook's stderr in the
 * transcript (`hook_success` attachments), which it does not show on screen.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { WhyJsonSchema } from "../../src/cli/schemas.ts";
import { appendTranscript, entries, runHook } from "../_helpers.ts";
import { assertIncludes, cli, cliJson, cliOk, home, projectIn, sonnetCall } from "./_cli.ts";

/**
 * What Claude Code 2.1.328 records of a hook run of `toolUseId` that wrote `stderr`: the recorded
 * session's `hook_success` line (tests/_helpers.ts `entries.ran()`, at 2026-11-30 08:50:50Z).
 */
function hookSuccess(toolUseId: string, stderr: string): Record<string, unknown> {
  const line = entries.ran(toolUseId, "");
  return { ...line, attachment: { ...(line.attachment as Record<string, unknown>), stderr } };
}

Deno.test("why answers from the hook's recorded lines and its next call's trace: an unclosed marker", async () => {
  const box = home();
  const unclosed = "# Notes\n\n\n\n\n\n<!-- reinject -->\nKeep commits small.\n";
  const project = projectIn(box.dir, { "CLAUDE.md": unclosed });
  const claudeMd = join(project, "CLAUDE.md");
  const env = { ...box.env, LESSONS_MANIFEST_PATH: "", LESSONS_DEBUG: "1" };
  // The hook's call, its stderr recorded as Claude Code records it.
  const call = { ...sonnetCall(box.transcript, 62_000, "toolu_w1"), cwd: project };
  const first = await runHook(call, env);
  assertEquals(first.stdout, "");
  appendTranscript(box.transcript, [
    entries.toolResult("toolu_w1"),
    hookSuccess("toolu_w1", first.stderr),
  ]);

  const args = ["why", "--transcript", box.transcript];
  const why = await cliJson(WhyJsonSchema, args, env, "", project);
  assertIncludes(why.answer, "no refresh will come");
  assertIncludes(why.answer, `${claudeMd}:7: section never closed`);
  // What the transcript recorded: the hook's own debug line, word for word.
  assertEquals(why.recorded, [`2026-11-30 08:50:50Z PostToolUse:Bash: ${first.stderr.trim()}`]);
  assertIncludes(first.stderr, "no rules to restate");
  // Its next call says what `why` said it would: the same steps, the same line (less the tool's
  // name, which a call has and a dry run has not, and the wait for its own entry).
  const next = await runHook({ ...call, tool_use_id: "toolu_w2" }, env);
  const said = next.stderr.trim().replace("PostToolUse Bash:", "PostToolUse:")
    .replace(/ \(waited \d+ ms for its entry\)/, "");
  assertEquals(said, `lessons-reinject: ${why.nextCall}`);

  const wide = { ...env, COLUMNS: "200" };
  const human = await cli(args, wide, "", project);
  assertIncludes(human.stdout, "answer      no refresh will come: nothing to restate");
});

Deno.test("why, with nothing recorded, says how to have the hook write its line", async () => {
  const { env, ...box } = home();
  sonnetCall(box.transcript, 20_000, "toolu_q");
  const run = await cliOk(["why", "--transcript", box.transcript], { ...env, COLUMNS: "200" });
  assertIncludes(
    run.stdout,
    "answer      no refresh is due now: 10% is below the next threshold, 30%",
  );
  assertIncludes(
    run.stdout,
    "recorded    none: the hook writes a line per call only with LESSONS_DEBUG=1",
  );
});
