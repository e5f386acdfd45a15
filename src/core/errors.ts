/** How a caught error becomes one line of text a user can act on. */

/** Deno refuses /proc, /dev and /sys without `--allow-all` and advises that flag: not for users. */
const NOT_CAPABLE = "a system path (under /proc, /dev or /sys) that the hook is not allowed to use";

/** A package Deno could neither find in its cache nor fetch: what to do about it. */
const FETCH_FIX = "reach the npm registry (or a mirror named by NPM_CONFIG_REGISTRY) and run it " +
  "again, or use the release binary, which needs none";

/** The message of anything thrown, on one line. */
export function messageOf(error: unknown): string {
  if (error instanceof Deno.errors.NotCapable) return NOT_CAPABLE;
  const message = error instanceof Error ? error.message : String(error);
  // An npm package missing from Deno's cache (shapes: tests/fixtures/deno-errors).
  if (/not found in cache|--cached-only/.test(message)) {
    const named = message.match(/npm package '([^']+)'/) ?? message.match(/package "([^"]+)"/) ??
      message.match(/not found in cache: "([^"]+)"/);
    return `its package ${named?.[1] ?? "an npm package"} is not in Deno's cache yet (hooks/run ` +
      "fetches it in the background; the release binary needs none)";
  }
  // deno-lint-ignore no-control-regex
  const plain = message.replace(/\x1b\[[0-9;]*m/g, "");
  // A package Deno tried to fetch and could not (no registry): the innermost cause says why.
  const failed = plain.match(/Failed caching npm package '([^']+)'/);
  if (failed) {
    // Its causes, numbered, innermost last; Deno's own backtrace, when it follows, is not one.
    const chain = plain.split(/\n\s*Stack backtrace/)[0]!;
    const causes = [...chain.matchAll(/^\s*\d+: (.+)$/gm)].map((m) => m[1]!);
    const cause = (causes.at(-1) ?? "").replace(/\s*\(os error \d+\)/, "").trim();
    return `its package ${failed[1]} is not in Deno's cache and could not be fetched from the ` +
      `npm registry${cause ? ` (${cause.charAt(0).toLowerCase()}${cause.slice(1)})` : ""}: ` +
      FETCH_FIX;
  }
  // Deno's module errors end with the importer's location: not the user's business.
  const bare = plain.replace(/\n\s*at (?:file|https?|ext|node|npm):\S*/g, "");
  // deno-lint-ignore no-control-regex
  const spaced = bare.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffd]+/g, " ");
  return spaced.replace(/ {2,}/g, " ").trim();
}

/** Why a file could not be read, in words, without OS codes or the path. */
export function fileReason(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "there is no such file";
  if (error instanceof Deno.errors.PermissionDenied) return "it cannot be read (permission denied)";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder, not a file";
  if (error instanceof Deno.errors.NotCapable) return `it is ${NOT_CAPABLE}`;
  if (error instanceof Deno.errors.InvalidData) return "it is not text (invalid UTF-8)";
  const message = messageOf(error).replace(/\s*\(os error \d+\).*$/, "");
  return `it cannot be read (${message.charAt(0).toLowerCase()}${message.slice(1)})`;
}

/** Why a file could not be written (or a folder made), in words, without OS codes or the path. */
export function writeReason(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "its folder does not exist";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder";
  if (error instanceof Deno.errors.NotADirectory) return "a folder on its path is a file";
  if (error instanceof Deno.errors.NotCapable) return `it is ${NOT_CAPABLE}`;
  if (error instanceof Deno.errors.AlreadyExists) return "it already exists";
  if (error instanceof Deno.errors.BrokenPipe) return "it was closed (broken pipe)";
  const message = messageOf(error).replace(/\s*\(os error \d+\).*$/, "");
  return `${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}
