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

Deno.test("renderCombined() puts the session-start layout first and the user's rules after", () => {
  const rules = [rule("r", PROJECT, "Mine.")];
  const got = renderCombined(HEADER, rules, sampleLessons(), 9500);
  ok(got.text.startsWith(`${HEADER}\n\n## Non-Negotiable Directives`));
  ok(got.text.indexOf("## Active Protocols") < got.text.indexOf(PROJECT));
  ok(got.text.endsWith(`${PROJECT}\n\nMine.\n`));
  equal(lessonsIn(got.whole, rules).length, 5);
});

Deno.test("renderCombined() under a tight budget: first lines before whole texts, in rank order", async (t) => {
  const long = (n: number) => `Rule ${n} first line.\n` + `detail ${n} `.repeat(300);
  const rules = [
    rule("a", PROJECT, long(1)),
    rule("b", PROJECT, long(2)),
    rule("c", USER, long(3)),
  ];
  const lessons = bigLessons();
  const cases = [9500, 5000, 2000, 800, 400];
  for (const budget of cases) {
    await t.step(`budget ${budget}`, () => {
      const got = renderCombined(HEADER, rules, lessons, budget);
      ok(got.text.length <= budget, `${got.text.length} > ${budget}`);
      ok(got.text.startsWith(HEADER), "the header is whole");
      const ids = new Set([...got.whole, ...got.summarized, ...got.omitted]);
      equal(ids.size, rules.length + lessons.length, "every unit is accounted for once");
      // A rule is never whole while a lesson is left out.
      const lessonsOut = lessonsIn(got.omitted, rules);
      if (lessonsOut.length > 0) {
        assertEquals(got.whole.filter((id) => ["a", "b", "c"].includes(id)), []);
      }
      // Rules rank above lessons: a lesson shown while a rule is left out never happens.
      const rulesOut = got.omitted.filter((id) => ["a", "b", "c"].includes(id));
      if (rulesOut.length > 0) equal(lessonsOut.length, lessons.length);
      // Left-out rules are the lowest-ranked ones, and are counted in the text.
      const order = ["a", "b", "c"];
      assertEquals(rulesOut, order.slice(order.length - rulesOut.length));
      if (rulesOut.length > 0) ok(got.text.includes(`(${rulesOut.length} more section`), got.text);
      for (const id of got.summarized.filter((x) => order.includes(x))) {
        const n = order.indexOf(id) + 1;
        ok(got.text.includes(`- Rule ${n} first line. (first line only)`));
      }
      for (const id of got.whole.filter((x) => order.includes(x))) {
        ok(got.text.includes(long(order.indexOf(id) + 1)));
      }
    });
  }
  await t.step("9,500 characters: every lesson at least summarised, some rules whole", () => {
    const got = renderCombined(HEADER, rules, lessons, 9500);
    equal(lessonsIn(got.omitted, rules).length, 0);
    ok(got.whole.includes("a"), JSON.stringify(got.whole));
  });
  await t.step("400 characters: only the header and first lines of the top rules", () => {
    const got = renderCombined(HEADER, rules, lessons, 400);
    equal(lessonsIn(got.omitted, rules).length, lessons.length);
    ok(got.summarized.includes("a"));
  });
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
    const rules = Array.from(
      { length: Math.floor(rand() * 6) },
      (_, i) =>
        rule(
          `r${i}`,
          pick([PROJECT, USER]),
          `Rule ${i}.\n${"x".repeat(Math.floor(rand() * 3000))}`,
        ),
    );
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
