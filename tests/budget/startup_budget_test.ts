/**
 * What a hook call may cost, held to numbers: the instructions (valgrind's callgrind, which a
 * loaded machine does not change) a call of the release bundle runs, against the floor, an empty
 * hook that reads its stdin. A non-firing call runs on every tool call and must stay close to the
 * floor; a firing call, a few times in a session, may load and lay out the rules. Whatever makes
 * start-up slower (a timer, an async file operation and its worker thread, zod on the every-call
 * path, a node: built-in, work at import, functions compiled on every call) shows here as a
 * number over its budget, whichever API it comes from. Figures: docs/maintainers/benchmarks.md.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildBundle } from "../../scripts/bundle.ts";
import {
  entries,
  HOOK_PERMISSIONS,
  onPath,
  ROOT,
  SAMPLE_MANIFEST,
  sandboxSession,
  spawnWithStdin,
  writeTranscript,
} from "../_helpers.ts";
import { saveStatusline } from "../../src/io/statusline_store.ts";

/** Budgets, in instructions against the floor's. */
const NON_FIRING = 1.6;
const FIRING = 2.4;

/**
 * The instructions `script` runs on `stdin` (and what it printed), after one run that makes
 * Deno's code cache, as a plugin's first call does; `fresh`: the state folder emptied before each.
 */
async function instructions(
  script: string,
  stdin: unknown,
  env: Record<string, string>,
  fresh = false,
) {
  const dir = Deno.makeTempDirSync({ prefix: "lessons-budget-" });
  try {
    const deno = [Deno.execPath(), "run", "--quiet", "--no-prompt", "--no-config"];
    // Both runs under valgrind: V8 keys its code cache to the CPU it sees, and valgrind's differs
    // from the machine's, so a cache made outside it was thrown away by the measured run (2.8x).
    const run = async () => {
      const log = join(dir, "callgrind.log");
      const valgrind = ["--tool=callgrind", "--callgrind-out-file=/dev/null", `--log-file=${log}`];
      const out = await spawnWithStdin(
        "valgrind",
        [...valgrind, ...deno, ...HOOK_PERMISSIONS, script],
        stdin,
        env,
      );
      assertEquals(out.code, 0, out.stderr);
      const count = /Collected : (\d+)/.exec(Deno.readTextFileSync(log))?.[1];
      ok(count !== undefined, "callgrind reported no count");
      return { stdout: out.stdout, stderr: out.stderr, instructions: Number(count) };
    };
    let last = { stdout: "", stderr: "", instructions: 0 };
    for (const _ of ["cache", "measure"]) {
      if (fresh) rmSync(env.LESSONS_STATE_DIR!, { recursive: true, force: true });
      last = await run();
    }
    return last;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test({
  name: "a hook call costs at most its budget in instructions against the floor",
  // CI installs valgrind (.ci/run) and fails a test that lacks it.
  ignore: Deno.build.os !== "linux" || (!onPath("valgrind") && Deno.env.get("CI") !== "true"),
  async fn(t) {
    const { box, env: boxEnv, call } = sandboxSession();
    const bundle = join(box.dir, "lessons-reinject.js");
    await buildBundle(bundle, ROOT);
    const floorScript = join(box.dir, "floor.ts");
    Deno.writeTextFileSync(
      floorScript,
      "const b = new Uint8Array(65536);\nwhile ((await Deno.stdin.read(b)) !== null);\n",
    );
    // Its own Deno folder: a code cache made by these runs only.
    const env = {
      ...boxEnv,
      DENO_DIR: join(box.dir, "deno"),
      LESSONS_CONTEXT_WINDOW: "200000",
      LESSONS_DEBUG: "1",
    };
    const floor = (await instructions(floorScript, call("toolu_floor"), env)).instructions;
    const within = (what: string, used: number, budget: number) =>
      ok(
        used <= budget * floor,
        `${what}: ${(used / 1e6).toFixed(1)}M instructions, ${(used / floor).toFixed(2)}x the ` +
          `floor's ${(floor / 1e6).toFixed(1)}M; the budget is ${budget}x`,
      );

    await t.step("a context's first call, below every threshold", async () => {
      writeTranscript(box.transcript, [entries.assistant(50_000, ["toolu_1"])]);
      const first = await instructions(bundle, call("toolu_1"), env, true);
      assertEquals(first.stdout, "", first.stderr);
      ok(first.stderr.includes("below the next threshold, 30%"), first.stderr);
      within("first call", first.instructions, NON_FIRING);
    });

    await t.step("a steady call with its state and a statusline reading", async () => {
      writeTranscript(box.transcript, [entries.assistant(52_000, ["toolu_2"])]);
      const session = String(call("toolu_2").session_id);
      saveStatusline(box.stateDir, {
        sessionId: session,
        recordedAt: Date.now(),
        percent: 26,
        tokens: 52_000,
        window: 200_000,
        transcriptSize: Deno.statSync(box.transcript).size,
      });
      const steady = await instructions(bundle, call("toolu_2"), env);
      assertEquals(steady.stdout, "", steady.stderr);
      ok(steady.stderr.includes("from statusline"), steady.stderr);
      within("steady call", steady.instructions, NON_FIRING);
    });

    await t.step(
      "a firing call: the lessons-learned manifest and the user's own rules",
      async () => {
        // A project with a git root, the user's Claude folder, and the manifest where an installed
        // lessons-learned plugin keeps it (found by listing the plugin cache).
        const root = join(box.dir, "repo");
        const user = join(box.dir, "claude");
        const plugin = join(user, "plugins", "cache", "market", "lessons-learned", "1.0.0", "data");
        for (const dir of [join(root, ".git"), join(root, ".claude"), join(root, "pkg"), plugin]) {
          Deno.mkdirSync(dir, { recursive: true });
        }
        Deno.copyFileSync(SAMPLE_MANIFEST, join(plugin, "lesson-manifest.json"));
        const marked = (rule: string) =>
          `# Notes\n\n<!-- reinject -->\n${rule}\n<!-- /reinject -->\n`;
        Deno.writeTextFileSync(join(root, "CLAUDE.md"), marked("PROJECT-RULE"));
        Deno.writeTextFileSync(join(user, "CLAUDE.md"), marked("USER-RULE"));
        Deno.writeTextFileSync(join(root, ".claude", "reinject.md"), "RULES-FILE-RULE\n");
        const transcript = join(box.dir, "firing.jsonl");
        writeTranscript(transcript, [entries.assistant(62_000, ["toolu_3"])]);
        const stdin = call("toolu_3", { transcript_path: transcript, cwd: join(root, "pkg") });
        const firing = await instructions(bundle, stdin, {
          ...env,
          HOME: join(box.dir, "home"),
          CLAUDE_CONFIG_DIR: user,
          LESSONS_MANIFEST_PATH: "",
          LESSONS_STATE_DIR: join(box.dir, "firing"),
        }, true);
        const text = JSON.parse(firing.stdout).hookSpecificOutput.additionalContext as string;
        ok(text.startsWith("[lessons-reinject refresh 30 "), text);
        for (const rule of ["PROJECT-RULE", "USER-RULE", "RULES-FILE-RULE", "Directives"]) {
          ok(text.includes(rule), `${rule} missing from ${text}`);
        }
        within("firing call", firing.instructions, FIRING);
      },
    );

    await t.step(
      "a call whose entry never comes waits, then fires from the newest reading",
      async () => {
        const transcript = join(box.dir, "late.jsonl");
        writeTranscript(transcript, [entries.assistant(110_000, ["toolu_earlier"])]);
        const late = await instructions(
          bundle,
          call("toolu_late", { transcript_path: transcript }),
          { ...env, LESSONS_REINJECT_WAIT_MS: "120", LESSONS_STATE_DIR: join(box.dir, "late") },
          true,
        );
        const text = JSON.parse(late.stdout).hookSpecificOutput.additionalContext as string;
        ok(text.startsWith("[lessons-reinject refresh 30,52 "), text);
        ok(!late.stderr.includes("not waited for"), late.stderr);
        within("late call", late.instructions, FIRING);
      },
    );
  },
});
