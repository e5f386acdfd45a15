/**
 * The release bundle's functions are compiled with the file (eager_functions.ts), so Deno's code
 * cache holds them: the rewrite keeps what the code does, and picks the hook's own functions by
 * the source map. What it saves a call is held to a number by the start-up budget
 * (tests/budget/startup_budget_test.ts).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { eagerFunctions } from "./eager_functions.ts";
import { isHookSource } from "./bundle.ts";
import { sourceLookup } from "./source_map.ts";

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
  assert(isHookSource("x/src/hook/claim.ts"));
  assert(isHookSource("src/io/transcript.ts"));
  assert(isHookSource(undefined)); // the bundler's helpers
  assert(!isHookSource("x/src/cli/doctor.ts"));
  assert(!isHookSource("src/data/demo_session.jsonl"));
  assert(!isHookSource("src/hook/replay.ts"));
  assert(!isHookSource("src/io/codex_rollout.ts"));
  assert(!isHookSource("x/.cache/deno/npm/registry.npmjs.org/zod/4.6.7/v4/core/core.js"));
});

Deno.test("sourceLookup() maps offsets to the sources a source map names", () => {
  // Two generated lines: "ab" from a.ts (column 0), "cd" from b.ts (from column 1 on line 2).
  const code = "ab\ncd";
  const sourceOf = sourceLookup(code, { sources: ["a.ts", "b.ts"], mappings: "AAAA;ACAA,CAAA" });
  assertEquals([0, 1, 3, 4].map(sourceOf), ["a.ts", "a.ts", "b.ts", "b.ts"]);
});
