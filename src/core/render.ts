/**
 * Renders a refresh in the session-start format within a character budget: directives, then
 * protocols; grouped by first tag; highest priority first; whole messages while they fit.
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
  const fits = () => layout(header, ranked, forms, limit).length <= limit;

  if (fits()) {
    for (const lesson of ranked) {
      forms.set(lesson, "whole");
      if (!fits()) forms.set(lesson, "summary");
    }
  } else {
    for (const lesson of ranked) forms.set(lesson, "omitted");
    for (const lesson of ranked) {
      forms.set(lesson, "summary");
      if (!fits()) {
        forms.set(lesson, "omitted");
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

function byPriority(a: RefreshLesson, b: RefreshLesson): number {
  return b.priority - a.priority || a.slug.localeCompare(b.slug);
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
  if (omitted > 0) {
    parts.push(
      `(${omitted} more ${omitted === 1 ? "lesson" : "lessons"} left out to stay within ` +
        `${limit} characters.)`,
    );
  }
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
      blocks.push(forms.get(lesson) === "whole" ? lesson.message : `- ${lesson.summary}`);
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
    return a.localeCompare(b);
  });
}
