/**
 * End-to-end: a config file in the installed plugin's data folder drives the hook, which Claude
 * Code gives `CLAUDE_PLUGIN_DATA`, and the commands run from a terminal, which have no such
 * variable, alike. Real Claude Code (the suite's pin) installs the plugin from a local folder, a
 * `-p` session with one tool call runs against the loopback API, then `status`, `preview`,
 * `doctor` and `statusline` are asked about that session through the plugin's `hooks/run`.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { backedSteps } from "../../scripts/loopback/backed_steps.ts";
import { spawnWithStdin } from "../_helpers.ts";
import { statuslineInput } from "../cli/_cli.ts";
import {
  claudeEnv,
  claudeForSuite,
  copyPlugin,
  installFromFolder,
  type Scenario,
  scenarioTest,
  turn,
} from "./harness.ts";

const bin = await claudeForSuite();

/** The folder the plugin is installed from, a terminal's environment, its config file. */
const installOf = (s: Scenario) => ({
  folder: join(s.root, "lessons-reinject"),
  env: { ...claudeEnv(s.home), TMPDIR: s.tmp, LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
  // In the folder Claude Code names CLAUDE_PLUGIN_DATA for this install.
  file: join(
    s.home,
    ".claude/plugins/data/lessons-reinject-lessons-reinject/lessons-reinject.jsonc",
  ),
});

scenarioTest(bin, {
  name:
    "e2e: a config file in the installed plugin's data folder drives the hook and the commands alike",
  // The installed plugin, not this repository, and no manifest: the marked CLAUDE.md section.
  pluginDirs: [],
  manifest: null,
  env: { LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
  files: { "work/CLAUDE.md": "<!-- reinject -->\nKeep commits small.\n<!-- /reinject -->\n" },
  script: { main: backedSteps([{ id: "toolu_cfg1", tokens: 62_000 }], 62_100, "Done.") },
  turns: async (s) => {
    await Deno.mkdir(join(s.work, ".git"));
    const { folder, env, file } = installOf(s);
    await copyPlugin(folder);
    await installFromFolder(bin, folder, env, s.work);
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeTextFile(file, '{ "thresholds": ["20k", "80k"] }\n');
    return await turn({}, "hi")(s);
  },
  // 62,000 tokens: past 20k, short of the defaults (30 % of any window).
  refreshes: [["toolu_cfg1", [20_000]]],
  then: async (s, _, refreshes) => {
    ok(refreshes[0]!.content.startsWith("[lessons-reinject refresh 20k "), refreshes[0]!.content);
    const { folder, env, file } = installOf(s);
    // A terminal's commands: the plugin's hooks/run, no CLAUDE_PLUGIN_DATA.
    const command = async (args: string[], stdin: unknown = "") =>
      (await spawnWithStdin(join(folder, "hooks", "run"), args, stdin, env, s.work)).stdout;
    const transcript = await s.transcriptPath();
    const status = JSON.parse(await command(["status", "--json"]));
    assertEquals(
      [status.transcript, status.configFile, status.thresholds, status.fired, status.next],
      [transcript, file, [20_000, 80_000], [20_000], 80_000],
    );
    const preview = JSON.parse(await command(["preview", "--json"]));
    assertEquals([preview.thresholds, preview.configFile], [
      [80_000],
      `${file} (installed plugin's data folder)`,
    ]);
    const doctor = JSON.parse(await command(["doctor", "--json"]));
    const config = doctor.checks.find((c: { name: string }) => c.name === "config file");
    ok(config.detail.startsWith(`${file} (installed plugin's data folder)`), config.detail);
    const line = await command(
      ["statusline"],
      statuslineInput({
        session_id: s.sessionId,
        transcript_path: transcript,
        cwd: s.work,
        workspace: { current_dir: s.work, project_dir: s.work },
        context_window: { used_percentage: 31, context_window_size: 200_000 },
      }),
    );
    ok(line.includes("next refresh at 80k"), line);
  },
});
