/**
 * The manifest's lessons in the session-start layout within a character budget: directives, then
 * protocols; grouped by first tag; highest priority first; whole messages while they fit. Strings
 * are ordered by UTF-16 code unit, not by locale: no ICU to load, the same order on every machine.
 */
import type { RefreshLesson } from "./lessons.ts";
import { INLINE_LIMIT } from "./claude_code.ts";

type Form = "whole" | "summary" | "omitted";
type Kind = RefreshLesson["kind"];

export interface RenderedRefresh {
  text: string;
  /** What went in whole, as its first line, or not at all: ids and slugs, most important first. */
  whole: string[];
  summarized: string[];
  omitted: string[];
}

const INTROS: Record<Kind, string> = {
  directive:
    "## Non-Negotiable Directives\n\n<IMPORTANT>\nThese are non-negotiable rules derived " +
    "from real failures with measurable cost. Applying them is not optional.\n</IMPORTANT>",
  protocol:
    "## Active Protocols\n\nThese protocols capture hard-won coordination patterns. Apply " +
    "them before starting work in the relevant context.",
};
const UNTAGGED = "(untagged)";
const JOIN = 2; // "\n\n" between parts and between blocks
const SUMMARY_LIMIT = 120;

/** `maxChars` as a budget: a whole number, never above Claude Code's inline limit. */
export function budgetOf(maxChars: number): number {
  return Math.min(Math.max(0, Math.floor(maxChars)), INLINE_LIMIT);
}

/**
 * The line that stands for a text cut short: its first non-blank line that is not a Markdown
 * heading (else its first heading), at most 120 characters.
 *
 * @example
 * ```ts
 * firstLine("# Git\n\nNever force-push.\nMore."); // "Never force-push."
 * ```
 */
export function firstLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const line = lines.find((l) => !l.startsWith("#")) ?? lines[0] ?? "";
  return line.length > SUMMARY_LIMIT ? `${line.slice(0, SUMMARY_LIMIT - 1)}…` : line;
}

/**
 * Lays out `lessons` under `header` within `maxChars` ({@link budgetOf}). Lessons get their whole
 * message in priority order while it fits, else their summary line; when even the summaries do
 * not fit, the lowest-priority lessons are left out and counted.
 */
export function renderRefresh(
  header: string,
  lessons: readonly RefreshLesson[],
  maxChars: number,
): RenderedRefresh {
  const limit = budgetOf(maxChars);
  const ranked = [...lessons].sort((a, b) =>
    b.priority - a.priority || codeUnitOrder(a.slug, b.slug)
  );
  // The text's length with the first k lessons as summary lines and the rest left out, for
  // every k, in one pass: fitting is linear in the lessons, with no layout per try.
  const sections = new Map<Kind, { blocks: number; tags: Set<string>; headings: number }>();
  const lengthWith = (shown: number) => {
    let length = header.length + 1;
    if (shown < ranked.length) length += JOIN + omittedNote(ranked.length - shown, limit).length;
    for (const [kind, s] of sections) {
      length += JOIN + INTROS[kind].length + s.blocks + (s.tags.size > 1 ? s.headings : 0);
    }
    return length;
  };
  const lengths = [lengthWith(0)];
  ranked.forEach((lesson, i) => {
    const section = sections.get(lesson.kind) ?? { blocks: 0, tags: new Set(), headings: 0 };
    sections.set(lesson.kind, section);
    const tag = lesson.tag ?? UNTAGGED;
    section.blocks += JOIN + 2 + lesson.summary.length;
    if (!section.tags.has(tag)) section.headings += JOIN + 4 + tag.length;
    section.tags.add(tag);
    lengths.push(lengthWith(i + 1));
  });

  const whole = new Set<RefreshLesson>();
  let shown = ranked.length;
  let length = lengths[shown]!;
  if (length <= limit) {
    // Every summary fits: a message in place of its summary changes the length by the difference.
    for (const lesson of ranked) {
      const grown = length + lesson.message.length - 2 - lesson.summary.length;
      if (grown > limit) continue;
      length = grown;
      whole.add(lesson);
    }
  } else {
    shown = 0;
    while (shown < ranked.length && lengths[shown + 1]! <= limit) shown++;
  }
  const formOf = (lesson: RefreshLesson, i: number): Form =>
    i >= shown ? "omitted" : whole.has(lesson) ? "whole" : "summary";
  const forms = new Map(ranked.map((lesson, i) => [lesson, formOf(lesson, i)]));
  const slugs = (form: Form) => ranked.filter((l) => forms.get(l) === form).map((l) => l.slug);
  return {
    // A header longer than the budget is the only way to get here over it: cut, never overflow.
    text: layout(header, ranked, forms, limit).slice(0, limit),
    whole: slugs("whole"),
    summarized: slugs("summary"),
    omitted: slugs("omitted"),
  };
}

function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function blockOf(lesson: RefreshLesson, form: Form): string {
  return form === "whole" ? lesson.message : `- ${lesson.summary}`;
}

function omittedNote(omitted: number, limit: number): string {
  return `(${omitted} more ${omitted === 1 ? "lesson" : "lessons"} left out to stay within ` +
    `${limit} characters.)`;
}

function layout(
  header: string,
  ranked: readonly RefreshLesson[],
  forms: ReadonlyMap<RefreshLesson, Form>,
  limit: number,
): string {
  const parts = [header];
  for (const kind of ["directive", "protocol"] as const) {
    const groups = new Map<string, RefreshLesson[]>();
    for (const lesson of ranked) {
      if (lesson.kind !== kind || forms.get(lesson) === "omitted") continue;
      const tag = lesson.tag ?? UNTAGGED;
      const group = groups.get(tag);
      if (group) group.push(lesson);
      else groups.set(tag, [lesson]);
    }
    if (groups.size === 0) continue;
    const blocks = [INTROS[kind]];
    // Tags in code-unit order, untagged last; priority order within a tag.
    const sorted = [...groups].sort(([a], [b]) =>
      a === UNTAGGED ? 1 : b === UNTAGGED ? -1 : codeUnitOrder(a, b)
    );
    for (const [tag, group] of sorted) {
      if (sorted.length > 1) blocks.push(`### ${tag}`);
      for (const lesson of group) blocks.push(blockOf(lesson, forms.get(lesson)!));
    }
    parts.push(blocks.join("\n\n"));
  }
  const omitted = ranked.filter((l) => forms.get(l) === "omitted").length;
  if (omitted > 0) parts.push(omittedNote(omitted, limit));
  return parts.join("\n\n") + "\n";
}
