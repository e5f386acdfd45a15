import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";

const decoder = new TextDecoder();

/** Runs a maintainers' script as `deno task` does, without its task's name. */
async function runScript(script: string, ...args: string[]) {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", script, ...args],
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await command.output();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

const SCRIPTS = [
  ["skeleton", "scripts/skeleton.ts"],
  ["measure-growth", "scripts/measure/measure_unseen_growth.ts"],
  ["bench", "bench/bench.ts"],
] as const;

Deno.test("scriptArgs() prints the usage for --help and one line for a flag it does not know", async (t) => {
  for (const [name, script] of SCRIPTS) {
    await t.step(`${name} --help`, async () => {
      const help = await runScript(script, "--help");
      assertEquals(help.code, 0);
      assert(help.stdout.includes("deno task"), help.stdout);
      assertEquals(help.stderr, "");
    });
    await t.step(`${name} --bogus`, async () => {
      const wrong = await runScript(script, "--bogus");
      assertEquals(wrong.code, 2);
      const [first] = wrong.stderr.split("\n");
      assert(first?.startsWith(`${name}: Unknown option '--bogus'`), wrong.stderr);
      assert(!/^\s+at /m.test(wrong.stderr), wrong.stderr);
    });
  }
});
