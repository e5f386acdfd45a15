/** Where lessons-learned's hooks (Node's `os.tmpdir()`) and Deno's npm cache keep files. Pure. */
import { join } from "../core/path.ts";
import { fail, type Result } from "../core/result.ts";

type Env = (name: string) => string | undefined;

/**
 * The folder Node's `os.tmpdir()` gives: TMPDIR, TMP, TEMP, else /tmp (POSIX); TEMP, TMP, else
 * %SystemRoot%\temp (Windows); without a trailing separator.
 */
export function nodeTmpdir(env: Env, os: string): string {
  if (os === "windows") {
    const dir = env("TEMP") || env("TMP") ||
      `${env("SystemRoot") || env("windir") || "C:\\Windows"}\\temp`;
    return dir.length > 1 && dir.endsWith("\\") && !dir.endsWith(":\\") ? dir.slice(0, -1) : dir;
  }
  const dir = env("TMPDIR") || env("TMP") || env("TEMP") || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

/** Deno's npm cache folder, or why it cannot be told. */
export type DenoNpmCache = Result<{ dir: string }>;

const DEFAULT_REGISTRY = "https://registry.npmjs.org/";

/** As Deno 2 finds it: `DENO_DIR`, else the platform's cache's `deno`; default registry only. */
export function denoNpmCache(env: Env, os: typeof Deno.build.os): DenoNpmCache {
  const registry = env("NPM_CONFIG_REGISTRY") || env("npm_config_registry") || DEFAULT_REGISTRY;
  if (registry.replace(/\/*$/, "/") !== DEFAULT_REGISTRY) {
    return fail(`packages come from another npm registry (${registry})`);
  }
  const home = env("HOME") || env("USERPROFILE");
  const cache = os === "windows"
    ? env("LOCALAPPDATA")
    : os === "darwin"
    ? home && join(home, "Library", "Caches")
    : env("XDG_CACHE_HOME") || (home && join(home, ".cache"));
  const denoDir = env("DENO_DIR") || (cache && join(cache, "deno"));
  if (!denoDir) return fail("Deno's cache folder cannot be told (no DENO_DIR, no HOME)");
  return { dir: join(denoDir, "npm", "registry.npmjs.org") };
}
