/**
 * What every subcommand shares: the I/O it may touch (passed in, so tests can capture it),
 * argument parsing with `node:util` that turns mistakes into a usage error, and output helpers.
 */
// Types only: a static node: import is hoisted into the bundle's top level and loads Deno's
// Node layer on every hook call; parseCommand imports node:util when it runs.
import type { parseArgs, ParseArgsConfig } from "node:util";
import { messageOf } from "../core/errors.ts";
import { groupDigits } from "../core/numbers.ts";
export { messageOf };
import { writeAll } from "../io/write_all.ts";
import type { Env } from "../settings/resolve.ts";
import { type Program, thisProgram } from "./program.ts";

/** The world a command sees. `main.ts` passes the real one; tests may pass their own. */
export interface CliIo {
  /** Read only by dispatch.ts, to resolve the settings every command is given. */
  env: Env;
  cwd: () => string;
  now: () => number;
  stdout: (text: string) => Promise<void>;
  stderr: (text: string) => Promise<void>;
  /** All of stdin, or undefined when it is larger than the cap. */
  readStdin: () => Promise<string | undefined>;
  /** Whether stdout is a terminal (colour is for terminals only); absent: it is not. */
  isTerminal?: () => boolean;
  /** The terminal's columns when stdout is one and it can tell; absent: unknown. */
  columns?: () => number | undefined;
  /** How the user runs this program from here (see program.ts); absent: by its name. */
  program?: () => Program;
}

/** The commands that install the plugin in Claude Code, exactly as the README gives them. */
export const MARKETPLACE_ADD = "/plugin marketplace add lessons-reinject/lessons-reinject";
export const PLUGIN_INSTALL = "/plugin install lessons-reinject@lessons-reinject";

/**
 * `n` and a noun, plural unless `n` is 1.
 *
 * @example
 * ```ts
 * count(1, "section"); // "1 section"
 * count(0, "invalid lesson"); // "0 invalid lessons"
 * ```
 */
export function count(n: number, noun: string): string {
  return `${groupDigits(n)} ${n === 1 ? noun : `${noun}s`}`;
}

/** The command that runs this program from where the user is (see program.ts). */
export function programName(io: CliIo): string {
  return io.program?.().command ?? "lessons-reinject";
}

/** Exit codes: 0 all well, 1 a problem was found, 2 the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_PROBLEM = 1;
export const EXIT_USAGE = 2;

/** The real world: Deno's env, cwd, clock and standard streams. */
export function realIo(): CliIo {
  return {
    env: (name) => Deno.env.get(name),
    cwd: () => Deno.cwd(),
    now: () => Date.now(),
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    isTerminal: () => Deno.stdout.isTerminal(),
    columns: () => {
      if (!Deno.stdout.isTerminal()) return undefined;
      try {
        return Deno.consoleSize().columns;
      } catch {
        return undefined; // a terminal that does not say its size
      }
    },
    program: thisProgram,
    readStdin: async () => {
      const { readStdinCapped } = await import("../io/stdin.ts");
      return await readStdinCapped();
    },
  };
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** `--help` and `--json`, which every command takes. */
export const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
} as const satisfies Options;

/** Parsed flags, or the usage error to print (exit 2). */
type Parsed<T> = { kind: "flags"; values: T } | { kind: "error"; error: string };

/**
 * `args` with every value a string option takes written as `--name=value`, so a value that starts
 * with a dash (`--threshold -5`) reaches the option's own check, which says what is wrong with it
 * in this program's words, instead of the parser's "argument is ambiguous".
 */
function joinValues(args: readonly string[], options: Options): string[] {
  const takesValue = (arg: string): boolean => {
    if (!arg.startsWith("--") || arg.includes("=")) return false;
    return options[arg.slice(2)]?.type === "string";
  };
  const known = (arg: string): boolean =>
    arg.startsWith("--")
      ? Object.hasOwn(options, arg.slice(2).split("=")[0] ?? "")
      : Object.values(options).some((o) => o.short !== undefined && `-${o.short}` === arg);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const value = args[i + 1];
    if (takesValue(arg) && value !== undefined && value.startsWith("-") && !known(value)) {
      out.push(`${arg}=${value}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** The parser's error in this program's words, from its `code` and the option it names. */
function parseErrorText(error: unknown): string {
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  const text = error instanceof Error ? error.message : String(error);
  const named = /'(-[^' ]*)/.exec(text)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${named}`;
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    return `unexpected argument ${JSON.stringify(/'([^']*)'/.exec(text)?.[1] ?? "")}: ` +
      "this command takes only options";
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (text.includes("does not take an argument")) return `${named} takes no value`;
    return `${named} needs a value`;
  }
  return messageOf(error);
}

/**
 * Parses `args` strictly against `options` (no positionals). An unknown flag or a missing value
 * comes back as an error line in this program's words instead of a thrown exception.
 */
async function parseCommand<const O extends Options>(
  args: string[],
  options: O,
): Promise<Parsed<ReturnType<typeof parseArgs<{ options: O; strict: true }>>["values"]>> {
  const util = await import("node:util");
  try {
    const { values } = util.parseArgs({
      args: joinValues(args, options),
      options,
      strict: true,
      allowPositionals: false,
    });
    return { kind: "flags", values };
  } catch (error) {
    return { kind: "error", error: parseErrorText(error) };
  }
}

/**
 * Parses a command's flags and handles what every command handles alike: a usage error (printed
 * with the help, exit 2) and `--help` (printed, exit 0). Returns the flags, or the exit code when
 * the command is already done.
 *
 * @example
 * ```ts
 * const flags = await readFlags(["--json"], { ...COMMON_OPTIONS }, "Usage: ...", io);
 * if (flags.kind === "done") return flags.exit;
 * flags.values.json; // true
 * ```
 */
export async function readFlags<const O extends Options>(
  args: string[],
  options: O,
  help: string,
  io: CliIo,
): Promise<
  | { kind: "flags"; values: ReturnType<typeof parseArgs<{ options: O; strict: true }>>["values"] }
  | {
    kind: "done";
    exit: number;
  }
> {
  const parsed = await parseCommand(args, options);
  if (parsed.kind === "error") {
    return { kind: "done", exit: await usageError(io, parsed.error, help) };
  }
  if ("help" in parsed.values && parsed.values.help === true) {
    await io.stdout(help);
    return { kind: "done", exit: EXIT_OK };
  }
  return parsed;
}

/** Prints a usage error and the command's help, and returns exit code 2. */
export async function usageError(io: CliIo, message: string, help: string): Promise<number> {
  await io.stderr(`lessons-reinject: ${message}\n\n${help}`);
  return EXIT_USAGE;
}

/** Prints `value` as indented JSON with a final newline. */
export async function printJson(io: CliIo, value: unknown): Promise<void> {
  await io.stdout(JSON.stringify(value, null, 2) + "\n");
}

export { groupDigits };
