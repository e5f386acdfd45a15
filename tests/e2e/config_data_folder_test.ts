/**
 * End-to-end: a config file in the installed plugin's data folder drives the hook, which Claude
 * Code gives `CLAUDE_PLUGIN_DATA`, and the commands run from a terminal, which have no such
 * variable, alike. Real Claude Code (the suite's pin) installs the plugin from a local folder, a
 * `-p` session with one tool call runs against the loopback API, then `status`, `preview`,
 * `doctor` and `statusline` are asked about that session through the plugin's `hooks/run`.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { startApiStub } from "../../scripts/loopback/api_stub.ts";
import { baseEnv, ROOT } from "../_helpers.ts";
import { claudeForSuite, readJsonl, refreshesIn } from "./harness.ts";

const bin = await claudeForSuite();
const ignore = bin === "" || Deno.build.os === "windows";

/** What a marketplace install copies: the plugin without .git and without dist/. */
const PLUGIN_FILES = [".claude-plugin", "hooks", "src", "deno.json", "deno.lock"];

async function run(
  program: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  stdin = "",
) {
  const child = new Deno.Command(program, {
    args,
    cwd,
    env: baseEnv(env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test({
  name:
    "e2e: a config file in the installed plugin's data folder drives the hook and the commands alike",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "lessons-e2e-config-" }));
  const stub = startApiStub({
    main: [
      {
        usage: { input_tokens: 62_000 },
        tools: [{ name: "Bash", input: { command: "echo hi" }, id: "toolu_cfg1" }],
      },
      { usage: { input_tokens: 62_100 }, text: "Done." },
    ],
  });
  try {
    const home = join(root, "home");
    const work = join(root, "work");
    const folder = join(root, "lessons-reinject");
    for (const dir of [home, join(work, ".git"), folder, join(home, "tmp")]) {
      await Deno.mkdir(dir, { recursive: true });
    }
    await Deno.writeTextFile(
      join(work, "CLAUDE.md"),
      "<!-- reinject -->\nKeep commits small.\n<!-- /reinject -->\n",
    );
    const cp = await new Deno.Command("cp", {
      args: ["-R", ...PLUGIN_FILES.map((f) => join(ROOT, f)), folder],
    }).output();
    ok(cp.success);
    const env = {
      HOME: home,
      TMPDIR: join(home, "tmp"),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      LESSONS_REINJECT_NO_AUTO_INSTALL: "1",
    };
    for (
      const args of [["marketplace", "add", folder], [
        "install",
        "lessons-reinject@lessons-reinject",
      ]]
    ) {
      const done = await run(bin, ["plugin", ...args], env, work);
      assertEquals(done.code, 0, done.stdout + done.stderr);
    }
    // The folder Claude Code names CLAUDE_PLUGIN_DATA for this install.
    const data = join(home, ".claude", "plugins", "data", "lessons-reinject-lessons-reinject");
    await Deno.mkdir(data, { recursive: true });
    const file = join(data, "lessons-reinject.jsonc");
    // 62,000 tokens: past 20k, short of the defaults (30 % of any window).
    await Deno.writeTextFile(file, '{ "thresholds": ["20k", "80k"] }\n');

    const session = await run(
      bin,
      [
        "-p",
        "hi",
        "--output-format",
        "json",
        "--allowedTools",
        "Bash",
        "--model",
        "claude-sonnet-4-6",
      ],
      { ...env, ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: "sk-ant-test" },
      work,
    );
    assertEquals(session.code, 0, session.stderr);
    const sessionId = String(JSON.parse(session.stdout).session_id);
    const transcript = join(
      home,
      ".claude",
      "projects",
      work.replace(/[^a-zA-Z0-9]/g, "-"),
      `${sessionId}.jsonl`,
    );
    const refreshes = refreshesIn(await readJsonl(transcript));
    assertEquals(refreshes.length, 1, "the hook refreshed once");
    ok(refreshes[0]!.content.startsWith("[lessons-reinject refresh 20k "), refreshes[0]!.content);

    // A terminal's commands: the plugin's hooks/run, no CLAUDE_PLUGIN_DATA.
    const hooksRun = join(folder, "hooks", "run");
    const status = JSON.parse((await run(hooksRun, ["status", "--json"], env, work)).stdout);
    assertEquals(
      [status.transcript, status.configFile, status.thresholds, status.fired, status.next],
      [transcript, file, [20_000, 80_000], [20_000], 80_000],
    );
    const preview = JSON.parse((await run(hooksRun, ["preview", "--json"], env, work)).stdout);
    assertEquals([preview.thresholds, preview.configFile], [
      [80_000],
      `${file} (installed plugin's data folder)`,
    ]);
    const doctor = JSON.parse((await run(hooksRun, ["doctor", "--json"], env, work)).stdout);
    const config = doctor.checks.find((c: { name: string }) => c.name === "config file");
    ok(config.detail.startsWith(`${file} (installed plugin's data folder)`), config.detail);
    const statusLine = {
      session_id: sessionId,
      transcript_path: transcript,
      cwd: work,
      workspace: { current_dir: work, project_dir: work },
      context_window: { used_percentage: 31, context_window_size: 200_000 },
    };
    const line = await run(hooksRun, ["statusline"], env, work, JSON.stringify(statusLine));
    ok(line.stdout.includes("next refresh at 80k"), line.stdout);
  } finally {
    await stub.close();
    await Deno.remove(root, { recursive: true });
  }
});
