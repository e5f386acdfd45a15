/** The repository's lint rules (scripts/lint/plugin.ts): what each reports, and where. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import plugin from "./plugin.ts";

/** Each problem of `source` (a file at `file`) as `line:column rule: message`. */
function problems(file: string, source: string): string[] {
  return Deno.lint.runPlugin(plugin, file, source).map((d) => {
    const before = source.slice(0, d.range[0]).split("\n");
    return `${before.length}:${before.at(-1)!.length + 1} ${d.id}: ${d.message}`;
  });
}

Deno.test("child-env: each environment built by hand, at its line and column", async (t) => {
  const cases: [name: string, source: string, expected: string[]][] = [
    [
      "env from the helper, with clearEnv",
      `new Deno.Command("sh", { args: [], env: baseEnv({ HOME: "/h" }), clearEnv: true });`,
      [],
    ],
    ["no env at all: the child inherits everything", `new Deno.Command("git", { args });`, []],
    ["no options", `await new Deno.Command(bin).output();`, []],
    ["instanceof", `if (x instanceof Deno.Command) f();`, []],
    [
      "a string program, then an object literal",
      `const archive = await new Deno.Command("sh", {\n  env: { PATH: "/usr/bin" },\n});`,
      ['2:8 lessons/child-env: env built by hand (`{ PATH: "/usr/bin" }`); use baseEnv()'],
    ],
    [
      "a template-literal program and a clearEnv alone",
      "new Deno.Command(`${dir}/sh`, { args, clearEnv: true, });",
      ["1:1 lessons/child-env: clearEnv without an env from baseEnv()"],
    ],
    [
      "a variable passed on",
      `new Deno.Command(program, { args: rest, env, clearEnv: true, stdin: "piped" });`,
      ["1:41 lessons/child-env: env built by hand (`env`); use baseEnv()"],
    ],
    [
      "a property passed on",
      `new Deno.Command(bin, { env: spec.env, clearEnv: true });`,
      ["1:30 lessons/child-env: env built by hand (`spec.env`); use baseEnv()"],
    ],
    [
      "options in a variable",
      `const o = { env: {} };\nnew Deno.Command(bin, o);`,
      ["2:23 lessons/child-env: write the options inline, so that this rule can see its env"],
    ],
    [
      "a spread in the options",
      `new Deno.Command(bin, { ...options, args });`,
      ["1:25 lessons/child-env: a spread in the options may hide an env (`...options`)"],
    ],
    ["a spread of a plain choice", `new Deno.Command(bin, { ...(cwd ? { cwd } : {}) });`, []],
    [
      "an alias",
      `const Command = Deno.Command;`,
      ["1:17 lessons/child-env: Deno.Command used other than as `new Deno.Command(...)`"],
    ],
    [
      "Deno.run",
      `Deno.run({ cmd: ["ls"] });`,
      ["1:1 lessons/child-env: Deno.run starts a process this rule cannot see"],
    ],
    [
      "child_process, imported and loaded",
      `import { spawn } from "node:child_process";\nawait import("node:child_process");`,
      [
        "1:23 lessons/child-env: node:child_process starts processes this rule cannot see",
        "2:14 lessons/child-env: node:child_process starts processes this rule cannot see",
      ],
    ],
    [
      "a call inside a comment or a string is no call",
      `// new Deno.Command(bin, { env: {} })\nconst s = "new Deno.Command(bin, { env: {} })";`,
      [],
    ],
  ];
  for (const [name, source, expected] of cases) {
    await t.step(name, () => assertEquals(problems("scripts/x.ts", source), expected));
  }
  await t.step("only in tests/, bench/ and scripts/", () => {
    const source = `new Deno.Command(bin, { env: {} });`;
    assertEquals(problems("tests/unit/x_test.ts", source).length, 1);
    assertEquals(problems("bench/x.ts", source).length, 1);
    assertEquals(problems("src/io/x.ts", source), []);
  });
});

Deno.test("no-self-location: src/ does not locate files beside the program", () => {
  const source = [
    "const a = import.meta.url;",
    "const b = import.meta.dirname;",
    "const c = Deno.execPath();",
    "const d = Deno.mainModule;",
    "const e = import.meta.main;",
  ].join("\n");
  const rule = "lessons/no-self-location";
  const beside = "locates files beside the program, which a compiled binary does not have: " +
    "import the data as a module";
  assertEquals(problems("src/io/x.ts", source), [
    `1:11 ${rule}: import.meta.url ${beside}`,
    `2:11 ${rule}: import.meta.dirname ${beside}`,
    `3:11 ${rule}: Deno.execPath ${beside}`,
    `4:11 ${rule}: Deno.mainModule ${beside}`,
  ]);
  // main.ts loads the commands' bundle beside it; dispatch.ts names the program, reading nothing.
  assertEquals(problems("src/main.ts", source), []);
  assertEquals(problems("src/cli/dispatch.ts", `${source}\nDeno.readTextFileSync(a);`), [
    `6:1 ${rule}: Deno.readTextFileSync: dispatch.ts only names the program`,
  ]);
  assertEquals(problems("tests/x_test.ts", source), []);
});

Deno.test("no-error-wording: src/ never searches an error's words, the five it once did", () => {
  const source = [
    'if (!failed(claude) || claude.error.includes("start with")) f();',
    'const fix = reason.includes("writable by others");',
    'const short = trace.refused.split(" (")[0];',
    "const host = /^cannot download/.test(why);",
    "const variable = /^(LESSONS_[A-Z_]+)[=:]/.exec(problem)?.[1];",
    'const ok = failed(info, "missing") || lines.split("\\n") || name.includes("x");',
  ].join("\n");
  const rule = "lessons/no-error-wording";
  const words = "an error's words: branch on its kind (core/result.ts failed(x, kind)), so that " +
    "rewording it changes nothing";
  assertEquals(problems("src/cli/x.ts", source), [
    `1:24 ${rule}: includes() on \`error\`, ${words}`,
    `2:13 ${rule}: includes() on \`reason\`, ${words}`,
    `3:15 ${rule}: split() on \`refused\`, ${words}`,
    `4:14 ${rule}: test() on \`why\`, ${words}`,
    `5:18 ${rule}: exec() on \`problem\`, ${words}`,
  ]);
  assertEquals(problems("tests/x_test.ts", source), []);
});
