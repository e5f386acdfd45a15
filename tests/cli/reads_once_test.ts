/**
 * Each command reads each file once (issue 39): on a session with a refresh due, `doctor`,
 * `status`, `why`, `preview` and the statusline open CLAUDE.md at most once and the transcript at
 * most twice (where it is, then what it says), counted with strace in the program's own process.
 * With the manifest under `CLAUDE_CODE_PLUGIN_CACHE_DIR`, preview and doctor find it there.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { onPath, underStrace } from "../_helpers.ts";
import { home, marked, projectIn, sessionsFolder, sonnetCall, statuslineInput } from "./_cli.ts";

/** How many times the program opened each of `paths` (strace's openat lines, by name). */
function opens(lines: string[], paths: string[]): number[] {
  return paths.map((path) =>
    lines.filter((line) =>
      /openat\(/.test(line) && line.includes(`"${path}"`) && !/= -1/.test(line)
    )
      .length
  );
}

Deno.test({
  name:
    "doctor, status, why, preview and the statusline open CLAUDE.md once, the transcript at most twice",
  ignore: Deno.build.os !== "linux" || (!onPath("strace") && Deno.env.get("CI") !== "true"),
  async fn() {
    const box = home();
    const project = projectIn(box.dir, { "CLAUDE.md": marked("Keep commits small.") });
    const transcript = join(sessionsFolder(box.dir, project), "session.jsonl");
    const call = sonnetCall(transcript, 62_000, "toolu_due"); // 31 %: 30 is due
    const plugins = join(box.dir, "elsewhere");
    const manifest = join(plugins, "cache", "m", "lessons-learned", "1.0.0", "data");
    Deno.mkdirSync(manifest, { recursive: true });
    Deno.copyFileSync(
      join(Deno.cwd(), "tests", "fixtures", "manifests", "upstream-468d378-shape.json"),
      join(manifest, "lesson-manifest.json"),
    );
    const env = { ...box.env, LESSONS_MANIFEST_PATH: "", CLAUDE_CODE_PLUGIN_CACHE_DIR: plugins };
    const input = statuslineInput({
      session_id: call.session_id,
      transcript_path: transcript,
      cwd: project,
      context_window: { used_percentage: 31, context_window_size: 200_000 },
    });
    const runs: [string, string[], unknown][] = [
      ["doctor", ["doctor", "--json"], ""],
      ["status", ["status", "--json"], ""],
      ["why", ["why", "--json"], ""],
      ["preview", ["preview", "--json"], ""],
      ["statusline", ["statusline", "--json"], input],
    ];
    const counts: Record<string, number[]> = {};
    for (const [name, args, stdin] of runs) {
      const { run, lines } = await underStrace(["-e", "trace=openat"], stdin, env, args, project);
      assertEquals(run.code, 0, `${name}: ${run.stderr}`);
      counts[name] = opens(lines, [join(project, "CLAUDE.md"), transcript]);
      if (name === "preview" || name === "doctor") {
        // lessons-learned's manifest, found under CLAUDE_CODE_PLUGIN_CACHE_DIR.
        assert(run.stdout.includes(join(manifest, "lesson-manifest.json")), run.stdout);
      }
    }
    for (const [name, [claudeMd, read]] of Object.entries(counts)) {
      assert(claudeMd! <= 1 && read! <= 2, `${name}: ${JSON.stringify(counts)}`);
    }
  },
});
