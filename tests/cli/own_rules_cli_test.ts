/**
 * `preview`, `status` and `doctor` list each source of rules: its size, what it gave, and what
 * the budget left out (docs/own-rules.md).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { PreviewJsonSchema, StatusJsonSchema } from "../../src/cli/schemas.ts";
import { appendTranscript, entries, RECORDED, runHook, writeTranscript } from "../_helpers.ts";
import {
  assertIncludes,
  callOf,
  cli,
  cliJson,
  doctorJson,
  home,
  marked,
  projectIn,
  ROOT,
  userEnv,
} from "./_cli.ts";

const MARKED = "Always run the tests before a commit.";
const CLAUDE_MD = `# Notes\nUnmarked.\n${marked(MARKED)}<!-- reinject -->\nnever closed\n`;

/** A project folder with a marked CLAUDE.md, no manifest anywhere, a sandboxed user folder. */
function project() {
  const box = home();
  const work = projectIn(box.dir, { "CLAUDE.md": CLAUDE_MD }, "work");
  const env: Record<string, string> = userEnv(box, "");
  return { box, work, env };
}

Deno.test("preview lists each source, the marked section in its text; doctor measures it alike, own rules alone enough", async () => {
  const { work, env } = project();
  const preview = await cliJson(PreviewJsonSchema, ["preview"], env, "", work);
  ok(preview.text?.endsWith(`## Rules you marked in CLAUDE.md\n\n${MARKED}\n`), preview.text ?? "");
  // The hook's header, naming what it restates.
  ok(
    /^\[lessons-reinject refresh 30 ref=[0-9a-f]{8}\] [^\n]*: your own standing rules, restated/
      .test(preview.text ?? ""),
    preview.text ?? "",
  );
  assertEquals(preview.sources[0], "manifest: no manifest found (set LESSONS_MANIFEST_PATH)");
  ok(
    preview.sources.some((s) =>
      /^CLAUDE\.md: 1 marked section, \d+ bytes \(line 6: section never closed; left out\)$/.test(s)
    ),
    preview.sources.join("\n"),
  );
  assertEquals(preview.whole, ["CLAUDE.md:3"]);
  const human = await cli(["preview"], env, "", work);
  assertIncludes(human.stdout, "sources      manifest: no manifest found");
  assertIncludes(human.stdout, "manifest     none\n"); // not "null"
  assertIncludes(human.stdout, `size         ${preview.chars} of 9,500 characters`);
  const { code, report, check: by } = await doctorJson(env, [], work);
  // No manifest is no problem when another source has rules.
  assertEquals(by("manifest").status, "ok");
  assertIncludes(by("manifest").detail, "not needed");
  const rules = by("rules");
  assertEquals(rules.status, "warn", JSON.stringify(rules));
  assertIncludes(rules.detail, "1 section of your own rules"); // not "1 sections"
  assertIncludes(rules.detail, "CLAUDE.md: 1 marked section");
  assertIncludes(rules.detail, "0 left out");
  // The size preview gives, in doctor's words.
  assertIncludes(rules.detail, `a refresh of every source is ${preview.chars} of 9,500 characters`);
  // Odd markers are warned of, with the fix.
  assertEquals(
    rules.fix,
    "close the section CLAUDE.md opens at line 6 with a <!-- /reinject --> line",
  );
  assertEquals([code, report.checks.filter((c) => c.status === "fail")], [0, []]);
  // With the sample manifest too: the manifest's check quotes the same refresh.
  const both = { ...env, LESSONS_MANIFEST_PATH: join(ROOT, "src", "data", "sample_manifest.json") };
  const full = await cliJson(PreviewJsonSchema, ["preview"], both, "", work);
  const doctor = await doctorJson(both, [], work);
  const chars = full.chars.toLocaleString("en-US");
  assertEquals(doctor.code, 0);
  assertIncludes(doctor.check("manifest").detail, `in a refresh of ${chars} of 9,500`);
  assertIncludes(doctor.check("rules").detail, `is ${chars} of 9,500`);
});

Deno.test("status lists each source", async () => {
  const { work, env } = project();
  const args = ["status", "--transcript", RECORDED];
  const status = await cliJson(StatusJsonSchema, args, env, "", work);
  ok(
    status.sources.some((s) => s.startsWith("CLAUDE.md: 1 marked section")),
    status.sources.join(),
  );
  assertEquals([status.afterCompact, status.leftOut], [null, []]);
  const tight = { ...env, LESSONS_REINJECT_MAX_CHARS: "200" };
  assertEquals((await cliJson(StatusJsonSchema, args, tight, "", work)).leftOut, ["CLAUDE.md:3"]);
  const text = await cli(args, tight, "", work);
  assertIncludes(text.stdout, "left out     CLAUDE.md:3 (over the refresh budget)");
});

Deno.test("status says when the next tool call restates the rules after a compaction", async () => {
  const { box, work, env } = project();
  const transcript = join(box.dir, "s.jsonl");
  const line = entries.assistant(62_000, ["toolu_1"]);
  writeTranscript(transcript, [line]);
  const hook = await runHook({ ...callOf(line, transcript, "toolu_1"), cwd: work }, env);
  ok(hook.code === 0 && hook.stdout.includes("refresh 30"), hook.stdout);
  // A compaction no event reported (SessionStart(compact) dropped): with only CLAUDE.md rules,
  // which Claude Code puts back itself, the next tool call restates nothing.
  appendTranscript(transcript, [entries.compactBoundary()]);
  const args = ["status", "--transcript", transcript];
  const nothing = await cliJson(StatusJsonSchema, args, env, "", work);
  assertEquals([nothing.afterCompact, nothing.action], ["pending", "nothing"]);
  assertIncludes(nothing.decision, "but nothing restated: only CLAUDE.md rules");
  const quiet = await cli(args, env, "", work);
  assertIncludes(quiet.stdout, "compaction   the next tool call restates nothing (see decision)");
  // With a reinject.md it restates that.
  Deno.mkdirSync(join(work, ".claude"));
  Deno.writeTextFileSync(join(work, ".claude", "reinject.md"), "Mine.\n");
  const status = await cliJson(StatusJsonSchema, args, env, "", work);
  assertEquals([status.afterCompact, status.action], ["pending", "refresh"]);
  const text = await cli(args, env, "", work);
  assertIncludes(text.stdout, "compaction   the next tool call restates the rules");
});

Deno.test("doctor and preview: an unclosed marker in the only source of rules is the failure, with its line", async () => {
  const { work, env } = project();
  // A typo in the closing marker: the section is never closed, so nothing is restated.
  const claudeMd = join(work, "CLAUDE.md");
  Deno.writeTextFileSync(
    claudeMd,
    `# Notes\n\n\n\n\n\n<!-- reinject -->\n${MARKED}\n<!-- /reinject>\n`,
  );
  const { code, report, check } = await doctorJson(env, [], work);
  assertEquals(code, 1);
  const failures = report.checks.filter((c) => c.status === "fail");
  assertEquals(failures.map((c) => c.name), ["rules"]);
  assertIncludes(failures[0]!.detail, "line 7: section never closed");
  assertEquals(
    failures[0]!.fix,
    "close the section CLAUDE.md opens at line 7 with a <!-- /reinject --> line",
  );
  assertEquals(check("manifest").status, "warn");
  // preview names the file and the line.
  const preview = await cli(["preview"], env, "", work);
  assertEquals(preview.code, 1, preview.stdout);
  assertIncludes(preview.stderr, `${claudeMd}:7: section never closed; left out`);
  ok(!preview.stderr.includes("no rules are marked"), preview.stderr);
  const json = await cli(["preview", "--json"], env, "", work);
  assertIncludes(JSON.parse(json.stdout).error, `${claudeMd}:7: section never closed`);
});

/** Room for the header, one first line and the count of what was left out; not for two. */
const BUDGET_FOR_ONE = 485;

Deno.test("doctor: a budget that leaves rules out says which", async () => {
  const { work, env } = project();
  Deno.writeTextFileSync(
    join(work, "CLAUDE.md"),
    `<!-- reinject -->\n${"A long rule. ".repeat(200)}\n<!-- /reinject -->\n<!-- reinject -->\n` +
      `${"Another. ".repeat(200)}\n<!-- /reinject -->\n`,
  );
  const tight = { ...env, LESSONS_REINJECT_MAX_CHARS: String(BUDGET_FOR_ONE) };
  const rules = (await doctorJson(tight, [], work)).check("rules");
  assertEquals(rules.status, "warn");
  assertIncludes(rules.detail, "1 left out (CLAUDE.md:4)");
  assertIncludes(rules.fix ?? "", "LESSONS_REINJECT_MAX_CHARS");
});
