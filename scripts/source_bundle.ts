/**
 * The source's bundle, for hooks/run when there is no binary (no release yet, a checkout): the
 * release bundle (scripts/bundle.ts) of this tree, built into a new folder under FOLDER; then
 * FOLDER/current names it, replaced atomically.
 *
 *   deno run --allow-read --allow-write --allow-env --allow-run scripts/source_bundle.ts FOLDER
 *
 * `current` holds two lines, the build's folder and the source's folders (`src src/cli ...`), and
 * its mtime is when the build started: hooks/run uses the bundle only while no file or folder of
 * the source, deno.json or deno.lock, is newer (shell builtins only, about 90 stats). An edit, a
 * new, renamed or removed file, makes it stale; hooks/run then runs the source and starts this
 * again in the background, one at a time. A source that changed during the build is not published.
 * Two builders at once are safe: each builds its own folder and renames `current` into place.
 */
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildBundle } from "./bundle.ts";

/**
 * The tree this script is in. Not scripts/project.ts's ROOT: that module reads files an installed
 * plugin need not have; this needs only bundle.ts and what it imports.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** `src` and every folder under it, `/`-separated, relative to `root`. */
export function sourceFolders(root: string): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    found.push(rel);
    const names = [...Deno.readDirSync(join(root, rel))].filter((e) => e.isDirectory)
      .map((e) => e.name).sort();
    for (const name of names) walk(`${rel}/${name}`);
  };
  walk("src");
  return found;
}

/** True when a folder of the source, a file in one, deno.json or deno.lock is newer than `time`. */
export function changedSince(root: string, time: number): boolean {
  const newer = (path: string) => {
    try {
      return (Deno.statSync(path).mtime?.getTime() ?? Infinity) > time;
    } catch {
      return false;
    }
  };
  for (const rel of sourceFolders(root)) {
    if (newer(join(root, rel))) return true;
    for (const entry of Deno.readDirSync(join(root, rel))) {
      if (newer(join(root, rel, entry.name))) return true;
    }
  }
  return ["deno.json", "deno.lock"].some((name) => newer(join(root, name)));
}

/** Names in FOLDER of builds other than `keep`. */
function otherBuilds(folder: string, keep: string[]): string[] {
  return [...Deno.readDirSync(folder)]
    .filter((e) => e.isDirectory && e.name.startsWith("build-") && !keep.includes(e.name))
    .map((e) => e.name);
}

/** The build `current` names, or undefined. */
export function currentBuild(folder: string): string | undefined {
  try {
    return Deno.readTextFileSync(join(folder, "current")).split("\n")[0] || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Builds the bundle of the tree at `root` into FOLDER and points `current` at it; returns the
 * build's folder, or undefined when the source changed meanwhile (nothing published).
 */
export async function buildSourceBundle(
  root: string,
  folder: string,
  deno = Deno.execPath(),
): Promise<string | undefined> {
  const started = new Date();
  // hooks/run made the folder: one removed since (a test's home folder) is not made again.
  if (!(await Deno.stat(folder).catch(() => undefined))?.isDirectory) {
    throw new Error(`${folder} is not a folder`);
  }
  const folders = sourceFolders(root);
  if (folders.some((f) => /\s/.test(f))) throw new Error("a folder under src/ has a space");
  const build = `build-${Date.now()}-${Deno.pid}`;
  const dir = join(folder, build);
  await Deno.mkdir(dir);
  let published = false;
  try {
    const hook = join(dir, "lessons-reinject.js");
    await buildBundle(hook, root, deno);
    // Some shells' `-nt` compares whole seconds (bash 3.2, macOS's sh): published within the
    // second the build started, a later edit in that second would not look newer.
    const wait = 1000 - (Date.now() % 1000);
    if (Math.floor(Date.now() / 1000) === Math.floor(started.getTime() / 1000)) {
      await new Promise((resolve) => setTimeout(resolve, wait + 1));
    }
    if (changedSince(root, started.getTime())) return undefined;
    // On disk before `current` names them: a crash never leaves it naming half a bundle.
    for (const name of ["lessons-reinject.js", "lessons-reinject-cli.js"]) {
      const written = await Deno.open(join(dir, name));
      try {
        await written.sync();
      } finally {
        written.close();
      }
    }
    // It loads: importing it runs nothing (main.ts runs only as the main module).
    const { main } = await import(pathToFileURL(hook).href);
    if (typeof main !== "function") throw new Error(`${hook} exports no main()`);
    const previous = currentBuild(folder);
    const temporary = join(folder, `current.${Deno.pid}.tmp`);
    const file = await Deno.open(temporary, { write: true, create: true, truncate: true });
    try {
      await file.write(new TextEncoder().encode(`${build}\n${folders.join(" ")}\n`));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.utime(temporary, started, started);
    await Deno.rename(temporary, join(folder, "current"));
    published = true;
    // A process that read the previous `current` may still be loading its build: that one stays.
    for (const name of otherBuilds(folder, [build, ...(previous ? [previous] : [])])) {
      await Deno.remove(join(folder, name), { recursive: true }).catch(() => {});
    }
    return dir;
  } finally {
    if (!published) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** One line of the build's log (hooks/run keeps it beside the bundle, as build.log). */
function say(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(`lessons-reinject source bundle: ${line}\n`));
}

if (import.meta.main) {
  const folder = Deno.args[0];
  if (!folder) {
    say("usage: scripts/source_bundle.ts FOLDER");
    Deno.exit(2);
  }
  try {
    const built = await buildSourceBundle(ROOT, folder);
    say(
      built === undefined
        ? "the source changed while it was built; the next call builds again"
        : `built ${built}`,
    );
  } catch (error) {
    say(`failed: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
}
