/**
 * programOf(): the folder the user started from (deno task moves to the checkout and passes it
 * as INIT_CWD), and a command for hints that works from there.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type Program, type ProgramFacts, programOf } from "../../src/cli/program.ts";

const CHECKOUT = "/home/me/lessons-reinject";
const PLUGIN = "/home/me/.claude/plugins/cache/lessons-reinject/lessons-reinject/0.1.0";

/** A checkout (deno.json, README.md, hooks/run) and an installed plugin (README.md, hooks/run). */
function facts(more: Partial<ProgramFacts>): ProgramFacts {
  const files = new Set([
    `${CHECKOUT}/deno.json`,
    `${CHECKOUT}/README.md`,
    `${CHECKOUT}/hooks/run`,
    `${PLUGIN}/README.md`,
    `${PLUGIN}/hooks/run`,
  ]);
  return {
    standalone: false,
    execPath: "/usr/local/bin/deno",
    mainModule: `file://${CHECKOUT}/src/main.ts`,
    cwd: CHECKOUT,
    exists: (path) => files.has(path),
    ...more,
  };
}

Deno.test({
  name: "programOf() names deno task hook in a checkout, hooks/run outside it, the binary's path",
  ignore: Deno.build.os === "windows", // POSIX paths in the table
  fn: async (t) => {
    const run = `${CHECKOUT}/hooks/run`;
    const binary = `${PLUGIN}/dist/lessons-reinject-x86_64-unknown-linux-gnu`;
    const cases: [string, Partial<ProgramFacts>, Partial<Program>][] = [
      ["in the checkout", {}, { command: "deno task hook", anywhere: run, readme: "README.md" }],
      ["in a folder of it", { cwd: `${CHECKOUT}/src/cli` }, {
        command: "deno task hook",
        readme: "../../README.md",
        cwd: `${CHECKOUT}/src/cli`,
      }],
      ["elsewhere, from source", { cwd: "/tmp" }, {
        command: run,
        readme: `${CHECKOUT}/README.md`,
        cwd: "/tmp",
      }],
      // deno task runs in the checkout and names the caller's folder in INIT_CWD.
      ["deno task called from a project", { initCwd: "/home/me/app" }, {
        command: run,
        readme: `${CHECKOUT}/README.md`,
        cwd: "/home/me/app",
      }],
      ["deno task called in the checkout", { initCwd: CHECKOUT }, { command: "deno task hook" }],
      ["INIT_CWD left by another tool, run elsewhere", { cwd: "/tmp", initCwd: "/x" }, {
        command: run,
        cwd: "/tmp",
      }],
      ["a sibling folder whose name starts alike", { cwd: `${CHECKOUT}-old` }, {
        command: run,
        readme: `${CHECKOUT}/README.md`,
      }],
      ["the compiled binary", {
        standalone: true,
        execPath: binary,
        mainModule: "file:///tmp/deno-compile-lessons-reinject/src/main.ts",
      }, { command: binary, anywhere: binary, readme: `${PLUGIN}/README.md`, root: PLUGIN }],
      ["a binary in a folder with a space", {
        standalone: true,
        execPath: "/opt/my tools/lessons-reinject",
      }, { command: "'/opt/my tools/lessons-reinject'", readme: undefined, root: undefined }],
      ["the bundle beside hooks/run", {
        mainModule: `file://${PLUGIN}/dist/lessons-reinject.js`,
        cwd: "/tmp",
      }, { command: `${PLUGIN}/hooks/run`, readme: `${PLUGIN}/README.md`, root: PLUGIN }],
      ["a lone copy of the source", { mainModule: "file:///srv/x/src/main.ts", cwd: "/tmp" }, {
        command: "deno run --allow-read --allow-write --allow-env /srv/x/src/main.ts",
        readme: undefined,
        root: undefined,
      }],
    ];
    for (const [name, more, expected] of cases) {
      await t.step(name, () => {
        const program = programOf(facts(more));
        const picked = Object.fromEntries(
          Object.keys(expected).map((k) => [k, program[k as keyof Program]]),
        );
        assertEquals(picked, expected);
      });
    }
  },
});
