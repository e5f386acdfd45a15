/**
 * Numbers a person types, in the project's own words: every flag and setting follows one rule
 * (src/core/numbers.ts), and absurd figures are refused with the bounds named.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { PreviewJsonSchema, StatusJsonSchema } from "../../src/cli/schemas.ts";
import { assertIncludes, cli, cliJson, home, sonnetCall, statuslineInput } from "./_cli.ts";

Deno.test("preview --threshold: one rule, in the project's words, never the parser's", async (t) => {
  const { env } = home();
  const cases: [string[], string][] = [
    // thresholdOf()'s reasons (tests/unit/core/numbers_test.ts), whole, the value quoted first.
    [["--threshold", "0x10"], '"0x10": write it in decimal digits'],
    [["--threshold", "1e2"], '"1e2": write it out in digits, without an exponent'],
    [["--threshold", "250"], '"250": ambiguous: as a percentage it is over 99, as tokens under'],
    [["--thresold", "30"], "unknown option --thresold"],
    [["--json=yes"], "--json takes no value"],
    [["30"], 'unexpected argument "30": this command takes only options'],
  ];
  for (const [args, says] of cases) {
    await t.step(args.join(" "), async () => {
      const run = await cli(["preview", ...args], env);
      assertEquals(run.code, 2, run.stderr);
      assertIncludes(run.stderr, says);
      assert(!/ambiguous\.|--threshold=-XYZ|Did you forget|Unknown option/.test(run.stderr));
      assert(run.stderr.startsWith("lessons-reinject: "), run.stderr);
    });
  }
});

Deno.test("preview --threshold takes what the thresholds setting takes, and the text agrees", async () => {
  const { env, ...box } = home();
  // 61,000 tokens of a 200k window.
  sonnetCall(box.transcript, 61_000, "toolu_n");
  const t = ["--transcript", box.transcript];
  const at = (threshold: string) =>
    cliJson(PreviewJsonSchema, ["preview", "--threshold", threshold, ...t], env);
  const percent = await at("30%");
  assertEquals(percent.thresholds, [30]);
  assert(percent.text?.startsWith("[lessons-reinject refresh 30 ref="), percent.text ?? "");
  assertIncludes(percent.text ?? "", "Context refresh at 30% of the 200k-token context window");
  const tokens = await at("60k");
  assertEquals(tokens.thresholds, [60_000]);
  assert(tokens.text?.startsWith("[lessons-reinject refresh 60k ref="), tokens.text ?? "");
  assertIncludes(
    tokens.text ?? "",
    "Context refresh at 61,000 tokens (30% of the 200k-token context window)",
  );
});

Deno.test("absurd figures are refused with the bounds named, never shown", async (t) => {
  const box = home();
  await t.step("statusline: used_percentage 1e308", async () => {
    const input = statuslineInput({
      context_window: { used_percentage: 1e308, context_window_size: null, current_usage: null },
    });
    const run = await cli(["statusline"], box.env, input);
    assertEquals(run.code, 0);
    assert(!run.stdout.includes("e+308%"), run.stdout);
    assertIncludes(run.stdout, "used_percentage 1e+308 is not a percentage from 0 to 100");
  });
  await t.step("statusline: a window of 1 token", async () => {
    const input = statuslineInput({
      context_window: { used_percentage: 30, context_window_size: 1, current_usage: 60_000 },
    });
    const run = await cli(["statusline"], box.env, input);
    assertIncludes(run.stdout, "context_window_size 1 is not a window from 1,000 to 100,000,000");
  });
  await t.step("LESSONS_CONTEXT_WINDOW=1: refused, the evidence's window used", async () => {
    sonnetCall(box.transcript, 123_792, "toolu_a");
    const env = { ...box.env, LESSONS_CONTEXT_WINDOW: "1" };
    const json = await cliJson(StatusJsonSchema, ["status", "--transcript", box.transcript], env);
    assertEquals(json.window, 200_000);
    assert((json.percent ?? 0) < 100, String(json.percent));
    assertIncludes(json.problems.join("\n"), "from 1,000 to 100,000,000");
  });
  // A 23-digit window, described as too large: resolve_test's row "a 23-digit window".
});
