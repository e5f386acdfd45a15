/**
 * The user's own rules through the real entry point: marked CLAUDE.md sections and reinject.md
 * files, found from the payload's `cwd` and its git root, restated with or without a manifest.
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  appendTranscript,
  entries,
  payload,
  runHook,
  runRecorded,
  SAMPLE_MANIFEST,
  sandboxSession,
} from "../_helpers.ts";

const MARKED = "Always run `deno task test` before a commit.\nNever edit files in /work/main.";
const CLAUDE_MD = `# Project notes\n\nUNMARKED-NOTES stay out.\n\n<!-- reinject -->\n${MARKED}\n` +
  `<!-- /reinject -->\n\nMore UNMARKED-NOTES.\n`;

/** A project with a git root, a sandboxed user folder, and a transcript at `percent`. */
function project(percent: number, env: Record<string, string> = {}) {
  const { box, env: sandboxEnv, call: payloadOf } = sandboxSession({}, [
    entries.assistant(percent * 1000, ["toolu_1"]),
  ]);
  const root = join(box.dir, "repo");
  const cwd = join(root, "pkg");
  const user = join(box.dir, "claude-config");
  for (const dir of [join(root, ".git"), cwd, user]) Deno.mkdirSync(dir, { recursive: true });
  const fullEnv: Record<string, string> = {
    ...sandboxEnv,
    HOME: join(box.dir, "home"),
    // The user's own rules come from the sandbox, never from the developer's Claude folder.
    CLAUDE_CONFIG_DIR: user,
    LESSONS_CONTEXT_WINDOW: "100000",
    LESSONS_MANIFEST_PATH: "",
    LESSONS_DEBUG: "1",
    ...env,
  };
  const call = (id = "toolu_1") => payloadOf(id, { cwd });
  /** SessionStart(compact) of this session, after the compaction's boundary. */
  const compacted = () => {
    appendTranscript(box.transcript, [entries.compactBoundary()]);
    const ids = { session_id: call().session_id, transcript_path: box.transcript, cwd };
    return payload("SessionStart.compact", ids);
  };
  return { box, root, cwd, user, env: fullEnv, call, compacted };
}

Deno.test("a marked CLAUDE.md section alone, no manifest anywhere, is restated at 30%", async () => {
  const p = project(31);
  Deno.writeTextFileSync(join(p.root, "CLAUDE.md"), CLAUDE_MD);
  const run = await runHook(p.call(), p.env);
  equal(run.code, 0);
  const text = run.context!;
  ok(text.startsWith("[lessons-reinject refresh 30 ref="), text);
  // The header names what it restates: the user's own rules, no directives or protocols.
  ok(/^[^\n]*: your own standing rules, restated/.test(text), text);
  ok(!text.split("\n")[0]!.includes("directives"), text);
  ok(text.endsWith(`## Rules you marked in CLAUDE.md\n\n${MARKED}\n`), text);
  ok(!text.includes("UNMARKED-NOTES"), "only what is marked");
  ok(!text.includes("## Non-Negotiable Directives"), "no manifest, no lessons");
  ok(run.stderr.includes("manifest: no manifest found"), run.stderr);
  ok(run.stderr.includes("CLAUDE.md: 1 marked section"), run.stderr);
});

Deno.test("manifest lessons and own rules share one refresh: lessons first, own rules after", async () => {
  const p = project(31, { LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST });
  Deno.writeTextFileSync(join(p.cwd, "CLAUDE.md"), CLAUDE_MD);
  Deno.writeTextFileSync(join(p.user, "reinject.md"), "Answer in English.\n");
  const text = (await runHook(p.call(), p.env)).context!;
  const at = (s: string) => text.indexOf(s);
  ok(at("## Non-Negotiable Directives") > 0);
  ok(at("## Active Protocols") < at("## Rules you marked in pkg/CLAUDE.md"), text);
  const user = `## Your rules from ${join(p.user, "reinject.md")}`;
  ok(at("## Rules you marked in pkg/CLAUDE.md") < at(user), text);
  ok(text.includes(`${MARKED}\n\n## Your rules from`), text);
  ok(text.length <= 9500);
});

Deno.test("no rules anywhere: nothing printed, and the debug line says where it looked", async () => {
  const p = project(31);
  const run = await runHook(p.call(), p.env);
  assertEquals([run.code, run.stdout], [0, ""]);
  ok(run.stderr.includes("no rules to restate (manifest: no manifest found"), run.stderr);
});

Deno.test("LESSONS_REINJECT_SOURCES turns sources off", async () => {
  const p = project(31, { LESSONS_REINJECT_SOURCES: "manifest,rules-file" });
  Deno.writeTextFileSync(join(p.root, "CLAUDE.md"), CLAUDE_MD);
  Deno.writeTextFileSync(join(p.user, "reinject.md"), "Answer in English.\n");
  const text = (await runHook(p.call(), p.env)).context!;
  ok(!text.includes(MARKED), "claude-md is off");
  ok(text.includes("Answer in English."));
});

Deno.test("an unreadable source is skipped with its reason; the others still arrive", async () => {
  const p = project(31);
  // A symlink loop cannot be read, even by root.
  Deno.symlinkSync(join(p.root, "CLAUDE.local.md"), join(p.root, "loop.md"));
  Deno.symlinkSync(join(p.root, "loop.md"), join(p.root, "CLAUDE.local.md"));
  Deno.writeTextFileSync(join(p.root, "CLAUDE.md"), CLAUDE_MD);
  const run = await runHook(p.call(), p.env);
  equal(run.code, 0);
  ok(run.context?.includes(MARKED));
  ok(run.stderr.includes("CLAUDE.local.md: skipped (it cannot be read ("), run.stderr);
});

Deno.test("SessionStart(compact) restates reinject.md, not what Claude Code reloads; a call after it nothing", async () => {
  const p = project(35);
  Deno.writeTextFileSync(join(p.root, "CLAUDE.md"), CLAUDE_MD);
  Deno.mkdirSync(join(p.root, ".claude"));
  Deno.writeTextFileSync(join(p.root, ".claude", "reinject.md"), "REINJECT-MD stays.\n");
  const before = (await runRecorded(p.call(), p.env)).context ?? "";
  ok(before.includes(MARKED) && before.includes("REINJECT-MD stays."), before);
  const start = await runRecorded(p.compacted(), p.env);
  const answer = JSON.parse(start.stdout).hookSpecificOutput;
  equal(answer.hookEventName, "SessionStart");
  ok(answer.additionalContext.startsWith("[lessons-reinject refresh compact ref="));
  ok(answer.additionalContext.endsWith("REINJECT-MD stays.\n"), answer.additionalContext);
  // Claude Code puts every CLAUDE.md back after a compaction itself (measured, 2.1.332).
  ok(!answer.additionalContext.includes(MARKED), answer.additionalContext);
  appendTranscript(p.box.transcript, [entries.assistant(10_000, ["toolu_2"])]);
  equal((await runRecorded(p.call("toolu_2"), p.env)).stdout, "");
});

Deno.test("after a compaction, marked CLAUDE.md sections alone are not restated, and not tried again", async (t) => {
  const reloaded = "only CLAUDE.md rules, which Claude Code puts back itself after a compaction";
  const marked = async () => {
    const p = project(35);
    Deno.writeTextFileSync(join(p.root, "CLAUDE.md"), CLAUDE_MD);
    ok((await runRecorded(p.call(), p.env)).context?.includes(MARKED));
    return p;
  };
  await t.step("SessionStart(compact): no answer", async () => {
    const p = await marked();
    const start = await runRecorded(p.compacted(), p.env);
    equal(start.stdout, "");
    ok(start.stderr.includes(`nothing restated: ${reloaded}`), start.stderr);
  });
  await t.step(
    "a compaction only a tool call finds: it restates nothing, and records it settled",
    async () => {
      const q = await marked();
      appendTranscript(q.box.transcript, [
        entries.compactBoundary(),
        entries.assistant(10_000, ["toolu_2"]),
      ]);
      const found = await runRecorded(q.call("toolu_2"), q.env);
      equal(found.stdout, "");
      ok(found.stderr.includes(`nothing restated: ${reloaded}`), found.stderr);
      appendTranscript(q.box.transcript, [entries.assistant(11_000, ["toolu_3"])]);
      const next = await runRecorded(q.call("toolu_3"), q.env);
      equal(next.stdout, "");
      ok(!next.stderr.includes("nothing restated"), next.stderr);
    },
  );
});
