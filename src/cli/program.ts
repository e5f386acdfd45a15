/**
 * The command that runs this program from where the user is, for hints that name it: a checkout
 * has no `lessons-reinject` on PATH, an installed plugin's binary sits deep in Claude Code's cache.
 * programOf() is pure; thisProgram() gathers its facts from the running process.
 */
import { dirname, join } from "../core/path.ts";

/** What the running process knows about how it was started. */
export interface ProgramFacts {
  /** `Deno.build.standalone`: a `deno compile`d binary. */
  standalone: boolean;
  /** `Deno.execPath()`: the binary, or `deno` when run from source. */
  execPath: string;
  /** `Deno.mainModule`: `file:///…/src/main.ts` from source. */
  mainModule: string;
  cwd: string;
  exists: (path: string) => boolean;
}

/** How to run this program again, and where its README is, both as the user can type them. */
export interface Program {
  command: string;
  readme: string | undefined;
}

/**
 * The command that works from `facts.cwd`: the binary's own path when compiled; in a checkout
 * (the working folder inside it), `deno task hook`; else the checkout's or plugin's `hooks/run`.
 *
 * @example
 * ```ts
 * programOf({ standalone: false, execPath: "/usr/bin/deno", mainModule: "file:///r/src/main.ts",
 *   cwd: "/r", exists: () => true });
 * // { command: "deno task hook", readme: "README.md" }
 * ```
 */
export function programOf(facts: ProgramFacts): Program {
  const readmeIn = (root: string) => {
    const path = join(root, "README.md");
    return facts.exists(path) ? path : undefined;
  };
  if (facts.standalone) {
    // The release binary lives in <plugin>/dist/.
    return {
      command: shellWord(facts.execPath),
      readme: readmeIn(dirname(dirname(facts.execPath))),
    };
  }
  const main = pathOfFileUrl(facts.mainModule);
  if (main === undefined) return { command: "lessons-reinject", readme: undefined };
  // <root>/src/main.ts from source; <root>/dist/lessons-reinject.js for the bundle.
  const root = dirname(dirname(main));
  const relative = relativeInside(root, facts.cwd);
  if (relative !== undefined && facts.exists(join(root, "deno.json"))) {
    const readme = readmeIn(root);
    return {
      command: "deno task hook",
      readme: readme === undefined ? undefined : join(relative, "README.md"),
    };
  }
  const run = join(root, "hooks", "run");
  if (facts.exists(run)) return { command: shellWord(run), readme: readmeIn(root) };
  return {
    command: `deno run --allow-read --allow-write --allow-env ${shellWord(main)}`,
    readme: undefined,
  };
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
  const sep = Deno.build.os === "windows" ? /[\\/]/ : /\//;
  const rootParts = root.split(sep).filter((p) => p !== "");
  const cwdParts = cwd.split(sep).filter((p) => p !== "");
  if (!rootParts.every((part, i) => cwdParts[i] === part)) return undefined;
  const depth = cwdParts.length - rootParts.length;
  return depth === 0 ? "." : Array(depth).fill("..").join("/");
}

/** `word` quoted for a POSIX shell when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** {@link programOf} for this process. */
export function thisProgram(): Program {
  return programOf({
    standalone: Deno.build.standalone,
    execPath: Deno.execPath(),
    mainModule: Deno.mainModule,
    cwd: Deno.cwd(),
    exists: (path) => {
      try {
        Deno.statSync(path);
        return true;
      } catch {
        return false;
      }
    },
  });
}
