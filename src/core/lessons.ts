/**
 * A manifest's lessons, validated one by one so that one bad lesson never hides the good, and
 * selected as lessons-learned's session start selects them (session_start.ts).
 */
import { firstLine } from "./first_line.ts";
import { type Lesson, lessonProblems, manifestProblem } from "../schemas/manifest.ts";
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
  const problem = manifestProblem(raw);
  if (problem !== "") throw new TypeError(`not a lessons-learned manifest (${problem})`);
  const envelope = raw as { lessons: Record<string, unknown>; config?: unknown };
  const limits = limitsOf(envelope.config);
  const left: LeftOut[] = [];
  const invalid: string[] = [];
  const candidates: (RefreshLesson & { id: string; size: number })[] = [];
  for (const [id, value] of Object.entries(envelope.lessons)) {
    const problems = lessonProblems(value);
    if (problems.length > 0) {
      invalid.push(`${id}: ${problems.join("; ")}`);
      continue;
    }
    const lesson = value as Lesson;
    const { type, disabled, scope, slug, priority, summary, tags } = lesson;
    const reminder = type === REMINDER_TYPE;
    if ((type !== "directive" && type !== "protocol" && !reminder) || disabled === true) continue;
    const elsewhere = scope !== undefined && scope !== null && scope !== projectId;
    if (elsewhere || reminder) {
      left.push({ id: slug, why: elsewhere ? "scope" : REMINDER_TYPE });
      continue;
    }
    const message = lesson.message.trim();
    const size = sizeOf(summary, lesson.problem, lesson.solution);
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
