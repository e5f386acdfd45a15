/**
 * A manifest that cannot be used, as `doctor` and `preview` tell it: one line saying what is
 * wrong with the file, in the project's words (never an OS code, a parser's quote of the file or
 * zod's "Invalid input"), and what to do: mend the setting that named it, or restate CLAUDE.md
 * rules instead.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { ErrorJsonSchema } from "../../src/cli/schemas.ts";
import { assertIncludes, cli, doctorJson, parsedAs, ROOT, sandbox, userEnv } from "./_cli.ts";

type Box = ReturnType<typeof sandbox>;

/** Each broken manifest: how to make it, and what the one line says is wrong. */
const BROKEN: { name: string; make: (path: string) => void; says: string }[] = [
  { name: "no file", make: () => {}, says: "there is no such file" },
  { name: "a folder", make: (path) => Deno.mkdirSync(path), says: "it is a folder, not a file" },
  {
    name: "JSON cut short, with line breaks",
    make: (path) =>
      Deno.writeTextFileSync(path, '{\n  "type": "lessons-learned-manifest",\n  "x" 1\n'),
    says: "it is not valid JSON (line 3, column 7: expected ':')",
  },
  {
    name: "binary garbage",
    make: (path) => Deno.writeFileSync(path, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 10, 255])),
    says: "it is binary data, not JSON text",
  },
  { name: "empty", make: (path) => Deno.writeTextFileSync(path, "\n"), says: "it is empty" },
  {
    name: "JSON, not a manifest",
    make: (path) => Deno.writeTextFileSync(path, '{"version": 1, "lessons": "x"}'),
    says: 'it is not a lessons-learned manifest (no "type"; "lessons" is not an object of ' +
      "lessons by id)",
  },
  {
    name: "a list",
    make: (path) => Deno.writeTextFileSync(path, "[1, 2]"),
    says: "it is not a lessons-learned manifest (a list, not an object)",
  },
];

/** No rules of the user's own, no installed plugins: the manifest is the only source. */
function setUp(box: Box, make: (path: string) => void): Record<string, string> {
  const manifest = join(box.dir, "lesson-manifest.json");
  make(manifest);
  return userEnv(box, manifest);
}

/** What every message must never hold. */
function assertInOurWords(text: string): void {
  for (const foreign of ["os error", "Invalid input", "Unexpected token", "is not valid JSON:"]) {
    assert(!text.includes(foreign), `"${foreign}" in: ${text}`);
  }
  assert(!text.includes("\ufffd") && !text.includes("\u0000"), `garbage in: ${text}`);
}

Deno.test("doctor and preview say in one line what is wrong with the manifest, and what to do", async (t) => {
  for (const broken of BROKEN) {
    await t.step(broken.name, async () => {
      const env = setUp(sandbox(), broken.make);
      const path = env.LESSONS_MANIFEST_PATH;
      const doctor = await doctorJson(env);
      const check = doctor.check("manifest");
      assertEquals([doctor.code, check.status], [1, "fail"]);
      assertEquals(check.detail, `manifest ${path}: ${broken.says}`);
      assertInOurWords(check.detail);
      // The variable is set already: mend it, never "set" it; or take the CLAUDE.md route.
      assertIncludes(check.fix ?? "", "correct LESSONS_MANIFEST_PATH");
      assertIncludes(check.fix ?? "", "<!-- reinject -->");
      // The human report keeps its columns: the detail, then the fix, under one another.
      const human = await cli(["doctor", "--plugin-root", ROOT], env);
      const lines = human.stdout.split("\n");
      const at = lines.findIndex((l) => l.startsWith("  FAIL  manifest "));
      const fix = lines.findIndex((l, i) =>
        i > at && l.startsWith(`${" ".repeat(27)}fix: correct`)
      );
      assert(at >= 0 && fix > at, human.stdout);
      for (const line of lines.slice(at + 1, fix)) assert(/^ {27}\S/.test(line), human.stdout);
      // preview: nothing to restate, on stderr, in one line (after the settings problem a path
      // that does not exist is: settings/load.ts).
      const preview = await cli(["preview"], env);
      assertEquals([preview.code, preview.stdout], [1, ""]);
      const settingsLine = broken.name === "no file" ? 1 : 0;
      assertEquals(preview.stderr.split("\n").length, 2 + settingsLine, preview.stderr);
      assertIncludes(preview.stderr, `lessons-reinject: nothing to restate: manifest ${path}: `);
      assertIncludes(preview.stderr, broken.says);
      assertInOurWords(preview.stderr);
      assert(!preview.stderr.includes("set LESSONS_MANIFEST_PATH"), preview.stderr);
      assertIncludes(preview.stderr, "correct LESSONS_MANIFEST_PATH");
      assertIncludes(preview.stderr, "mark rules in CLAUDE.md between <!-- reinject --> and");
    });
  }
});

Deno.test("a manifest named in the config file is mended there", async () => {
  const box = sandbox();
  const env = setUp(box, () => {});
  const config = join(box.dir, "config.jsonc");
  Deno.writeTextFileSync(config, JSON.stringify({ manifestPath: env.LESSONS_MANIFEST_PATH }));
  const { LESSONS_MANIFEST_PATH: _, ...rest } = env;
  const run = await cli(["preview"], { ...rest, LESSONS_CONFIG: config });
  assertEquals(run.code, 1);
  assertIncludes(run.stderr, `correct manifestPath in ${config}, or remove it`);
});

Deno.test("without any manifest, preview and doctor name both routes", async () => {
  const { LESSONS_MANIFEST_PATH: _, ...env } = setUp(sandbox(), () => {});
  const run = await cli(["preview"], env);
  assertEquals(run.code, 1);
  assertEquals(
    run.stderr,
    "lessons-reinject: nothing to restate: no manifest found and no rules are marked in " +
      "CLAUDE.md; install the lessons-learned plugin, or set LESSONS_MANIFEST_PATH to its " +
      "data/lesson-manifest.json; or mark rules in CLAUDE.md between <!-- reinject --> and " +
      "<!-- /reinject --> lines (docs/own-rules.md)\n",
  );
  // With --json, the same line as `{error}` on stdout, and exit 1.
  const json = await cli(["preview", "--json"], env);
  assertEquals(json.code, 1);
  assertEquals(
    parsedAs(ErrorJsonSchema, json.stdout).error,
    run.stderr.slice("lessons-reinject: ".length, -1),
  );
});
