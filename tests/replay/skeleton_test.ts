/**
 * The skeletons stand in for the public transcripts, so the hook must decide on a skeleton exactly
 * as on its original. The originals are not in the repository: this proves it on our own
 * recordings, skeletonised here, and checks that the committed skeletons hold no free text.
 * `deno task skeleton check <originals folder>` proves it on the originals themselves.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { gitHashObject, readSources } from "../../scripts/skeleton.ts";
import { skeletonOf } from "../../scripts/skeleton/fill.ts";
import { RECORDINGS, SKELETONS } from "../_helpers.ts";
import { tempDir } from "../install/_support.ts";
import { compareReplays } from "./_equivalence.ts";

const RECORDED_FILES = ["recorded-2.1.328-sonnet-climb.jsonl", "recorded-2.1.328-compact.jsonl"];

for (const file of RECORDED_FILES) {
  Deno.test(`the hook and the oracle decide the same on ${file} and its skeleton, call by call`, async () => {
    const original = Deno.readFileSync(join(RECORDINGS, file));
    using temp = tempDir("lessons-skeleton-");
    const dir = temp.dir;
    const skeleton = skeletonOf(original);
    Deno.writeFileSync(join(dir, file), skeleton);
    // The skeleton is not the recording: its free text is gone, its ids are not.
    const text = new TextDecoder().decode(skeleton);
    const prompts = new TextDecoder().decode(original).split("\n").filter((l) => l !== "")
      .map((l) => JSON.parse(l)).filter((e) => e.type === "user")
      .map((e) => e.message?.content).filter((c) => typeof c === "string" && c.length > 5);
    ok(prompts.length > 0, "no prompt in the recording");
    for (const prompt of prompts) ok(!text.includes(prompt), `"${prompt}" survived`);
    ok(!text.includes("You are powered by"), "a system reminder survived in the skeleton");
    ok(text.includes('"id":"toolu_'), "the tool_use ids are gone from the skeleton");
    const result = await compareReplays(file, RECORDINGS, dir);
    deepStrictEqual(result.differences, []);
    // Five tool calls, replayed with and without the compaction events, and refreshes among
    // them: a replay where nothing happens would prove nothing.
    deepStrictEqual(result.calls, 10);
    ok(result.refreshes >= 4, `${result.refreshes} refreshes`);
  });
}

Deno.test("every committed skeleton is its own skeleton: no free text is left in it", () => {
  for (const source of readSources()) {
    const bytes = Deno.readFileSync(join(SKELETONS, source.file));
    deepStrictEqual(bytes.length, source.bytes, source.file);
    deepStrictEqual(bytes.filter((b) => b === 10).length, source.lines, source.file);
    const again = skeletonOf(bytes);
    ok(again.every((b, i) => b === bytes[i]), `${source.file} still holds text to fill`);
    ok(gitHashObject(bytes) !== source.gitHashObject, `${source.file} is the original`);
  }
});

Deno.test("sources.json and the README name every skeleton's source", () => {
  const sources = readSources();
  const files = [...Deno.readDirSync(SKELETONS)].map((e) => e.name).filter((n) =>
    n.endsWith(".jsonl")
  );
  deepStrictEqual(sources.map((s) => s.file).sort(), files.sort());
  const readme = Deno.readTextFileSync(join(SKELETONS, "README.md"));
  for (const source of sources) {
    ok(/^[0-9a-f]{40}$/.test(source.gitHashObject) && /^[0-9a-f]{40}$/.test(source.commit));
    ok(readme.includes(source.gitHashObject), `README lacks the hash of ${source.file}`);
    ok(readme.includes(source.repo), `README lacks the repository of ${source.file}`);
    ok(readme.includes(source.commit.slice(0, 8)), `README lacks the commit of ${source.file}`);
  }
});
