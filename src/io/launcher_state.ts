/** What `hooks/run` decides by in a plugin folder: the files it reads and the npm cache. */
import { join } from "../core/path.ts";
import { readText, statOf } from "./files.ts";
import type { DenoNpmCache } from "../settings/other_programs.ts";
import { failed } from "../core/result.ts";

/** The npm packages src/ imports (the others in the lock are the tests' and the build's). */
export const SOURCE_PACKAGES = ["jsonc-parser", "zod"];

const read = (path: string) => readText(path) ?? "";

/** What hooks/run decides by in a plugin folder, as data: doctor puts it in words. */
export type LauncherState = ReturnType<typeof readLauncherState>;

/** The launcher's inputs in `root` for the binary `binaryName`; `cache` is Deno's npm cache. */
export function readLauncherState(
  root: string,
  binaryName: string,
  cache: DenoNpmCache,
) {
  const dist = join(root, "dist");
  const binary = join(dist, binaryName);
  const info = statOf(binary);
  const lastLog = read(join(dist, "install.log")).trim().split("\n").at(-1) || undefined;
  const locked = statOf(join(dist, ".install-lock")) !== undefined;
  // hooks/install ends with a line of its own; success removes the lock.
  const downloadFailed = locked && lastLog?.startsWith("lessons-reinject install: ") === true &&
    !lastLog.startsWith("lessons-reinject install: installed ");
  const lock = join(root, "deno.lock");
  let packages: string[] | undefined;
  try {
    // A key may carry peer-dependency suffixes after an underscore.
    packages = Object.keys(JSON.parse(read(lock)).npm).map((k) => k.split("_")[0]!)
      .filter((spec) => SOURCE_PACKAGES.includes(spec.slice(0, spec.lastIndexOf("@")))).sort();
  } catch {
    // No lock to read: which packages, and whether the cache holds them, is not known.
  }
  const missing = packages && "dir" in cache
    ? packages.filter((spec) => {
      const at = spec.lastIndexOf("@"); // a scoped name starts with one
      return !statOf(join(cache.dir, spec.slice(0, at), spec.slice(at + 1)))?.isDirectory;
    })
    : undefined;
  return {
    root,
    /** A git checkout: hooks/run runs the source when deno is on PATH. */
    checkout: statOf(join(root, ".git")) !== undefined,
    binary,
    /** Undefined when the binary is absent. */
    binaryExecutable: info?.isFile
      ? Deno.build.os === "windows" || info.mode === null || (info.mode & 0o111) !== 0
      : undefined,
    /** dist/.entry names it: hooks/run's fast path. */
    verified: info?.isFile === true && read(join(dist, ".entry")).trim() === binaryName,
    download: downloadFailed ? "failed" as const : locked ? "running" as const : "none" as const,
    /** The last line of hooks/install's log, `log`. */
    lastLog,
    log: join(dist, "install.log"),
    lock,
    /** `name@version` of the source's packages in `lock` (undefined: it cannot be read). */
    packages,
    /** Those not in Deno's npm cache at `where` (undefined: not checked). */
    missing,
    /** The cache's folder, or why it is not known. */
    where: failed(cache) ? cache.error : cache.dir,
    /** The bundle committed in dist/, which an installed copy runs with deno, cache or not. */
    shipped: statOf(join(dist, "lessons-reinject.js"))?.isFile
      ? join(dist, "lessons-reinject.js")
      : undefined,
  };
}
