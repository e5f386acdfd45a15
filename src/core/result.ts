/**
 * "A value or the reason there is none", in one shape (issue 32): the value itself, or
 * `{ error }` saying why there is none. Code that cannot fail returns the value alone.
 */

/** Why there is no value: one line, fit for a user. */
export interface Failure {
  readonly error: string;
}

/** A value of type `T`, or the reason there is none. `T` must not have an `error` field. */
export type Result<T> = T | Failure;

/**
 * Whether `result` is the reason there is no value.
 *
 * @example
 * ```ts
 * const read: Result<number> = { error: "no such file" };
 * failed(read); // true
 * ```
 */
export function failed<T>(result: Result<T>): result is Failure {
  return typeof result === "object" && result !== null && "error" in result;
}
