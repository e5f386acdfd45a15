import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { VersionJsonSchema } from "../../src/cli/schemas.ts";
import { baseEnv, MAIN_COMMAND } from "../_helpers.ts";
import { assertIncludes as assertStringIncludes, cli, parsedAs, ROOT } from "./_cli.ts";

const COMMANDS = ["status", "preview", "demo", "doctor", "statusline"];

Deno.test("--version prints the version from deno.json", async () => {
  const run = await cli(["--version"]);
  assertEquals(run.code, 0);
  assertEquals(run.stdout, `lessons-reinject ${denoJson.version}\n`);
  const json = await cli(["--version", "--json"]);
  assertEquals(parsedAs(VersionJsonSchema, json.stdout).version, denoJson.version);
});

Deno.test("--help lists every command", async () => {
  const run = await cli(["--help"]);
  assertEquals(run.code, 0);
  for (const command of COMMANDS) assertMatch(run.stdout, new RegExp(`^  ${command} `, "m"));
  // Its words, wherever the lines break (tests/cli/help_test.ts checks the wrapping).
  const said = run.stdout.replace(/\s+/g, " ");
  assertStringIncludes(said, "run as the hook");
  // Both kinds of rules it restates, not only lessons-learned's.
  assertStringIncludes(said, "lessons-learned plugin's directives and protocols");
  assertStringIncludes(said, "CLAUDE.md you mark between <!-- reinject --> and <!-- /reinject -->");
  // Every sentence ends: how to get one command's help is said whole.
  assertStringIncludes(said, "(`lessons-reinject <command> --help` explains one command)");
  for (const line of run.stdout.split("\n")) assert(!/ for a command's$/.test(line), line);
});

Deno.test("each command has --help", async (t) => {
  for (const command of COMMANDS) {
    await t.step(command, async () => {
      const run = await cli([command, "--help"]);
      assertEquals(run.code, 0);
      assert(run.stdout.startsWith(`Usage: lessons-reinject ${command}`), run.stdout);
      assertStringIncludes(run.stdout, "--json");
      const viaHelp = await cli(["help", command]);
      assertEquals(viaHelp.stdout, run.stdout);
    });
  }
});

Deno.test("an unknown command or flag is a usage error (exit 2)", async () => {
  const unknown = await cli(["frobnicate"]);
  assertEquals(unknown.code, 2);
  assertStringIncludes(unknown.stderr, 'unknown command "frobnicate"');
  assertEquals(unknown.stdout, "");
  const flag = await cli(["status", "--bogus"]);
  assertEquals(flag.code, 2);
  assertStringIncludes(flag.stderr, "--bogus");
  assertStringIncludes(flag.stderr, "Usage: lessons-reinject status");
});

Deno.test({
  name: "run by hand on a terminal, the hook names commands that work from a checkout",
  ignore: Deno.build.os !== "linux", // util-linux script(1) gives it a terminal as stdin
  async fn() {
    const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
    const out = await new Deno.Command("script", {
      args: ["-qec", MAIN_COMMAND.map(quote).join(" "), "/dev/null"],
      env: baseEnv({}),
      clearEnv: true,
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assertStringIncludes(text, "it reads a hook payload on stdin");
    assertStringIncludes(text, "Try `deno task hook --help` or `deno task hook demo`.");
  },
});
