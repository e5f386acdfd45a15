import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { selectLessons } from "../../../src/core/lessons.ts";
import { SAMPLE_MANIFEST } from "../../_helpers.ts";

const sample = () => JSON.parse(Deno.readTextFileSync(SAMPLE_MANIFEST));

Deno.test("selectLessons() names invalid lessons and keeps the valid ones", () => {
  const manifest = sample();
  manifest.lessons.bad1 = { slug: "bad", type: "directive", priority: "high", message: 3 };
  manifest.lessons.bad2 = "not an object";
  manifest.lessons.extra = { ...manifest.lessons["01JSAMPLE0000000000000001"], newField: { x: 1 } };
  const { lessons, invalid } = selectLessons(manifest, undefined);
  assertEquals(lessons.length, 6);
  assertEquals(invalid.length, 2);
  ok(invalid[0]!.startsWith("bad1: "), invalid[0]);
  ok(invalid[0]!.includes("priority"), invalid[0]);
});

Deno.test("selectLessons() throws TypeError saying what a non-manifest lacks", async (t) => {
  const envelope = { type: "lessons-learned-manifest", version: 1, lessons: {} };
  const cases: [string, unknown, string][] = [
    ["null", null, "null, not an object"],
    ["array", [], "a list, not an object"],
    ["a string", "x", "a string, not an object"],
    ["wrong type tag", { ...envelope, type: "other" }, '"type" is not "lessons-learned-manifest"'],
    ["wrong version", { ...envelope, version: 2 }, '"version" is not 1'],
    [
      "lessons not an object",
      { ...envelope, lessons: [] },
      '"lessons" is not an object of lessons by id',
    ],
    ["an empty object", {}, 'no "type"; no "version"; no "lessons"'],
  ];
  for (const [name, raw, says] of cases) {
    await t.step(name, () =>
      throws(() => selectLessons(raw, undefined), {
        name: "TypeError",
        message: `not a lessons-learned manifest (${says})`,
      }));
  }
});

Deno.test("selectLessons() falls back to priority 5 and a first-line summary", () => {
  const a = { slug: "a", type: "protocol", message: "\nFirst line.\nSecond line." };
  const { lessons } = selectLessons({ ...sample(), lessons: { a } }, undefined);
  assertEquals(lessons[0]?.priority, 5);
  assertEquals(lessons[0]?.summary, "First line.");
});
