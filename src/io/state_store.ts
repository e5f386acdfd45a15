/**
 * Where state lives and how it is read, written and locked: a private per-user folder, atomic
 * writes that never follow a planted symlink, and an exclusive lock around every change.
 */
import { join } from "../core/path.ts";
import { sha256Hex } from "../core/sha256.ts";
import type { State } from "../schemas/state.ts";
import { EMPTY_STATE, isState } from "../schemas/guards.ts";
import { messageOf } from "../core/errors.ts";

const MAX_STATE_BYTES = 64 * 1024;
const LOCK_TIMEOUT_MS = 2000;
const isWindows = Deno.build.os === "windows";

/** First `length` hex digits of SHA-256 (the lessons-learned plugin keys its files this way). */
export function hexDigest(text: string, length = 16): string {
  return sha256Hex(text).slice(0, length);
}

/** Paths of one context's files, and its refresh token; a subagent gets its own. */
export interface StatePaths {
  dir: string;
  state: string;
  lock: string;
  /** The refresh header's token for this context (see {@link refreshToken}). */
  token: string;
  /** The session's key in file names (see {@link contextDigest}); undefined for a subagent. */
  sessionKey: string | undefined;
}

/**
 * The one SHA-256 a context needs: of `lessons-reinject refresh\0<session>[\0<agent>]`. Digits
 * 0-7 are the refresh token; digits 8-23 (and 24-39 for a subagent) name the context's files.
 */
function contextDigest(sessionId: string, agentId?: string): string {
  const key = agentId ? `${sessionId}\0${agentId}` : sessionId;
  return sha256Hex(`lessons-reinject refresh\0${key}`);
}

/** `lessons-<key>[-<agent key>]-reinject.json` in `dir`, and the token, from one digest. */
export function statePaths(dir: string, sessionId: string, agentId?: string): StatePaths {
  const digest = contextDigest(sessionId, agentId);
  const sessionKey = agentId ? undefined : digest.slice(8, 24);
  const base = agentId
    ? `lessons-${digest.slice(8, 24)}-${digest.slice(24, 40)}-reinject`
    : `lessons-${sessionKey}-reinject`;
  return {
    dir,
    state: join(dir, `${base}.json`),
    lock: join(dir, `${base}.lock`),
    token: digest.slice(0, 8),
    sessionKey,
  };
}

/**
 * The token every refresh header carries, so that only this hook's own refreshes for this
 * session (or subagent) are recognised in a transcript.
 */
export function refreshToken(sessionId: string, agentId?: string): string {
  return statePaths("", sessionId, agentId).token;
}

/** The session's key in file names: digits 8-23 of its context digest. */
export function sessionKeyOf(sessionId: string): string {
  return contextDigest(sessionId).slice(8, 24);
}

/** Why a folder cannot hold state, or undefined when it can be trusted for reading. */
export function untrustedDirReason(dir: string): string | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(dir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined; // created on first write
    return `state folder ${dir}: ${messageOf(error)}`;
  }
  if (info.isSymlink) return `state folder ${dir} is a symlink`;
  if (!info.isDirectory) return `state folder ${dir} is not a folder`;
  if (!isWindows && info.mode !== null && (info.mode & 0o022) !== 0) {
    return `state folder ${dir} is writable by others (mode ${(info.mode & 0o777).toString(8)})`;
  }
  return undefined;
}

/**
 * Creates the folder (mode 0700) when missing and checks that this user owns it: a probe file
 * written inside must have the folder's owner. Returns why it cannot be used, or undefined.
 */
export function preparePrivateDir(dir: string): string | undefined {
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      return `cannot create state folder ${dir}: ${messageOf(error)}`;
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
      return `state folder ${dir} belongs to another user`;
    }
    return undefined;
  } catch (error) {
    return `state folder ${dir} is not writable: ${messageOf(error)}`;
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

export type LoadedState =
  | { kind: "found"; state: State }
  | { kind: "missing" }
  | { kind: "corrupt"; reason: string };

/** Reads a state file; a corrupt, oversized or non-file one is reported, never thrown. */
export function loadState(path: string): LoadedState {
  let bytes: Uint8Array;
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile) return { kind: "corrupt", reason: `${path} is not a regular file` };
    if (info.size > MAX_STATE_BYTES) return { kind: "corrupt", reason: `${path} is too large` };
    bytes = Deno.readFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    return { kind: "corrupt", reason: `${path}: ${messageOf(error)}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { kind: "corrupt", reason: `${path} is not JSON` };
  }
  if (!isState(raw)) return { kind: "corrupt", reason: `${path} has the wrong shape` };
  return { kind: "found", state: raw };
}

/** The state to decide with: a corrupt file counts as empty. */
export function stateOf(loaded: LoadedState): State {
  return loaded.kind === "found" ? loaded.state : EMPTY_STATE;
}

/** Writes `state` atomically (see {@link writeJsonAtomically}). */
export function saveState(path: string, state: State): void {
  writeJsonAtomically(path, state);
}

/**
 * Writes `value` as JSON atomically: a fresh temp file (O_EXCL, mode 0600, so a planted symlink
 * cannot redirect it) renamed over the target (rename replaces a symlink, never follows it).
 */
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
 * Runs `critical` holding an exclusive lock on `lockPath` (released by the OS if the process
 * dies). Throws when the lock cannot be had within two seconds or the path is a symlink. An
 * uncontended lock is taken with one non-blocking try and no timer (a process's first timer costs
 * more than the try); only a busy lock starts the timeout.
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
        file.unlockSync();
      } catch {
        // Closing the file below releases it anyway.
      }
    }
  } finally {
    file.close();
  }
}

/** Waits for `file`'s lock (blocking, so the kernel queues waiters), or throws at the timeout. */
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
