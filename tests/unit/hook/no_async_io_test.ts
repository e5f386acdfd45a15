/**
 * A hook call makes no async file operation: each one hops to a worker thread (started on first
 * use), which a short process pays for. Run with Deno's async file functions replaced by ones
 * that throw (a `--preload` script), a firing call that reads the manifest from the plugin cache,
 * marked CLAUDE.md sections and rules files still delivers everything.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  entries,
  HOOK_PERMISSIONS,
  MAIN,
  payload,
  SAMPLE_MANIFEST,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../../_helpers.ts";

const STUB_MESSAGE = "an async file operation was used";
/** Deno's async file functions (their Sync twins stay). */
const ASYNC_FILE_OPS = [
  "stat",
  "lstat",
  "open",
  "create",
  "readFile",
  "readTextFile",
  "readDir",
  "realPath",
  "writeFile",
  "writeTextFile",
  "rename",
  "remove",
  "mkdir",
  "makeTempFile",
  "chmod",
];

Deno.test("a firing call with the manifest and own rules makes no async file operation", async () => {
  const box = sandbox();
  const preload = join(box.dir, "no_async_io.js");
  Deno.writeTextFileSync(
    preload,
    ASYNC_FILE_OPS.map((name) =>
      `Deno[${JSON.stringify(name)}] = () => { throw new Error(${
        JSON.stringify(`${STUB_MESSAGE}: Deno.${name}`)
      }); };\n`
    ).join(""),
  );
  // A project with a git root, the user's Claude folder, and the manifest where an installed
  // lessons-learned plugin keeps it (found by listing the plugin cache).
  const root = join(box.dir, "repo");
  const cwd = join(root, "pkg");
  const user = join(box.dir, "claude");
  const install = join(user, "plugins", "cache", "market", "lessons-learned", "1.0.0", "data");
  for (const dir of [join(root, ".git"), join(root, ".claude"), cwd, install]) {
    Deno.mkdirSync(dir, { recursive: true });
  }
  Deno.copyFileSync(SAMPLE_MANIFEST, join(install, "lesson-manifest.json"));
  const marked = (rule: string) => `# Notes\n\n<!-- reinject -->\n${rule}\n<!-- /reinject -->\n`;
  Deno.writeTextFileSync(join(root, "CLAUDE.md"), marked("PROJECT-RULE"));
  Deno.writeTextFileSync(join(user, "CLAUDE.md"), marked("USER-RULE"));
  Deno.writeTextFileSync(join(root, ".claude", "reinject.md"), "RULES-FILE-RULE\n");
  writeTranscript(box.transcript, [entries.assistant(31_000, ["toolu_1"])]);

  const result = await spawnWithStdin(
    Deno.execPath(),
    ["run", "--quiet", "--no-prompt", "--preload", preload, ...HOOK_PERMISSIONS, MAIN],
    payload("PostToolUse.Bash", { transcript_path: box.transcript, tool_use_id: "toolu_1", cwd }),
    {
      ...box.env,
      HOME: join(box.dir, "home"),
      CLAUDE_CONFIG_DIR: user,
      LESSONS_MANIFEST_PATH: "",
      LESSONS_CONTEXT_WINDOW: "100000",
      LESSONS_DEBUG: "1",
    },
  );
  assertEquals(result.code, 0);
  assert(!result.stderr.includes(STUB_MESSAGE), result.stderr);
  assert(
    result.stderr.includes("installed lessons-learned plugin") ||
      result.stderr.includes("directives and protocols from"),
    result.stderr,
  );
  const text = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
  assert(text.startsWith("[lessons-reinject refresh 30 "), text);
  for (const rule of ["PROJECT-RULE", "USER-RULE", "RULES-FILE-RULE"]) {
    assert(text.includes(rule), `${rule} missing from ${text}`);
  }
  assert(text.includes("## Non-Negotiable Directives") || text.includes("Directives"), text);
});
