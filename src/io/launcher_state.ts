/**
 * What `hooks/run` will do in a plugin folder, read from the files it decides by: a `.git` (a
 * checkout runs the source), the binary for this platform in `dist/`, `dist/.entry` (the binary
 * verified to run here, exec'd without a fork), and the background download's lock and log.
 */
import { join } from "../core/path.ts";

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
}

/** Reads the launcher's state in `root` for the binary named `binaryName`. */
export async function readLauncherState(root: string, binaryName: string): Promise<LauncherState> {
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
  };
}

/** A doctor verdict on the binary: what hooks/run does with this state, and what to do. */
export interface LauncherVerdict {
  status: "ok" | "warn" | "fail";
  detail: string;
  fix?: string;
}

/**
 * What hooks/run does given `state` and deno (its path, or undefined when not on PATH).
 *
 * @example
 * ```ts
 * launcherVerdict({ ...state, binaryExecutable: true, verified: true }, undefined).status; // "ok"
 * ```
 */
export function launcherVerdict(state: LauncherState, deno: string | undefined): LauncherVerdict {
  const fetch = `run sh ${state.install} to fetch the release binary now`;
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
  const meanwhile = deno
    ? `until it arrives, hooks/run runs the source with ${deno} (slower)`
    : "until it arrives, the hook does nothing";
  if (state.download === "running") {
    return {
      status: "warn",
      detail:
        `no ${state.binary} yet: a download is under way or was cut off (log: ${state.log}); ` +
        meanwhile,
      fix: `wait for it, or ${fetch}`,
    };
  }
  if (state.download === "failed") {
    return {
      status: deno ? "warn" : "fail",
      detail: `no ${state.binary}: the background download failed (${
        state.lastLog?.replace(/^lessons-reinject install: /, "")
      }); it is retried an hour after it started; ${meanwhile}`,
      fix: `${fetch} (it needs GitHub, curl or wget, and sha256sum or shasum)`,
    };
  }
  if (deno) {
    return {
      status: "warn",
      detail: `no ${state.binary}: the next hook call starts its download (unless ` +
        `LESSONS_REINJECT_NO_AUTO_INSTALL is set); ${meanwhile}`,
      fix: fetch,
    };
  }
  return {
    status: "fail",
    detail: `no ${state.binary} and no deno on PATH: the next hook call starts its download ` +
      `(unless LESSONS_REINJECT_NO_AUTO_INSTALL is set); ${meanwhile}`,
    fix: fetch,
  };
}
