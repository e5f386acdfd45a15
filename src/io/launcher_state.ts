/** What `hooks/run` will do in a plugin folder, from the files it decides by and the npm cache. */
import { join } from "../core/path.ts";
import { readText, statOf } from "./files.ts";
import type { DenoNpmCache } from "../settings/other_programs.ts";

/** The npm packages src/ imports (the others in the lock are the tests' and the build's). */
export const SOURCE_PACKAGES = ["jsonc-parser", "zod"];

const read = (path: string) => readText(path) ?? "";

/** The launcher's inputs in `root` for the binary `binaryName`; `cache` is Deno's npm cache. */
export function readLauncherState(root: string, binaryName: string, cache: DenoNpmCache) {
  const dist = join(root, "dist");
  const binary = join(dist, binaryName);
  const info = statOf(binary);
  const lastLog = read(join(dist, "install.log")).trim().split("\n").at(-1) || undefined;
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
  // `binaryExecutable` undefined: absent; `verified`: dist/.entry names it (hooks/run's fast path);
  // `packages`: `name@version` of the source's in deno.lock, `missing` from the cache at `where`.
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
    log: join(dist, "install.log"),
    packages,
    missing,
    where,
  };
}

type LauncherState = ReturnType<typeof readLauncherState>;

/** The download's state, in words, and what the reason says of the release host. */
function downloadText(state: LauncherState): string {
  if (state.download === "running") {
    return `a download is under way or was cut off (log: ${state.log})`;
  }
  if (state.download === "none") {
    return "no hook call has started its download yet (none does while " +
      "LESSONS_REINJECT_NO_AUTO_INSTALL is set)";
  }
  const why = state.lastLog?.replace(/^lessons-reinject install: /, "") ?? "";
  // The first thing hooks/install fetches: failing there, it reached no release at all.
  const host = /^cannot download \S+\/SHA256SUMS/.test(why)
    ? ": the release host cannot be reached from here, or has no such release yet"
    : "";
  return `its background download failed (${why})${host}; a hook call retries it an hour after ` +
    "it started";
}

/** doctor's verdict: what hooks/run does given `state` and `deno` (its path, if on PATH). */
export function launcherVerdict(
  state: LauncherState,
  deno: string | undefined,
): { status: "ok" | "warn" | "fail"; detail: string; fix?: string } {
  const { root, binary } = state;
  if (state.checkout && deno) {
    const detail = `${root} is a checkout: hooks/run runs the source with ${deno} (a binary in ` +
      "dist/ is not used, so edits take effect at the next call)";
    return { status: "ok", detail };
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
    const detail =
      `${lacking}; no deno on PATH either, so the hook does nothing until a binary is there`;
    const fix = `${binaries}; or install Deno (npm install -g deno), then warm its cache: ${warm}`;
    return { status: "fail", detail, fix };
  }
  const source = `meanwhile hooks/run runs the source with ${deno} from Deno's cache`;
  const wait = state.download === "running" ? "wait for it, or " : "";
  if (!state.missing) {
    return {
      status: "warn",
      detail: `${lacking}; ${source} (slower than the binary); whether that cache holds ` +
        `${state.packages.join(", ") || "the source's packages"} was not checked (${state.where})`,
      fix: `${wait}make sure it does: ${warm}; or ${binaries}`,
    };
  }
  if (state.missing.length > 0) {
    return {
      status: "fail",
      detail: `${lacking}; ${source} only, which lacks ${state.missing.join(", ")} (looked in ` +
        `${state.where}), so refreshes do nothing`,
      fix: `warm Deno's cache (it needs the npm registry): ${warm}; or ${binaries}`,
    };
  }
  return {
    status: "warn",
    detail: `${lacking}; meanwhile refreshes work: hooks/run runs the source with ${deno} from ` +
      `Deno's cache, which holds ${state.packages.join(", ")} (slower than the binary)`,
    fix: `${wait}${binaries}`,
  };
}
