/**
 * "A value or the reason there is none", in one shape: the value itself, or a {@link Failure}
 * made by {@link fail}. A failure is told apart by a symbol key, which no parsed payload can carry
 * (a hook payload's own `error` field made one look failed), and says what kind of failure it is,
 * so that code branches on the kind and never on the wording. Code that cannot fail returns the
 * value alone.
 */

/** What went wrong, for code to branch on; the words are for people. */
export type FailureKind =
  | "missing" // there is no such file or folder
  | "ambiguous" // more than one thing matches
  | "unsafe" // there, but not safe to use (a folder others can write to)
  | "invalid"; // anything else: unreadable, malformed, refused

const KIND: unique symbol = Symbol("failure kind");

/** Why there is no value: its kind, and one line fit for a user. */
export interface Failure {
  readonly [KIND]: FailureKind;
  readonly error: string;
}

/** A value of type `T`, or the reason there is none. */
export type Result<T> = T | Failure;

/** The failure of `kind` saying `error`. */
export function fail(error: string, kind: FailureKind = "invalid"): Failure {
  return { [KIND]: kind, error };
}

/**
 * Whether `result` is the reason there is no value (of `kind`, when given).
 *
 * @example
 * ```ts
 * const read: Result<number> = fail("there is no such file", "missing");
 * failed(read); // true
 * failed(read, "ambiguous"); // false
 * failed({ error: "a payload's own field" }); // false
 * ```
 */
export function failed<T>(result: Result<T>): result is Failure;
/** Whether `result` is a failure of `kind`. */
export function failed<T>(result: Result<T>, kind: FailureKind): boolean;
export function failed<T>(result: Result<T>, kind?: FailureKind): boolean {
  return typeof result === "object" && result !== null && KIND in result &&
    (kind === undefined || (result as Failure)[KIND] === kind);
}
