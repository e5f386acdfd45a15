/**
 * One refresh of every source of standing rules within one budget: the manifest's lessons in the
 * session-start layout (its order and grouping, session_start.ts), then the user's own rules
 * verbatim under their headings.
 */
import { firstLine } from "./first_line.ts";
import type { RefreshLesson } from "./lessons.ts";
import { INLINE_LIMIT } from "./claude_code.ts";
import { byPriority, defaultLocale, tagOrder } from "./session_start.ts";

/** One unit of the user's own rules: a marked CLAUDE.md section or a whole rules file. */
export interface RuleBlock {
  /** `CLAUDE.md:3`, `.claude/reinject.md`. */
  id: string;
  heading: string;
  text: string;
}

/** A refresh's text, and which units it gives whole, by their first line, or not at all. */
export type CombinedRefresh = ReturnType<typeof renderCombined>;

type Kind = RefreshLesson["kind"] | "rule";

/** A rule block or a lesson, as {@link unitOf} makes it. */
type Unit = ReturnType<typeof unitOf>;

const INTROS: Record<RefreshLesson["kind"], string> = {
  directive:
    "## Non-Negotiable Directives\n\n<IMPORTANT>\nThese are non-negotiable rules derived " +
    "from real failures with measurable cost. Applying them is not optional.\n</IMPORTANT>",
  // Session start's rule between its two sections, kept: five characters that keep its layout.
  protocol:
    "---\n\n## Active Protocols\n\nThese protocols capture hard-won coordination patterns. Apply " +
    "them before starting work in the relevant context.",
};
const UNTAGGED = "(untagged)";
const CUT = " (first line only)";
const JOIN = 2; // "\n\n" between parts and between blocks

/**
 * `rules` (ranked first) and `lessons` (by priority) under `header` in at most `maxChars` (never
 * over the inline limit): each unit gets its first line (a lesson its summary) in rank order, the
 * lowest left out and counted if even that does not fit; the room left makes units whole in rank
 * order. Linear: one pass gives every prefix's length; making a unit whole adds its difference.
 */
export function renderCombined(
  header: string,
  rules: readonly RuleBlock[],
  lessons: readonly RefreshLesson[],
  maxChars: number,
) {
  const limit = Math.min(Math.max(0, Math.floor(maxChars)), INLINE_LIMIT);
  // Session start's order: equal priorities keep the order they came in (the manifest's).
  const ranked = byPriority(lessons);
  const units = [
    ...rules.map((r) => unitOf(r.id, "rule", r.heading, r.text, firstLine(r.text) + CUT)),
    ...ranked.map((l) => unitOf(l.slug, l.kind, l.tag ?? UNTAGGED, l.message, l.summary)),
  ];
  // What a prefix of k units leaves out, as the text says it.
  const notes = (shown: number) => ({
    lessons: omittedNote("lesson", Math.min(lessons.length, units.length - shown), limit),
    rules: omittedNote("rule", Math.max(0, rules.length - shown), limit),
  });
  // The length with the first k units as first lines, for every k.
  const sections = new Map<Kind, { blocks: number; groups: Set<string>; headings: number }>();
  const lengthWith = (shown: number) => {
    let length = header.length + 1;
    for (const [kind, s] of sections) {
      length += kind === "rule"
        ? s.blocks + s.headings
        : JOIN + INTROS[kind].length + s.blocks + (s.groups.size > 1 ? s.headings : 0);
    }
    const { lessons, rules } = notes(shown);
    return [...lessons, ...rules].reduce((sum, note) => sum + JOIN + note.length, length);
  };
  const lengths = [lengthWith(0)];
  units.forEach((unit, i) => {
    const section = sections.get(unit.kind) ?? { blocks: 0, groups: new Set(), headings: 0 };
    sections.set(unit.kind, section);
    section.blocks += JOIN + unit.summary.length;
    if (!section.groups.has(unit.group)) section.headings += JOIN + headingOf(unit).length;
    section.groups.add(unit.group);
    lengths.push(lengthWith(i + 1));
  });

  let shown = units.length;
  let length = lengths[shown]!;
  const whole = new Set<Unit>();
  if (length <= limit) {
    for (const unit of units) {
      const grown = length + unit.whole.length - unit.summary.length;
      if (grown > limit) continue;
      length = grown;
      whole.add(unit);
    }
  } else {
    shown = 0;
    while (shown < units.length && lengths[shown + 1]! <= limit) shown++;
  }
  const ids = (pick: (unit: Unit, i: number) => boolean) => units.filter(pick).map((u) => u.id);
  return {
    // Only a header longer than the budget gets here over it: cut, never overflow.
    text: layout(header, units.slice(0, shown), whole, notes(shown)).slice(0, limit),
    /** Rule block ids, then lesson slugs, by how they appear, in rank order. */
    whole: ids((u) => whole.has(u)),
    summarized: ids((u, i) => i < shown && !whole.has(u)),
    omitted: ids((_, i) => i >= shown),
  };
}

/** A rule block or a lesson; `group`: a lesson's first tag, a rule block's heading. */
function unitOf(id: string, kind: Kind, group: string, whole: string, line: string) {
  return { id, kind, group, whole, summary: `- ${line}` };
}

function headingOf(unit: Unit): string {
  return unit.kind === "rule" ? unit.group : `### ${unit.group}`;
}

/** How many of `kind` were left out, as the text says it. */
function omittedNote(kind: "lesson" | "rule", omitted: number, limit: number): string[] {
  const what = kind === "lesson"
    ? (omitted === 1 ? "lesson" : "lessons")
    : `${omitted === 1 ? "section" : "sections"} of your own rules`;
  const note = `(${omitted} more ${what} left out to stay within ${limit} characters.)`;
  return omitted === 0 ? [] : [note];
}

/** The lessons by section and first tag (`localeCompare` order, untagged last), then the rules. */
function layout(
  header: string,
  shown: readonly Unit[],
  whole: ReadonlySet<Unit>,
  notes: { lessons: string[]; rules: string[] },
): string {
  const groupsOf = (kind: Kind) => {
    const groups = new Map<string, string[]>();
    for (const unit of shown.filter((u) => u.kind === kind)) {
      if (!groups.has(unit.group)) groups.set(unit.group, []);
      groups.get(unit.group)!.push(whole.has(unit) ? unit.whole : unit.summary);
    }
    return [...groups];
  };
  const parts = [header];
  const locale = defaultLocale();
  for (const kind of ["directive", "protocol"] as const) {
    const groups = groupsOf(kind).sort(([a], [b]) =>
      a === UNTAGGED ? 1 : b === UNTAGGED ? -1 : tagOrder(a, b, locale)
    );
    const blocks = groups.flatMap(([tag, group]) =>
      groups.length > 1 ? [`### ${tag}`, ...group] : group
    );
    if (blocks.length > 0) parts.push([INTROS[kind], ...blocks].join("\n\n"));
  }
  parts.push(...notes.lessons);
  for (const [heading, group] of groupsOf("rule")) parts.push([heading, ...group].join("\n\n"));
  parts.push(...notes.rules);
  return parts.join("\n\n") + "\n";
}
