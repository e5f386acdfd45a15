/**
 * Re-arms lessons-learned's PreToolUse dedup (setting `rearmDedupAt`, off by default:
 * docs/maintainers/prd-departures.md): that hook shows each tool lesson once per session; after a
 * refresh at a chosen threshold, forgetting its records lets a lesson seen early fire again.
 */
import { join } from "../core/path.ts";
import { fieldOf } from "../schemas/guards.ts";
import { messageOf } from "../core/errors.ts";
import { sha256Hex } from "../core/sha256.ts";

/** What a re-arm did: `forgotten`, slugs whose claim file was removed; `problems`, one line each. */
export type RearmResult = NonNullable<ReturnType<typeof rearmAfterRefresh>>;

/**
 * After a main-thread refresh naming a threshold of `rearmDedupAt` (the dedup is per session, so
 * a subagent's must not re-arm it): forgets what PreToolUse showed this session of `manifest`'s
 * lessons only. Never follows a symlinked claim folder, never throws. Undefined when not due.
 */
export function rearmAfterRefresh(
  fired: readonly number[],
  session: { sessionId: string; subagent: boolean },
  manifest: string,
  settings: { rearmDedupAt: readonly number[]; lessonsLearnedTmp: string },
) {
  if (session.subagent || !fired.some((t) => settings.rearmDedupAt.includes(t))) return undefined;
  const result = { forgotten: [] as string[], seenFileRemoved: false, problems: [] as string[] };
  const failed = (path: string, error: unknown) => {
    if (!(error instanceof Deno.errors.NotFound)) {
      result.problems.push(`${path}: ${messageOf(error)}`);
    }
  };
  let text: string;
  try {
    text = Deno.readTextFileSync(manifest);
  } catch (error) {
    result.problems.push(`${manifest}: ${messageOf(error)}`);
    return result;
  }
  // As lessons-learned's hooks/lib/dedup.mjs names them: `lessons-<sha256(session)[:16]>-seen`,
  // a `.txt` of comma-separated slugs and a `.d` folder of one empty file per claimed slug.
  const seen = `lessons-${sha256Hex(session.sessionId).slice(0, 16)}-seen`;
  const base = join(settings.lessonsLearnedTmp, seen);
  // The seen file is one of the three layers the hook merges; unlink never follows a symlink.
  try {
    const info = Deno.lstatSync(`${base}.txt`);
    if (info.isFile || info.isSymlink) {
      Deno.removeSync(`${base}.txt`);
      result.seenFileRemoved = true;
    } else result.problems.push(`${base}.txt is not a file; left alone`);
  } catch (error) {
    failed(`${base}.txt`, error);
  }
  try {
    if (!Deno.lstatSync(`${base}.d`).isDirectory) {
      result.problems.push(`${base}.d is not a folder; left alone`);
      return result;
    }
  } catch (error) {
    failed(`${base}.d`, error);
    return result;
  }
  for (const slug of new Set(slugsOf(text))) {
    // A slug is a file name in that folder; anything that could leave it is not one.
    if (slug === "" || slug === "." || slug === ".." || /[/\\\0]/.test(slug)) continue;
    try {
      Deno.removeSync(join(`${base}.d`, slug));
      result.forgotten.push(slug);
    } catch (error) {
      failed(join(`${base}.d`, slug), error);
    }
  }
  result.forgotten.sort();
  return result;
}

/** The slug of every lesson in a manifest's text, any type. */
function slugsOf(text: string): string[] {
  let lessons: unknown;
  try {
    lessons = fieldOf(JSON.parse(text), "lessons");
  } catch {
    return [];
  }
  if (typeof lessons !== "object" || lessons === null) return [];
  return Object.values(lessons).map((l) => fieldOf(l, "slug"))
    .filter((slug): slug is string => typeof slug === "string");
}
