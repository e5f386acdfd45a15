/**
 * A refresh restates exactly what lessons-learned's session start showed (468d378): the same
 * lessons, in the same sections, tag groups and order. The product's selection and layout run
 * beside a test oracle written from session start's behaviour (upstream_session_start.ts), on a
 * manifest built to hit every rule and on seeded random manifests.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { selectLessons } from "../../../src/core/lessons.ts";
import { renderCombined } from "../../../src/core/render_rules.ts";
import {
  defaultLocale,
  limitsOf,
  projectIdOf,
  ROOT_ASCII,
  tagOrder,
} from "../../../src/core/session_start.ts";
import { ROOT, seededRandom } from "../../_helpers.ts";
import { type ShownSection, upstreamSessionStart } from "./upstream_session_start.ts";

const LIMITS_MANIFEST = join(ROOT, "tests", "fixtures", "manifests", "session-start-limits.json");
const UPSTREAM_SHAPE = join(ROOT, "tests", "fixtures", "manifests", "upstream-468d378-shape.json");
const PROJECT = "/home/dev/proj";

// deno-lint-ignore no-explicit-any
type Manifest = { config?: Record<string, unknown>; lessons: Record<string, any> };

/**
 * What the product's refresh shows, read back from its text: each section, each tag group (its
 * heading when it has one) and the lessons in it, by their one-line messages `Rule <slug>.`.
 */
function productShows(manifest: Manifest, cwd: string | undefined): ShownSection[] {
  const { lessons } = selectLessons(manifest, projectIdOf(cwd));
  const r = renderCombined("HEADER", [], lessons, 10_000);
  assertEquals([r.summarized, r.omitted], [[], []], "every lesson whole: the layout is compared");
  const sections: ShownSection[] = [];
  for (const line of r.text.split("\n")) {
    if (line === "## Non-Negotiable Directives") {
      sections.push({ section: "directive", groups: [] });
    }
    if (line === "## Active Protocols") sections.push({ section: "protocol", groups: [] });
    const groups = sections.at(-1)?.groups;
    if (line.startsWith("### ")) groups!.push({ heading: line.slice(4), slugs: [] });
    const slug = /^Rule (.+)\.$/.exec(line)?.[1];
    if (slug === undefined) continue;
    if (groups!.length === 0) groups!.push({ heading: null, slugs: [] });
    groups!.at(-1)!.slugs.push(slug);
  }
  return sections;
}

Deno.test("a refresh shows what session start shows: limits, ties, tag order, scope, disabled", () => {
  const manifest: Manifest = JSON.parse(Deno.readTextFileSync(LIMITS_MANIFEST));
  const expected: ShownSection[] = [
    {
      section: "directive",
      groups: [
        // Ties in manifest order (z-first before a-second); tags in `localeCompare` order:
        // "tool:git" < "workflow_x" < "Workflow:x" (by code unit "Workflow:x" came first).
        { heading: "tool:git", slugs: ["z-first", "a-second"] },
        { heading: "workflow_x", slugs: ["alpha"] },
        { heading: "Workflow:x", slugs: ["beta"] },
      ],
    },
    {
      section: "protocol",
      groups: [
        { heading: "workflow-x", slugs: ["scoped-here"] },
        { heading: "(untagged)", slugs: ["untagged"] },
      ],
    },
  ];
  assertEquals(upstreamSessionStart(manifest, PROJECT), expected, "the oracle");
  assertEquals(productShows(manifest, PROJECT), expected, "the product");

  // Why each other active directive or protocol is not there, in session start's order.
  assertEquals(selectLessons(manifest, projectIdOf(PROJECT)).left, [
    { id: "scoped-elsewhere", why: "scope" },
    // Only the exact project id counts: a scope written as a path is another project's.
    { id: "scoped-by-path", why: "scope" },
    { id: "a-reminder", why: "reminder" }, // the highest priority, and never at session start
    // 160 used of 300: 200 more does not fit, and is passed over; the next one (40) does.
    { id: "big", why: "session-start-budget" },
    // Six shown: the cap.
    { id: "after-cap", why: "session-start-cap" },
    { id: "low", why: "session-start-cap" },
  ]);
  // Outside the project its lesson is left out too, and the budget then lets `after-cap` in.
  assertEquals(productShows(manifest, "/elsewhere"), upstreamSessionStart(manifest, "/elsewhere"));
  assertEquals(productShows(manifest, undefined), upstreamSessionStart(manifest, undefined));
});

Deno.test("a refresh shows what session start shows, on 600 random manifests", () => {
  const rand = seededRandom(31);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  /** Lessons' tags: none, one (case, punctuation, accents, the untagged group's name), two. */
  const one = (tags: string) => tags.split(" ").map((tag) => [tag]);
  const TAGS = [
    [],
    undefined,
    ...one("tool:git Tool:git tool_git tool-git"),
    ["topic:x", "other"],
    ...one("ä a Z (untagged) t1 t:1"),
  ];
  const SCOPES = [null, null, null, undefined, "home-dev-proj", "home-dev-other", "-home-dev-proj"];
  let capped = 0, overBudget = 0, tied = 0;
  for (let round = 0; round < 600; round++) {
    const lessons: Manifest["lessons"] = {};
    const n = Math.floor(rand() * 30);
    for (let i = 0; i < n; i++) {
      const text = (max: number) => rand() < 0.1 ? null : "x".repeat(Math.floor(rand() * max));
      const slug = `${pick(["b", "a", "C"])}${n - i}`;
      lessons[`id${i}`] = {
        slug,
        type: pick(["directive", "protocol", "hint", "guard", "reminder"]),
        ...(rand() < 0.1 ? {} : { priority: rand() < 0.1 ? null : Math.floor(rand() * 4) + 7 }),
        tags: pick(TAGS),
        scope: pick(SCOPES),
        ...(rand() < 0.1 ? { disabled: rand() < 0.5 } : {}),
        message: `Rule ${slug}.`,
        summary: text(80),
        problem: text(400),
        solution: text(400),
      };
    }
    const config: Record<string, unknown> = {};
    if (rand() < 0.7) config.maxSessionStartLessons = Math.floor(rand() * 12);
    if (rand() < 0.7) config.sessionStartBudgetBytes = Math.floor(rand() * 3000);
    const manifest = { type: "lessons-learned-manifest", version: 1, config, lessons };
    const cwd = pick([PROJECT, "/home/dev/other", undefined]);
    assertEquals(productShows(manifest, cwd), upstreamSessionStart(manifest, cwd), `${round}`);
    const { left, lessons: shown } = selectLessons(manifest, projectIdOf(cwd));
    if (left.some((l) => l.why === "session-start-cap")) capped++;
    if (left.some((l) => l.why === "session-start-budget")) overBudget++;
    if (new Set(shown.map((l) => l.priority)).size < shown.length) tied++;
  }
  // Every rule was at work in many rounds.
  ok(capped > 50 && overBudget > 50 && tied > 50, `${capped} ${overBudget} ${tied}`);
});

Deno.test("limitsOf() reads the manifest's config; what is missing or not a number: 20, 8192", () => {
  const cases: [unknown, number, number][] = [
    [undefined, 20, 8192],
    ["x", 20, 8192],
    [{ maxSessionStartLessons: 5, sessionStartBudgetBytes: "9" }, 5, 8192],
    [{ maxSessionStartLessons: null, sessionStartBudgetBytes: 20000 }, 20, 20000],
  ];
  for (const [config, maxLessons, budget] of cases) {
    assertEquals(limitsOf(config), { maxLessons, budget }, JSON.stringify(config));
  }
});

Deno.test("projectIdOf() writes / as - and drops one leading -, as session start does", () => {
  const ids = ["/home/dev/project", "//srv/x", "C:\\work\\x", "", undefined].map(projectIdOf);
  assertEquals(ids, ["home-dev-project", "-srv-x", "C:\\work\\x", undefined, undefined]);
});

Deno.test("tagOrder() agrees with localeCompare on random ASCII pairs, uppercase included", () => {
  const rand = seededRandom(7);
  const alphabet = "abzAZ:-_09 !~\x01\té";
  const word = () =>
    Array.from(
      { length: Math.floor(rand() * 5) },
      () => alphabet[Math.floor(rand() * alphabet.length)],
    ).join(
      "",
    );
  // Each language said to order ASCII as the root does, the process's own, and one that does not.
  for (const locale of [...ROOT_ASCII.source.match(/[a-z]{2}(?=[|)])/g)!, defaultLocale(), "da"]) {
    for (let i = 0; i < 4_000; i++) {
      const [a, b] = [word(), word()];
      assertEquals(
        tagOrder(a, b, locale),
        Math.sign(a.localeCompare(b, locale)),
        `${a}|${b} ${locale}`,
      );
    }
  }
  assertEquals(tagOrder("é", "e", "en"), Math.sign("é".localeCompare("e", "en")));
});

Deno.test("the reader takes a manifest of upstream's 468d378 shape whole, which its schema refuses", () => {
  // A skeleton: the shape of lessons-learned's own data/lesson-manifest.json at 468d378 (fields,
  // types of lesson, config keys), with none of its text. Upstream's schema (additionalProperties
  // false, `injection` required) refuses that manifest; this reader must not.
  const manifest = JSON.parse(Deno.readTextFileSync(UPSTREAM_SHAPE));
  const got = selectLessons(manifest, projectIdOf("/Users/dev/github/some-project"));
  assertEquals(got.invalid, []);
  assertEquals(got.limits, { maxLessons: 20, budget: 20000 });
  assertEquals(got.lessons.map((l) => [l.slug, l.kind]), [
    ["skeleton-directive-a", "directive"],
    ["skeleton-directive-b", "directive"],
    ["skeleton-protocol-here", "protocol"],
  ]);
  // A reminder fires from tool output (its own PostToolUse hook), never at session start.
  assertEquals(got.left, [
    { id: "skeleton-reminder", why: "reminder" },
    { id: "skeleton-protocol-elsewhere", why: "scope" },
  ]);
});
