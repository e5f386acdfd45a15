/**
 * A plugin's newest install in Claude Code's plugin cache, where `/plugin install` copies each
 * version to `<plugins>/cache/<marketplace>/<plugin>/<version>/`.
 */
import { join } from "../core/path.ts";

/**
 * The install of `plugin` whose `relativePath` file was modified last (its folder, and that
 * file's path), or undefined when no install has that file.
 */
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
      let mtime: number | undefined;
      try {
        mtime = Deno.statSync(path).mtime?.getTime();
      } catch {
        continue; // this install lacks the file
      }
      if (mtime !== undefined && (!best || mtime > best.mtime)) best = { root, path, mtime };
    }
  }
  return best && { root: best.root, path: best.path };
}

function folders(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).map((e) => e.name);
  } catch {
    return []; // an absent folder has no installs
  }
}
