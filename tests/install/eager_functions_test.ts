/**
 * The release bundle's functions are compiled with the file (scripts/eager_functions.ts), so
 * Deno's code cache holds them: the rewrite keeps what the code does, and a non-firing call of
 * the built bundle compiles none of its functions on the spot.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { eagerFunctions } from "../../scripts/eager_functions.ts";
import { buildBundle, bundleArgs, isHookSource } from "../../scripts/bundle.ts";
import { sourceLookup } from "../../scripts/source_map.ts";
import {
  entries,
  HOOK_PERMISSIONS,
  payload,
  ROOT,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../_helpers.ts";

/** Evaluates `code` as a module and returns its exports. */
async function evaluate(code: string): Promise<Record<string, unknown>> {
  return await import(`data:text/javascript,${encodeURIComponent(code)}`);
}

Deno.test("eagerFunctions() keeps what the code does", async (t) => {
  const cases: [string, string, unknown][] = [
    ["a declaration used before it", "export const r = f(2); function f(a) { return a * 3; }", 6],
    [
      "a block's declaration stays in its block",
      "let inner; { inner = g(); function g() { return 1; } } export const r = [inner, typeof g];",
      [1, "undefined"],
    ],
    [
      "declarations inside a function, recursion and names",
      "function outer() { return fact(4) + ':' + fact.name; function fact(n) { return n < 2 ? 1 :" +
      " n * fact(n - 1); } } export const r = outer();",
      "24:fact",
    ],
    [
      "methods, getters, setters and class members",
      "const o = { m() { return 1; }, get x() { return 2; }, set y(v) { this.v = v; } };" +
      " class C { m() { return 3; } static s() { return 4; } }" +
      " o.y = 5; export const r = [o.m(), o.x, o.v, new C().m(), C.s()];",
      [1, 2, 5, 3, 4],
    ],
    [
      "async functions, generators and arrows",
      "async function a() { return 1; } function* g() { yield 2; } const h = (x) => ({ x });" +
      " export const r = [await a(), [...g()][0], h(3).x, [1, 2].map((n) => n * 2)];",
      [1, 2, 3, [2, 4]],
    ],
    [
      "a function as a default parameter and an immediately called one",
      "function f(k = () => 7) { return k(); } export const r = [f(), (function () { return 8; })()];",
      [7, 8],
    ],
  ];
  for (const [name, code, expected] of cases) {
    await t.step(name, async () => {
      assertEquals((await evaluate(eagerFunctions(code))).r, expected);
    });
  }
});

Deno.test("eagerFunctions() parenthesizes the functions asked for, and only those", () => {
  assertEquals(
    eagerFunctions("f();function f(a){return a}const g=b=>b;"),
    "var f=(function f(a){return a});f();const g=(b=>b);",
  );
  assertEquals(eagerFunctions("const o={m(){}};"), "const o={m(){}};");
  const code = "function f(){}const g=()=>1;";
  assertEquals(eagerFunctions(code, () => false), code);
});

Deno.test("isHookSource(): the hook's own code, not the commands', the replay's, the demo's or packages'", () => {
  assert(isHookSource("../../work/x/src/hook/claim.ts"));
  assert(isHookSource("src/io/transcript.ts"));
  assert(isHookSource(undefined)); // the bundler's helpers
  assert(!isHookSource("../../work/x/src/cli/doctor.ts"));
  assert(!isHookSource("src/data/demo_session.ts"));
  assert(!isHookSource("src/hook/replay.ts"));
  assert(!isHookSource("../../.cache/deno/npm/registry.npmjs.org/zod/4.6.7/v4/core/core.js"));
});

Deno.test("sourceLookup() maps offsets to the sources a source map names", () => {
  // Two generated lines: "ab" from a.ts (column 0), "cd" from b.ts (from column 1 on line 2).
  const code = "ab\ncd";
  const sourceOf = sourceLookup(code, { sources: ["a.ts", "b.ts"], mappings: "AAAA;ACAA,CAAA" });
  assertEquals([0, 1, 3, 4].map(sourceOf), ["a.ts", "a.ts", "b.ts", "b.ts"]);
});

/** Runs `bundle` on a non-firing call twice and returns V8's function events of the second. */
async function lazyCompilesOfSteadyCall(bundle: string, dir: string): Promise<string[]> {
  const box = sandbox();
  writeTranscript(box.transcript, [entries.assistant(50_000, ["toolu_1"])]);
  const call = payload("PostToolUse.Bash", { transcript_path: box.transcript });
  const env = {
    ...box.env,
    LESSONS_CONTEXT_WINDOW: "200000",
    // Its own Deno folder: a fresh code cache, made by the first run, used by the second.
    DENO_DIR: join(dir, "deno-dir"),
  };
  const run = async (log: string) => {
    const flags = `--v8-flags=--log-function-events,--logfile=${log},--no-logfile-per-isolate`;
    const args = ["run", "--quiet", "--no-prompt", "--no-config", ...HOOK_PERMISSIONS, flags];
    const result = await spawnWithStdin(Deno.execPath(), [...args, bundle], call, env);
    assertEquals([result.code, result.stdout], [0, ""], result.stderr);
  };
  await run(join(dir, "first.log"));
  const log = join(dir, "second.log");
  await run(log);
  const lines = (await Deno.readTextFile(log)).split("\n");
  const script = lines.map((l) => l.split(",")).find((f) =>
    f[0] === "script-details" && f[2]?.endsWith(bundle)
  )?.[1];
  assert(script !== undefined, "the log names the bundle's script");
  return lines.filter((l) => l.startsWith(`function,parse-function,${script},`));
}

Deno.test("a non-firing call of the release bundle compiles none of its functions lazily", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lessons-eager-" });
  try {
    const bundle = join(dir, "lessons-reinject.js");
    await buildBundle(bundle, ROOT);
    assertEquals(await lazyCompilesOfSteadyCall(bundle, dir), []);

    // Control: the same bundle as `deno bundle` writes it compiles its functions on every call.
    const plain = join(dir, "plain.js");
    const built = await new Deno.Command(Deno.execPath(), {
      args: bundleArgs(plain, ROOT),
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert(built.success, new TextDecoder().decode(built.stderr));
    assert((await lazyCompilesOfSteadyCall(plain, dir)).length > 50);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
