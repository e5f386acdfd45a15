/**
 * Which directives and protocols lessons-learned's session start shows, and in what order, as its
 * `hooks/session-start-lesson-protocol.mjs` behaves at commit 468d378 (2026-10-05): written from
 * that behaviour, so that a refresh restates exactly what the model was given. Pure.
 */
import { fieldOf } from "../schemas/guards.ts";

/** lessons-learned's `reminder` (9ad9b12): fired from tool output, never shown at session start. */
export const REMINDER_TYPE = "reminder";

/** Why session start leaves an active lesson out. */
export type SessionStartCut = "session-start-cap" | "session-start-budget";

/**
 * Session start's own limits, from the manifest's `config`: `maxSessionStartLessons` (20 when
 * missing or not a number) and `sessionStartBudgetBytes` (8192), the summed lengths of `summary`,
 * `problem` and `solution` it shows.
 */
export function limitsOf(config: unknown) {
  const field = (key: string, fallback: number) => {
    const value = fieldOf(config, key);
    return typeof value === "number" && Number.isFinite(value) ? value : fallback;
  };
  return {
    maxLessons: field("maxSessionStartLessons", 20),
    budget: field("sessionStartBudgetBytes", 8192),
  };
}

/** The project a `scope` names: the folder with `/` written as `-`, one leading `-` dropped. */
export function projectIdOf(folder: string | undefined): string | undefined {
  return folder ? folder.replaceAll("/", "-").replace(/^-/, "") : undefined;
}

/** The length `summary`, `problem` or `solution` adds to a lesson's size (0 when not text). */
export function sizeOf(...fields: unknown[]): number {
  return fields.reduce<number>((sum, f) => sum + (typeof f === "string" ? f.length : 0), 0);
}

/**
 * Of the lessons that passed the type, `disabled` and scope filters, in manifest order: by priority
 * (ties in manifest order), each taken while fewer than `maxLessons` are and its size ({@link
 * sizeOf}) fits what is left of `budget`, else passed over; `cut` says why each other one is out.
 */
export function selectForSessionStart<T extends { priority: number; size: number }>(
  candidates: readonly T[],
  limits: ReturnType<typeof limitsOf>,
): { shown: T[]; cut: { lesson: T; why: SessionStartCut }[] } {
  const ranked = byPriority(candidates);
  const shown: T[] = [];
  const cut: { lesson: T; why: SessionStartCut }[] = [];
  let used = 0;
  for (const lesson of ranked) {
    if (shown.length >= limits.maxLessons) {
      cut.push({ lesson, why: "session-start-cap" });
    } else if (used + lesson.size > limits.budget) {
      cut.push({ lesson, why: "session-start-budget" });
    } else {
      shown.push(lesson);
      used += lesson.size;
    }
  }
  return { shown, cut };
}

/** Highest priority first; equal priorities keep their order (`Array.prototype.sort` is stable). */
export function byPriority<T extends { priority: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.priority - a.priority);
}

/** ICU root collation's order of ASCII (letters by their lowercase); other controls are ignored. */
const ROOT_ORDER =
  "\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";

/** Languages whose collation orders ASCII as the root does (checked against ICU by a test). */
export const ROOT_ASCII = /^(?:en|de|es|fr|it|ja|ko|nl|pl|pt|ru|sv|uk|zh)(?:-(?!u-)[0-9A-Za-z]+)*$/;

/** A character's primary weight: its place in `ROOT_ORDER`, 0 when ignorable. */
const primary = (c: number) =>
  ROOT_ORDER.indexOf(String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c)) + 1;
/** A letter's case, the only tertiary difference in ASCII: lowercase first. */
const tertiary = (c: number) => (c >= 65 && c <= 90 ? 2 : 1);

/** `a` and `b` compared by `weight` of their characters, the ignorable ones skipped. */
function byWeight(a: string, b: string, weight: (c: number) => number): number {
  const next = (s: string, i: number) => {
    while (i < s.length && primary(s.charCodeAt(i)) === 0) i++;
    return i;
  };
  let [i, j] = [next(a, 0), next(b, 0)];
  for (; i < a.length && j < b.length; i = next(a, i + 1), j = next(b, j + 1)) {
    const d = weight(a.charCodeAt(i)) - weight(b.charCodeAt(j));
    if (d !== 0) return Math.sign(d);
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}

/** The process's locale, as `localeCompare` uses it; PluralRules finds it without the collator. */
export const defaultLocale = () => new Intl.PluralRules().resolvedOptions().locale;

/**
 * `a.localeCompare(b)`'s sign, as session start orders its tag groups. ASCII tags in a locale that
 * orders ASCII as ICU's root does are compared here, level by level (letters, then case), which a
 * test proves equal: the collator's first use costs about 7 ms.
 */
export function tagOrder(a: string, b: string, locale = defaultLocale()): number {
  // deno-lint-ignore no-control-regex
  const ascii = /^[\x00-\x7f]*$/;
  if (!ROOT_ASCII.test(locale) || !ascii.test(a) || !ascii.test(b)) {
    return Math.sign(a.localeCompare(b, locale));
  }
  return byWeight(a, b, primary) || byWeight(a, b, tertiary);
}
