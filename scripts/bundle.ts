/**
 * The release bundles: `deno bundle --minify` of src/main.ts (the hook) into one file, its own
 * functions made eager (eager_functions.ts) so that the code cache holds their compiled code and a
 * hook call does not compile them again; and beside it the commands' bundle
 * (`lessons-reinject-cli.js`, src/cli/dispatch.ts), which main.ts loads only when given arguments,
 * so a hook call loads only the hook.
 */
import { dirname, join } from "node:path";
import { eagerFunctions } from "./eager_functions.ts";
import { sourceLookup } from "./source_map.ts";

/** The commands' bundle beside the hook's `output` (the name src/main.ts imports). */
export function cliBundleOf(output: string): string {
  return join(dirname(output), "lessons-reinject-cli.js");
}

/**
 * `deno bundle` of `entry` (default src/main.ts) into one JavaScript file, every import inlined,
 * minified: the hook prints no stack traces, so nothing readable is lost. The source map is only
 * read here, to pick the functions to make eager.
 */
export function bundleArgs(output: string, root: string, entry = join("src", "main.ts")): string[] {
  return [
    "bundle",
    "--quiet",
    "--minify",
    "--sourcemap",
    "external",
    join(root, entry),
    "-o",
    output,
  ];
}

/**
 * src/ modules a steady Claude Code tool call does not run: the demo, the replay, Codex's and
 * Gemini's, the startup notice, and what only a firing call runs (the rules, the manifest and
 * their layout), whose compiled code every steady call would read from the cache for nothing.
 */
const LAZY = [
  "src/data/demo_session.jsonl",
  "src/hook/replay.ts",
  "src/core/codex.ts",
  "src/io/codex_rollout.ts",
  "src/core/gemini.ts",
  "src/io/gemini_chat.ts",
  "src/io/gemini_sessions.ts",
  "src/hook/startup.ts",
  "src/io/standing_rules.ts",
  "src/io/rule_sources.ts",
  "src/io/manifest_file.ts",
  "src/io/plugin_cache.ts",
  "src/io/lessons_learned_dedup.ts",
  "src/core/render_rules.ts",
  "src/core/lessons.ts",
  "src/core/session_start.ts",
  "src/core/marked_rules.ts",
  "src/core/first_line.ts",
  "src/schemas/manifest.ts",
];

/**
 * True for code that every hook call runs, or may: this project's src/ (the commands live in
 * their own bundle; what `LAZY` names stays lazy) and the bundler's own few helpers (no source:
 * `undefined`). Compiled eagerly, a function costs its share
 * of the code cache on every call even if unused, so the npm packages (the JSONC parser, only with
 * a config file) stay lazy.
 */
export function isHookSource(source: string | undefined): boolean {
  if (source === undefined) return true;
  const path = source.replaceAll("\\", "/");
  const at = path.lastIndexOf("/src/");
  if (at < 0 && !path.startsWith("src/")) return false;
  const inSrc = at < 0 ? path : path.slice(at + 1);
  return !inSrc.startsWith("src/cli/") && !LAZY.includes(inSrc);
}

async function bundle(args: string[], root: string, deno: string): Promise<void> {
  const built = await new Deno.Command(deno, {
    args,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!built.success) throw new Error("deno bundle failed");
}

/** Builds the hook's bundle of the tree at `root` into `output`, and the commands' beside it. */
export async function buildBundle(output: string, root: string, deno = Deno.execPath()) {
  await bundle(bundleArgs(output, root), root, deno);
  const mapPath = `${output}.map`;
  const code = await Deno.readTextFile(output);
  const sourceOf = sourceLookup(code, JSON.parse(await Deno.readTextFile(mapPath)));
  await Deno.writeTextFile(
    output,
    eagerFunctions(code, (offset) => isHookSource(sourceOf(offset))),
  );
  await Deno.remove(mapPath);
  const cli = cliBundleOf(output);
  await bundle(bundleArgs(cli, root, join("src", "cli", "dispatch.ts")), root, deno);
  await Deno.remove(`${cli}.map`);
}

/**
 * Whether the bundles committed in `dist` are the ones the source at `root` builds, byte for byte
 * (the build is deterministic for one Deno release, the one CI pins): the stale one's name, or
 * undefined.
 */
export async function staleBundle(root: string, dist: string): Promise<string | undefined> {
  const built = await Deno.makeTempDir({ prefix: "lessons-reinject-bundle-" });
  try {
    await buildBundle(join(built, "lessons-reinject.js"), root);
    for (const name of ["lessons-reinject.js", "lessons-reinject-cli.js"]) {
      const committed = await Deno.readFile(join(dist, name)).catch(() => new Uint8Array());
      const fresh = await Deno.readFile(join(built, name));
      if (committed.length !== fresh.length || committed.some((b, i) => b !== fresh[i])) {
        return name;
      }
    }
    return undefined;
  } finally {
    await Deno.remove(built, { recursive: true });
  }
}

// `deno task bundle`: into dist/ (an installed copy without a binary runs it: hooks/run), or the
// path given; `deno task bundle --check`: fail when dist/ is not what the source builds (.ci/run).
if (import.meta.main) {
  const root = join(import.meta.dirname ?? ".", "..");
  const dist = join(root, "dist");
  if (Deno.args[0] === "--check") {
    const stale = await staleBundle(root, dist);
    if (stale) {
      // deno-lint-ignore no-console
      console.error(
        `dist/ is older than src/: run deno task bundle, and commit dist/ (${stale} differs)`,
      );
      Deno.exit(1);
    }
  } else await buildBundle(Deno.args[0] ?? join(dist, "lessons-reinject.js"), root);
}
