/**
 * Picks the lessons a refresh restates: directives and protocols that are enabled and in scope,
 * validated one by one from a parsed manifest.
 */
import {
  type Lesson,
  LessonSchema,
  MANIFEST_TYPE,
  MANIFEST_VERSION,
  ManifestSchema,
} from "../schemas/manifest.ts";

/** A lesson ready to render. */
export interface RefreshLesson {
  id: string;
  slug: string;
  kind: "directive" | "protocol";
  priority: number;
  message: string;
  summary: string;
  tag: string | undefined;
}

export interface LessonSelection {
  lessons: RefreshLesson[];
  /** `id: what was wrong`, for each lesson that failed validation. */
  invalid: string[];
}

/** Lessons without a priority sort as the lessons-learned plugin does: 5. */
const DEFAULT_PRIORITY = 5;
const SUMMARY_LIMIT = 120;

/**
 * The lessons-learned plugin's project id for a folder: `/a/b` becomes `a-b`. Lessons scoped to a
 * project carry this id; the `-a-b` folder-name form and the plain path are accepted too.
 */
export function projectIdsFor(folder: string | undefined): string[] {
  if (!folder) return [];
  const dashed = folder.replace(/[\\/:]/g, "-");
  return [dashed.replace(/^-+/, ""), dashed, folder];
}

/**
 * Validates `raw` as a manifest and returns its enabled, in-scope directives and protocols.
 * Throws `TypeError` when the envelope itself is not a lessons-learned manifest.
 */
export function selectLessons(raw: unknown, projectIds: readonly string[]): LessonSelection {
  const envelope = ManifestSchema.safeParse(raw);
  if (!envelope.success) {
    throw new TypeError(`not a lessons-learned manifest (${envelopeProblem(raw)})`);
  }
  const lessons: RefreshLesson[] = [];
  const invalid: string[] = [];
  for (const [id, value] of Object.entries(envelope.data.lessons)) {
    const parsed = LessonSchema.safeParse(value);
    if (!parsed.success) {
      invalid.push(`${id}: ${parsed.error.issues.map(describeIssue).join("; ")}`);
      continue;
    }
    const lesson = parsed.data;
    if (lesson.type !== "directive" && lesson.type !== "protocol") continue;
    if (lesson.disabled === true) continue;
    if (!inScope(lesson, projectIds)) continue;
    lessons.push(toRefreshLesson(id, lesson, lesson.type));
  }
  return { lessons, invalid };
}

function inScope(lesson: Lesson, projectIds: readonly string[]): boolean {
  const scope = lesson.scope;
  return scope === undefined || scope === null || projectIds.includes(scope);
}

function toRefreshLesson(id: string, lesson: Lesson, kind: RefreshLesson["kind"]): RefreshLesson {
  const message = lesson.message.trim();
  const summary = lesson.summary?.trim() || firstLine(message);
  return {
    id,
    slug: lesson.slug,
    kind,
    priority: lesson.priority ?? DEFAULT_PRIORITY,
    message,
    summary,
    tag: lesson.tags?.[0],
  };
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  return line.length > SUMMARY_LIMIT ? `${line.slice(0, SUMMARY_LIMIT - 1)}…` : line;
}

/** What the manifest's envelope lacks, in the manifest's own terms (zod says "Invalid input"). */
function envelopeProblem(raw: unknown): string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return `${Array.isArray(raw) ? "a list" : raw === null ? "null" : `a ${typeof raw}`}, ` +
      "not an object";
  }
  const has = (key: string) => Object.hasOwn(raw, key);
  const value = (key: string): unknown => Object.getOwnPropertyDescriptor(raw, key)?.value;
  const wrong: string[] = [];
  const expect = (key: string, ok: boolean, shape: string) => {
    if (!has(key)) wrong.push(`no "${key}"`);
    else if (!ok) wrong.push(`"${key}" is not ${shape}`);
  };
  expect("type", value("type") === MANIFEST_TYPE, `"${MANIFEST_TYPE}"`);
  expect("version", value("version") === MANIFEST_VERSION, String(MANIFEST_VERSION));
  const lessons = value("lessons");
  expect(
    "lessons",
    typeof lessons === "object" && lessons !== null && !Array.isArray(lessons),
    "an object of lessons by id",
  );
  return wrong.join("; ");
}

function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  const where = issue.path.map(String).join(".");
  return where ? `${where}: ${issue.message}` : issue.message;
}
