/**
 * The release bundle: `deno bundle --minify` of src/main.ts into one file, then the hook's own
 * functions made eager (eager_functions.ts), so that the code cache holds their compiled code and
 * a hook call does not parse and compile them again on every tool call.
 */
import { join } from "node:path";
import { eagerFunctions } from "./eager_functions.ts";
import { sourceLookup } from "./source_map.ts";

/**
 * `deno bundle` of the entry point into one JavaScript file, every import inlined, minified: V8
 * parses a third less code at every hook start; the hook prints no stack traces, so nothing
 * readable is lost. The source map is only read here, to pick the functions to make eager.
 */
export function bundleArgs(output: string, root: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--minify",
    "--sourcemap",
    "external",
    join(root, "src", "main.ts"),
    "-o",
    output,
  ];
}

/**
 * True for code that every hook call runs, or may: this project's src/, except the commands
 * (src/cli/, loaded by `import()` only when there are arguments) and the demo's data, and the
 * bundler's own few helpers (no source: `undefined`). Compiled eagerly, a function costs its
 * share of the code cache on every call even if unused, so the commands' code and the npm
 * packages (zod, only when firing; the JSONC parser, only with a config file) stay lazy.
 */
export function isHookSource(source: string | undefined): boolean {
  if (source === undefined) return true;
  const path = source.replaceAll("\\", "/");
  const at = path.lastIndexOf("/src/");
  if (at < 0 && !path.startsWith("src/")) return false;
  const inSrc = at < 0 ? path : path.slice(at + 1);
  return !inSrc.startsWith("src/cli/") && inSrc !== "src/data/demo_session.ts";
}

/** Builds the bundle of the tree at `root` into `output` (see the module header). */
export async function buildBundle(output: string, root: string, deno = Deno.execPath()) {
  const built = await new Deno.Command(deno, {
    args: bundleArgs(output, root),
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!built.success) throw new Error("deno bundle failed");
  const mapPath = `${output}.map`;
  const code = await Deno.readTextFile(output);
  const sourceOf = sourceLookup(code, JSON.parse(await Deno.readTextFile(mapPath)));
  await Deno.writeTextFile(
    output,
    eagerFunctions(code, (offset) => isHookSource(sourceOf(offset))),
  );
  await Deno.remove(mapPath);
}

if (import.meta.main) {
  const root = join(import.meta.dirname ?? ".", "..");
  await buildBundle(Deno.args[0] ?? join(root, "dist", "lessons-reinject.js"), root);
}
