import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type RefreshLesson, selectLessons } from "../../../src/core/lessons.ts";
import { projectIdOf } from "../../../src/core/session_start.ts";
import { renderCombined } from "../../../src/core/render_rules.ts";
import { INLINE_LIMIT } from "../../../src/core/claude_code.ts";
import { largeManifest, SAMPLE_MANIFEST } from "../../_helpers.ts";

/** The lessons alone, as a refresh with none of the user's own rules lays them out. */
const renderLessons = (header: string, lessons: readonly RefreshLesson[], maxChars: number) =>
  renderCombined(header, [], lessons, maxChars);

const HEADER = "[lessons-reinject refresh 30 ref=00000000] Context refresh at 31%.";
const sampleLessons = () =>
  selectLessons(JSON.parse(Deno.readTextFileSync(SAMPLE_MANIFEST)), projectIdOf("/p")).lessons;

Deno.test("renderCombined() of lessons alone uses the session-start layout", () => {
  const { text, whole, summarized, omitted } = renderLessons(HEADER, sampleLessons(), 9500);
  ok(text.startsWith(HEADER));
  const directives = text.indexOf("## Non-Negotiable Directives");
  const protocols = text.indexOf("## Active Protocols");
  ok(directives > 0 && protocols > directives, "directives first, protocols second");
  // Groups by first tag, alphabetical: tool:git before workflow:editing.
  ok(text.indexOf("### tool:git") < text.indexOf("### workflow:editing"));
  // Within a group, priority descending: no-force-push (10) before stash (7).
  ok(text.indexOf("Never `git push --force`") < text.indexOf("`git stash` leaves"));
  assertEquals([whole.length, summarized.length, omitted.length], [5, 0, 0]);
});

Deno.test("renderCombined() of lessons alone shows group headings only when a section has more than one group", () => {
  const one: RefreshLesson[] = [
    { slug: "a", kind: "directive", priority: 5, message: "A.", summary: "a", tag: "x:y" },
    { slug: "b", kind: "directive", priority: 4, message: "B.", summary: "b", tag: "x:y" },
    {
      slug: "c",
      kind: "protocol",
      priority: 4,
      message: "C.",
      summary: "c",
      tag: undefined,
    },
  ];
  const { text } = renderLessons(HEADER, one, 9500);
  ok(!text.includes("###"), text);
  const two = [...one, {
    slug: "d",
    kind: "directive" as const,
    priority: 9,
    message: "D.",
    summary: "d",
    tag: undefined,
  }];
  const rendered = renderLessons(HEADER, two, 9500).text;
  ok(rendered.indexOf("### x:y") < rendered.indexOf("### (untagged)"), "untagged last");
});

Deno.test("renderCombined() of lessons alone fills the budget in priority order, then summaries, then counts the rest", async (t) => {
  const lessons = selectLessons(largeManifest(40_000), undefined).lessons;
  ok(lessons.length > 40);
  for (const budget of [9500, 10_000, 5000, 3000, 1500, 400]) {
    await t.step(`budget ${budget}`, () => {
      const r = renderLessons(HEADER, lessons, budget);
      ok(r.text.length <= budget, `${r.text.length} > ${budget}`);
      assertEquals(r.whole.length + r.summarized.length + r.omitted.length, lessons.length);
      if (r.omitted.length === 0) {
        // Every lesson appears at least by its summary.
        for (const l of lessons) {
          ok(r.text.includes(l.summary) || r.text.includes(l.message), l.slug);
        }
      } else {
        assertEquals(r.whole.length, 0, "whole messages only once every summary fits");
        ok(
          r.text.includes(
            `(${r.omitted.length} more lessons left out to stay within ${budget} characters.)`,
          ),
        );
      }
      // Priority order: no lesson left whole has lower priority than every summarized one...
      const priority = new Map(lessons.map((l) => [l.slug, l.priority]));
      if (r.omitted.length > 0 && r.summarized.length > 0) {
        const lowestShown = Math.min(...r.summarized.map((s) => priority.get(s)!));
        const highestOmitted = Math.max(...r.omitted.map((s) => priority.get(s)!));
        ok(lowestShown >= highestOmitted, "omitted lessons are the lowest priority");
      }
    });
  }
});

Deno.test("renderCombined() of lessons alone never exceeds the inline limit, whatever it is asked", () => {
  const lessons = selectLessons(largeManifest(40_000), undefined).lessons;
  assertEquals(renderLessons(HEADER, lessons, 50_000).text.length <= INLINE_LIMIT, true);
  assertEquals(renderLessons("h".repeat(20_000), lessons, 9500).text.length, 9500);
});
