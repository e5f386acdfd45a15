/** A manifest's lessons, validated one by one so that one bad lesson never hides the good. */
import { firstLine } from "./render_rules.ts";
import { LessonSchema, ManifestSchema } from "../schemas/manifest.ts";
import { MANIFEST_TYPE, MANIFEST_VERSION } from "../schemas/manifest.ts";

export interface RefreshLesson {
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

/** The ids a lesson scoped to the project at `folder` may carry: `a-b`, `-a-b`, `/a/b`. */
export function projectIdsFor(folder: string | undefined): string[] {
  if (!folder) return [];
  const dashed = folder.replace(/[\\/:]/g, "-");
  return [dashed.replace(/^-+/, ""), dashed, folder];
}

/** The lessons of manifest `raw` unscoped or scoped to `projectIds`; `TypeError` if no manifest. */
export function selectLessons(raw: unknown, projectIds: readonly string[]): LessonSelection {
  const envelope = ManifestSchema.safeParse(raw);
  if (!envelope.success) {
    throw new TypeError(`not a lessons-learned manifest (${envelopeProblem(raw)})`);
  }
  const selection: LessonSelection = { lessons: [], invalid: [] };
  for (const [id, value] of Object.entries(envelope.data.lessons)) {
    const parsed = LessonSchema.safeParse(value);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) =>
        i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message
      );
      selection.invalid.push(`${id}: ${issues.join("; ")}`);
      continue;
    }
    const { type, disabled, scope, slug, priority, summary, tags } = parsed.data;
    if ((type !== "directive" && type !== "protocol") || disabled === true) continue;
    if (scope !== undefined && scope !== null && !projectIds.includes(scope)) continue;
    const message = parsed.data.message.trim();
    selection.lessons.push({
      slug,
      kind: type,
      // Without a priority a lesson sorts as the lessons-learned plugin sorts it.
      priority: priority ?? 5,
      message,
      summary: summary?.trim() || firstLine(message),
      tag: tags?.[0],
    });
  }
  return selection;
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
