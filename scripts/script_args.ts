/**
 * Flags of the maintainers' scripts and benchmarks, parsed by node:util's parseArgs, with `--help`
 * printing the usage and a flag it does not know one line on stderr, never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

const encoder = new TextEncoder();

/**
 * `config.args` parsed; `--help` or `-h` prints `usage` and exits 0, a wrong flag prints
 * `<name>: <why>` and the usage on stderr and exits 2.
 */
export function scriptArgs<T extends ParseArgsConfig & { args: string[] }>(
  name: string,
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  if (config.args.some((arg) => arg === "--help" || arg === "-h")) {
    Deno.stdout.writeSync(encoder.encode(`${usage}\n`));
    Deno.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    Deno.stderr.writeSync(encoder.encode(`${name}: ${why.split("\n")[0]}\n${usage}\n`));
    Deno.exit(2);
  }
}
