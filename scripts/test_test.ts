import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { DotCondenser, DOTS_PER_LINE } from "./test.ts";
import { baseEnv, ROOT } from "./project.ts";

function condensed(chunks: string[]): string {
  let out = "";
  const condenser = new DotCondenser((text) => out += text);
  for (const chunk of chunks) condenser.push(chunk);
  condenser.end();
  return out;
}

Deno.test("DotCondenser joins dot lines, keeps other lines, drops trailing blanks", () => {
  const dots = ".\n".repeat(DOTS_PER_LINE + 3);
  assertEquals(
    condensed([dots, ",\n!\n\n\n ERRORS \n\nboom\n\n", "ok | 1 passed | 0 failed (1s)\n\n"]),
    `${".".repeat(DOTS_PER_LINE)}\n...,!\n\n ERRORS \n\nboom\n\nok | 1 passed | 0 failed (1s)\n`,
  );
  // Chunks split anywhere, even inside a line.
  assertEquals(
    condensed([".", "\n.\nok | 2 pa", "ssed | 0 failed"]),
    "..\nok | 2 passed | 0 failed\n",
  );
});

Deno.test("deno task test's runner: no colour into a pipe, one line of dots, Deno's summary last", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-runner-" });
  try {
    Deno.writeTextFileSync(
      join(dir, "sample_test.ts"),
      [
        'Deno.test("passes", () => {});',
        'Deno.test({ name: "ignored", ignore: true, fn: () => {} });',
        'Deno.test("steps", async (t) => { await t.step("a", () => {}); await t.step("b", () => {}); });',
        'Deno.test("fails", () => { throw new Error("boom"); });',
      ].join("\n"),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-env",
        "--allow-run",
        join(ROOT, "scripts", "test.ts"),
        "sample_test.ts",
      ],
      cwd: dir,
      // No NO_COLOR here: the runner must see the pipe and ask for no colour itself.
      env: baseEnv({}),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 1, text);
    ok(!text.includes("\x1b["), `colour in a pipe: ${JSON.stringify(text)}`);
    const lines = text.trimEnd().split("\n");
    // Passed, ignored, a test and its two steps, failed: one line of dots.
    assertEquals(lines[0], ".,...!");
    ok(text.includes("fails => ./sample_test.ts") && text.includes("error: Error: boom"), text);
    assertEquals(
      lines.at(-1)?.replace(/\(\d+m?s\)$/, "(t)"),
      "FAILED | 2 passed (2 steps) | 1 failed | 1 ignored (t)",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
