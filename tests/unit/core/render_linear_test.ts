/**
 * renderCombined()'s linear fitting of lessons gives exactly what laying the text out again after
 * every change gives (a quadratic fitting, the reference here), on seeded random lesson sets and
 * budgets; and lessons keep session start's order (equal priorities as given) and its tag order
 * (`localeCompare`, untagged last).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { RefreshLesson } from "../../../src/core/lessons.ts";
import { renderCombined } from "../../../src/core/render_rules.ts";
import { seededRandom } from "../../_helpers.ts";
import { INLINE_LIMIT } from "../../../src/core/claude_code.ts";

/** The lessons alone, as a refresh with none of the user's own rules lays them out. */
const renderLessons = (header: string, lessons: readonly RefreshLesson[], maxChars: number) =>
  renderCombined(header, [], lessons, maxChars);

type Form = "whole" | "summary" | "omitted";

const DIRECTIVES_INTRO = "## Non-Negotiable Directives\n\n<IMPORTANT>\nThese are non-negotiable " +
  "rules derived from real failures with measurable cost. Applying them is not optional.\n" +
  "</IMPORTANT>\n";
const PROTOCOLS_INTRO =
  "---\n\n## Active Protocols\n\nThese protocols capture hard-won coordination " +
  "patterns. Apply them before starting work in the relevant context.\n";

/** The fitting as it was: a whole layout after every change. */
function reference(header: string, lessons: readonly RefreshLesson[], maxChars: number) {
  const limit = Math.min(Math.max(0, Math.floor(maxChars)), INLINE_LIMIT);
  const ranked = [...lessons].sort((a, b) => b.priority - a.priority);
  const forms = new Map<RefreshLesson, Form>(ranked.map((l) => [l, "summary"]));
  const layout = () => {
    const shown = ranked.filter((l) => forms.get(l) !== "omitted");
    const parts = [header];
    for (const [intro, kind] of [[DIRECTIVES_INTRO, "directive"], [PROTOCOLS_INTRO, "protocol"]]) {
      const mine = shown.filter((l) => l.kind === kind);
      if (mine.length === 0) continue;
      const groups = new Map<string, RefreshLesson[]>();
      for (const l of mine) {
        groups.set(l.tag ?? "(untagged)", [...groups.get(l.tag ?? "(untagged)") ?? [], l]);
      }
      const sorted = [...groups].sort(([a], [b]) =>
        a === "(untagged)" ? 1 : b === "(untagged)" ? -1 : a.localeCompare(b)
      );
      const blocks = [intro!.trimEnd()];
      for (const [tag, group] of sorted) {
        if (sorted.length > 1) blocks.push(`### ${tag}`);
        for (const l of group) blocks.push(forms.get(l) === "whole" ? l.message : `- ${l.summary}`);
      }
      parts.push(blocks.join("\n\n"));
    }
    const omitted = ranked.length - shown.length;
    if (omitted > 0) {
      parts.push(
        `(${omitted} more ${omitted === 1 ? "lesson" : "lessons"} left out to stay within ` +
          `${limit} characters.)`,
      );
    }
    return parts.join("\n\n") + "\n";
  };
  const fits = () => layout().length <= limit;
  if (fits()) {
    for (const l of ranked) {
      forms.set(l, "whole");
      if (!fits()) forms.set(l, "summary");
    }
  } else {
    for (const l of ranked) forms.set(l, "omitted");
    for (const l of ranked) {
      forms.set(l, "summary");
      if (!fits()) {
        forms.set(l, "omitted");
        break;
      }
    }
  }
  const text = layout();
  const slugs = (f: Form) => ranked.filter((l) => forms.get(l) === f).map((l) => l.slug);
  return {
    text: text.length <= limit ? text : text.slice(0, limit),
    whole: slugs("whole"),
    summarized: slugs("summary"),
    omitted: slugs("omitted"),
  };
}

const TAGS = [
  undefined,
  "tool:git",
  "Tool:git",
  "workflow:editing",
  "(untagged)",
  "ä",
  "Z",
  "a",
  "topic_x",
  "topic-x",
  "topic:x1",
];

Deno.test("renderCombined() of lessons alone gives what re-laying out after every change gave", () => {
  const rand = seededRandom(12);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  let omittedSome = 0, summarizedSome = 0;
  for (let round = 0; round < 1500; round++) {
    const n = Math.floor(rand() * 40);
    const lessons: RefreshLesson[] = Array.from({ length: n }, (_, i) => ({
      slug: pick(["b", "B", "a", "é", "z-1", "z-10"]) + i,
      kind: rand() < 0.6 ? "directive" : "protocol",
      priority: Math.floor(rand() * 11),
      message: "M".repeat(1 + Math.floor(rand() * 900)),
      summary: "s".repeat(Math.floor(rand() * 120)),
      tag: pick(TAGS),
    }));
    const header = "H".repeat(Math.floor(rand() * (rand() < 0.05 ? 12_000 : 300)));
    const budget = pick([10_000, 9500, 20_000, 0, -5, 3.7]) === 3.7
      ? Math.floor(rand() * 10_000)
      : Math.floor(rand() * 12_000) - 500;
    const got = renderLessons(header, lessons, budget);
    assertEquals(got, reference(header, lessons, budget), `round ${round}`);
    if (got.omitted.length > 0) omittedSome++;
    if (got.summarized.length > 0) summarizedSome++;
  }
  // Every branch of the fitting was reached.
  ok(omittedSome > 50 && summarizedSome > 50, `${omittedSome} ${summarizedSome}`);
});

Deno.test("renderCombined() keeps equal priorities in their order, tags in locale order, untagged last", () => {
  const lesson = (slug: string, tag: string | undefined): RefreshLesson => ({
    slug,
    kind: "directive",
    priority: 5,
    message: `Message ${slug}.`,
    summary: slug,
    tag,
  });
  const r = renderLessons(
    "H",
    [lesson("b", "alpha"), lesson("a", "Zeta"), lesson("C", undefined), lesson("A", "alpha")],
    9000,
  );
  // As session start: "alpha" before "Zeta" (`localeCompare`; by code unit "Zeta" came first).
  ok(r.text.indexOf("### alpha") < r.text.indexOf("### Zeta"), r.text);
  ok(r.text.indexOf("### Zeta") < r.text.indexOf("### (untagged)"), r.text);
  // Equal priorities in the order given (by slug they were A, C, a, b).
  assertEquals(r.whole, ["b", "a", "C", "A"]);
  ok(r.text.indexOf("Message b.") < r.text.indexOf("Message A."), r.text);
});

Deno.test("renderCombined() of 1,500 lessons is linear: each lesson's text is read a few times", () => {
  // Every summary fits, so each lesson is tried whole: 1,500 changes of form. A fitting that lays
  // the text out at each change reads every text at every change (n^2 reads); a linear one reads
  // each a bounded number of times. Counted, not timed: the reads of every message and summary.
  let reads = 0;
  const lessons: RefreshLesson[] = Array.from({ length: 1500 }, (_, i) => {
    const message = `Rule ${i}.`;
    return {
      slug: `s${i}`,
      kind: i % 3 ? "directive" : "protocol",
      priority: i % 10,
      get message() {
        reads++;
        return message;
      },
      get summary() {
        reads++;
        return "r";
      },
      tag: `t${i % 7}`,
    };
  });
  const r = renderLessons("H", lessons, 10_000);
  ok(r.text.length <= 10_000);
  ok(r.omitted.length === 0 && r.whole.length > 100, `${r.whole.length} ${r.omitted.length}`);
  ok(reads <= 8 * lessons.length, `${reads} reads of ${lessons.length} lessons' texts`);
});
