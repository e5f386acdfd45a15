/** Reading a key of a JSON value that may be anything, without casting it. */

/**
 * `value[key]` when `value` is a plain object, else undefined.
 *
 * @example
 * ```ts
 * fieldOf({ hooks: { PostToolUse: [] } }, "hooks"); // { PostToolUse: [] }
 * fieldOf([1, 2], "length"); // undefined
 * ```
 */
export function fieldOf(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.entries(value).find(([k]) => k === key)?.[1];
}
