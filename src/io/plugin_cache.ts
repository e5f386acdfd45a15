/**
 * Finds a plugin's newest install in Claude Code's plugin cache, where `/plugin install` copies
 * each version to `<plugins>/cache/<marketplace>/<plugin>/<version>/`.
 */
import { join } from "../core/path.ts";

/** A file inside the newest install of `plugin`, and that install's folder. */
export interface InstalledFile {
  root: string;
  path: string;
}

/**
 * The install of `plugin` whose `relativePath` file was modified last, or undefined when no
 * install has that file.
 */
export async function newestInstalledFile(
  pluginsDir: string,
  plugin: string,
  relativePath: string[],
): Promise<InstalledFile | undefined> {
  const cache = join(pluginsDir, "cache");
  let best: (InstalledFile & { mtime: number }) | undefined;
  for (const marketplace of await listDirs(cache)) {
    const base = join(cache, marketplace, plugin);
    for (const version of await listDirs(base)) {
      const root = join(base, version);
      const path = join(root, ...relativePath);
      const mtime = (await Deno.stat(path).catch(() => undefined))?.mtime?.getTime();
      if (mtime !== undefined && (!best || mtime > best.mtime)) best = { root, path, mtime };
    }
  }
  return best && { root: best.root, path: best.path };
}

async function listDirs(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) if (entry.isDirectory) names.push(entry.name);
  } catch {
    // An absent folder has no installs.
  }
  return names;
}
