/**
 * A throwaway Claude Code plugin for a measurement: hook commands that record what Claude Code
 * sends and does, loaded with `--plugin-dir` beside (or instead of) lessons-reinject.
 */
import { join } from "node:path";

/**
 * Makes the plugin `name` in a new temp folder: its `.claude-plugin/plugin.json`, `hooks`
 * (hooks.json's `hooks` object) and `files` written under `hooks/` (a `.sh` one executable).
 * Returns the folder.
 */
export async function probePlugin(
  name: string,
  hooks: Record<string, unknown>,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `lessons-probe-${name}-` });
  await Deno.mkdir(join(dir, ".claude-plugin"));
  await Deno.mkdir(join(dir, "hooks"));
  await Deno.writeTextFile(
    join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name, version: "0.0.0", description: `${name} (a measurement probe)` }),
  );
  for (const [file, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(dir, "hooks", file), text);
    if (file.endsWith(".sh")) await Deno.chmod(join(dir, "hooks", file), 0o755);
  }
  await Deno.writeTextFile(join(dir, "hooks", "hooks.json"), JSON.stringify({ hooks }));
  return dir;
}
