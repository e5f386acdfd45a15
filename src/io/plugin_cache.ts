/** Where Claude Code keeps a plugin: its cache, a local marketplace's folder, its data folder. */
import { fieldOf } from "../schemas/guards.ts";
import { basename, dirname, join, resolve } from "../core/path.ts";
import { entriesOf, readJson, statOf } from "./files.ts";

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
  return localInstall(pluginsDir, plugin)?.root;
}

/** {@link localPluginRoot} and the plugin's id (`<plugin>@<marketplace>`). */
function localInstall(
  pluginsDir: string,
  plugin: string,
): { root: string; id: string } | undefined {
  const known = readJson(join(pluginsDir, "known_marketplaces.json"));
  for (const key of installedIds(pluginsDir, plugin)) {
    const at = key.lastIndexOf("@");
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
    if (statOf(join(root, "hooks", "hooks.json"))?.isFile) return { root, id: key };
  }
  return undefined;
}

/** The ids (`<plugin>@<marketplace>`) Claude Code's records in `pluginsDir` install `plugin` as. */
function installedIds(pluginsDir: string, plugin: string): string[] {
  const installed = fieldOf(readJson(join(pluginsDir, "installed_plugins.json")), "plugins");
  if (typeof installed !== "object" || installed === null) return [];
  return Object.keys(installed).filter((key) => key.slice(0, key.lastIndexOf("@")) === plugin);
}

/**
 * The data folder Claude Code gives the installed `plugin` as `CLAUDE_PLUGIN_DATA` (2.1.332:
 * `<plugins>/data/<id>`, every character of the id outside `[A-Za-z0-9_-]` made a `-`), for a
 * process Claude Code did not start. The install is the one `runsFrom` (this program's folder)
 * is: a cache copy `<plugins>/cache/<marketplace>/<plugin>/<version>`, or a local
 * marketplace's folder; else the only one recorded, else the first whose data folder exists; else
 * the one `claude --plugin-dir` made.
 */
export function installedDataDir(
  pluginsDir: string,
  plugin: string,
  runsFrom: string | undefined,
): { dir: string; id: string } | undefined {
  const dataOf = (id: string) => ({
    dir: join(pluginsDir, "data", id.replace(/[^\w-]/g, "-")),
    id,
  });
  if (runsFrom !== undefined) {
    // <plugins>/cache/<marketplace>/<plugin>/<version>
    const [name, marketplace] = [dirname(runsFrom), dirname(dirname(runsFrom))];
    const cached = resolve(dirname(marketplace)) === resolve(pluginsDir, "cache");
    if (cached && basename(name) === plugin) return dataOf(`${plugin}@${basename(marketplace)}`);
    const local = localInstall(pluginsDir, plugin);
    if (local && resolve(local.root) === resolve(runsFrom)) return dataOf(local.id);
  }
  const ids = installedIds(pluginsDir, plugin);
  const found = ids.length === 1 ? ids[0] : ids.find((id) => statOf(dataOf(id).dir)?.isDirectory);
  if (found !== undefined) return dataOf(found);
  // Not installed: `claude --plugin-dir` names it `<plugin>@inline` (2.1.332).
  const inline = dataOf(`${plugin}@inline`);
  return statOf(inline.dir)?.isDirectory ? inline : undefined;
}

const folders = (dir: string) => entriesOf(dir).filter((e) => e.isDirectory).map((e) => e.name);
