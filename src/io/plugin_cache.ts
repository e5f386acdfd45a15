/** Where Claude Code keeps a plugin: its cache, or a local marketplace's folder. */
import { fieldOf } from "../schemas/guards.ts";
import { join } from "../core/path.ts";

/** The install of `plugin` whose `relativePath` file was modified last, if any. */
export function newestInstalledFile(
  pluginsDir: string,
  plugin: string,
  relativePath: string[],
): { root: string; path: string } | undefined {
  const cache = join(pluginsDir, "cache");
  let best: { root: string; path: string; mtime: number } | undefined;
  for (const marketplace of folders(cache)) {
    for (const version of folders(join(cache, marketplace, plugin))) {
      const root = join(cache, marketplace, plugin, version);
      const path = join(root, ...relativePath);
      const mtime = statOf(path)?.mtime?.getTime();
      if (mtime !== undefined && (!best || mtime > best.mtime)) best = { root, path, mtime };
    }
  }
  return best && { root: best.root, path: best.path };
}

/**
 * The folder `plugin` runs from when installed from a `directory` marketplace (2.1.328:
 * `CLAUDE_PLUGIN_ROOT` is that folder, not the cache copy), from the records in `pluginsDir`.
 */
export function localPluginRoot(pluginsDir: string, plugin: string): string | undefined {
  const installed = fieldOf(readJson(join(pluginsDir, "installed_plugins.json")), "plugins");
  const known = readJson(join(pluginsDir, "known_marketplaces.json"));
  if (typeof installed !== "object" || installed === null) return undefined;
  for (const key of Object.keys(installed)) {
    const at = key.lastIndexOf("@");
    if (at < 0 || key.slice(0, at) !== plugin) continue;
    const source = fieldOf(fieldOf(known, key.slice(at + 1)), "source");
    const folder = fieldOf(source, "path");
    if (fieldOf(source, "source") !== "directory" || typeof folder !== "string") continue;
    const entries = fieldOf(
      readJson(join(folder, ".claude-plugin", "marketplace.json")),
      "plugins",
    );
    if (!Array.isArray(entries)) continue;
    const sub = fieldOf(entries.find((e) => fieldOf(e, "name") === plugin), "source");
    // A plugin of a local marketplace lives at a relative path inside it ("./" for this one).
    if (typeof sub !== "string" || sub.startsWith("/") || /^[a-z]+:/i.test(sub)) continue;
    const root = join(folder, sub).replace(/[\\/]+\.?$/, "");
    if (statOf(join(root, "hooks", "hooks.json"))?.isFile) return root;
  }
  return undefined;
}

function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

function folders(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).map((e) => e.name);
  } catch {
    return []; // an absent folder has no installs
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return undefined;
  }
}
