/**
 * The path operations the hook needs, without `node:path`: importing it loads Deno's Node
 * compatibility layer, which cost more CPU than everything else a non-firing call does
 * (measured in docs/maintainers/benchmarks.md). Results match `node:path` for the platform.
 */

const WINDOWS = Deno.build.os === "windows";
const SEP = WINDOWS ? "\\" : "/";

function isSep(char: string | undefined): boolean {
  return char === "/" || (WINDOWS && char === "\\");
}

/** Length of the root: `/` on POSIX; `C:\`, `C:`, `\`, or `\\server\share\` on Windows. */
function rootLength(path: string): number {
  if (!WINDOWS) return path.startsWith("/") ? 1 : 0;
  if (isSep(path[0]) && isSep(path[1])) {
    // UNC: \\server\share\ is the root.
    let at = 2;
    for (let parts = 0; parts < 2 && at < path.length; parts++) {
      while (at < path.length && !isSep(path[at])) at++;
      if (at < path.length) at++;
    }
    return at;
  }
  if (/^[A-Za-z]:/.test(path)) return isSep(path[2]) ? 3 : 2;
  return isSep(path[0]) ? 1 : 0;
}

/** Resolves `.` and `..` and collapses separators; keeps a trailing separator, as Node does. */
function normalize(path: string): string {
  if (path === "") return ".";
  const rootLen = rootLength(path);
  const root = path.slice(0, rootLen).replace(WINDOWS ? /[\\/]+/g : /\/+/g, SEP);
  const absolute = rootLen > 0 && isSep(path[rootLen - 1]);
  const out: string[] = [];
  for (const part of path.slice(rootLen).split(WINDOWS ? /[\\/]+/ : /\/+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(part);
  }
  const joined = root + out.join(SEP) || ".";
  return isSep(path[path.length - 1]) && !isSep(joined[joined.length - 1]) ? joined + SEP : joined;
}

/**
 * Joins path segments with the platform's separator and normalizes the result.
 *
 * @example
 * ```ts
 * join("/tmp", "state", "x.json"); // "/tmp/state/x.json" on POSIX
 * ```
 */
export function join(...parts: string[]): string {
  return normalize(parts.filter((part) => part !== "").join(SEP));
}

function trimTrailing(path: string): string {
  const rootLen = rootLength(path);
  let end = path.length;
  while (end > rootLen && isSep(path[end - 1])) end--;
  return path.slice(0, end);
}

function lastSep(path: string): number {
  for (let i = path.length - 1; i >= 0; i--) if (isSep(path[i])) return i;
  return -1;
}

/**
 * The last segment of `path`.
 *
 * @example
 * ```ts
 * basename("/a/b/session.jsonl"); // "session.jsonl"
 * ```
 */
export function basename(path: string): string {
  const trimmed = trimTrailing(path);
  const rootLen = rootLength(trimmed);
  if (trimmed.length === rootLen) return "";
  return trimmed.slice(Math.max(lastSep(trimmed) + 1, rootLen));
}

/**
 * `path` without its last segment: `.` for a bare name, the root for a top-level entry.
 *
 * @example
 * ```ts
 * dirname("/a/b/session.jsonl"); // "/a/b"
 * ```
 */
export function dirname(path: string): string {
  const trimmed = trimTrailing(path);
  const rootLen = rootLength(trimmed);
  if (trimmed.length === rootLen) return rootLen > 0 ? trimmed : ".";
  const at = lastSep(trimmed);
  if (at < rootLen) return rootLen > 0 ? trimmed.slice(0, rootLen) : ".";
  return at === 0 ? trimmed.slice(0, 1) : trimmed.slice(0, at);
}

/**
 * True when `path` starts at a root (`/`; on Windows also `\`, `C:\`, `\\server`).
 *
 * @example
 * ```ts
 * isAbsolute("/tmp/x"); // true
 * ```
 */
export function isAbsolute(path: string): boolean {
  if (!WINDOWS) return path.startsWith("/");
  return isSep(path[0]) || /^[A-Za-z]:[\\/]/.test(path);
}

/**
 * An absolute, normalized path: the segments joined right to left until one is absolute, on
 * top of the working folder (which needs read permission) when none is.
 *
 * @example
 * ```ts
 * resolve("/etc", "../tmp", "x.json"); // "/tmp/x.json"
 * ```
 */
export function resolve(...parts: string[]): string {
  let resolved = "";
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(resolved); i--) {
    const part = parts[i];
    if (part) resolved = resolved ? `${part}${SEP}${resolved}` : part;
  }
  if (!isAbsolute(resolved)) resolved = `${Deno.cwd()}${SEP}${resolved}`;
  return trimTrailing(normalize(resolved));
}
