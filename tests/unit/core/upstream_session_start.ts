/**
 * A test oracle, not product code: the directives and protocols lessons-learned's session start
 * shows (`hooks/session-start-lesson-protocol.mjs` at commit 468d378), written here from its
 * behaviour and on purpose in another way than src/core/session_start.ts (an explicit index
 * tie-break instead of a stable sort, `localeCompare` on every tag pair), so that the two agree
 * only if both do what session start does.
 */

/** One section as session start prints it: its tag groups, a heading only when there are two. */
export interface ShownSection {
  section: "directive" | "protocol";
  groups: { heading: string | null; slugs: string[] }[];
}

type RawLesson = Record<string, unknown>;

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** What session start shows for `manifest` when Claude Code runs in `cwd`. */
export function upstreamSessionStart(
  manifest: { config?: Record<string, unknown>; lessons: Record<string, RawLesson> },
  cwd: string | undefined,
): ShownSection[] {
  // The project a scope names: "/home/a/b" is "home-a-b".
  let project: string | null = null;
  if (cwd) {
    project = cwd.split("/").join("-");
    if (project.startsWith("-")) project = project.slice(1);
  }
  const priority = (l: RawLesson) => (typeof l.priority === "number" ? l.priority : 5);
  const active = Object.values(manifest.lessons).filter((l) =>
    (l.type === "directive" || l.type === "protocol") && !l.disabled &&
    (l.scope === null || l.scope === undefined || l.scope === project)
  );
  const rank = (list: RawLesson[]) =>
    list.map((lesson, index) => ({ lesson, index }))
      .sort((a, b) => priority(b.lesson) - priority(a.lesson) || a.index - b.index)
      .map((x) => x.lesson);

  const number = (value: unknown, otherwise: number) =>
    typeof value === "number" ? value : otherwise;
  const cap = number(manifest.config?.maxSessionStartLessons, 20);
  const budget = number(manifest.config?.sessionStartBudgetBytes, 8192);
  const taken: RawLesson[] = [];
  let spent = 0;
  for (const lesson of rank(active)) {
    if (taken.length >= cap) break;
    const size = text(lesson.summary).length + text(lesson.problem).length +
      text(lesson.solution).length;
    if (spent + size <= budget) {
      taken.push(lesson);
      spent += size;
    }
  }

  const sections: ShownSection[] = [];
  for (const section of ["directive", "protocol"] as const) {
    const mine = rank(taken.filter((l) => l.type === section));
    if (mine.length === 0) continue;
    const keyOf = (l: RawLesson) => {
      const tags = Array.isArray(l.tags) ? l.tags : [];
      return tags.length > 0 ? String(tags[0]) : "(untagged)";
    };
    const keys = [...new Set(mine.map(keyOf))].sort((a, b) => {
      if (a === b) return 0;
      if (a === "(untagged)") return 1;
      if (b === "(untagged)") return -1;
      return a.localeCompare(b);
    });
    sections.push({
      section,
      groups: keys.map((key) => ({
        heading: keys.length > 1 ? key : null,
        slugs: mine.filter((l) => keyOf(l) === key).map((l) => String(l.slug)),
      })),
    });
  }
  return sections;
}
