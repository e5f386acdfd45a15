/**
 * Where Claude Code runs a plugin whose marketplace was added from a local folder (`claude plugin
 * marketplace add ./dir`): from that folder, not from the cache copy `/plugin install` also makes
 * (measured with 2.1.328: `CLAUDE_PLUGIN_ROOT` is the folder). Read from Claude Code's own records.
 */
import { fieldOf } from "../schemas/guards.ts";
import { join } from "../core/path.ts";

/**
 * The folder Claude Code runs `plugin` from when an installed `plugin@<marketplace>` comes from
 * a `directory` marketplace, or undefined when none does. `pluginsDir` is `~/.claude/plugins`.
 *
 * @example
 * ```ts
 * await localPluginRoot("/home/dev/.claude/plugins", "lessons-reinject");
 * // "/home/dev/src/lessons-reinject" after `claude plugin marketplace add ~/src/lessons-reinject`
 * ```
 */
export async function localPluginRoot(
  pluginsDir: string,
  plugin: string,
): Promise<string | undefined> {
  const installed = fieldOf(await readJson(join(pluginsDir, "installed_plugins.json")), "plugins");
  const known = await readJson(join(pluginsDir, "known_marketplaces.json"));
  if (typeof installed !== "object" || installed === null) return undefined;
  for (const key of Object.keys(installed)) {
    const at = key.lastIndexOf("@");
    if (at < 0 || key.slice(0, at) !== plugin) continue;
    const source = fieldOf(fieldOf(known, key.slice(at + 1)), "source");
    const folder = fieldOf(source, "path");
    if (fieldOf(source, "source") !== "directory" || typeof folder !== "string") continue;
    const entries = fieldOf(
      await readJson(join(folder, ".claude-plugin", "marketplace.json")),
      "plugins",
    );
    if (!Array.isArray(entries)) continue;
    const sub = fieldOf(entries.find((e) => fieldOf(e, "name") === plugin), "source");
    // A plugin of a local marketplace lives at a relative path inside it ("./" for this one).
    if (typeof sub !== "string" || sub.startsWith("/") || /^[a-z]+:/i.test(sub)) continue;
    const root = join(folder, sub).replace(/[\\/]+\.?$/, "");
    if ((await Deno.stat(join(root, "hooks", "hooks.json")).catch(() => undefined))?.isFile) {
      return root;
    }
  }
  return undefined;
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return undefined;
  }
}
