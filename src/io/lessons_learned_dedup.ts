/**
 * Re-arming the lessons-learned plugin's PreToolUse dedup, when the user asks for it: that hook
 * shows each tool-specific lesson once per session and records it in the temp folder; after a
 * refresh at a chosen threshold, forgetting those records lets a lesson seen early fire again.
 * Off by default (docs/prd-departures.md says why); not yet called by the hook.
 */
import { join } from "../core/path.ts";
import { messageOf } from "../core/errors.ts";

/**
 * The setting's name. Its value is a comma-separated list of thresholds whose refresh also
 * re-arms the dedup (for example `52,70`); unset or empty: never.
 */
export const REARM_SETTING = "LESSONS_REINJECT_REARM_DEDUP";

export interface ParsedRearm {
  /** Thresholds that re-arm, ascending; empty: off. */
  values: number[];
  /** One line naming what was wrong, when the setting was bad; bad entries are dropped. */
  warning?: string;
}

/**
 * Parses the setting. Unlike the threshold list it never falls back to defaults: off stays off.
 *
 * @example
 * ```ts
 * parseRearm(undefined); // { values: [] }
 * parseRearm("70,52"); // { values: [52, 70] }
 * parseRearm("52,x").warning; // 'lessons-reinject: LESSONS_REINJECT_REARM_DEDUP="52,x": ...'
 * ```
 */
export function parseRearm(raw: string | undefined): ParsedRearm {
  if (raw === undefined || raw.trim() === "") return { values: [] };
  const values = new Set<number>();
  const problems: string[] = [];
  for (const part of raw.split(",").map((p) => p.trim())) {
    const value = Number(part);
    if (part === "") problems.push("an empty entry");
    else if (!Number.isFinite(value)) problems.push(`"${part}" is not a number`);
    else if (value < 1 || value > 99) problems.push(`${part} is outside 1-99`);
    else values.add(value);
  }
  const sorted = [...values].sort((a, b) => a - b);
  if (problems.length === 0) return { values: sorted };
  const used = sorted.length > 0 ? `re-arming at ${sorted.join(",")} only` : "not re-arming";
  return {
    values: sorted,
    warning: `lessons-reinject: ${REARM_SETTING}="${raw}": ${problems.join(", ")}; ${used}`,
  };
}

/**
 * Whether a refresh naming `fired` re-arms the dedup: one of them is in `rearmAt`, and the call
 * is the main thread's (the dedup is per session, shared with subagents: a subagent's refresh
 * must not re-arm the main thread's lessons).
 *
 * @example
 * ```ts
 * rearmDue([30, 52], [52, 70], false); // true
 * rearmDue([30], [52, 70], false); // false
 * rearmDue([52], [52], true); // false: a subagent's refresh
 * ```
 */
export function rearmDue(
  fired: readonly number[],
  rearmAt: readonly number[],
  subagent: boolean,
): boolean {
  return !subagent && fired.some((t) => rearmAt.includes(t));
}

/**
 * The folder Node's `os.tmpdir()` gives the lessons-learned hooks, from the same environment:
 * TMPDIR, TMP, TEMP, else /tmp (POSIX); TEMP, TMP, else %SystemRoot%\temp (Windows); without a
 * trailing separator.
 *
 * @example
 * ```ts
 * nodeTmpdir((n) => ({ TMPDIR: "/var/folders/x/T/" })[n], "darwin"); // "/var/folders/x/T"
 * ```
 */
export function nodeTmpdir(env: (name: string) => string | undefined, os: string): string {
  if (os === "windows") {
    const dir = env("TEMP") || env("TMP") ||
      `${env("SystemRoot") || env("windir") || "C:\\Windows"}\\temp`;
    return dir.length > 1 && dir.endsWith("\\") && !dir.endsWith(":\\") ? dir.slice(0, -1) : dir;
  }
  const dir = env("TMPDIR") || env("TMP") || env("TEMP") || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

/** Where lessons-learned keeps one session's seen set (its hooks/lib/dedup.mjs). */
export interface DedupPaths {
  /** Comma-separated slugs: `<tmp>/lessons-<sha256(session)[:16]>-seen.txt`. */
  seenFile: string;
  /** One empty file per claimed slug: `<tmp>/lessons-<sha256(session)[:16]>-seen.d/`. */
  claimDir: string;
}

/** The paths for a session, given its `sha256(session_id)` hex digest (first 16 digits used). */
export function dedupPaths(tmp: string, sessionDigest: string): DedupPaths {
  const base = `lessons-${sessionDigest.slice(0, 16)}-seen`;
  return { seenFile: join(tmp, `${base}.txt`), claimDir: join(tmp, `${base}.d`) };
}

export interface RearmResult {
  /** Slugs whose claim file was removed. */
  forgotten: string[];
  /** Whether the seen file was removed. */
  seenFileRemoved: boolean;
  /** What could not be done, one line each. */
  problems: string[];
}

/**
 * Forgets what the lessons-learned PreToolUse hook has shown this session, for the lessons in
 * `slugs` only (the manifest's): removes the seen file and those lessons' claim files. Never
 * removes anything else, never follows a symlinked claim folder, never throws.
 */
export async function rearmDedup(
  paths: DedupPaths,
  slugs: readonly string[],
): Promise<RearmResult> {
  const result: RearmResult = { forgotten: [], seenFileRemoved: false, problems: [] };
  // The seen file is one of the three layers the hook merges; unlink never follows a symlink.
  try {
    const info = await Deno.lstat(paths.seenFile);
    if (info.isFile || info.isSymlink) {
      await Deno.remove(paths.seenFile);
      result.seenFileRemoved = true;
    } else result.problems.push(`${paths.seenFile} is not a file; left alone`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      result.problems.push(`${paths.seenFile}: ${messageOf(error)}`);
    }
  }
  let dir: Deno.FileInfo;
  try {
    dir = await Deno.lstat(paths.claimDir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      result.problems.push(`${paths.claimDir}: ${messageOf(error)}`);
    }
    return result;
  }
  if (!dir.isDirectory) {
    result.problems.push(`${paths.claimDir} is not a folder; left alone`);
    return result;
  }
  for (const slug of new Set(slugs)) {
    // A slug is a file name in that folder; anything that could leave it is not one.
    if (slug === "" || slug === "." || slug === ".." || /[/\\\0]/.test(slug)) continue;
    try {
      await Deno.remove(join(paths.claimDir, slug));
      result.forgotten.push(slug);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        result.problems.push(`${join(paths.claimDir, slug)}: ${messageOf(error)}`);
      }
    }
  }
  result.forgotten.sort();
  return result;
}
