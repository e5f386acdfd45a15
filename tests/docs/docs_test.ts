/**
 * The README and docs/ as a reader meets them: every link lands on a file and heading of this
 * repository, nothing points outside it, the README stays a user's page, and every setting the
 * program reads is in the README's configuration table.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { filesUnder, ROOT } from "../_helpers.ts";

/** The README, the users' docs/ and the maintainers' docs/maintainers/. */
const pages = [
  "README.md",
  ...filesUnder(join(ROOT, "docs")).filter((p) => p.endsWith(".md")).map((p) => relative(ROOT, p)),
];
const read = (page: string) => Deno.readTextFileSync(join(ROOT, page));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && line.match(/^#{1,6} (.+)$/);
    if (heading) anchors.add(anchorOf(heading[1] ?? ""));
  }
  return anchors;
}

/**
 * Every Markdown link of `page` outside code, with the line it is on and, unless it is a URL
 * (https:, mailto:), the repository path it lands on and its anchor.
 */
function linksOf(page: string) {
  const links: {
    target: string;
    line: number;
    file: string | undefined;
    anchor: string | undefined;
  }[] = [];
  let fenced = false;
  for (const [index, line] of read(page).split("\n").entries()) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? "";
      const [path = "", anchor] = target.split("#");
      const file = /^[a-z]+:/.test(target)
        ? undefined
        : path === ""
        ? page
        : relative(ROOT, resolve(ROOT, dirname(page), path));
      links.push({ target, line: index + 1, file, anchor });
    }
  }
  return links;
}

Deno.test("anchorOf() makes GitHub's heading anchors", () => {
  assertEquals(anchorOf("The config file"), "the-config-file");
  assertEquals(anchorOf("`--json` shapes"), "--json-shapes");
  assertEquals(anchorOf("The transcript (`transcript_path`)"), "the-transcript-transcript_path");
  assertEquals(
    anchorOf("1. Does PostToolUse stdin carry `context_window`?"),
    "1-does-posttooluse-stdin-carry-context_window",
  );
});

Deno.test("every link in the README and docs/ lands on a file and heading of this repository", () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const { target, line, file, anchor } of linksOf(page)) {
      checked++;
      if (file === undefined) continue;
      const where = `${page}:${line}: ${target}`;
      let text: string;
      try {
        if (file.startsWith("..")) throw new Error("outside");
        text = read(file);
      } catch {
        broken.push(
          `${where}: ${file.startsWith("..") ? "outside the repository" : "no such file"}`,
        );
        continue;
      }
      if (anchor !== undefined && !anchorsOf(text).has(anchor)) {
        broken.push(`${where}: no heading with that anchor`);
      }
    }
  }
  assertEquals(broken, []);
  assert(checked >= 30, `only ${checked} links found: is the link reader broken?`);
});

Deno.test("every page of docs/ is linked from the README or another page", () => {
  const linked = new Set(pages.flatMap((page) =>
    linksOf(page).map((l) => l.file)
      .filter((file) => file !== page)
  ));
  const orphans = pages.filter((page) => page !== "README.md" && !linked.has(page));
  assertEquals(orphans, []);
  assert(pages.some((page) => page.startsWith("docs/maintainers/")), "no maintainers' pages found");
});

/**
 * Names of Claude Code's minified functions that pages and comments once cited. They change with
 * every release, so a fact names the release and the behaviour instead (house style).
 */
const MINIFIED = ("ff DP XV8 fkH G7H wA gyn ja qS j0e s4 Ym bkt eH jQ Ey Gs " +
  "hW Jp uT RIH WHH BN Eqs Ckt zZ dm idr Xdo Yas Jc rv xa").split(" ");
/** A minified name as code: in a code span of its own, or called. */
const minifiedName = new RegExp(
  `\`(?:${MINIFIED.join("|")})(?:\\(\\))?\`|\\b(?:${MINIFIED.join("|")})\\(`,
);
/** Minified JavaScript's booleans (`!0`, `!1`), as a quote of Claude Code's code would show them. */
const minifiedBoolean = /(?:return|[=:(,?&|])\s*!\s*[01]\b/;

Deno.test("no page quotes Claude Code's minified code or names its minified functions", () => {
  const found = pages.flatMap((page) =>
    read(page).split("\n").flatMap((line, i) =>
      minifiedName.test(line) || minifiedBoolean.test(line) ? [`${page}:${i + 1}: ${line}`] : []
    )
  );
  assertEquals(found, []);
});

Deno.test("no comment in src/, tests/, scripts/ or bench/ names a minified function", () => {
  const found: string[] = [];
  const code = ["src", "tests", "scripts", "bench"].flatMap((dir) => filesUnder(join(ROOT, dir)))
    .map((file) => relative(ROOT, file))
    .filter((path) => path.endsWith(".ts") && !path.startsWith("tests/fixtures/"));
  for (const path of code) {
    for (const [i, line] of Deno.readTextFileSync(join(ROOT, path)).split("\n").entries()) {
      const comment = /^\s*(?:\*|\/\/|\/\*)/.test(line) ? line : line.split("// ")[1] ?? "";
      if (minifiedName.test(comment)) found.push(`${path}:${i + 1}: ${line.trim()}`);
    }
  }
  assertEquals(found, []);
  assert(minifiedName.test("read from `gyn` in 2.1.328") && minifiedName.test("j0e(value)"));
  assert(!minifiedName.test("`json`, `ja-JP`, agent-a1, eyes(), `Ey.x`"), "a false positive");
});

Deno.test("the README and docs/ name nothing outside the repository, nor internal issues", () => {
  for (const page of pages) {
    const text = read(page);
    // Paths outside the repository: tests/repository/self_contained_test.ts, which reads these too.
    assert(!/prd-005-posttooluse-reinject\.md/.test(text), `${page} names the PRD's file`);
  }
  // Our own issue numbers mean nothing to a reader; another project's public issue is written
  // owner/repo#N (or owner/repo #N), a reference they can follow.
  const internal = pages.flatMap((page) =>
    [...read(page).matchAll(/\bissues? #?\d+/gi)].map((m) => `${page}: ${m[0]}`)
  );
  assertEquals(internal, []);
});

Deno.test("the README says what the PRD is, or does not mention it", () => {
  const readme = read("README.md");
  if (!/\bPRD\b/.test(readme)) return;
  assert(
    /The\s+PRD\s+is\s[^.]+\./.test(readme),
    "the README names the PRD without saying what it is",
  );
});

Deno.test("the README stays a user's page: at most 15 KB", () => {
  const bytes = new TextEncoder().encode(read("README.md")).length;
  assert(bytes <= 15_000, `README.md is ${bytes} bytes; put the detail in docs/`);
});

/**
 * Lines of `text` longer than `width` characters that could be wrapped: a table row, a line in a
 * code block, or one whose single code span, link or URL is itself too long to fit cannot be.
 */
export function overlongLines(text: string, width: number): string[] {
  const overlong: string[] = [];
  let fenced = false;
  for (const [index, line] of text.split("\n").entries()) {
    if (line.startsWith("```")) fenced = !fenced;
    const length = [...line].length;
    if (length <= width || fenced || line.startsWith("```")) continue;
    const indent = line.length - line.trimStart().length;
    // Words, with a code span (spaces and all) kept whole: markdown cannot wrap inside it.
    const atoms = line.trim().match(/(?:`[^`]*`|[^\s`])+/g) ?? [];
    const longest = Math.max(0, ...atoms.map((atom) => [...atom].length));
    if (!line.trimStart().startsWith("|") && indent + longest <= width) {
      overlong.push(`${index + 1}: ${length} characters: ${line.slice(0, 60)}…`);
    }
  }
  return overlong;
}

Deno.test("overlongLines() spares tables, code blocks and unbreakable links, nothing else", () => {
  const long = "word ".repeat(30).trim();
  assertEquals(overlongLines(long, 100).length, 1);
  assertEquals(overlongLines(`| ${long} |`, 100), []);
  assertEquals(overlongLines(`\`\`\`\n${long}\n\`\`\``, 100), []);
  assertEquals(overlongLines(`see [x](https://example.com/${"a".repeat(100)}).`, 100), []);
  assertEquals(overlongLines(`\`${long}\``, 100), []);
  assertEquals(overlongLines(`${long} \`short\``, 100).length, 1);
  assertEquals(overlongLines("é".repeat(100), 100), [], "characters, not bytes");
});

Deno.test("no line of the README's markdown, and no prose line of docs/, is over 100 characters", () => {
  const readme = read("README.md").split("\n").flatMap((line, i) =>
    [...line].length > 100 ? [`README.md:${i + 1}: ${line}`] : []
  );
  const docs = pages.filter((page) => page.startsWith("docs/"))
    .flatMap((page) => overlongLines(read(page), 100).map((line) => `${page}:${line}`));
  assertEquals([...readme, ...docs], []);
});

Deno.test("every setting the program reads is in docs/configuration.md's table", () => {
  const markers = ["<!-- settings-table:start -->", "<!-- settings-table:end -->"];
  const table = betweenMarkers("docs/configuration.md", markers);
  assertEquals(read("docs/configuration.md").split(markers[0]!).length, 2, "one start marker");
  const rows = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]));
  const read_ = new Set(
    filesUnder(join(ROOT, "src")).filter((path) => path.endsWith(".ts"))
      .flatMap((path) => [...Deno.readTextFileSync(path).matchAll(/"(LESSONS_[A-Z0-9_]+)"/g)])
      .map((m) => m[1] ?? ""),
  );
  assertEquals([...read_].filter((name) => !rows.has(name)).sort(), []);
});

Deno.test("every repository path the README and docs/ name exists", () => {
  const missing: string[] = [];
  // A path in a link's text names the linked (other) repository's file.
  const pattern = /(?<!\[)`((?:src|tests|bench|scripts|docs|hooks|\.github|\.ci)\/[\w./-]+)`/g;
  for (const page of pages) {
    for (const match of read(page).matchAll(pattern)) {
      const path = match[1] ?? "";
      try {
        Deno.statSync(join(ROOT, path));
      } catch {
        missing.push(`${page}: ${path}`);
      }
    }
  }
  assertEquals([...new Set(missing)], []);
});

/** The text between a pair of markers in `page`; fails the test when they are missing. */
function betweenMarkers(page: string, [start, end]: string[]): string {
  const text = read(page);
  const from = text.indexOf(start ?? "");
  const to = text.indexOf(end ?? "");
  assert(from >= 0 && to > from, `${page} lacks ${start} ... ${end}`);
  return text.slice(from, to);
}

const REGENERATE =
  "run: deno run --allow-read --allow-write scripts/settings_table.ts && deno fmt README.md docs/";

Deno.test("docs/configuration.md's table and the README's list are the ones the settings table generates", async () => {
  const settings = await import("../../scripts/settings_table.ts");
  // deno fmt pads the columns: compare the cells, not the spaces.
  const cells = (markdown: string) =>
    markdown.split("\n").filter((line) => line.startsWith("|") && !/^\|[\s|:-]+\|$/.test(line))
      .map((line) => line.split("|").map((cell) => cell.trim()).join("|"));
  const table = betweenMarkers("docs/configuration.md", settings.TABLE_MARKERS);
  assertEquals(cells(table), cells(settings.renderSettingsTable()), REGENERATE);
  const list = betweenMarkers("README.md", settings.LIST_MARKERS);
  assertEquals(
    list.split("\n").filter((line) => line.trim() !== "").slice(1).join("\n"),
    settings.renderSettingsList(),
    REGENERATE,
  );
  assertEquals(
    settings.README_SETTINGS.length,
    6,
    "the README lists the six settings people change",
  );
});
