/**
 * What `hooks/run` will do in a plugin folder, read from the files it decides by: a `.git` (a
 * checkout runs the source), the binary for this platform in `dist/`, `dist/.entry` (the binary
 * verified to run here, exec'd without a fork), the background download's lock and log, and
 * whether Deno's cache holds the npm packages the source needs (outside a checkout the source
 * runs from that cache only, `--cached-only`).
 */
import { join } from "../core/path.ts";
import type { DenoNpmCache } from "../settings/other_programs.ts";

/** The npm packages the source needs, against Deno's cache. */
export interface DenoCacheState {
  /** `name@version` of each package in the plugin's deno.lock. */
  packages: string[];
  /** Those not in the cache; undefined when the cache or the lock could not be read. */
  missing: string[] | undefined;
  /** The folder looked in (Deno's npm cache for the registry in use), or why none. */
  where: string;
}

/** The launcher's inputs in one plugin folder. */
export interface LauncherState {
  root: string;
  /** A `.git` file or folder beside `hooks/`: hooks/run runs the source when deno is there. */
  checkout: boolean;
  binary: string;
  /** undefined: absent; else whether it has an execute bit (always true on Windows). */
  binaryExecutable: boolean | undefined;
  /** dist/.entry names this binary: hooks/run's common path. */
  verified: boolean;
  /** The background download: never started, running (or killed) or ended with a failure. */
  download: "none" | "running" | "failed";
  /** The download log's last line, when there is one. */
  lastLog: string | undefined;
  log: string;
  install: string;
  denoCache: DenoCacheState;
}

/**
 * The npm packages src/ imports (through deno.json's import map); the others in the lock are the
 * tests' and the build's. tests/unit/io/launcher_state_test.ts checks this list against src/.
 */
export const SOURCE_PACKAGES = ["jsonc-parser", "zod"];

/**
 * `name@version` of each package of {@link SOURCE_PACKAGES} in a deno.lock's text; undefined when
 * it is not one.
 */
function lockedPackages(text: string): string[] | undefined {
  try {
    const npm: unknown = JSON.parse(text).npm;
    if (typeof npm !== "object" || npm === null) return undefined;
    // A key may carry peer-dependency suffixes after an underscore.
    return Object.keys(npm).map((key) => key.split("_")[0]!)
      .filter((spec) => SOURCE_PACKAGES.includes(spec.slice(0, spec.lastIndexOf("@")))).sort();
  } catch {
    return undefined;
  }
}

/** Which of the plugin's npm packages are in Deno's npm cache at `cache`. */
async function readDenoCache(
  root: string,
  cache: DenoNpmCache,
): Promise<DenoCacheState> {
  const lock = join(root, "deno.lock");
  const packages = lockedPackages(await Deno.readTextFile(lock).catch(() => ""));
  if (!packages) return { packages: [], missing: undefined, where: `${lock} cannot be read` };
  if ("unknown" in cache) return { packages, missing: undefined, where: cache.unknown };
  const missing: string[] = [];
  for (const spec of packages) {
    const at = spec.lastIndexOf("@"); // a scoped name starts with one
    const folder = join(cache.dir, spec.slice(0, at), spec.slice(at + 1));
    if (!(await Deno.stat(folder).catch(() => undefined))?.isDirectory) missing.push(spec);
  }
  return { packages, missing, where: cache.dir };
}

/**
 * Reads the launcher's state in `root` for the binary named `binaryName`; `cache` is Deno's npm
 * cache, as the settings found it.
 */
export async function readLauncherState(
  root: string,
  binaryName: string,
  cache: DenoNpmCache,
): Promise<LauncherState> {
  const dist = join(root, "dist");
  const binary = join(dist, binaryName);
  const log = join(dist, "install.log");
  const exists = async (path: string) => await Deno.stat(path).then(() => true, () => false);
  const info = await Deno.stat(binary).catch(() => undefined);
  const entry = await Deno.readTextFile(join(dist, ".entry")).catch(() => "");
  const lastLog = (await Deno.readTextFile(log).catch(() => "")).trim().split("\n").at(-1) ||
    undefined;
  const locked = await exists(join(dist, ".install-lock"));
  // hooks/install ends with a line of its own; success removes the lock.
  const failed = locked && lastLog?.startsWith("lessons-reinject install: ") === true &&
    !lastLog.startsWith("lessons-reinject install: installed ");
  return {
    root,
    checkout: await exists(join(root, ".git")),
    binary,
    binaryExecutable: info?.isFile
      ? Deno.build.os === "windows" || info.mode === null || (info.mode & 0o111) !== 0
      : undefined,
    verified: info?.isFile === true && entry.trim() === binaryName,
    download: failed ? "failed" : locked ? "running" : "none",
    lastLog,
    log,
    install: join(root, "hooks", "install"),
    denoCache: await readDenoCache(root, cache),
  };
}

/** A doctor verdict on the binary: what hooks/run does with this state, and what to do. */
export interface LauncherVerdict {
  status: "ok" | "warn" | "fail";
  detail: string;
  fix?: string;
}

/** The download's state, in words, and what the reason says of the release host. */
function downloadText(state: LauncherState): string {
  if (state.download === "running") {
    return `a download is under way or was cut off (log: ${state.log})`;
  }
  if (state.download === "failed") {
    const why = state.lastLog?.replace(/^lessons-reinject install: /, "") ?? "";
    // The first thing hooks/install fetches: failing there, it reached no release at all.
    const host = /^cannot download \S+\/SHA256SUMS/.test(why)
      ? ": the release host cannot be reached from here, or has no such release yet"
      : "";
    return `its background download failed (${why})${host}; a hook call retries it an hour ` +
      "after it started";
  }
  return "no hook call has started its download yet (none does while " +
    "LESSONS_REINJECT_NO_AUTO_INSTALL is set)";
}

/**
 * What hooks/run does given `state` and deno (its path, or undefined when not on PATH): what
 * works now, and what the user can do.
 *
 * @example
 * ```ts
 * launcherVerdict({ ...state, binaryExecutable: true, verified: true }, undefined).status; // "ok"
 * ```
 */
export function launcherVerdict(state: LauncherState, deno: string | undefined): LauncherVerdict {
  if (state.checkout && deno) {
    return {
      status: "ok",
      detail: `${state.root} is a checkout: hooks/run runs the source with ${deno} (a binary in ` +
        `dist/ is not used, so edits take effect at the next call)`,
    };
  }
  if (state.binaryExecutable === false) {
    return {
      status: "fail",
      detail: `${state.binary} is not executable`,
      fix: `chmod +x ${state.binary}`,
    };
  }
  if (state.binaryExecutable) {
    return {
      status: "ok",
      detail: state.verified
        ? `${state.binary} (verified here: hooks/run execs it without a fork)`
        : `${state.binary} (the next hook call checks that it runs here, then takes the fast path)`,
    };
  }
  const dist = join(state.root, "dist");
  const binaries = `put the binary in ${dist}: sh ${state.install} (the release; it needs the ` +
    `release host, curl or wget, and sha256sum or shasum), or copy one you built (\`deno task ` +
    `compile --target <target>\` in a checkout, where Deno can download its runtime) to ` +
    state.binary;
  const warm = `deno cache --config ${join(state.root, "deno.json")} ` +
    join(state.root, "src", "main.ts");
  const lacking = `no ${state.binary}: ${downloadText(state)}`;
  if (!deno) {
    return {
      status: "fail",
      detail:
        `${lacking}; no deno on PATH either, so the hook does nothing until a binary is there`,
      fix: `${binaries}; or install Deno (npm install -g deno), then warm its cache: ${warm}`,
    };
  }
  const cache = state.denoCache;
  if (cache.missing && cache.missing.length > 0) {
    return {
      status: "fail",
      detail: `${lacking}; meanwhile hooks/run runs the source with ${deno} from Deno's cache ` +
        `only, which lacks ${cache.missing.join(", ")} (looked in ${cache.where}), so ` +
        "refreshes do nothing",
      fix: `warm Deno's cache (it needs the npm registry): ${warm}; or ${binaries}`,
    };
  }
  const wait = state.download === "running" ? "wait for it, or " : "";
  if (!cache.missing) {
    const packages = cache.packages.join(", ") || "the source's packages";
    return {
      status: "warn",
      detail: `${lacking}; meanwhile hooks/run runs the source with ${deno} from Deno's cache ` +
        `(slower than the binary); whether that cache holds ${packages} was not checked ` +
        `(${cache.where})`,
      fix: `${wait}make sure it does: ${warm}; or ${binaries}`,
    };
  }
  return {
    status: "warn",
    detail: `${lacking}; meanwhile refreshes work: hooks/run runs the source with ${deno} from ` +
      `Deno's cache, which holds ${cache.packages.join(", ")} (slower than the binary)`,
    fix: `${wait}${binaries}`,
  };
}
