/**
 * End-to-end: a config file in the installed plugin's data folder drives the hook, which Claude
 * Code gives `CLAUDE_PLUGIN_DATA`, and the commands run from a terminal, which have no such
 * variable, alike. Real Claude Code (the suite's pin) installs the plugin from a local folder, a
 * `-p` session with one tool call runs against the loopback API, then `status`, `preview`,
 * `doctor` and `statusline` are asked about that session through the plugin's `hooks/run`.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { backedSteps } from "../../scripts/loopback/backed_steps.ts";
import { spawnWithStdin } from "../_helpers.ts";
import { statuslineInput } from "../cli/_cli.ts";
import {
  claudeEnv,
  claudeForSuite,
  copyPlugin,
  installFromFolder,
  refreshesIn,
  runTurn,
  scenarioTest,
  SONNET,
} from "./harness.ts";

const bin = await claudeForSuite();

scenarioTest(bin, {
  name:
    "e2e: a config file in the installed plugin's data folder drives the hook and the commands alike",
  // The installed plugin, not this repository, and no manifest: the marked CLAUDE.md section.
  pluginDirs: [],
  manifest: null,
  env: { LESSONS_REINJECT_NO_AUTO_INSTALL: "1" },
  files: { "work/CLAUDE.md": "<!-- reinject -->\nKeep commits small.\n<!-- /reinject -->\n" },
  script: { main: backedSteps([{ id: "toolu_cfg1", tokens: 62_000 }], 62_100, "Done.") },
  body: async (s) => {
    await Deno.mkdir(join(s.work, ".git"));
    const folder = join(s.root, "lessons-reinject");
    await copyPlugin(folder);
    const env = { ...claudeEnv(s.home), TMPDIR: s.tmp, LESSONS_REINJECT_NO_AUTO_INSTALL: "1" };
    await installFromFolder(bin, folder, env, s.work);
    // The folder Claude Code names CLAUDE_PLUGIN_DATA for this install.
    const data = join(s.home, ".claude", "plugins", "data", "lessons-reinject-lessons-reinject");
    await Deno.mkdir(data, { recursive: true });
    const file = join(data, "lessons-reinject.jsonc");
    // 62,000 tokens: past 20k, short of the defaults (30 % of any window).
    await Deno.writeTextFile(file, '{ "thresholds": ["20k", "80k"] }\n');

    await runTurn(s, "hi", { model: SONNET });
    const refreshes = refreshesIn(await s.lines());
    assertEquals(refreshes.length, 1, "the hook refreshed once");
    ok(refreshes[0]!.content.startsWith("[lessons-reinject refresh 20k "), refreshes[0]!.content);

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
