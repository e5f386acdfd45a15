/**
 * Renders a refresh in the session-start format within a character budget: directives, then
 * protocols; grouped by first tag; highest priority first; whole messages while they fit.
 * Strings are ordered by UTF-16 code unit (`<`), not by locale: no ICU on the hot path, and the
 * same order on every machine ("Zeta" before "alpha"). Fitting is linear in the lessons: each
 * change of a lesson's form updates a running length; the text is laid out once.
 */
import type { RefreshLesson } from "./lessons.ts";
import { INLINE_LIMIT } from "./claude_code.ts";

type Form = "whole" | "summary" | "omitted";

export interface RenderedRefresh {
  text: string;
  /** Slugs by how they appear. */
  whole: string[];
  summarized: string[];
  omitted: string[];
}

const DIRECTIVES_INTRO = "## Non-Negotiable Directives\n\n<IMPORTANT>\nThese are non-negotiable " +
  "rules derived from real failures with measurable cost. Applying them is not optional.\n" +
  "</IMPORTANT>\n";
const PROTOCOLS_INTRO = "## Active Protocols\n\nThese protocols capture hard-won coordination " +
  "patterns. Apply them before starting work in the relevant context.\n";
const UNTAGGED = "(untagged)";

/**
 * Lays out `lessons` under `header` in at most `maxChars` characters (never above
 * {@link INLINE_LIMIT}). Lessons get their whole message in priority order while it fits, else
 * their summary line; when even the summaries do not fit, the lowest-priority lessons are left out
 * and counted.
 */
export function renderRefresh(
  header: string,
  lessons: readonly RefreshLesson[],
  maxChars: number,
): RenderedRefresh {
  const limit = Math.min(Math.max(0, Math.floor(maxChars)), INLINE_LIMIT);
  const ranked = [...lessons].sort(byPriority);
  const forms = new Map<RefreshLesson, Form>(ranked.map((l) => [l, "summary"]));
  const size = new LayoutLength(header, ranked, limit);
  const set = (lesson: RefreshLesson, form: Form) => {
    size.change(lesson, forms.get(lesson)!, form);
    forms.set(lesson, form);
  };
  const fits = () => size.total() <= limit;

  if (fits()) {
    for (const lesson of ranked) {
      set(lesson, "whole");
      if (!fits()) set(lesson, "summary");
    }
  } else {
    for (const lesson of ranked) set(lesson, "omitted");
    for (const lesson of ranked) {
      set(lesson, "summary");
      if (!fits()) {
        set(lesson, "omitted");
        break;
      }
    }
  }
  const text = layout(header, ranked, forms, limit);
  const slugsOf = (form: Form) => ranked.filter((l) => forms.get(l) === form).map((l) => l.slug);
  return {
    // A header longer than the budget is the only way to get here over it: cut, never overflow.
    text: text.length <= limit ? text : text.slice(0, limit),
    whole: slugsOf("whole"),
    summarized: slugsOf("summary"),
    omitted: slugsOf("omitted"),
  };
}

/** Code-unit order: `localeCompare` would initialise ICU in every fresh process. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byPriority(a: RefreshLesson, b: RefreshLesson): number {
  return b.priority - a.priority || compareCodeUnits(a.slug, b.slug);
}

const JOIN = 2; // "\n\n" between parts and between blocks

/** One section's share of the running length: its shown lessons, by group. */
class SectionLength {
  shown = 0;
  blocks = 0;
  groups = new Map<string, number>();
  /** Sum of `### tag` heading lengths (plus their joins) over the non-empty groups. */
  headings = 0;
  constructor(readonly intro: number) {}

  add(tag: string, block: number, sign: 1 | -1): void {
    this.shown += sign;
    this.blocks += sign * (JOIN + block);
    const before = this.groups.get(tag) ?? 0;
    const after = before + sign;
    this.groups.set(tag, after);
    if (before === 0 || after === 0) this.headings += sign * (JOIN + 4 + tag.length);
    if (after === 0) this.groups.delete(tag);
  }

  /** The section's part of the text, with its join, or 0 when it shows nothing. */
  length(): number {
    if (this.shown === 0) return 0;
    return JOIN + this.intro + this.blocks + (this.groups.size > 1 ? this.headings : 0);
  }
}

/**
 * The length {@link layout} would give, kept up to date as lessons change form: O(1) a change,
 * so fitting n lessons costs O(n) instead of n layouts.
 */
class LayoutLength {
  readonly #directives = new SectionLength(DIRECTIVES_INTRO.trimEnd().length);
  readonly #protocols = new SectionLength(PROTOCOLS_INTRO.trimEnd().length);
  #omitted = 0;

  constructor(
    readonly header: string,
    ranked: readonly RefreshLesson[],
    readonly limit: number,
  ) {
    for (const lesson of ranked) this.#show(lesson, "summary", 1);
  }

  change(lesson: RefreshLesson, from: Form, to: Form): void {
    if (from === to) return;
    this.#show(lesson, from, -1);
    this.#show(lesson, to, 1);
  }

  #show(lesson: RefreshLesson, form: Form, sign: 1 | -1): void {
    if (form === "omitted") {
      this.#omitted += sign;
      return;
    }
    const section = lesson.kind === "directive" ? this.#directives : this.#protocols;
    section.add(lesson.tag ?? UNTAGGED, blockOf(lesson, form).length, sign);
  }

  total(): number {
    const note = this.#omitted > 0 ? JOIN + omittedNote(this.#omitted, this.limit).length : 0;
    return this.header.length + this.#directives.length() + this.#protocols.length() + note + 1;
  }
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
  const shown = ranked.filter((l) => forms.get(l) !== "omitted");
  const parts = [header];
  const directives = shown.filter((l) => l.kind === "directive");
  const protocols = shown.filter((l) => l.kind === "protocol");
  if (directives.length > 0) parts.push(section(DIRECTIVES_INTRO, directives, forms));
  if (protocols.length > 0) parts.push(section(PROTOCOLS_INTRO, protocols, forms));
  const omitted = ranked.length - shown.length;
  if (omitted > 0) parts.push(omittedNote(omitted, limit));
  return parts.join("\n\n") + "\n";
}

function section(
  intro: string,
  lessons: readonly RefreshLesson[],
  forms: ReadonlyMap<RefreshLesson, Form>,
): string {
  const groups = groupByFirstTag(lessons);
  const blocks = [intro.trimEnd()];
  for (const [tag, group] of groups) {
    if (groups.length > 1) blocks.push(`### ${tag}`);
    for (const lesson of group) {
      blocks.push(blockOf(lesson, forms.get(lesson) === "whole" ? "whole" : "summary"));
    }
  }
  return blocks.join("\n\n");
}

/** Groups by first tag, alphabetically, untagged last; order within a group is kept. */
function groupByFirstTag(lessons: readonly RefreshLesson[]): [string, RefreshLesson[]][] {
  const groups = new Map<string, RefreshLesson[]>();
  for (const lesson of lessons) {
    const key = lesson.tag ?? UNTAGGED;
    const group = groups.get(key);
    if (group) group.push(lesson);
    else groups.set(key, [lesson]);
  }
  return [...groups.entries()].sort(([a], [b]) => {
    if (a === UNTAGGED) return 1;
    if (b === UNTAGGED) return -1;
    return compareCodeUnits(a, b);
  });
}
