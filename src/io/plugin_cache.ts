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
export function newestInstalledFile(
  pluginsDir: string,
  plugin: string,
  relativePath: string[],
): InstalledFile | undefined {
  const cache = join(pluginsDir, "cache");
  let best: (InstalledFile & { mtime: number }) | undefined;
  for (const marketplace of listDirs(cache)) {
    const base = join(cache, marketplace, plugin);
    for (const version of listDirs(base)) {
      const root = join(base, version);
      const path = join(root, ...relativePath);
      const mtime = mtimeOf(path);
      if (mtime !== undefined && (!best || mtime > best.mtime)) best = { root, path, mtime };
    }
  }
  return best && { root: best.root, path: best.path };
}

/** Sync, like every file op a firing hook call makes: an async op hops to a worker thread. */
function mtimeOf(path: string): number | undefined {
  try {
    return Deno.statSync(path).mtime?.getTime();
  } catch {
    return undefined;
  }
}

function listDirs(dir: string): string[] {
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) if (entry.isDirectory) names.push(entry.name);
  } catch {
    // An absent folder has no installs.
  }
  return names;
}
