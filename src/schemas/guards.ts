/**
 * The checks every shape's guard is built of (./payload.ts, ./state.ts, ./statusline.ts,
 * ./manifest.ts). Each mimics zod's rule of the same name, so the shapes accept what they accepted
 * when zod checked them; tests/unit/schemas/guards_test.ts is their spec.
 */

/** A checked object's fields, read as unknown. */
export type Fields = { [key: string]: unknown };
/** A guard for one value. */
export type Check = (value: unknown) => boolean;

/** zod's object test: any non-null object that is not an array (a Map or Date passes too). */
export function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is a plain object with that key of its own, else undefined. */
export function fieldOf(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** zod's `z.number()`: finite numbers only. */
export const isNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
/** `z.number().check(z.int(), z.nonnegative())`: zod's int is a safe integer. */
export const isCount = (value: unknown) =>
  isNumber(value) && Number.isSafeInteger(value) && value >= 0;
/** `z.string()` */
export const isString = (value: unknown) => typeof value === "string";
/** `z.boolean()` */
export const isBoolean = (value: unknown) => typeof value === "boolean";
/** `z.string().check(z.minLength(1))` */
export const nonEmpty = (value: unknown) => typeof value === "string" && value.length > 0;
/** `z.nullable(...)`: null or what `check` accepts. */
export const orNull = (check: Check) => (value: unknown) => value === null || check(value);
/** `z.optional(...)`: absent (undefined) or what `check` accepts. */
export const optional = (value: unknown, check: Check) => value === undefined || check(value);

/** Each of `keys` in `fields` absent or passing `check`. */
export function allOptional(fields: Fields, keys: readonly string[], check: Check): boolean {
  for (let i = 0; i < keys.length; i++) if (!optional(fields[keys[i]!], check)) return false;
  return true;
}

/** A dense array whose every item passes `check` (zod reads a hole as undefined). */
export function isArrayOf(value: unknown, check: Check): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
  return true;
}
