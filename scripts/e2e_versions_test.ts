import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { parseTap, render } from "./e2e_versions.ts";
import { baseEnv, ROOT } from "./project.ts";

/** What `deno test --reporter=tap` really prints for a passing, an ignored and a failing test. */
async function tapOf(source: string): Promise<string> {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-tap-" });
  try {
    Deno.writeTextFileSync(join(dir, "sample_test.ts"), source);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--reporter=tap", "sample_test.ts"],
      cwd: dir,
      env: baseEnv({ NO_COLOR: "1" }),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("parseTap() reads each scenario's outcome and a failure's message up to its diagnosis", async () => {
  const tap = await tapOf([
    'Deno.test("e2e: passes", () => {});',
    'Deno.test({ name: "e2e: ignored", ignore: true, fn: () => {} });',
    'Deno.test("e2e: fails", () => {',
    '  throw new Error("refreshed on toolu_c06,\\n  not toolu_c05\\n--- diagnosis\\nscenario folder: x");',
    "});",
  ].join("\n"));
  assertEquals(parseTap(tap), [
    { name: "e2e: passes", status: "ok" },
    { name: "e2e: ignored", status: "skipped" },
    { name: "e2e: fails", status: "failed", why: "Error: refreshed on toolu_c06, not toolu_c05" },
  ]);
});

Deno.test("render() counts a skipped scenario apart from a passed one, and names each failure", () => {
  const text = render([
    {
      version: "2.1.332",
      outcomes: [
        { name: "a", status: "ok" },
        { name: "b", status: "skipped" },
        { name: "c", status: "failed", why: "Error: late" },
      ],
      code: 1,
      seconds: 90,
      log: "/logs/e2e-2.1.332.log",
    },
    { version: "9.9.9", problem: "npm install failed", outcomes: [] },
    {
      version: "2.1.328",
      label: "2.1.328 #2 (load)",
      outcomes: [{ name: "a", status: "ok" }],
      code: 0,
      seconds: 80,
    },
  ], "# header");
  ok(text.includes("| 2.1.332 | 1 | 1 | 1 | 90 s |"), text);
  ok(text.includes("| 9.9.9 | - | - | - | not run: npm install failed |"), text);
  ok(text.includes("- FAILED: c\n  - Error: late"), text);
  ok(text.includes("- skipped: b"), text);
  ok(text.includes("| 2.1.328 #2 (load) | 1 | 0 | 0 | 80 s |"), text);
});

Deno.test("the weekly workflow runs e2e-versions on npm's newest release, with .ci/run's Deno", () => {
  const workflow = Deno.readTextFileSync(
    join(ROOT, ".github", "workflows", "newest-claude-code.yml"),
  );
  ok(/schedule:\s*\n\s*- cron: "[^"]+ \* \* \d"/.test(workflow), "scheduled weekly");
  ok(workflow.includes("npm view @anthropic-ai/claude-code version"), "npm's newest release");
  ok(/run: deno task e2e-versions .*"\$VERSION"/.test(workflow), "runs the suite on it");
  const deno = /DENO_VERSION: ([\d.]+)/.exec(workflow)?.[1];
  assertEquals(
    deno,
    /DENO_VERSION=([\d.]+)/.exec(Deno.readTextFileSync(join(ROOT, ".ci", "run")))?.[1],
  );
});
