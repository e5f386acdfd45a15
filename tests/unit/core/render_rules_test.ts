/**
 * renderCombined(): one refresh of the user's own rules and the lessons within one budget
 * (docs/own-rules.md). Lessons keep session start's layout and order (equal priorities as given,
 * tags in `localeCompare` order, untagged last, group headings only where a section has two):
 * session_start_test.ts reads it back against session start's own behaviour; and the linear fitting
 * gives exactly what laying the text out again after every change gives (a quadratic fitting, the
 * reference here, which lays out the header, directives, protocols and tag groups itself).
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { type RefreshLesson, selectLessons } from "../../../src/core/lessons.ts";
import { projectIdOf } from "../../../src/core/session_start.ts";
import { INLINE_LIMIT } from "../../../src/core/claude_code.ts";
import { firstLine } from "../../../src/core/first_line.ts";
import { renderCombined, type RuleBlock } from "../../../src/core/render_rules.ts";
import { largeManifest, SAMPLE_MANIFEST, seededRandom } from "../../_helpers.ts";

const HEADER = "[lessons-reinject refresh 30 ref=00000000] Context refresh at 31%.";
const sampleLessons = () =>
  selectLessons(JSON.parse(Deno.readTextFileSync(SAMPLE_MANIFEST)), projectIdOf("/p")).lessons;
const bigLessons = () => selectLessons(largeManifest(40_000), projectIdOf("/p")).lessons;

const rule = (id: string, heading: string, text: string): RuleBlock => ({ id, heading, text });
/** The lessons' slugs among `ids`: those of no rule block. */
const lessonsIn = (ids: string[], rules: readonly RuleBlock[]) =>
  ids.filter((id) => !rules.some((r) => r.id === id));
const PROJECT = "## Rules you marked in CLAUDE.md";
const USER = "## Rules you marked in ~/.claude/CLAUDE.md";

Deno.test("renderCombined() with rules only: header, then each heading once, text verbatim", () => {
  const rules = [
    rule("CLAUDE.md:3", PROJECT, "Always run `deno task test`.\n\n  - keep this indent"),
    rule("CLAUDE.md:9", PROJECT, "Never push to main."),
    rule("~/.claude/CLAUDE.md:1", USER, "Answer in English."),
  ];
  const got = renderCombined(HEADER, rules, [], 9500);
  equal(
    got.text,
    `${HEADER}\n\n${PROJECT}\n\nAlways run \`deno task test\`.\n\n  - keep this indent\n\n` +
      `Never push to main.\n\n${USER}\n\nAnswer in English.\n`,
  );
  assertEquals([got.whole, got.summarized, got.omitted], [rules.map((r) => r.id), [], []]);
});

Deno.test("renderCombined() with rules that fit adds them after the lessons' own layout", () => {
  // All whole, and some whole with the rest summarised: the rule's room added, the same lessons.
  for (const [lessons, budget] of [[sampleLessons(), 9500], [bigLessons(), 8000]] as const) {
    const alone = renderCombined(HEADER, [], lessons, budget);
    ok(alone.whole.length > 0 && alone.omitted.length === 0, JSON.stringify(alone.summarized));
    const rules = [rule("r", PROJECT, "Mine.")];
    const got = renderCombined(HEADER, rules, lessons, budget + `\n${PROJECT}\n\nMine.\n`.length);
    equal(got.text, `${alone.text}\n${PROJECT}\n\nMine.\n`);
    assertEquals([got.whole, got.summarized, got.omitted], [
      ["r", ...alone.whole],
      alone.summarized,
      alone.omitted,
    ]);
  }
});

Deno.test("renderCombined() under a tight budget: first lines before whole texts, in rank order", async (t) => {
  const long = (n: number) => `Rule ${n} first line.\n` + `detail ${n} `.repeat(300);
  const order = ["a", "b", "c"];
  const isRule = (id: string) => order.includes(id);
  const rules = order.map((id, i) => rule(id, i < 2 ? PROJECT : USER, long(i + 1)));
  const lessons = bigLessons();
  for (const budget of [9500, 5000, 2000, 800, 400]) {
    await t.step(`budget ${budget}`, () => {
      const got = renderCombined(HEADER, rules, lessons, budget);
      ok(got.text.length <= budget, `${got.text.length} > ${budget}`);
      ok(got.text.startsWith(HEADER), "the header is whole");
      const ids = new Set([...got.whole, ...got.summarized, ...got.omitted]);
      equal(ids.size, rules.length + lessons.length, "every unit is accounted for once");
      const lessonsOut = got.omitted.filter((id) => !isRule(id));
      const rulesOut = got.omitted.filter(isRule);
      // A rule is never whole while a lesson is left out.
      if (lessonsOut.length > 0) assertEquals(got.whole.filter(isRule), []);
      // Rules rank above lessons: a lesson shown while a rule is left out never happens.
      if (rulesOut.length > 0) equal(lessonsOut.length, lessons.length);
      // Left-out rules are the lowest-ranked ones, and are counted in the text.
      assertEquals(rulesOut, order.slice(order.length - rulesOut.length));
      if (rulesOut.length > 0) ok(got.text.includes(`(${rulesOut.length} more section`), got.text);
      for (const id of got.summarized.filter(isRule)) {
        ok(got.text.includes(`- Rule ${order.indexOf(id) + 1} first line. (first line only)`));
      }
      for (const id of got.whole.filter(isRule)) ok(got.text.includes(long(order.indexOf(id) + 1)));
      // 9,500: every lesson at least summarised, the top rule whole; 400: only the header and
      // first lines of the top rules.
      if (budget === 9500) ok(lessonsOut.length === 0 && got.whole.includes("a"), got.whole.join());
      if (budget === 400) ok(lessonsOut.length === lessons.length && got.summarized.includes("a"));
    });
  }
});

Deno.test("renderCombined() never goes past Claude Code's inline limit", () => {
  const rules = [rule("huge", PROJECT, "x".repeat(30_000))];
  const got = renderCombined(HEADER, rules, bigLessons(), 50_000);
  ok(got.text.length <= INLINE_LIMIT, String(got.text.length));
  assertEquals(got.summarized.slice(0, 1), ["huge"]);
});

Deno.test("renderCombined() with a header over the budget cuts, never overflows", () => {
  const got = renderCombined("h".repeat(500), [rule("r", PROJECT, "Mine.")], [], 100);
  equal(got.text.length, 100);
  assertEquals(got.omitted, ["r"]);
});

Deno.test("firstLine() skips headings and blank lines, cuts to 120 characters", () => {
  const cases: [string, string][] = [
    ["# Git\n\nNever force-push.\nMore.", "Never force-push."],
    ["## Only a heading", "## Only a heading"],
    ["   \n  indented first  \n", "indented first"],
    ["y".repeat(200), "y".repeat(119) + "…"],
    ["", ""],
  ];
  for (const [text, want] of cases) equal(firstLine(text), want);
});

Deno.test("renderCombined() lessons of the same budget: rules take room before lessons go whole", () => {
  const lessons: RefreshLesson[] = sampleLessons();
  const plain = renderCombined(HEADER, [], lessons, 9500).text.length;
  const rules = [rule("r", PROJECT, "z".repeat(9500 - plain + 200))];
  const got = renderCombined(HEADER, rules, lessons, 9500);
  ok(got.text.length <= 9500);
  equal(lessonsIn(got.omitted, rules).length, 0, "every lesson keeps at least its summary");
  ok(got.whole.includes("r"), "the rule went whole, lessons gave up their whole texts first");
  ok(lessonsIn(got.summarized, rules).length > 0);
});

Deno.test("renderCombined() keeps the budget rules of docs/own-rules.md on random rules and lessons", () => {
  const rand = seededRandom(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const seen = { rulesOut: 0, lessonsOut: 0, ruleSummarized: 0, lessonWhole: 0 };
  for (let round = 0; round < 1000; round++) {
    const rules = Array.from({ length: Math.floor(rand() * 6) }, (_, i) => {
      const heading = pick([PROJECT, USER]);
      return rule(`r${i}`, heading, `Rule ${i}.\n${"x".repeat(Math.floor(rand() * 3000))}`);
    });
    // Whole texts longer than their first lines: making one whole never shortens the text.
    const lessons: RefreshLesson[] = Array.from({ length: Math.floor(rand() * 30) }, (_, i) => ({
      slug: `s${i}`,
      kind: pick(["directive", "protocol"] as const),
      priority: Math.floor(rand() * 11),
      message: "M".repeat(130 + Math.floor(rand() * 900)),
      summary: "s".repeat(Math.floor(rand() * 120)),
      tag: pick([undefined, "a", "b"]),
    }));
    const budget = Math.floor(rand() * pick([10_000, 1_500]));
    const got = renderCombined("H".repeat(50), rules, lessons, budget);
    const where = `round ${round}`;
    ok(got.text.length <= budget, where);
    const ruleIds = rules.map((r) => r.id);
    const isRule = (id: string) => ruleIds.includes(id);
    const rulesOut = got.omitted.filter(isRule);
    const lessonsOut = got.omitted.filter((id) => !isRule(id));
    // 1. First lines first, in rank order: what is left out is the lowest-ranked.
    assertEquals(rulesOut, ruleIds.slice(ruleIds.length - rulesOut.length), where);
    if (rulesOut.length > 0) equal(lessonsOut.length, lessons.length, where);
    if (got.omitted.length > 0) assertEquals(got.whole, [], where);
    seen.rulesOut += rulesOut.length > 0 ? 1 : 0;
    seen.lessonsOut += lessonsOut.length > 0 ? 1 : 0;
    // 2. Then whole texts in rank order, rules first: what stays a first line could not be made
    // whole, even last, within the budget.
    if (got.omitted.length > 0) continue;
    for (const id of got.summarized) {
      const r = rules.find((r) => r.id === id);
      const l = lessons.find((l) => l.slug === id);
      const longer = r
        ? r.text.length - `- ${firstLine(r.text)} (first line only)`.length
        : l!.message.length - `- ${l!.summary}`.length;
      ok(got.text.length + longer > budget, `${where}: ${id} could have been whole`);
    }
    seen.ruleSummarized += got.summarized.some(isRule) ? 1 : 0;
    seen.lessonWhole += got.whole.some((id) => !isRule(id)) ? 1 : 0;
  }
  // Every case was met.
  ok(Object.values(seen).every((n) => n > 20), JSON.stringify(seen));
});

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

/** Tags whose orders differ: case, accents, punctuation, and one spelled as the untagged group. */
const TAGS = [
  undefined,
  ..."tool:git Tool:git workflow:editing (untagged) ä Z a topic_x topic-x topic:x1".split(" "),
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
    const got = renderCombined(header, [], lessons, budget);
    assertEquals(got, reference(header, lessons, budget), `round ${round}`);
    if (got.omitted.length > 0) omittedSome++;
    if (got.summarized.length > 0) summarizedSome++;
  }
  // Every branch of the fitting was reached.
  ok(omittedSome > 50 && summarizedSome > 50, `${omittedSome} ${summarizedSome}`);
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
  const r = renderCombined("H", [], lessons, 10_000);
  ok(r.text.length <= 10_000);
  ok(r.omitted.length === 0 && r.whole.length > 100, `${r.whole.length} ${r.omitted.length}`);
  ok(reads <= 8 * lessons.length, `${reads} reads of ${lessons.length} lessons' texts`);
});
