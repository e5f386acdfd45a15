/**
 * No work at start-up that a non-firing call does not need: importing the hook's modules touches
 * no file and no environment variable, and a call that does not fire never reads the manifest.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  entries,
  HOOK_PERMISSIONS,
  MAIN,
  payload,
  ROOT,
  SAMPLE_MANIFEST,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../../_helpers.ts";

function run(args: string[], stdin: unknown, env: Record<string, string>) {
  return spawnWithStdin(Deno.execPath(), args, stdin, env);
}

Deno.test("importing the hook's modules needs no permission: no I/O, no env at import", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lessons-startup-" });
  try {
    const script = join(dir, "import_only.ts");
    await Deno.writeTextFile(
      script,
      `import ${JSON.stringify(pathToFileURL(MAIN).href)};\n` +
        `import ${JSON.stringify(pathToFileURL(join(ROOT, "src", "hook.ts")).href)};\n`,
    );
    // No --allow-* at all: any file, env or net access at import time would fail the run.
    const result = await run(
      ["run", "--quiet", "--no-prompt", "--config", join(ROOT, "deno.json"), script],
      {},
      {},
    );
    assertEquals(result.code, 0, result.stderr);
    assertEquals(result.stdout, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a non-firing call never reads the manifest; a firing one does", async () => {
  const box = sandbox();
  try {
    writeTranscript(box.transcript, [entries.assistant(50_000, ["toolu_1"])]);
    const call = payload("PostToolUse.Bash", { transcript_path: box.transcript });
    // The manifest is off limits: reading it (even a stat) fails with NotCapable.
    const args = [
      "run",
      "--quiet",
      "--no-prompt",
      ...HOOK_PERMISSIONS,
      `--deny-read=${SAMPLE_MANIFEST}`,
      MAIN,
    ];
    const env = { ...box.env, LESSONS_DEBUG: "1", LESSONS_CONTEXT_WINDOW: "200000" };

    const below = await run(args, call, { ...env, LESSONS_REINJECT_THRESHOLDS: "30,52,70" });
    assertEquals(below.code, 0);
    assertEquals(below.stdout, "");
    assert(below.stderr.includes("below the next threshold, 30%"), below.stderr);
    assert(!below.stderr.includes("manifest"), below.stderr);

    // Control: the same call crossing a threshold does try the manifest, and is refused.
    const crossing = await run(args, call, { ...env, LESSONS_REINJECT_THRESHOLDS: "20" });
    assertEquals(crossing.code, 0);
    assertEquals(crossing.stdout, "");
    assert(crossing.stderr.includes("manifest"), crossing.stderr);
  } finally {
    Deno.removeSync(box.dir, { recursive: true });
  }
});

Deno.test("the bundle imports no node: built-in at start-up", async () => {
  // deno bundle hoists static imports of built-ins to the top of its one file, even from modules
  // only reached through import(): one node: import there loads Deno's Node layer on every call.
  const dir = await Deno.makeTempDir({ prefix: "lessons-startup-" });
  try {
    const out = join(dir, "bundle.js");
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", MAIN, "-o", out],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(built.code, 0, new TextDecoder().decode(built.stderr));
    const hoisted = (await Deno.readTextFile(out)).split("\n")
      .filter((line) => /^(import\b|\}\s*from\b).*["']node:/.test(line));
    assertEquals(hoisted, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
