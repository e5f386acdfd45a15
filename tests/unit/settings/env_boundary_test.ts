/**
 * Settings are resolved once, at the edge: no module below the settings layer reads an
 * environment variable. Only the entry points hand the environment to `loadSettings`.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../_helpers.ts";

/** The edge: the settings layer itself, and the two places that give it the real environment. */
const EDGE = new Set(["src/main.ts", "src/cli/common.ts", "src/cli/dispatch.ts"]);

/** Ways a module could read the environment: Deno's API, or an env lookup handed down. */
const READS_ENV = [/\bDeno\.env\b/, /\benv\(\s*["'`]/, /\bio\.env\b/, /\btype Env\b/];

Deno.test("no module below the settings layer reads the environment", () => {
  const offenders: string[] = [];
  for (const file of readdirSync(join(ROOT, "src"), { recursive: true }) as string[]) {
    const name = `src/${file.replaceAll("\\", "/")}`;
    if (!name.endsWith(".ts") || name.startsWith("src/settings/") || EDGE.has(name)) continue;
    const text = Deno.readTextFileSync(join(ROOT, name));
    for (const pattern of READS_ENV) {
      if (pattern.test(text)) offenders.push(`${name} matches ${pattern}`);
    }
  }
  assertEquals(offenders, []);
});

Deno.test("the boundary check catches a module that reads the environment", () => {
  // The patterns must match the ways it was done before settings were resolved once.
  const before = [
    'const home = env("HOME") ?? env("USERPROFILE");',
    "const tmp = Deno.env.get('TMPDIR');",
    'if (!result.recorded && io.env("LESSONS_DEBUG")) {',
  ];
  for (const line of before) {
    assertEquals(READS_ENV.some((p) => p.test(line)), true, line);
  }
});
