/**
 * Re-arming the lessons-learned plugin's PreToolUse dedup, when the user asks for it: that hook
 * shows each tool-specific lesson once per session and records it in the temp folder; after a
 * refresh at a chosen threshold, forgetting those records lets a lesson seen early fire again.
 * Off by default (docs/maintainers/prd-departures.md says why); the setting is `rearmDedupAt`
 * (`LESSONS_REINJECT_REARM_DEDUP`).
 */
import { join } from "../core/path.ts";
import { messageOf } from "../core/errors.ts";
import { sha256Hex } from "../core/sha256.ts";

/**
 * The slugs of every lesson in a lessons-learned manifest's text (its `lessons` record), any
 * type: the claim files are named by slug. Unreadable text gives none.
 *
 * @example
 * ```ts
 * manifestSlugs('{"lessons":{"01J":{"slug":"git-c-flag","type":"guard"}}}'); // ["git-c-flag"]
 * ```
 */
export function manifestSlugs(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const lessons = typeof parsed === "object" && parsed !== null && "lessons" in parsed
    ? parsed.lessons
    : undefined;
  if (typeof lessons !== "object" || lessons === null) return [];
  const slugs: string[] = [];
  for (const lesson of Object.values(lessons)) {
    const slug = typeof lesson === "object" && lesson !== null && "slug" in lesson
      ? lesson.slug
      : undefined;
    if (typeof slug === "string") slugs.push(slug);
  }
  return slugs;
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
export function rearmDedup(paths: DedupPaths, slugs: readonly string[]): RearmResult {
  const result: RearmResult = { forgotten: [], seenFileRemoved: false, problems: [] };
  // The seen file is one of the three layers the hook merges; unlink never follows a symlink.
  try {
    const info = Deno.lstatSync(paths.seenFile);
    if (info.isFile || info.isSymlink) {
      Deno.removeSync(paths.seenFile);
      result.seenFileRemoved = true;
    } else result.problems.push(`${paths.seenFile} is not a file; left alone`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      result.problems.push(`${paths.seenFile}: ${messageOf(error)}`);
    }
  }
  let dir: Deno.FileInfo;
  try {
    dir = Deno.lstatSync(paths.claimDir);
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
      Deno.removeSync(join(paths.claimDir, slug));
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

/**
 * After a refresh naming `fired`: re-arms when one of them is in `rearmAt` and the call is the
 * main thread's, for the lessons of `manifest` (the file the refresh was built from). Undefined
 * when not due. Never throws.
 */
export function rearmAfterRefresh(
  fired: readonly number[],
  session: { sessionId: string; subagent: boolean },
  manifest: string,
  settings: { rearmDedupAt: readonly number[]; lessonsLearnedTmp: string },
): RearmResult | undefined {
  if (!rearmDue(fired, settings.rearmDedupAt, session.subagent)) return undefined;
  let text: string;
  try {
    text = Deno.readTextFileSync(manifest);
  } catch (error) {
    return {
      forgotten: [],
      seenFileRemoved: false,
      problems: [`${manifest}: ${messageOf(error)}`],
    };
  }
  const digest = sha256Hex(session.sessionId).slice(0, 16);
  return rearmDedup(dedupPaths(settings.lessonsLearnedTmp, digest), manifestSlugs(text));
}
