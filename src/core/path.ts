/** `node:path`'s answers, without loading Deno's Node layer: it costs more than a whole call. */

const WINDOWS = Deno.build.os === "windows";
const SEP = WINDOWS ? "\\" : "/";
const SEPS = WINDOWS ? /[\\/]+/ : /\/+/;

function isSep(char: string | undefined): boolean {
  return char === "/" || (WINDOWS && char === "\\");
}

/** Length of the root: `/` on POSIX; `C:\`, `C:`, `\`, or `\\server\share\` on Windows. */
function rootLength(path: string): number {
  if (!WINDOWS) return path.startsWith("/") ? 1 : 0;
  if (isSep(path[0]) && isSep(path[1])) {
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

/** Resolves `.` and `..`, collapses separators, keeps a trailing one (as Node does). */
function normalize(path: string): string {
  if (path === "") return ".";
  const rootLen = rootLength(path);
  const root = path.slice(0, rootLen).replace(new RegExp(SEPS, "g"), SEP);
  const absolute = rootLen > 0 && isSep(path[rootLen - 1]);
  const out: string[] = [];
  for (const part of path.slice(rootLen).split(SEPS)) {
    if (part === "" || part === ".") continue;
    if (part !== "..") out.push(part);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!absolute) out.push("..");
  }
  const joined = root + out.join(SEP) || ".";
  return isSep(path[path.length - 1]) && !isSep(joined[joined.length - 1]) ? joined + SEP : joined;
}

export function join(...parts: string[]): string {
  return normalize(parts.filter((part) => part !== "").join(SEP));
}

function trimTrailing(path: string): string {
  const rootLen = rootLength(path);
  let end = path.length;
  while (end > rootLen && isSep(path[end - 1])) end--;
  return path.slice(0, end);
}

export function basename(path: string): string {
  const trimmed = trimTrailing(path);
  return trimmed.slice(Math.max(lastSep(trimmed) + 1, rootLength(trimmed)));
}

function lastSep(path: string): number {
  return Math.max(path.lastIndexOf("/"), WINDOWS ? path.lastIndexOf("\\") : -1);
}

/** `path` without its last segment: `.` for a bare name, the root for a top-level entry. */
export function dirname(path: string): string {
  const trimmed = trimTrailing(path);
  const rootLen = rootLength(trimmed);
  if (trimmed.length === rootLen) return rootLen > 0 ? trimmed : ".";
  const at = lastSep(trimmed);
  if (at < rootLen) return rootLen > 0 ? trimmed.slice(0, rootLen) : ".";
  return trimmed.slice(0, at || 1);
}

/** True when `path` starts at a root (`/`; on Windows also `\`, `C:\`, `\\server`). */
export function isAbsolute(path: string): boolean {
  if (!WINDOWS) return path.startsWith("/");
  return isSep(path[0]) || /^[A-Za-z]:[\\/]/.test(path);
}

/** The segments joined right to left until one is absolute, else on the working folder. */
export function resolve(...parts: string[]): string {
  let resolved = "";
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(resolved); i--) {
    const part = parts[i];
    if (part) resolved = resolved ? `${part}${SEP}${resolved}` : part;
  }
  if (!isAbsolute(resolved)) resolved = `${Deno.cwd()}${SEP}${resolved}`;
  return trimTrailing(normalize(resolved));
}
