/**
 * lessons-learned's `lesson-manifest.json` as read here; one bad lesson never hides the rest.
 * Checked by hand: through zod, reading 100 lessons was a third of a firing call's instructions,
 * and zod's code a sixth of the hook's bundle (docs/maintainers/benchmarks.md).
 */
import { fieldOf, isObject, isString } from "./guards.ts";

/** One lesson record; unknown fields are kept and ignored. */
export interface Lesson {
  slug: string;
  type: string; // directive, protocol (session start), hint, guard (PreToolUse), reminder
  priority?: number | null;
  message: string;
  summary?: string | null;
  // Session start counts their lengths against its budget; any other value counts as none.
  problem?: unknown;
  solution?: unknown;
  tags?: string[] | null;
  scope?: string | null;
  disabled?: boolean | null;
}

/** A field's name, what it must be (in words), and the check. */
type Field = [string, string, (value: unknown) => boolean];

const absentNullOr = (check: (value: unknown) => boolean) => (value: unknown) =>
  value === undefined || value === null || check(value);

const ENVELOPE: Field[] = [
  ["type", '"lessons-learned-manifest"', (value) => value === "lessons-learned-manifest"],
  ["version", "1", (value) => value === 1],
  ["lessons", "an object of lessons by id", isObject],
];

const LESSON: Field[] = [
  ["slug", "a string", isString],
  ["type", "a string", isString],
  ["priority", "a number or null", absentNullOr(Number.isFinite)],
  ["message", "a string", isString],
  ["summary", "a string or null", absentNullOr(isString)],
  ["tags", "a list of strings or null", absentNullOr((v) => Array.isArray(v) && v.every(isString))],
  ["scope", "a string or null", absentNullOr(isString)],
  ["disabled", "true, false or null", absentNullOr((v) => typeof v === "boolean")],
];

/** What `value` gets wrong of `fields`: `no "type"`, `"version" is not 1`. */
function problemsOf(value: unknown, fields: Field[]): string[] {
  if (!isObject(value)) {
    const what = Array.isArray(value) ? "a list" : value === null ? "null" : `a ${typeof value}`;
    return [`${what}, not an object`];
  }
  return fields.filter(([name, , ok]) => !ok(fieldOf(value, name))).map(([name, shape]) =>
    Object.hasOwn(value, name) ? `"${name}" is not ${shape}` : `no "${name}"`
  );
}

/** What the manifest's envelope gets wrong (`no "type"; "version" is not 1`), "" when nothing. */
export const manifestProblem = (raw: unknown) => problemsOf(raw, ENVELOPE).join("; ");

/** What is wrong with the lesson record `value`, one line each; none for a lesson. */
export const lessonProblems = (value: unknown) => problemsOf(value, LESSON);
