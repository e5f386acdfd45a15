import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { PreviewJsonSchema } from "../../src/cli/schemas.ts";
import { RECORDED } from "../_helpers.ts";
import { assertIncludes, cli, parsedAs, sandbox } from "./_cli.ts";

Deno.test("preview prints the next refresh's text and its accounting", async () => {
  const box = sandbox();
  const env = { ...box.env, HOME: box.dir };
  const run = await cli(["preview", "--transcript", RECORDED], env);
  assertEquals(run.code, 0, run.stderr);
  assert(run.stdout.startsWith("[lessons-reinject refresh 30 ref="), run.stdout);
  assertIncludes(run.stdout, "## Non-Negotiable Directives");
  assertIncludes(run.stdout, "of 9500 characters (within the budget)");
  assertIncludes(run.stdout, "whole        ");
  assertIncludes(run.stdout, "left out     none");

  const json = parsedAs(
    PreviewJsonSchema,
    (await cli(["preview", "--json", "--threshold", "52", "--transcript", RECORDED], env)).stdout,
  );
  assertEquals(json.thresholds, [52]);
  assert(json.text.startsWith("[lessons-reinject refresh 52 ref="));
  assertIncludes(json.text, "of the 200k-token context window");
  assertEquals(json.chars, json.text.length);
  assertEquals(json.budget, 9500);
  assert(json.whole.length > 0);
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("preview of a 40 KB manifest stays within the budget, summarizing what does not fit", async () => {
  const box = sandbox();
  const lessons: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) {
    lessons[`l${i}`] = {
      slug: `lesson-${i}`,
      type: i % 3 === 0 ? "protocol" : "directive",
      priority: i % 10,
      message: `Lesson ${i}: ${"do the careful thing and check it twice. ".repeat(25)}`,
      summary: `Lesson ${i} in one line.`,
      tags: [`tag${i % 4}`],
    };
  }
  const manifest = join(box.dir, "big.json");
  Deno.writeTextFileSync(
    manifest,
    JSON.stringify({ type: "lessons-learned-manifest", version: 1, lessons }),
  );
  assert(Deno.statSync(manifest).size > 40_000);
  const run = await cli(["preview", "--json"], {
    ...box.env,
    HOME: box.dir,
    LESSONS_MANIFEST_PATH: manifest,
  });
  assertEquals(run.code, 0, run.stderr);
  const json = parsedAs(PreviewJsonSchema, run.stdout);
  assert(json.chars <= 9_500, String(json.chars));
  assert(json.summarized.length > 0);
  assertEquals(json.whole.length + json.summarized.length + json.omitted.length, 40);
  await Deno.remove(box.dir, { recursive: true });
});

Deno.test("preview without a manifest exits 1; a bad --threshold exits 2", async () => {
  const box = sandbox();
  const env = { HOME: box.dir, LESSONS_STATE_DIR: box.stateDir };
  const none = await cli(["preview"], env);
  assertEquals(none.code, 1);
  assertIncludes(none.stderr, "no manifest found");
  const bad = await cli(["preview", "--threshold", "120"], env);
  assertEquals(bad.code, 2);
  assertIncludes(bad.stderr, "--threshold 120");
  await Deno.remove(box.dir, { recursive: true });
});
