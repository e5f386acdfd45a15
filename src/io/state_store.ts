/** State files: in a private per-user folder, written atomically, changed under a lock. */
import { join } from "../core/path.ts";
import { sha256Hex } from "../core/sha256.ts";
import { EMPTY_STATE, isState, type State } from "../schemas/state.ts";
import { messageOf } from "../core/errors.ts";
import { fail, failed, type Failure } from "../core/result.ts";

const MAX_STATE_BYTES = 64 * 1024;
const LOCK_TIMEOUT_MS = 2000;
const isWindows = Deno.build.os === "windows";

/** One context's state and lock files, and the token its refresh headers carry. */
export type StatePaths = { state: string; lock: string; token: string };

/**
 * Digits 0-7: the refresh token (never to change: refreshes in transcripts are known by it);
 * 8-23 (and 24-39 for a subagent): the files' name.
 */
function contextDigest(sessionId: string, agentId?: string): string {
  return sha256Hex(`lessons-reinject refresh\0${agentId ? `${sessionId}\0${agentId}` : sessionId}`);
}

/** `lessons-<key>[-<agent key>]-reinject.json` and `.lock` in `dir`, and the token. */
export function statePaths(dir: string, sessionId: string, agentId?: string): StatePaths {
  const digest = contextDigest(sessionId, agentId);
  const key = agentId ? `${digest.slice(8, 24)}-${digest.slice(24, 40)}` : digest.slice(8, 24);
  const base = join(dir, `lessons-${key}-reinject`);
  return { state: `${base}.json`, lock: `${base}.lock`, token: digest.slice(0, 8) };
}

export function refreshToken(sessionId: string, agentId?: string): string {
  return contextDigest(sessionId, agentId).slice(0, 8);
}

export function sessionKeyOf(sessionId: string): string {
  return contextDigest(sessionId).slice(8, 24);
}

/** Why a folder cannot hold state, or undefined when it can be trusted for reading. */
export function untrustedDirReason(dir: string): Failure | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(dir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined; // created on first write
    return fail(`state folder ${dir}: ${messageOf(error)}`);
  }
  if (info.isSymlink) return fail(`state folder ${dir} is a symlink`);
  if (!info.isDirectory) return fail(`state folder ${dir} is not a folder`);
  if (!isWindows && info.mode !== null && (info.mode & 0o022) !== 0) {
    const mode = (info.mode & 0o777).toString(8);
    return fail(`state folder ${dir} is writable by others (mode ${mode})`, "unsafe");
  }
  return undefined;
}

/** What to do about a state folder the hook will not use. */
export function stateDirFix(dir: string, problem: Failure): string {
  const elsewhere = "point LESSONS_STATE_DIR (or stateDir in the config file) at a private folder";
  return failed(problem, "unsafe") ? `chmod 700 ${dir} if it is yours, or ${elsewhere}` : elsewhere;
}

/**
 * Creates the folder (mode 0700) when missing; why it cannot be used, if so. Ownership is proven
 * by a probe file having the folder's owner (reading our own uid would need `--allow-sys`).
 */
export function preparePrivateDir(dir: string): Failure | undefined {
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      return fail(`cannot create state folder ${dir}: ${messageOf(error)}`);
    }
  }
  const reason = untrustedDirReason(dir);
  if (reason || isWindows) return reason;
  const probe = join(dir, `.probe-${crypto.randomUUID()}`);
  try {
    const file = Deno.openSync(probe, { write: true, createNew: true, mode: 0o600 });
    const mine = file.statSync();
    file.close();
    const folder = Deno.lstatSync(dir);
    if (mine.uid !== null && folder.uid !== null && mine.uid !== folder.uid) {
      return fail(`state folder ${dir} belongs to another user`, "unsafe");
    }
    return undefined;
  } catch (error) {
    return fail(`state folder ${dir} is not writable: ${messageOf(error)}`);
  } finally {
    removeQuietly(probe);
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Already gone, or never made.
  }
}

/** A state file as read: a missing, corrupt, oversized or non-file one gives the empty state. */
export function loadState(path: string): { kind: "found" | "missing" | "corrupt"; state: State } {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile || info.size > MAX_STATE_BYTES) return { kind: "corrupt", state: EMPTY_STATE };
    const raw: unknown = JSON.parse(new TextDecoder().decode(Deno.readFileSync(path)));
    return isState(raw) ? { kind: "found", state: raw } : { kind: "corrupt", state: EMPTY_STATE };
  } catch (error) {
    const kind = error instanceof Deno.errors.NotFound ? "missing" : "corrupt";
    return { kind, state: EMPTY_STATE };
  }
}

/** A fresh temp file (O_EXCL, 0600: a planted symlink cannot redirect it), renamed over `path`. */
export function writeJsonAtomically(path: string, value: unknown): void {
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    Deno.writeFileSync(temp, new TextEncoder().encode(JSON.stringify(value)), {
      createNew: true,
      mode: 0o600,
    });
    Deno.renameSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

/**
 * Runs `critical` holding an exclusive lock on `lockPath` (released by the OS if the process dies);
 * throws when it is not a regular file or stays busy for two seconds. A free lock is taken with
 * one non-blocking try: a process's first timer costs more than the try.
 */
export async function withLock<T>(lockPath: string, critical: () => Promise<T>): Promise<T> {
  let existing: Deno.FileInfo | undefined;
  try {
    existing = Deno.lstatSync(lockPath);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isFile) throw new Error(`lock ${lockPath} is not a regular file`);
  const file = Deno.openSync(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    if (!file.tryLockSync(true)) await waitForLock(file, lockPath);
    try {
      return await critical();
    } finally {
      try {
        file.unlockSync(); // closing releases it too, but on Windows not at once
      } catch {
        // Released by the close below.
      }
    }
  } finally {
    file.close();
  }
}

// Waits in the kernel's queue, or throws at the timeout. Only here is a timer touched: even
// `clearTimeout` loads Deno's Node timers on first use.
async function waitForLock(file: Deno.FsFile, lockPath: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`lock ${lockPath} busy`)), LOCK_TIMEOUT_MS);
  });
  try {
    await Promise.race([file.lock(true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
