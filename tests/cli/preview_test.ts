import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { PreviewJsonSchema } from "../../src/cli/schemas.ts";
import { runHook } from "../_helpers.ts";
import { assertIncludes, cli, cliJson, cliOk, home, ROOT, sonnetCall, unwrap } from "./_cli.ts";

Deno.test("preview prints the exact text the hook's next call would inject, and its accounting", async () => {
  const { env, ...box } = home();
  // 90 % of a 200k window, nothing fired yet: the next call names every threshold, at 90 %.
  const call = sonnetCall(box.transcript, 180_000, "toolu_p");
  const args = ["preview", "--transcript", box.transcript];
  const run = await cliOk(args, env);
  assert(run.stdout.startsWith("[lessons-reinject refresh 30,52,70 ref="), run.stdout);
  assertIncludes(run.stdout, "Context refresh at 90% of the 200k-token context window");
  assertIncludes(run.stdout, "## Non-Negotiable Directives");
  assertIncludes(run.stdout, "of 9,500 characters (within the budget)");
  assertIncludes(run.stdout, "whole        ");
  // The sample manifest's lesson for another project is named, and why.
  assertIncludes(run.stdout, "left out     other-project-only-o5p6 (scoped to another project)");
  // Its numbers as every report writes them: a 200k window, 180,000 tokens; never 180000.
  // After the rule line (the refresh's own "---" before its protocols is three dashes).
  const accounting = unwrap(run.stdout.split(/\n-{4,}\n/)[1] ?? "");
  assertIncludes(accounting, "90% of 200k (");
  assertIncludes(accounting, ", 180,000 tokens from ");
  // Paths left out: a temporary folder's random name may hold five digits in a row.
  assert(!/\d{5}/.test(accounting.replace(/\/\S+/g, "")), accounting);

  // The hook's next call at that reading injects exactly that text.
  const exact = await cliJson(PreviewJsonSchema, args, env);
  const hook = await runHook({ ...call, cwd: ROOT }, env);
  assertEquals(hook.context, exact.text);
  assert(run.stdout.startsWith(exact.text ?? "?"));

  // Everything has fired now: preview says nothing is due, and still shows --threshold's text.
  const after = await cliOk(args, env);
  assertIncludes(after.stdout, "nothing is due in this context: ");
  assertIncludes(unwrap(after.stdout, 0), "every threshold has fired in this context");
  // Its hint names a command that works here, in a checkout.
  assertIncludes(unwrap(after.stdout, 0), "(`deno task hook preview --threshold N` shows the text");
  // The note fits the width, wrapped at spaces.
  const narrow = await cli(args, { ...env, COLUMNS: "60" });
  assert(narrow.stdout.split("\n").every((line) => line.length <= 60), narrow.stdout);
  assertEquals(narrow.stdout.replace(/\s+/g, " "), after.stdout.replace(/\s+/g, " "));
  assert(!/\d{5}/.test(after.stdout), after.stdout);

  const json = await cliJson(PreviewJsonSchema, [...args, "--threshold", "52"], env);
  assertIncludes((await cliOk([...args, "--threshold", "52"], env)).stdout, "due          no: ");
  const text = json.text ?? "";
  const { thresholds, due, chars, budget } = json;
  assertEquals([thresholds, due, chars, budget], [[52], false, text.length, 9500]);
  assert(text.startsWith("[lessons-reinject refresh 52 ref="), text);
  assertIncludes(text, "at 90% of the 200k-token context window");
  assert(json.whole.length > 0);
});

// With no state file (the hook recovers its refreshes from the transcript), preview agrees with
// the hook's next call, and shows the next threshold's text: cli/agreement_test.ts, on every
// real transcript.
