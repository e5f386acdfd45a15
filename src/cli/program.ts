/**
 * How this program runs from where the user is, for the commands' hints: a description built from
 * facts of the process, so that nothing here touches the system (dispatch.ts gathers the facts).
 */
import { dirname, join } from "../core/path.ts";

/** What the running process knows about how it was started. */
export interface ProgramFacts {
  standalone: boolean;
  /** The binary, or `deno` from source. */
  execPath: string;
  /** `file:///…/src/main.ts` from source. */
  mainModule: string;
  cwd: string;
  /** `INIT_CWD`: `deno task` runs in deno.json's folder and passes the caller's here. */
  initCwd?: string | undefined;
  exists: (path: string) => boolean;
}

/**
 * The command that runs this program from where the user is (`cwd`), one that runs it from any
 * folder, its README as reachable from there, and the checkout or plugin (with `hooks/run`) it is.
 */
export interface Program {
  command: string;
  anywhere: string;
  readme: string | undefined;
  root: string | undefined;
  cwd: string;
}

/**
 * How to run this program from where the user is: the binary's path when compiled; in the checkout
 * (or below it) `deno task hook`; elsewhere the checkout's or plugin's `hooks/run`.
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
  const as = (command: string, more: Partial<Program> = {}): Program => ({
    command,
    anywhere: command,
    readme,
    root: known,
    cwd,
    ...more,
  });
  if (facts.standalone) return as(shellWord(facts.execPath));
  if (!main || !root) return as("lessons-reinject");
  // From `cwd` up to `root` (`.`, `..`, `../..`), when `cwd` is inside it.
  const parts = (path: string) => path.split(/[\\/]/).filter((p) => p !== "");
  const [rootParts, cwdParts] = [parts(root), parts(cwd)];
  if (rootParts.every((part, i) => cwdParts[i] === part) && facts.exists(join(root, "deno.json"))) {
    const up = Array(cwdParts.length - rootParts.length).fill("..").join("/") || ".";
    const inside = readme && join(up, "README.md");
    return as("deno task hook", { anywhere: run ?? "deno task hook", readme: inside });
  }
  const source = `deno run --allow-read --allow-write --allow-env ${shellWord(main)}`;
  return run ? as(run) : as(source, { readme: undefined });
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

/** `word` quoted for a POSIX shell when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
