/**
 * Where Deno keeps the npm packages the source needs: hooks/run runs the source outside a checkout
 * from that cache only, so doctor looks there. Not a setting of this program: Deno's own variables.
 */
import { join } from "../core/path.ts";

/** Deno's npm cache folder for the registry in use, or why it cannot be told. */
export type DenoNpmCache = { dir: string } | { unknown: string };

/** The registry Deno fetches npm packages from unless told otherwise. */
const DEFAULT_REGISTRY = "https://registry.npmjs.org/";

/**
 * Deno's npm cache folder for the registry in use, from the variables Deno 2 reads (`DENO_DIR`,
 * else the platform's cache folder: `$XDG_CACHE_HOME` or `~/.cache` on Linux,
 * `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows, each with `deno` appended;
 * `NPM_CONFIG_REGISTRY`), or why it cannot be told. Pure.
 *
 * @example
 * ```ts
 * const env = (name: string) => ({ HOME: "/home/me" })[name];
 * denoNpmCache(env, "linux"); // { dir: "/home/me/.cache/deno/npm/registry.npmjs.org" }
 * ```
 */
export function denoNpmCache(
  env: (name: string) => string | undefined,
  os: typeof Deno.build.os,
): DenoNpmCache {
  const registry = env("NPM_CONFIG_REGISTRY") || env("npm_config_registry") || DEFAULT_REGISTRY;
  if (registry.replace(/\/*$/, "/") !== DEFAULT_REGISTRY) {
    return { unknown: `packages come from another npm registry (${registry})` };
  }
  const home = env("HOME") || env("USERPROFILE");
  const denoDir = env("DENO_DIR") ||
    (os === "windows"
      ? env("LOCALAPPDATA") && join(env("LOCALAPPDATA")!, "deno")
      : os === "darwin"
      ? home && join(home, "Library", "Caches", "deno")
      : (env("XDG_CACHE_HOME") && join(env("XDG_CACHE_HOME")!, "deno")) ||
        (home && join(home, ".cache", "deno")));
  if (!denoDir) return { unknown: "Deno's cache folder cannot be told (no DENO_DIR, no HOME)" };
  return { dir: join(denoDir, "npm", "registry.npmjs.org") };
}
