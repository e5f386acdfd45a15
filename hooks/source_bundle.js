/**
 * Runs the source's bundle: hooks/run starts it, when there is no binary (no release yet, a
 * checkout) and the bundle is newer than every file of the source, with exactly the binary's
 * permissions:
 *
 *   deno run --no-config --allow-read --allow-write --allow-env hooks/source_bundle.js BUNDLE [ARGS]
 *
 * BUNDLE is the hook's bundle that scripts/source_bundle.ts built (in a cache folder, outside the
 * plugin folder). When it cannot be loaded (removed, half-written, corrupt) this exits 75 at once,
 * saying nothing and leaving stdin unread: hooks/run then runs the source, and builds the bundle
 * again in the background. Plain JavaScript without imports: it costs one small module.
 */

/** The status that sends hooks/run to the source: the bundle cannot serve this call. */
export const UNUSABLE = 75;

/** The `file:` URL of an absolute path, POSIX or Windows (`C:\...`, `C:/...`). */
export function urlOf(path) {
  const slashed = path.replaceAll("\\", "/");
  const absolute = slashed.startsWith("/") ? slashed : `/${slashed}`;
  return `file://${absolute.split("/").map((part) => encodeURIComponent(part)).join("/")}`
    .replace(/^file:\/\/\/([A-Za-z])%3A/, "file:///$1:");
}

if (import.meta.main) {
  const [bundle = "", ...args] = Deno.args;
  let main;
  try {
    if (bundle !== "") ({ main } = await import(urlOf(bundle)));
  } catch {
    // Not there, or not a whole bundle: the source serves this call.
  }
  if (typeof main !== "function") Deno.exit(UNUSABLE);
  await main(args);
}
