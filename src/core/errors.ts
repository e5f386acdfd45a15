/** How a caught error becomes one line of text. */

/**
 * The message of anything thrown.
 *
 * @example
 * ```ts
 * messageOf(new Error("disk full")); // "disk full"
 * messageOf("plain"); // "plain"
 * ```
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
