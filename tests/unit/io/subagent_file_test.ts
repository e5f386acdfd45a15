import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { findFileUnder } from "../../../src/io/subagent_file.ts";
import { locateTranscript } from "../../../src/hook/context_files.ts";

function tree(): string {
  const root = Deno.makeTempDirSync({ prefix: "lessons-subagents-" });
  // 2.1.167's layout: subagents/workflows/wf_<id>/agent-<id>.jsonl
  Deno.mkdirSync(join(root, "workflows", "wf_f5b3cd7b-844"), { recursive: true });
  Deno.writeTextFileSync(join(root, "workflows", "wf_f5b3cd7b-844", "agent-a1.jsonl"), "");
  Deno.writeTextFileSync(join(root, "agent-a2.jsonl"), "");
  return root;
}

Deno.test("findFileUnder() finds an agent's file at any depth, within its limits", async (t) => {
  const root = tree();
  try {
    const nested = join(root, "workflows", "wf_f5b3cd7b-844", "agent-a1.jsonl");
    await t.step("nested two levels down", () => {
      assertEquals(findFileUnder(root, "agent-a1.jsonl"), nested);
    });
    await t.step("beside the folders", () => {
      assertEquals(findFileUnder(root, "agent-a2.jsonl"), join(root, "agent-a2.jsonl"));
    });
    await t.step("deeper than maxDepth: not found", () => {
      assertEquals(findFileUnder(root, "agent-a1.jsonl", { maxDepth: 1 }), undefined);
    });
    await t.step("over the entry budget: not found", () => {
      assertEquals(findFileUnder(root, "agent-a1.jsonl", { maxEntries: 2 }), undefined);
    });
    await t.step("absent, or no folder at all", () => {
      assertEquals(findFileUnder(root, "agent-zz.jsonl"), undefined);
      assertEquals(findFileUnder(join(root, "missing"), "agent-a1.jsonl"), undefined);
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("locateTranscript() searches once, then uses the path the state remembered", async (t) => {
  const root = tree();
  try {
    const nested = join(root, "workflows", "wf_f5b3cd7b-844", "agent-a1.jsonl");
    const ref = { path: join(root, "agent-a1.jsonl"), sidechainFile: true, searchUnder: root };
    await t.step("not at the expected place: found and to be remembered", () => {
      assertEquals(locateTranscript(ref, undefined), {
        ref: { path: nested, sidechainFile: true },
        remember: nested,
      });
    });
    await t.step("remembered: used without a search", () => {
      const noSearch = { ...ref, searchUnder: join(root, "missing") };
      assertEquals(locateTranscript(noSearch, nested), {
        ref: { path: nested, sidechainFile: true },
      });
    });
    await t.step("at the expected place (2.1.328): no search", () => {
      const plain = { path: join(root, "agent-a2.jsonl"), sidechainFile: true, searchUnder: root };
      assertEquals(locateTranscript(plain, undefined), {
        ref: { path: join(root, "agent-a2.jsonl"), sidechainFile: true },
      });
    });
    await t.step("a main-thread transcript is left alone", () => {
      const main = { path: "/p/s.jsonl", sidechainFile: false };
      assertEquals(locateTranscript(main, undefined), { ref: main });
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
