/** How a caught error becomes one line of text a user can act on. */

/**
 * Deno refuses /proc, /dev and /sys paths to a program without `--allow-all`, and says "run
 * again with the --allow-all flag": advice for the program's author, not for the user.
 */
const NOT_CAPABLE = "a system path (under /proc, /dev or /sys) that the hook is not allowed to use";

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
  if (error instanceof Deno.errors.NotCapable) return NOT_CAPABLE;
  return error instanceof Error ? error.message : String(error);
}
