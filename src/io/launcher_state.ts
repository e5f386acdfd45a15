/**
 * What `hooks/run` will do in a plugin folder, read from the files it decides by: a `.git` (a
 * checkout runs the source), the binary for this platform in `dist/`, `dist/.entry` (the binary
 * verified to run here), the background download's lock and log, and whether Deno's cache holds
 * the npm packages the source needs (outside a checkout it runs from that cache only).
 */
import { join } from "../core/path.ts";
import type { DenoNpmCache } from "../settings/other_programs.ts";

/** The launcher's inputs in one plugin folder. */
export interface LauncherState {
  root: string;
  /** A `.git` beside `hooks/`: hooks/run runs the source when deno is there. */
  checkout: boolean;
  binary: string;
  /** undefined: absent; else whether it has an execute bit (always true on Windows). */
  binaryExecutable: boolean | undefined;
  /** dist/.entry names this binary: hooks/run's common path. */
  verified: boolean;
  /** The background download: never started, running (or killed), or ended with a failure. */
  download: "none" | "running" | "failed";
  /** The download log's last line. */
  lastLog: string | undefined;
  log: string;
  /** `name@version` of each package of {@link SOURCE_PACKAGES} in deno.lock. */
  packages: string[];
  /** Those not in Deno's npm cache; undefined when that cannot be told. */
  missing: string[] | undefined;
  /** The cache folder looked in, or why none could be. */
  where: string;
}

/**
 * The npm packages src/ imports (through deno.json's import map); the others in the lock are the
 * tests' and the build's. tests/unit/io/launcher_state_test.ts checks this list against src/.
 */
export const SOURCE_PACKAGES = ["jsonc-parser", "zod"];

const read = (path: string) => {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
};
const statOf = (path: string) => {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
};

/** The launcher's state in `root` for the binary `binaryName`; `cache` is Deno's npm cache. */
export function readLauncherState(
  root: string,
  binaryName: string,
  cache: DenoNpmCache,
): LauncherState {
  const dist = join(root, "dist");
  const binary = join(dist, binaryName);
  const log = join(dist, "install.log");
  const info = statOf(binary);
  const lastLog = read(log).trim().split("\n").at(-1) || undefined;
  const locked = statOf(join(dist, ".install-lock")) !== undefined;
  // hooks/install ends with a line of its own; success removes the lock.
  const failed = locked && lastLog?.startsWith("lessons-reinject install: ") === true &&
    !lastLog.startsWith("lessons-reinject install: installed ");
  let packages: string[] = [];
  let missing: string[] | undefined;
  let where: string;
  try {
    // A key may carry peer-dependency suffixes after an underscore.
    packages = Object.keys(JSON.parse(read(join(root, "deno.lock"))).npm).map((k) =>
      k.split("_")[0]!
    ).filter((spec) => SOURCE_PACKAGES.includes(spec.slice(0, spec.lastIndexOf("@")))).sort();
    where = "unknown" in cache ? cache.unknown : cache.dir;
    if ("dir" in cache) {
      missing = packages.filter((spec) => {
        const at = spec.lastIndexOf("@"); // a scoped name starts with one
        return !statOf(join(cache.dir, spec.slice(0, at), spec.slice(at + 1)))?.isDirectory;
      });
    }
  } catch {
    where = `${join(root, "deno.lock")} cannot be read`;
  }
  return {
    root,
    checkout: statOf(join(root, ".git")) !== undefined,
    binary,
    binaryExecutable: info?.isFile
      ? Deno.build.os === "windows" || info.mode === null || (info.mode & 0o111) !== 0
      : undefined,
    verified: info?.isFile === true && read(join(dist, ".entry")).trim() === binaryName,
    download: failed ? "failed" : locked ? "running" : "none",
    lastLog,
    log,
    packages,
    missing,
    where,
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
  if (state.download === "none") {
    return "no hook call has started its download yet (none does while LESSONS_REINJECT_NO_AUTO_INSTALL is set)";
  }
  const why = state.lastLog?.replace(/^lessons-reinject install: /, "") ?? "";
  // The first thing hooks/install fetches: failing there, it reached no release at all.
  const host = /^cannot download \S+\/SHA256SUMS/.test(why)
    ? ": the release host cannot be reached from here, or has no such release yet"
    : "";
  return `its background download failed (${why})${host}; a hook call retries it an hour after it started`;
}

/**
 * What hooks/run does given `state` and deno (its path, or undefined when not on PATH): what
 * works now, and what the user can do.
 */
export function launcherVerdict(state: LauncherState, deno: string | undefined): LauncherVerdict {
  const { root, binary } = state;
  if (state.checkout && deno) {
    return {
      status: "ok",
      detail:
        `${root} is a checkout: hooks/run runs the source with ${deno} (a binary in dist/ is ` +
        "not used, so edits take effect at the next call)",
    };
  }
  if (state.binaryExecutable === false) {
    return { status: "fail", detail: `${binary} is not executable`, fix: `chmod +x ${binary}` };
  }
  if (state.binaryExecutable) {
    const how = state.verified
      ? "verified here: hooks/run execs it without a fork"
      : "the next hook call checks that it runs here, then takes the fast path";
    return { status: "ok", detail: `${binary} (${how})` };
  }
  const binaries =
    `put the binary in ${join(root, "dist")}: sh ${join(root, "hooks", "install")} ` +
    "(the release; it needs the release host, curl or wget, and sha256sum or shasum), or copy one " +
    "you built (`deno task compile --target <target>` in a checkout, where Deno can download its " +
    `runtime) to ${binary}`;
  const warm = `deno cache --config ${join(root, "deno.json")} ${join(root, "src", "main.ts")}`;
  const lacking = `no ${binary}: ${downloadText(state)}`;
  if (!deno) {
    return {
      status: "fail",
      detail:
        `${lacking}; no deno on PATH either, so the hook does nothing until a binary is there`,
      fix: `${binaries}; or install Deno (npm install -g deno), then warm its cache: ${warm}`,
    };
  }
  const source = `meanwhile hooks/run runs the source with ${deno} from Deno's cache`;
  if (state.missing && state.missing.length > 0) {
    return {
      status: "fail",
      detail: `${lacking}; ${source} only, which lacks ${state.missing.join(", ")} (looked in ` +
        `${state.where}), so refreshes do nothing`,
      fix: `warm Deno's cache (it needs the npm registry): ${warm}; or ${binaries}`,
    };
  }
  const wait = state.download === "running" ? "wait for it, or " : "";
  if (!state.missing) {
    return {
      status: "warn",
      detail: `${lacking}; ${source} (slower than the binary); whether that cache holds ` +
        `${state.packages.join(", ") || "the source's packages"} was not checked (${state.where})`,
      fix: `${wait}make sure it does: ${warm}; or ${binaries}`,
    };
  }
  return {
    status: "warn",
    detail: `${lacking}; meanwhile refreshes work: hooks/run runs the source with ${deno} from ` +
      `Deno's cache, which holds ${state.packages.join(", ")} (slower than the binary)`,
    fix: `${wait}${binaries}`,
  };
}
