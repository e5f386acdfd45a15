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
  const message = error instanceof Error ? error.message : String(error);
  const missing = missingPackage(message);
  if (missing !== undefined) {
    return `its package ${missing} is not in Deno's cache yet (hooks/run fetches it in the ` +
      "background; the release binary needs none)";
  }
  // Deno's module errors end with the importing file's location (`at file:///…/src/x.ts:5:20`),
  // in colour on a terminal: the program's insides, not the user's business.
  return oneLine(
    // deno-lint-ignore no-control-regex
    message.replace(/\x1b\[[0-9;]*m/g, "").replace(/\n\s*at (?:file|https?|ext|node|npm):\S*/g, ""),
  );
}

/**
 * The npm package a Deno module error says is not in its cache (a source run with
 * `--cached-only` before its packages were fetched), or undefined for any other message.
 * Shapes: tests/fixtures/deno-errors.
 */
function missingPackage(message: string): string | undefined {
  if (!/not found in cache|--cached-only/.test(message)) return undefined;
  const named = message.match(/npm package '([^']+)'/) ?? message.match(/package "([^"]+)"/) ??
    message.match(/not found in cache: "([^"]+)"/);
  return named?.[1] ?? "an npm package";
}

/**
 * Why a file could not be stat'ed or read, in words (Deno's errors say "No such file or
 * directory (os error 2): stat '/x'"): no OS codes, no repeated path, one line.
 *
 * @example
 * ```ts
 * fileReason(new Deno.errors.NotFound("No such file or directory (os error 2): stat '/x'"));
 * // "there is no such file"
 * ```
 */
export function fileReason(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "there is no such file";
  if (error instanceof Deno.errors.PermissionDenied) return "it cannot be read (permission denied)";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder, not a file";
  if (error instanceof Deno.errors.NotCapable) return `it is ${NOT_CAPABLE}`;
  if (error instanceof Deno.errors.InvalidData) return "it is not text (invalid UTF-8)";
  const message = oneLine(messageOf(error)).replace(/\s*\(os error \d+\).*$/, "");
  return `it cannot be read (${message.charAt(0).toLowerCase()}${message.slice(1)})`;
}

/**
 * `text` on one line: line breaks and other control characters become spaces, runs of spaces
 * one, so a message never breaks a column or a terminal.
 *
 * @example
 * ```ts
 * oneLine("Unexpected token\n  at line 2"); // "Unexpected token at line 2"
 * ```
 */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffd]+/g, " ")
    .replace(/ {2,}/g, " ").trim();
}
