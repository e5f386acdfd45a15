import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  describeSource,
  findGitRoot,
  readRuleSource,
  ruleSourceCandidates,
  sourceProblems,
} from "../../../src/io/rule_sources.ts";
import { loadStandingRules } from "../../../src/io/standing_rules.ts";
import { SOURCE_NAMES, type SourceName } from "../../../src/core/rule_source_names.ts";
import { sandbox } from "../../_helpers.ts";
import { folderWith } from "./_io.ts";

const ALL = new Set<SourceName>(SOURCE_NAMES);

/** Where to look, as the table below says it. */
interface Places {
  cwd: string | undefined;
  gitRoot: string | undefined;
  userDir: string | undefined;
  home: string | undefined;
  sources: ReadonlySet<SourceName>;
  extraFiles: string[];
}

const candidates = (p: Places) =>
  ruleSourceCandidates(
    { sources: [...p.sources], rulesFiles: p.extraFiles, claudeDir: p.userDir, home: p.home },
    p.cwd,
    p.gitRoot,
  );

Deno.test("ruleSourceCandidates() lists every place in rank order", async (t) => {
  // Each case's places over a project at /r with the user's folder /h/.claude.
  const at = { cwd: "/r", gitRoot: "/r", userDir: "/h/.claude", home: "/h" };
  // The project's own places at its root, and the user's, in rank order.
  const RULES = "rules-file project .claude/reinject.md";
  const md = (file: string) => `claude-md project ${file}`;
  const MDS = [md("CLAUDE.local.md"), md("CLAUDE.md"), md(".claude/CLAUDE.md")];
  const USER = ["rules-file user ~/.claude/reinject.md", "claude-md user ~/.claude/CLAUDE.md"];
  const cases: [string, Partial<Places>, string[]][] = [
    ["cwd below the git root: the cwd's files, then the root's, then the user's", {
      cwd: "/r/pkg",
    }, [
      "rules-file project pkg/.claude/reinject.md",
      RULES,
      md("pkg/CLAUDE.local.md"),
      md("pkg/CLAUDE.md"),
      md("pkg/.claude/CLAUDE.md"),
      ...MDS,
      ...USER,
    ]],
    ["cwd is the git root: each place once", {}, [RULES, ...MDS, ...USER]],
    ["no git root, CLAUDE_CONFIG_DIR elsewhere, configured files first", {
      cwd: "/w",
      gitRoot: undefined,
      userDir: "/cfg",
      extraFiles: ["team-rules.md", "/abs/rules.md"],
    }, [
      "rules-file configured team-rules.md",
      "rules-file configured /abs/rules.md",
      RULES,
      ...MDS,
      "rules-file user /cfg/reinject.md",
      "claude-md user /cfg/CLAUDE.md",
    ]],
    ["the home folder as the project: ~/.claude/CLAUDE.md is kept once, as the project's", {
      cwd: "/h",
      gitRoot: undefined,
    }, [RULES, ...MDS]],
    ["only claude-md on", { sources: new Set(["claude-md"]), extraFiles: ["x.md"] }, [
      ...MDS,
      USER[1]!,
    ]],
    ["only the manifest on: no own-rule sources", { sources: new Set(["manifest"]) }, []],
    ["no cwd and no home: the configured folder only", {
      cwd: undefined,
      gitRoot: undefined,
      userDir: "/cfg",
      home: undefined,
    }, ["rules-file user /cfg/reinject.md", "claude-md user /cfg/CLAUDE.md"]],
  ];
  for (const [name, input, want] of cases) {
    await t.step(name, () => {
      const found = candidates({ ...at, sources: ALL, extraFiles: [], ...input });
      assertEquals(found.map((s) => `${s.kind} ${s.scope} ${s.display}`), want);
    });
  }
});

Deno.test("ruleSourceCandidates() shortens only real path prefixes", () => {
  const displays = (input: Partial<Places>) =>
    candidates({
      cwd: undefined,
      gitRoot: undefined,
      userDir: undefined,
      home: undefined,
      sources: new Set<SourceName>(["rules-file"]),
      extraFiles: [],
      ...input,
    }).map((s) => s.display);
  assertEquals(displays({ cwd: "/r", extraFiles: ["/r/a.md", "/rx/a.md"] }).slice(0, 2), [
    "a.md",
    "/rx/a.md",
  ]);
  assertEquals(displays({ userDir: "/h/.claude", home: "/h" }), ["~/.claude/reinject.md"]);
  assertEquals(displays({ userDir: "/hx/.claude", home: "/h" }), ["/hx/.claude/reinject.md"]);
  assertEquals(displays({ userDir: "/h/.claude" }), ["/h/.claude/reinject.md"]);
});

Deno.test("findGitRoot() finds .git folders and worktree .git files upward, else nothing", () => {
  const { dir } = sandbox();
  const repo = join(dir, "repo");
  Deno.mkdirSync(join(repo, ".git"), { recursive: true });
  Deno.mkdirSync(join(repo, "a", "b"), { recursive: true });
  equal(findGitRoot(join(repo, "a", "b")), repo);
  equal(findGitRoot(repo), repo);
  const worktree = join(dir, "wt");
  Deno.mkdirSync(join(worktree, "src"), { recursive: true });
  Deno.writeTextFileSync(join(worktree, ".git"), "gitdir: /elsewhere\n");
  equal(findGitRoot(join(worktree, "src")), worktree);
  equal(findGitRoot("relative/path"), undefined);
  equal(findGitRoot(undefined), undefined);
});

Deno.test("readRuleSource() reads, skips with a reason, never throws", async (t) => {
  const { dir } = sandbox();
  const spec = (name: string, kind: "claude-md" | "rules-file") => ({
    kind,
    scope: "project" as const,
    path: join(dir, name),
    display: name,
  });
  await t.step("a CLAUDE.md gives only its marked sections", () => {
    Deno.writeTextFileSync(
      join(dir, "CLAUDE.md"),
      "# Project\nUnmarked.\n<!-- reinject -->\nRule A.\n<!-- /reinject -->\n<!-- reinject -->\nB\n",
    );
    const got = readRuleSource(spec("CLAUDE.md", "claude-md"));
    equal(got.status, "read");
    assertEquals(got.blocks.map((b) => [b.id, b.heading, b.text]), [
      ["CLAUDE.md:3", "## Rules you marked in CLAUDE.md", "Rule A."],
    ]);
    assertEquals(got.markers, [{ line: 6, problem: "section never closed", leftOut: true }]);
    ok(describeSource(got).startsWith("CLAUDE.md: 1 marked section, "), describeSource(got));
  });
  await t.step("a CLAUDE.md without markers gives nothing and says so", () => {
    Deno.writeTextFileSync(join(dir, "plain.md"), "# Everything here is unmarked.\n");
    const got = readRuleSource(spec("plain.md", "claude-md"));
    assertEquals([got.status, got.blocks, got.notes], ["read", [], ["no marked sections"]]);
  });
  await t.step("a rules file is read whole, BOM and CRLF normalised", () => {
    Deno.writeTextFileSync(join(dir, "reinject.md"), "\uFEFF# Mine\r\nRule one.\r\nRule two.\r\n");
    const got = readRuleSource(spec("reinject.md", "rules-file"));
    assertEquals(got.blocks.map((b) => [b.id, b.heading, b.text]), [
      ["reinject.md", "## Your rules from reinject.md", "# Mine\nRule one.\nRule two."],
    ]);
    equal(describeSource(got), `reinject.md: whole file, ${got.bytes} bytes`);
  });
  await t.step("a missing file is missing, with no note", () => {
    const got = readRuleSource(spec("absent.md", "rules-file"));
    assertEquals([got.status, got.notes, got.bytes], ["missing", [], undefined]);
    equal(describeSource(got), "absent.md: not found");
  });
  await t.step("a folder where a file should be is skipped", () => {
    Deno.mkdirSync(join(dir, "folder.md"));
    const got = readRuleSource(spec("folder.md", "claude-md"));
    assertEquals([got.status, got.notes], ["skipped", ["it is a folder, not a file"]]);
  });
  await t.step("a path through a file is missing, not an error", () => {
    const got = readRuleSource(spec("reinject.md/CLAUDE.md", "claude-md"));
    equal(got.status, "missing");
  });
  await t.step("an oversized file is refused unread", () => {
    Deno.writeTextFileSync(join(dir, "huge.md"), "x".repeat(1024 * 1024 + 1));
    const got = readRuleSource(spec("huge.md", "rules-file"));
    equal(got.status, "skipped");
    ok(got.notes[0]!.includes("over the"), got.notes[0]);
  });
  await t.step("a file that is not UTF-8 is skipped", () => {
    Deno.writeFileSync(join(dir, "binary.md"), new Uint8Array([0xff, 0xfe, 0x00, 0xc3]));
    const got = readRuleSource(spec("binary.md", "rules-file"));
    assertEquals([got.status, got.notes], ["skipped", ["it is not text (invalid UTF-8)"]]);
  });
  // A file that cannot be stat'ed (a symlink loop): tests/integration/own_rules_test.ts
  // "an unreadable source is skipped with its reason; the others still arrive".
  await t.step("an empty rules file gives nothing", () => {
    Deno.writeTextFileSync(join(dir, "empty.md"), "\n  \n");
    const got = readRuleSource(spec("empty.md", "rules-file"));
    assertEquals([got.status, got.blocks, got.notes], ["read", [], ["empty"]]);
  });
});

Deno.test("sourceProblems() names each odd marker by path and line; `unread`: only what cost rules", () => {
  const { dir } = sandbox();
  const write = (name: string, text: string) => {
    Deno.writeTextFileSync(join(dir, name), text);
    return readRuleSource({
      kind: "claude-md",
      scope: "project",
      path: join(dir, name),
      display: name,
    });
  };
  const stray = write(
    "stray.md",
    "<!-- /reinject -->\n<!-- reinject -->\nA.\n<!-- /reinject -->\n",
  );
  const open = write("open.md", "<!-- reinject -->\nB.\n<!-- reinject -->\n");
  const folder = readRuleSource({ kind: "rules-file", scope: "project", path: dir, display: "d" });
  const sources = [stray, open, folder];
  assertEquals(sourceProblems(sources), [
    `${dir}/stray.md:1: closing marker without an opening one ignored`,
    `${dir}/open.md:3: opening marker inside an open section ignored`,
    `${dir}/open.md:1: section never closed; left out`,
    `${dir}: it is a folder, not a file`,
  ]);
  assertEquals(sourceProblems(sources, true), [
    `${dir}/open.md:1: section never closed`,
    `${dir}: it is a folder, not a file`,
  ]);
});

Deno.test("loadStandingRules() finds a project's and a user's rules from cwd and the git root", async () => {
  const marked = (rule: string) => `<!-- reinject -->\n${rule}\n<!-- /reinject -->\n`;
  const dir = folderWith({
    "repo/CLAUDE.md": marked("Root rule."),
    "repo/.claude/reinject.md": "Project rules file.\n",
    "repo/pkg/CLAUDE.md": marked("Pkg rule."),
    "home/.claude/CLAUDE.md": `unmarked\n${marked("User rule.")}`,
  });
  const [repo, home] = [join(dir, "repo"), join(dir, "home")];
  Deno.mkdirSync(join(repo, ".git"));
  const { sources: loaded } = await loadStandingRules({
    sources: [...ALL],
    rulesFiles: [],
    claudeDir: join(home, ".claude"),
    pluginsDir: undefined,
    home,
    manifestPath: undefined,
    manifestPathFrom: undefined,
    pluginRoot: undefined,
    projectDir: undefined,
  }, join(repo, "pkg"));
  assertEquals(
    loaded.filter((s) => s.blocks.length > 0).map((s) => [s.display, s.blocks.map((b) => b.text)]),
    [
      [".claude/reinject.md", ["Project rules file."]],
      ["pkg/CLAUDE.md", ["Pkg rule."]],
      ["CLAUDE.md", ["Root rule."]],
      ["~/.claude/CLAUDE.md", ["User rule."]],
    ],
  );
  equal(loaded.length, 10, "every candidate is listed, found or not");
});
