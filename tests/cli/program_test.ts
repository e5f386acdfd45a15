/** programOf(): the command a hint names is one that works from where the user is. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type ProgramFacts, programOf } from "../../src/cli/program.ts";

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
    const cases: [string, Partial<ProgramFacts>, { command: string; readme?: string }][] = [
      ["in the checkout", {}, { command: "deno task hook", readme: "README.md" }],
      ["in a folder of it", { cwd: `${CHECKOUT}/src/cli` }, {
        command: "deno task hook",
        readme: "../../README.md",
      }],
      ["elsewhere, from source", { cwd: "/tmp" }, {
        command: `${CHECKOUT}/hooks/run`,
        readme: `${CHECKOUT}/README.md`,
      }],
      ["a sibling folder whose name starts alike", { cwd: `${CHECKOUT}-old` }, {
        command: `${CHECKOUT}/hooks/run`,
        readme: `${CHECKOUT}/README.md`,
      }],
      ["the compiled binary", {
        standalone: true,
        execPath: `${PLUGIN}/dist/lessons-reinject-x86_64-unknown-linux-gnu`,
        mainModule: "file:///tmp/deno-compile-lessons-reinject/src/main.ts",
      }, {
        command: `${PLUGIN}/dist/lessons-reinject-x86_64-unknown-linux-gnu`,
        readme: `${PLUGIN}/README.md`,
      }],
      ["a binary in a folder with a space", {
        standalone: true,
        execPath: "/opt/my tools/lessons-reinject",
      }, { command: "'/opt/my tools/lessons-reinject'" }],
      ["the bundle beside hooks/run", {
        mainModule: `file://${PLUGIN}/dist/lessons-reinject.js`,
        cwd: "/tmp",
      }, { command: `${PLUGIN}/hooks/run`, readme: `${PLUGIN}/README.md` }],
      ["a lone copy of the source", { mainModule: "file:///srv/x/src/main.ts", cwd: "/tmp" }, {
        command: "deno run --allow-read --allow-write --allow-env /srv/x/src/main.ts",
      }],
    ];
    for (const [name, more, expected] of cases) {
      await t.step(name, () => {
        const program = programOf(facts(more));
        assertEquals(program, { command: expected.command, readme: expected.readme });
      });
    }
  },
});
