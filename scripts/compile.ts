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
import { buildBundle, bundleArgs as bundleCommand } from "./bundle.ts";
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
 * `deno compile` of the bundle for one target, with exactly the binary's permissions. The
 * bundle has no imports left but `node:` built-ins, so no config, lock or node_modules is
 * embedded (`--no-config`), and `--no-prompt` makes a missing permission an error, never a
 * prompt that would hang a hook.
 */
export function compileArgs(target: Target, bundle = BUNDLE, dist = DIST): string[] {
  return [
    "compile",
    "--quiet",
    "--no-config",
    "--no-prompt",
    ...BINARY_PERMISSIONS,
    "--target",
    target,
    "--output",
    join(dist, assetName(target)),
    bundle,
  ];
}

async function deno(args: string[]): Promise<void> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`deno ${args.join(" ")} exited with ${code}`);
}

function fail(message: string): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`compile: ${message}\n`));
  Deno.exit(2);
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
  const steps = targets.map((t) => compileArgs(t));
  if (values["dry-run"]) {
    say(`deno ${bundleArgs().join(" ")}, then eager functions (scripts/bundle.ts)`);
    for (const args of steps) say(`deno ${args.join(" ")}`);
    return;
  }
  await Deno.mkdir(DIST, { recursive: true });
  await buildBundle(BUNDLE, ROOT);
  for (const args of steps) await deno(args);
  const sums = await writeSums(DIST);
  for (const [name, hex] of sums) say(`${hex}  ${name}`);
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}
