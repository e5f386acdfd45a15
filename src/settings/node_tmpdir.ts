/**
 * The temp folder a Node program such as the lessons-learned hooks gets from `os.tmpdir()`, given
 * the same environment: where that plugin keeps its per-session files.
 */

/**
 * The folder Node's `os.tmpdir()` gives the lessons-learned hooks, from the same environment:
 * TMPDIR, TMP, TEMP, else /tmp (POSIX); TEMP, TMP, else %SystemRoot%\temp (Windows); without a
 * trailing separator.
 *
 * @example
 * ```ts
 * nodeTmpdir((n) => ({ TMPDIR: "/var/folders/x/T/" })[n], "darwin"); // "/var/folders/x/T"
 * ```
 */
export function nodeTmpdir(env: (name: string) => string | undefined, os: string): string {
  if (os === "windows") {
    const dir = env("TEMP") || env("TMP") ||
      `${env("SystemRoot") || env("windir") || "C:\\Windows"}\\temp`;
    return dir.length > 1 && dir.endsWith("\\") && !dir.endsWith(":\\") ? dir.slice(0, -1) : dir;
  }
  const dir = env("TMPDIR") || env("TMP") || env("TEMP") || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}
