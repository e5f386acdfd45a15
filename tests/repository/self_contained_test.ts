/**
 * A clone of this repository must pass alone: no code, test, script, fixture or doc names a path
 * outside it (the folder of shared material beside our checkouts, or any climb above the root).
 * `.ci/run` proves it by running in a fresh clone; this catches it before a commit.
 */
import { deepStrictEqual } from "node:assert/strict";
import { existsSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { filesUnder, ROOT } from "../_helpers.ts";

/** Where code and data live, and the root files that name paths. */
const SCANNED = ["src", "tests", "scripts", "bench", "hooks", ".ci", ".github", "docs"];
const ROOT_FILES = ["deno.json", "README.md"];
const BINARY = new Set([".png", ".jpg", ".gz", ".zip", ".wasm"]);

/** Pieces joined at run time, so that this file does not name what it looks for. */
const UP = [".", "."].join("");
const UP_RE = "\\.\\.";
const SIBLING = ["sha", "red"].join("");
const Q = `["'\`]`;

/**
 * Hostile ids that climb on purpose: the hardening suite feeds them to the hook to show they
 * never reach a path, and the reliability page lists them. Data, never a path anything reads.
 */
const ALLOWED: Record<string, string[]> = {
  [join("tests", "hardening", "hostile_test.ts")]: [`"${UP}/${UP}/${UP}/escape",`],
  [join("docs", "maintainers", "reliability.md")]: [`\`${UP}/${UP}/${UP}/escape\``],
};

/** What each rule finds, by the reason it gives. */
const RULES: Record<string, RegExp[]> = {
  "the sibling folder": [
    // After a climb, with either slash.
    new RegExp(`${UP_RE}[\\\\/]+${SIBLING}\\b`),
    // An absolute or relative path into it, by the folders it holds.
    new RegExp(`(?:^|[^\\w.-])${SIBLING}[\\\\/](?:fixtures|docs|hooks)\\b`),
    // The same, one path segment per argument.
    new RegExp(`${Q}${SIBLING}${Q}\\s*,\\s*${Q}(?:fixtures|docs|hooks)${Q}`),
  ],
  // The parent of the root, however it is spelled.
  "the root's parent": [
    new RegExp(
      `\\b(?:join|resolve|normalize)\\(\\s*[\\w.]*root\\w*\\s*,\\s*${Q}${UP_RE}(?:["'\`/\\\\])`,
      "i",
    ),
    /\bdirname\(\s*[\w.]*root\w*\s*\)/i,
    new RegExp(`\\$\\{\\s*[\\w.]*root\\w*\\s*\\}[\\\\/]${UP_RE}`, "i"),
    new RegExp(`\\b[\\w.]*root\\w*\\s*\\+\\s*${Q}[\\\\/]?${UP_RE}`, "i"),
  ],
};

/**
 * The deepest climb a line makes: several parent steps in one string, or parent steps as
 * arguments in a row (the way `join` climbs). From a file's own folder, a climb deeper than that
 * folder's depth leaves the repository. Spread syntax and ranges like `1..3` are not climbs.
 */
function deepestClimb(line: string): number {
  const steps = (text: string) => text.split(UP).length - 1;
  let deepest = 0;
  const inOne = new RegExp(`(?<![.\\w])${UP_RE}(?:[\\\\/]+${UP_RE})*(?![.\\w])`, "g");
  for (const match of line.matchAll(inOne)) deepest = Math.max(deepest, steps(match[0]));
  const inArgs = new RegExp(`(["'\`])${UP_RE}\\1(?:\\s*,\\s*(["'\`])${UP_RE}\\2)*`, "g");
  for (const match of line.matchAll(inArgs)) deepest = Math.max(deepest, steps(match[0]));
  return deepest;
}

/** Every line under `root`'s scanned folders that names a path outside it. */
export function outsidePaths(root: string): string[] {
  const findings: string[] = [];
  const paths = [
    ...SCANNED.filter((d) => existsSync(join(root, d))).flatMap((d) => filesUnder(join(root, d)))
      .filter((path) => !BINARY.has(extname(path))),
    ...ROOT_FILES.map((f) => join(root, f)).filter((f) => existsSync(f)),
  ];
  for (const path of paths) {
    const name = relative(root, path);
    const depth = name.split(sep).length - 1;
    // Transcripts are data, not paths anything resolves: only the sibling-folder rules apply.
    const data = name.endsWith(".jsonl");
    Deno.readTextFileSync(path).split("\n").forEach((line, i) => {
      const where = `${name}:${i + 1}`;
      for (const [why, patterns] of Object.entries(RULES)) {
        if (patterns.some((p) => p.test(line))) findings.push(`${where}: ${why}: ${line.trim()}`);
      }
      if (data || ALLOWED[name]?.some((text) => line.includes(text))) return;
      const climb = deepestClimb(line);
      if (climb > depth) {
        findings.push(`${where}: climbs ${climb} from depth ${depth}: ${line.trim()}`);
      }
    });
  }
  return findings;
}

Deno.test("no file names a path outside the repository", () => {
  deepStrictEqual(outsidePaths(ROOT), []);
});

Deno.test("the check finds every way of naming a path outside the repository", () => {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-outside-" });
  try {
    const up2 = `${UP}/${UP}`;
    const planted: Record<string, string> = {
      "src/a.ts": `const A = "${UP}/${SIBLING}/fixtures/transcripts";`,
      "src/b.ts": `const B = join(ROOT, "${UP}", "${SIBLING}");`,
      "src/c.ts": `const C = join(ROOT, "${UP}");`,
      "tests/d.ts": `const D = ${"dirname"}(ROOT);`,
      "scripts/e.ts": "const E = `${ROOT}/" + UP + "/x`;",
      "scripts/f.ts": `const F = repoRoot + "/${UP}/x";`,
      "bench/g.ts": `const G = new URL("${up2}/x", import.meta.url);`,
      "hooks/h": `cd "$(dirname "$0")/${up2}"`,
      ".ci/i": `ls /work/${SIBLING}/fixtures/payloads`,
      "tests/j/k.ts": `const K = join(here, "${UP}", "${UP}", "${UP}");`,
      "tests/j/l.ts": `const L = join("${SIBLING}", "fixtures");`,
      "deno.json": `{ "tasks": { "x": "deno run ${UP}\\\\${SIBLING}\\\\x.ts" } }`,
      "docs/m.md": `See ${SIBLING}/docs/prd.md.`,
      "tests/fixtures/n.jsonl": `{"cwd":"${UP}/${SIBLING}/x"}`,
      ".github/workflows/o.yml": `run: cat ${up2}/${up2}/x`,
    };
    // Climbs that stay inside, and dots that are not climbs.
    const fine: Record<string, string> = {
      "tests/j/ok.ts": `import { x } from "${up2}/src/x.ts"; const y = [...list]; // 1..3`,
      "hooks/ok": `root=$(cd -- "$(dirname -- "$0")/${UP}" && pwd)`,
      "tests/fixtures/ok.jsonl": `{"displayPath":"${up2}/${up2}/${UP}/tmp/x"}`,
      "src/ok.ts": `if (part === "${UP}") out.pop(); // a shared temp folder`,
    };
    for (const [name, text] of Object.entries({ ...planted, ...fine })) {
      Deno.mkdirSync(join(dir, name, UP), { recursive: true });
      Deno.writeTextFileSync(join(dir, name), text);
    }
    const found = new Set(outsidePaths(dir).map((f) => f.split(":")[0]));
    deepStrictEqual([...found].sort(), Object.keys(planted).sort());
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
