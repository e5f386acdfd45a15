/**
 * A manifest's lessons, validated one by one so that one bad lesson never hides the good, and
 * selected as lessons-learned's session start selects them (session_start.ts).
 */
import { firstLine } from "./first_line.ts";
import { LessonSchema, ManifestSchema } from "../schemas/manifest.ts";
import { MANIFEST_TYPE, MANIFEST_VERSION } from "../schemas/manifest.ts";
import { limitsOf, REMINDER_TYPE, selectForSessionStart, sizeOf } from "./session_start.ts";
import type { SessionStartCut } from "./session_start.ts";

export interface RefreshLesson {
  slug: string;
  kind: "directive" | "protocol";
  priority: number;
  message: string;
  summary: string;
  tag: string | undefined;
}

/**
 * Why an active lesson is not restated; `refresh-budget`: the refresh's own budget; `unread`: a
 * rule of the user's own that could not be read (a section never closed).
 */
export const LEFT_OUT_WHY = [
  "scope",
  "session-start-cap",
  "session-start-budget",
  "refresh-budget",
  REMINDER_TYPE,
  "unread",
] as const satisfies readonly (
  "scope" | SessionStartCut | "refresh-budget" | "reminder" | "unread"
)[];
export type LeftOutWhy = typeof LEFT_OUT_WHY[number];

/** A lesson (by slug) or a rule block (by id) that a refresh leaves out, and why. */
export interface LeftOut {
  id: string;
  why: LeftOutWhy;
}

/** What {@link selectLessons} chose, and why it left out the rest. */
export type LessonSelection = ReturnType<typeof selectLessons>;

/**
 * The lessons of manifest `raw` that lessons-learned's session start shows in the project
 * `projectId` (session_start.ts `projectIdOf`), and why each other active one is not; `TypeError`
 * if `raw` is no manifest. Unlike lessons-learned's own schema, unknown fields are accepted.
 */
export function selectLessons(raw: unknown, projectId: string | undefined) {
  const envelope = ManifestSchema.safeParse(raw);
  if (!envelope.success) {
    throw new TypeError(`not a lessons-learned manifest (${envelopeProblem(raw)})`);
  }
  const limits = limitsOf(envelope.data.config);
  const left: LeftOut[] = [];
  const invalid: string[] = [];
  const candidates: (RefreshLesson & { id: string; size: number })[] = [];
  for (const [id, value] of Object.entries(envelope.data.lessons)) {
    const parsed = LessonSchema.safeParse(value);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) =>
        i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message
      );
      invalid.push(`${id}: ${issues.join("; ")}`);
      continue;
    }
    const { type, disabled, scope, slug, priority, summary, tags } = parsed.data;
    const reminder = type === REMINDER_TYPE;
    if ((type !== "directive" && type !== "protocol" && !reminder) || disabled === true) continue;
    const elsewhere = scope !== undefined && scope !== null && scope !== projectId;
    if (elsewhere || reminder) {
      left.push({ id: slug, why: elsewhere ? "scope" : REMINDER_TYPE });
      continue;
    }
    const message = parsed.data.message.trim();
    const size = sizeOf(summary, parsed.data.problem, parsed.data.solution);
    const short = summary?.trim() || firstLine(message);
    // Without a priority a lesson sorts as the lessons-learned plugin sorts it.
    const fields = { priority: priority ?? 5, message, summary: short, tag: tags?.[0] };
    candidates.push({ id: slug, size, slug, kind: type, ...fields });
  }
  const { shown, cut } = selectForSessionStart(candidates, limits);
  return {
    /** What session start shows, in its order: priority, highest first, ties in manifest order. */
    lessons: shown.map(({ id: _id, size: _size, ...lesson }): RefreshLesson => lesson),
    /** Active lessons session start leaves out: another project's, past its cap or budget, reminders. */
    left: [...left, ...cut.map(({ lesson, why }): LeftOut => ({ id: lesson.slug, why }))],
    limits,
    /** `id: what was wrong`, for each lesson that failed validation. */
    invalid,
  };
}

/** What the manifest's envelope lacks, in the manifest's own terms (zod says "Invalid input"). */
function envelopeProblem(raw: unknown): string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const what = Array.isArray(raw) ? "a list" : raw === null ? "null" : `a ${typeof raw}`;
    return `${what}, not an object`;
  }
  const value = (key: string): unknown => Object.getOwnPropertyDescriptor(raw, key)?.value;
  const lessons = value("lessons");
  const isObject = typeof lessons === "object" && lessons !== null && !Array.isArray(lessons);
  const expected: [string, boolean, string][] = [
    ["type", value("type") === MANIFEST_TYPE, `"${MANIFEST_TYPE}"`],
    ["version", value("version") === MANIFEST_VERSION, String(MANIFEST_VERSION)],
    ["lessons", isObject, "an object of lessons by id"],
  ];
  return expected.filter(([, ok]) => !ok)
    .map(([key, , shape]) => Object.hasOwn(raw, key) ? `"${key}" is not ${shape}` : `no "${key}"`)
    .join("; ");
}
