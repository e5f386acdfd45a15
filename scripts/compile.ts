/**
 * `deno task compile`: bundles src/main.ts into one file (one module loads faster than zod's
 * many), compiles the bundle for each target into dist/, and writes dist/SHA256SUMS.
 *
 *   deno task compile                      every target
 *   deno task compile --target <target>    one target (repeatable)
 *   deno task compile --dry-run            print the commands, run nothing
 *   deno task compile --sums-only          only write dist/SHA256SUMS, from all five binaries there
 *                                          (the release job, after gathering every build)
 */
import { ROOT } from "./project.ts";
import { buildBundle, bundleArgs as bundleCommand, cliBundleOf } from "./bundle.ts";
import { parseArgs } from "node:util";
import { join } from "node:path";
import {
  assetName,
  BINARY_PERMISSIONS,
  isTarget,
  type Target,
  TARGETS,
  writeSums,
} from "./release_files.ts";

export { ROOT };
export const DIST = join(ROOT, "dist");
export const BUNDLE = join(DIST, "lessons-reinject.js");

/**
 * `deno bundle`'s arguments for the release bundle (scripts/bundle.ts, which then makes the
 * hook's functions eager).
 */
export function bundleArgs(output = BUNDLE, root = ROOT): string[] {
  return bundleCommand(output, root);
}

/**
 * `deno compile` of the bundle for one target, with exactly the binary's permissions, and the
 * commands' bundle included beside it (main.ts imports it by a computed name, which `deno
 * compile` embeds only when told). The bundles have no imports left but `node:` built-ins, so no
 * config, lock or node_modules is embedded (`--no-config`), and `--no-prompt` makes a missing
 * permission an error, never a prompt that would hang a hook.
 */
export function compileArgs(target: Target, bundle = BUNDLE, dist = DIST): string[] {
  return [
    "compile",
    "--quiet",
    "--no-config",
    "--no-prompt",
    ...BINARY_PERMISSIONS,
    "--include",
    cliBundleOf(bundle),
    "--target",
    target,
    "--output",
    join(dist, assetName(target)),
    bundle,
  ];
}

/** A build that failed: said in one line, exit status 1 (2 is a wrong command line). */
class BuildError extends Error {
  override name = "BuildError";
}

/**
 * The one sentence for a `deno compile` that could not download its runtime (denort, fetched
 * from dl.deno.land on first use for each target), or undefined for any other failure. Shape:
 * tests/fixtures/deno-errors/compile-no-runtime-2.9.6.txt.
 *
 * @example
 * ```ts
 * runtimeDownloadFailure("error: boom", "x86_64-apple-darwin"); // undefined
 * ```
 */
export function runtimeDownloadFailure(stderr: string, target: string): string | undefined {
  // deno-lint-ignore no-control-regex
  const plain = stderr.replace(/\x1b\[[0-9;]*m/g, "").replace(/\nStack backtrace:[\s\S]*$/, "");
  const url = /error sending request for url \((\S+\/denort-[^)\s]+)\)/.exec(plain)?.[1];
  if (url === undefined) return undefined;
  // The innermost cause, the last of Deno's numbered lines: "4: Connection refused (os error 111)".
  const cause = [...plain.matchAll(/^\s*\d+: (.+)$/gm)].at(-1)?.[1]?.trim() ?? "no reason given";
  return `deno compile could not download its runtime for ${target} (${url}: ${cause}), so no ` +
    "binary was built; run it where that host can be reached, or fetch that archive another " +
    "way and set DENORT_BIN to the denort inside it";
}

/** `deno compile` for `target`; its stderr is held back to be read when it fails. */
async function compile(target: Target, args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stderr);
  if (code === 0) {
    if (text !== "") Deno.stderr.writeSync(stderr);
    return;
  }
  const sentence = runtimeDownloadFailure(text, target);
  if (sentence !== undefined) throw new BuildError(sentence);
  // Anything else is Deno's to explain; its backtrace of Deno's own insides helps nobody here.
  Deno.stderr.writeSync(
    new TextEncoder().encode(text.replace(/\n*Stack backtrace:[\s\S]*$/, "\n")),
  );
  throw new BuildError(`deno ${args.join(" ")} exited with ${code}`);
}

function fail(message: string, status = 2): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`compile: ${message}\n`));
  Deno.exit(status);
}

function say(message: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(`${message}\n`));
}

async function main(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        target: { type: "string", multiple: true },
        "dry-run": { type: "boolean" },
        "sums-only": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    say(`usage: deno task compile [--target <target>]... [--dry-run] [--sums-only]
targets: ${TARGETS.join(", ")}`);
    return;
  }
  if (values["sums-only"]) {
    const sums = await writeSums(DIST);
    const missing = TARGETS.map(assetName).filter((name) => !sums.has(name));
    if (missing.length > 0) fail(`missing from ${DIST}: ${missing.join(", ")}`);
    for (const [name, hex] of sums) say(`${hex}  ${name}`);
    return;
  }
  const wanted = values.target ?? [...TARGETS];
  const targets: Target[] = [];
  for (const name of wanted) {
    if (!isTarget(name)) fail(`unknown target ${name}; known: ${TARGETS.join(", ")}`);
    if (!targets.includes(name)) targets.push(name);
  }
  if (values["dry-run"]) {
    say(`deno ${bundleArgs().join(" ")}, then eager functions (scripts/bundle.ts)`);
    for (const target of targets) say(`deno ${compileArgs(target).join(" ")}`);
    return;
  }
  await Deno.mkdir(DIST, { recursive: true });
  await buildBundle(BUNDLE, ROOT);
  for (const target of targets) await compile(target, compileArgs(target));
  const sums = await writeSums(DIST);
  for (const [name, hex] of sums) say(`${hex}  ${name}`);
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    fail(
      error instanceof Error ? error.message : String(error),
      error instanceof BuildError ? 1 : 2,
    );
  }
}
