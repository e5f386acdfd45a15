/**
 * The hot-path guards (src/schemas/guards.ts) accept exactly what their zod schemas accept: a
 * seeded property test over valid, mutated and hostile values, as parsed JSON and as raw JS
 * values, plus every captured real payload.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  isContextWindow,
  isHookPayload,
  isState,
  isStatuslineInput,
  isStatuslineRecord,
} from "../../../src/schemas/guards.ts";
import { ContextWindowSchema, HookPayloadSchema } from "../../../src/schemas/payload.ts";
import { StateSchema } from "../../../src/schemas/state.ts";
import { StatuslineInputSchema, StatuslineRecordSchema } from "../../../src/schemas/statusline.ts";
import { PAYLOADS, seededRandom } from "../../_helpers.ts";

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/** A field's kind: a primitive rule, or a nested object with its own fields. */
type Kind =
  | "nonEmpty"
  | "string"
  | "number"
  | "count"
  | "numbers"
  | "boolean"
  | "unknown"
  | { nullable: Kind }
  | { oneOf: readonly string[] }
  | { recordOf: Kind }
  | { union: Kind[] }
  | { object: Fields }
  | { arrayOf: Fields };
interface Field {
  kind: Kind;
  required?: boolean;
}
type Fields = Record<string, Field>;

const EDGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  42,
  99.9,
  200_000,
  2 ** 31,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53 - 1),
  1e21,
  1e308,
  Number.MIN_VALUE,
  Infinity,
  -Infinity,
  NaN,
];
const STRINGS = [
  "",
  "a",
  "session-1",
  "toolu_01X",
  "0",
  "null",
  "\u00e9\u{1F600}",
  " ",
  "\0",
  "pending",
  "Delivered",
];

function validOf(rand: Rand, kind: Kind, depth: number): unknown {
  if (typeof kind === "object") {
    if ("nullable" in kind) return rand() < 0.3 ? null : validOf(rand, kind.nullable, depth);
    if ("oneOf" in kind) return pick(rand, kind.oneOf);
    if ("union" in kind) return validOf(rand, pick(rand, kind.union), depth);
    if ("recordOf" in kind) {
      const keys = ["30", "52", "70"].slice(0, Math.floor(rand() * 3));
      return Object.fromEntries(keys.map((key) => [key, validOf(rand, kind.recordOf, depth)]));
    }
    if ("arrayOf" in kind) {
      const fields = kind.arrayOf;
      return Array.from({ length: Math.floor(rand() * 3) }, () => validObject(rand, fields, depth));
    }
    return validObject(rand, kind.object, depth + 1);
  }
  switch (kind) {
    case "nonEmpty":
      return pick(rand, STRINGS.filter((s) => s !== ""));
    case "string":
      return pick(rand, STRINGS);
    case "number":
      return pick(rand, EDGE_NUMBERS.filter(Number.isFinite));
    case "count":
      return pick(rand, [0, 1, 7, 2 ** 31, 2 ** 53 - 1, 123_456_789]);
    case "numbers":
      return Array.from(
        { length: Math.floor(rand() * 4) },
        () => pick(rand, [30, 52, 70, 0.5, -3]),
      );
    case "boolean":
      return rand() < 0.5;
    case "unknown":
      return anyValue(rand, depth + 1);
  }
}

function validObject(rand: Rand, fields: Fields, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.required || rand() < 0.6) out[name] = validOf(rand, field.kind, depth);
  }
  if (rand() < 0.3) {
    out[pick(rand, ["extra", "prompt_id", "version", "tool_input"])] = anyValue(rand, depth + 1);
  }
  return out;
}

/** Any value at all: JSON-able ones mostly, and a few that JSON cannot carry. */
function anyValue(rand: Rand, depth: number): unknown {
  const roll = rand();
  if (roll < 0.12) return null;
  if (roll < 0.2) return rand() < 0.5;
  if (roll < 0.4) return pick(rand, EDGE_NUMBERS);
  if (roll < 0.6) return pick(rand, STRINGS);
  if (roll < 0.65) return undefined;
  if (depth > 3) return pick(rand, [[], {}]);
  if (roll < 0.8) {
    return Array.from({ length: Math.floor(rand() * 3) }, () => anyValue(rand, depth + 1));
  }
  const out: Record<string, unknown> = {};
  const keys = ["id", "fired", "toolCount", "session_id", "model", "input_tokens", "x"];
  for (let i = Math.floor(rand() * 3); i > 0; i--) {
    out[pick(rand, keys)] = anyValue(rand, depth + 1);
  }
  return out;
}

/** A valid value with one to three fields changed: removed, nulled, retyped, or mutated inside. */
function mutated(rand: Rand, fields: Fields, depth = 0): unknown {
  const value = validObject(rand, fields, depth);
  const names = Object.keys(fields);
  for (let n = 1 + Math.floor(rand() * 3); n > 0; n--) {
    const name = pick(rand, names);
    const kind = fields[name]!.kind;
    const roll = rand();
    if (roll < 0.2) delete value[name];
    else if (roll < 0.35) value[name] = null;
    else if (roll < 0.5 && typeof kind === "object" && "object" in kind) {
      value[name] = mutated(rand, kind.object, depth + 1);
    } else if (roll < 0.5 && typeof kind === "object" && "arrayOf" in kind) {
      value[name] = [validObject(rand, kind.arrayOf, depth + 1), mutated(rand, kind.arrayOf)];
    } else if (roll < 0.5 && typeof kind === "object" && "recordOf" in kind) {
      value[name] = { "30": anyValue(rand, depth + 1) };
    } else if (roll < 0.6 && kind === "numbers") {
      value[name] = [30, anyValue(rand, depth + 1)];
    } else value[name] = anyValue(rand, depth + 1);
  }
  return value;
}

/** Values no payload looks like: wrong top-level types, objects that are not plain. */
function hostile(rand: Rand): unknown {
  return pick(rand, [
    () => anyValue(rand, 0),
    () => [anyValue(rand, 0)],
    () => new Date(0),
    () => new Map([["session_id", "x"]]),
    () => Object.create(null),
    () => "{}",
    () => ({ __proto__: { session_id: "inherited" } }),
    () => Object.assign([1, 2], { fired: [] }),
  ])();
}

/** JSON text tricks a file or stdin can hold: `__proto__` keys, overflowing numbers, duplicates. */
function fromText(rand: Rand, value: unknown): unknown {
  let text = JSON.stringify(value);
  if (text === undefined || !text.startsWith("{")) return value;
  const roll = rand();
  if (roll < 0.3) text = text.replace(/:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?=[,}\]])/, ":1e400");
  else if (roll < 0.5) {
    text = `{"__proto__":{"session_id":"p","fired":[]}${text === "{}" ? "" : ","}${text.slice(1)}`;
  } else if (roll < 0.7) text = text.replace(/^\{"([^"]+)":/, '{"$1":null,"$1":');
  return JSON.parse(text);
}

/** A zod schema's definition, as zod keeps it. */
// deno-lint-ignore no-explicit-any
type Def = any;
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** The fields of a zod object schema, read off its definition: the corpus follows the schema. */
function fieldsOf(schema: unknown): Fields {
  const fields = Object.entries(defOf(schema).shape).map(([name, field]) => {
    const def = defOf(field);
    const optional = def.type === "optional";
    return [name, { kind: kindOf(optional ? def.innerType : field), required: !optional }];
  });
  return Object.fromEntries(fields);
}

function kindOf(schema: unknown): Kind {
  const def = defOf(schema);
  const checks: string[] = (def.checks ?? []).map((c: Def) => defOf(c).check);
  switch (def.type) {
    case "nullable":
      return { nullable: kindOf(def.innerType) };
    case "string":
      return checks.includes("min_length") ? "nonEmpty" : "string";
    case "number": // z.int() is a number format; with it, every count here is non-negative
      return checks.includes("number_format") ? "count" : "number";
    case "boolean":
    case "unknown":
      return def.type;
    case "enum":
      return { oneOf: Object.values(def.entries) };
    case "union":
      return { union: def.options.map(kindOf) };
    case "object":
      return { object: fieldsOf(schema) };
    case "record":
      return { recordOf: kindOf(def.valueType) };
    case "array":
      if (defOf(def.element).type === "number") return "numbers";
      if (defOf(def.element).type === "object") return { arrayOf: fieldsOf(def.element) };
  }
  throw new Error(`no kind for a zod ${def.type}`);
}

interface Shape {
  name: string;
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown } };
  guard: (value: unknown) => boolean;
}

const SHAPES: Shape[] = [
  { name: "HookPayloadSchema", schema: HookPayloadSchema, guard: isHookPayload },
  { name: "ContextWindowSchema", schema: ContextWindowSchema, guard: isContextWindow },
  { name: "StateSchema", schema: StateSchema, guard: isState },
  { name: "StatuslineRecordSchema", schema: StatuslineRecordSchema, guard: isStatuslineRecord },
  { name: "StatuslineInputSchema", schema: StatuslineInputSchema, guard: isStatuslineInput },
];

const CASES_PER_SHAPE = 30_000;

for (const shape of SHAPES) {
  Deno.test(`${shape.guard.name}() accepts exactly what ${shape.name} accepts`, () => {
    const rand = seededRandom(0x5eed ^ shape.name.length);
    const fields = fieldsOf(shape.schema);
    const accepted = { valid: 0, mutated: 0, hostile: 0 };
    let rejected = 0;
    for (let i = 0; i < CASES_PER_SHAPE; i++) {
      const origin = i % 3 === 0 ? "valid" : i % 3 === 1 ? "mutated" : "hostile";
      const base = origin === "valid"
        ? validObject(rand, fields, 0)
        : origin === "mutated"
        ? mutated(rand, fields)
        : hostile(rand);
      const value = rand() < 0.5 ? base : fromText(rand, base);
      const zod = shape.schema.safeParse(value);
      const guard = shape.guard(value);
      if (zod.success !== guard) {
        throw new Error(
          `case ${i} (${origin}): zod ${zod.success}, guard ${guard} for ${
            Deno.inspect(value, { depth: 6 })
          }`,
        );
      }
      if (guard) accepted[origin]++;
      else rejected++;
    }
    // A corpus that only ever accepts, or only ever rejects, proves nothing.
    const counts = JSON.stringify({ accepted, rejected });
    assert(accepted.valid > CASES_PER_SHAPE / 6, counts);
    assert(accepted.mutated > 0, counts);
    assert(rejected > CASES_PER_SHAPE / 10, counts);
  });
}

Deno.test("the guards take every captured real payload the way the schemas do", () => {
  const names = readdirSync(PAYLOADS).filter((name) => name.endsWith(".json"));
  for (const name of names) {
    const value: unknown = JSON.parse(Deno.readTextFileSync(join(PAYLOADS, name)));
    const statusline = name.startsWith("statusline.");
    const shape = SHAPES.find((s) =>
      s.name === (statusline ? "StatuslineInputSchema" : "HookPayloadSchema")
    )!;
    assertEquals(shape.guard(value), true, name);
    assertEquals(shape.schema.safeParse(value).success, true, name);
    if (statusline && typeof value === "object" && value !== null && "context_window" in value) {
      assertEquals(isContextWindow(value.context_window), true, name);
      assertEquals(ContextWindowSchema.safeParse(value.context_window).success, true, name);
    }
  }
  // Eight hook payloads and three statusline inputs, all captured from 2.1.328.
  const statuslines = names.filter((n) => n.startsWith("statusline.")).length;
  assert(
    names.length >= 11 && statuslines >= 3,
    `${names.length} payloads, ${statuslines} statusline`,
  );
});
