/**
 * Where the user is and how they run this program from there: `deno task` runs in deno.json's
 * folder and passes the caller's as `INIT_CWD`; hints must name a command that works from there.
 * programOf() is pure; thisProgram() gathers its facts from the running process.
 */
import { dirname, join } from "../core/path.ts";
import { statOf } from "./common.ts";

/** What the running process knows about how it was started. */
export interface ProgramFacts {
  standalone: boolean;
  /** The binary, or `deno` when run from source. */
  execPath: string;
  /** `file:///…/src/main.ts` from source. */
  mainModule: string;
  cwd: string;
  /** Set by `deno task` (and npm) to the folder it was called from. */
  initCwd?: string | undefined;
  exists: (path: string) => boolean;
}

export interface Program {
  /** The command that runs this program from where the user is. */
  command: string;
  /** One that runs it from any folder: the binary's or `hooks/run`'s path. */
  anywhere: string;
  /** Its README, as the user can reach it from there. */
  readme: string | undefined;
  /** The checkout or plugin folder it runs from (one with `hooks/run`). */
  root: string | undefined;
  /** The folder the user started it from. */
  cwd: string;
}

/**
 * How to run this program from where the user is: the binary's own path when compiled; in the
 * checkout (or a folder of it), `deno task hook`; elsewhere the checkout's or plugin's `hooks/run`.
 * The user is in `initCwd` when `deno task` moved the process to the checkout.
 *
 * @example
 * ```ts
 * programOf({ standalone: false, execPath: "/usr/bin/deno", mainModule: "file:///r/src/main.ts",
 *   cwd: "/r", initCwd: "/home/me/app", exists: () => true }).command; // "/r/hooks/run"
 * ```
 */
export function programOf(facts: ProgramFacts): Program {
  const main = facts.standalone ? facts.execPath : pathOfFileUrl(facts.mainModule);
  // <root>/src/main.ts from source, <root>/dist/<binary or bundle> installed.
  const root = main && dirname(dirname(main));
  const cwd = facts.initCwd && facts.cwd === root ? facts.initCwd : facts.cwd;
  const known = root && facts.exists(join(root, "hooks", "run")) ? root : undefined;
  const run = known && shellWord(join(known, "hooks", "run"));
  const readme = root && facts.exists(join(root, "README.md"))
    ? join(root, "README.md")
    : undefined;
  const found = { readme, root: known, cwd };
  if (facts.standalone) {
    return { ...found, command: shellWord(facts.execPath), anywhere: shellWord(facts.execPath) };
  }
  if (!main || !root) {
    return { ...found, command: "lessons-reinject", anywhere: "lessons-reinject" };
  }
  const relative = relativeInside(root, cwd);
  if (relative !== undefined && facts.exists(join(root, "deno.json"))) {
    const inside = readme && join(relative, "README.md");
    return {
      ...found,
      command: "deno task hook",
      anywhere: run ?? "deno task hook",
      readme: inside,
    };
  }
  const source = `deno run --allow-read --allow-write --allow-env ${shellWord(main)}`;
  return run
    ? { ...found, command: run, anywhere: run }
    : { ...found, command: source, anywhere: source, readme: undefined };
}

/** The path of a `file:` URL, or undefined for any other URL. */
function pathOfFileUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "file:") return undefined;
    const path = decodeURIComponent(parsed.pathname);
    return Deno.build.os === "windows" ? path.replace(/^\/([A-Za-z]:)/, "$1") : path;
  } catch {
    return undefined;
  }
}

/** The way from `cwd` up to `root` (`.`, `..`, `../..`), or undefined when `cwd` is outside it. */
function relativeInside(root: string, cwd: string): string | undefined {
  const parts = (path: string) => path.split(/[\\/]/).filter((p) => p !== "");
  const [rootParts, cwdParts] = [parts(root), parts(cwd)];
  if (!rootParts.every((part, i) => cwdParts[i] === part)) return undefined;
  const depth = cwdParts.length - rootParts.length;
  return depth === 0 ? "." : Array(depth).fill("..").join("/");
}

/** `word` quoted for a POSIX shell when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** {@link programOf} for this process; `initCwd` is `INIT_CWD`, read at the edge. */
export function thisProgram(initCwd: string | undefined): Program {
  const { standalone } = Deno.build;
  const exists = (path: string) => statOf(path) !== undefined;
  return programOf({
    standalone,
    execPath: Deno.execPath(),
    mainModule: Deno.mainModule,
    cwd: Deno.cwd(),
    initCwd,
    exists,
  });
}
