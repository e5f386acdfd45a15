/**
 * `preview` and `doctor` name every active lesson a refresh leaves out, and why: scoped to another
 * project, past session start's cap, over its budget, or over the refresh's own budget.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { PreviewJsonSchema } from "../../src/cli/schemas.ts";
import { projectIdOf } from "../../src/core/session_start.ts";
import { assertIncludes, cli, cliJson, doctorJson, home, ROOT, unwrap, userEnv } from "./_cli.ts";

const LIMITS = join(ROOT, "tests", "fixtures", "manifests", "session-start-limits.json");

/** The limits fixture, its "this project" lessons scoped to `project`; a small refresh budget. */
function setUp() {
  const box = home();
  const project = join(box.dir, "proj");
  Deno.mkdirSync(project);
  const manifest = join(box.dir, "manifest.json");
  Deno.writeTextFileSync(
    manifest,
    Deno.readTextFileSync(LIMITS).replaceAll(
      '"home-dev-proj"',
      JSON.stringify(projectIdOf(project)),
    ),
  );
  // Room for the header and a few lessons, not all six.
  const env = { ...userEnv(box, manifest), LESSONS_REINJECT_MAX_CHARS: "500" };
  return { box, project, env };
}

Deno.test("preview and doctor name every lesson left out, and why; doctor, session start's limits", async () => {
  const { project, env } = setUp();
  const args = ["preview", "--project", project];
  const json = await cliJson(PreviewJsonSchema, args, env, "", project);
  const by = (why: string) => json.excluded.filter((e) => e.why === why).map((e) => e.id);
  assertEquals(by("scope"), ["scoped-elsewhere", "scoped-by-path"]);
  assertEquals(by("session-start-budget"), ["big"]);
  assertEquals(by("reminder"), ["a-reminder"]);
  assertEquals(by("session-start-cap"), ["after-cap", "low"]);
  assert(json.omitted.length > 0, "the refresh's own budget left some out");
  assertEquals(by("refresh-budget"), json.omitted);
  // Session start's six, each restated, summarized or named as over the refresh's budget.
  assertEquals(
    [...json.whole, ...json.summarized, ...json.omitted].sort(),
    ["a-second", "alpha", "beta", "scoped-here", "untagged", "z-first"],
  );
  const human = await cli(args, env, "", project);
  const text = unwrap(human.stdout);
  assertIncludes(text, "scoped-elsewhere (scoped to another project)");
  assertIncludes(text, "big (over session start's budget)");
  assertIncludes(text, "a-reminder (a reminder: fired from tool output, not at session start)");
  assertIncludes(text, "low (past session start's cap)");
  assertIncludes(text, `${json.omitted[0]} (over this refresh's budget)`);
  // doctor names them too, with session start's limits.
  const doctor = await doctorJson(env, [], project);
  const detail = doctor.check("manifest").detail;
  assertEquals(doctor.code, 0);
  assertIncludes(detail, "session start shows at most 6 lessons within 300 characters");
  for (
    const named of [
      "scoped-elsewhere (scoped to another project)",
      "scoped-by-path (scoped to another project)",
      "big (over session start's budget)",
      "after-cap (past session start's cap)",
      "low (past session start's cap)",
      "(over this refresh's budget)",
    ]
  ) assertIncludes(detail, named);
});
