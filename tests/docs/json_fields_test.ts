/**
 * Every JSON field a command prints is documented in docs/commands.md, under that command: the
 * fields of its zod schema (src/cli/schemas.ts) and those of what it really prints, which a zod
 * object would let through unchecked.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import * as schemas from "../../src/cli/schemas.ts";
import { ROOT, SAMPLE_MANIFEST, sandbox } from "../_helpers.ts";
import { cli, statuslineInput } from "../cli/_cli.ts";

/** Each `--json` shape, with the bullet of docs/commands.md that documents it. */
const DOCUMENTED: Record<string, string> = {
  StatusJsonSchema: "status --json",
  ErrorJsonSchema: "status --json",
  PreviewJsonSchema: "preview --json",
  DemoJsonSchema: "demo --json",
  DoctorJsonSchema: "doctor --json",
  StatuslineJsonSchema: "statusline --json",
  WhyJsonSchema: "why --json",
  VersionJsonSchema: "--version --json",
};

/** The text of the `--json` bullet for `command`: from its "- `command`:" to the next bullet. */
function bulletOf(command: string): string {
  const page = Deno.readTextFileSync(join(ROOT, "docs", "commands.md"));
  const start = page.indexOf(`- \`${command}\`:`);
  assert(start >= 0, `docs/commands.md has no bullet for ${command}`);
  const end = page.slice(start + 1).search(/\n(- `|\n#)/);
  return end < 0 ? page.slice(start) : page.slice(start, start + 1 + end);
}

/** Whether `field` is named in `text` as a word (not inside a longer name). */
function names(text: string, field: string): boolean {
  return new RegExp(`(?<![\\w-])${field}(?![\\w-])`).test(text);
}

// deno-lint-ignore no-explicit-any
type AnySchema = { _zod: { def: any } };

/** Every object key in a zod schema, nested objects, arrays and nullables included. */
export function keysOf(schema: AnySchema): string[] {
  const def = schema._zod.def;
  switch (def.type) {
    case "object":
      return Object.entries(def.shape as Record<string, AnySchema>)
        .flatMap(([key, inner]) => [key, ...keysOf(inner)]);
    case "nullable":
    case "optional":
      return keysOf(def.innerType);
    case "array":
      return keysOf(def.element);
    default:
      return [];
  }
}

/** Every object key in a JSON value, at any depth. */
function keysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysIn(inner)]);
}

Deno.test("keysOf() walks a schema's objects, arrays and nullables", () => {
  const doctor = ["ok", "checks", "name", "status", "detail", "fix"];
  assertEquals(keysOf(schemas.DoctorJsonSchema), doctor);
  assertEquals(keysOf(schemas.StatusJsonSchema).filter((k) => k === "model").length, 2);
});

Deno.test("every --json schema is documented field by field in docs/commands.md", () => {
  const exported = Object.keys(schemas).filter((name) => name.endsWith("JsonSchema")).sort();
  assertEquals(exported, Object.keys(DOCUMENTED).sort(), "a new --json shape: document it here");
  const missing: string[] = [];
  for (const [name, command] of Object.entries(DOCUMENTED)) {
    const bullet = bulletOf(command);
    const schema = (schemas as unknown as Record<string, AnySchema>)[name]!;
    for (const key of new Set(keysOf(schema))) {
      if (!names(bullet, key)) missing.push(`${command}: ${key}`);
    }
  }
  assertEquals(missing, []);
});

Deno.test("every field the commands really print is documented under that command", async () => {
  const box = sandbox();
  const env = { ...box.env, HOME: box.dir };
  const recorded = join(ROOT, "tests", "fixtures", "transcripts", "recorded-2.1.328-compact.jsonl");
  const runs: [string, string[], unknown][] = [
    ["status --json", ["status", "--json", "--transcript", recorded], ""],
    ["status --json", ["status", "--json", "--transcript", join(box.dir, "absent.jsonl")], ""],
    ["preview --json", ["preview", "--json", "--threshold", "52"], ""],
    ["demo --json", ["demo", "--json"], ""],
    ["doctor --json", ["doctor", "--json"], ""],
    ["statusline --json", ["statusline", "--json"], statuslineInput()],
    ["--version --json", ["--version", "--json"], ""],
    ["why --json", ["why", "--json", "--transcript", recorded], ""],
  ];
  const missing: string[] = [];
  for (const [command, args, stdin] of runs) {
    const run = await cli(args, { ...env, LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST }, stdin);
    const printed = JSON.parse(run.stdout);
    const bullet = bulletOf(command);
    for (const key of new Set(keysIn(printed))) {
      if (!names(bullet, key)) missing.push(`${command}: ${key}`);
    }
  }
  assertEquals(missing, []);
  await Deno.remove(box.dir, { recursive: true });
});
