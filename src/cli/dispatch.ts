/**
 * Subcommands of the executable (the hook itself is the no-argument case in main.ts), a router:
 * answers `--version` and `--help`, resolves the settings and the user's folder once, runs the
 * command. How the program was started is described in program.ts.
 */
import denoJson from "../../deno.json" with { type: "json" };
import { statOf } from "../io/files.ts";
import { loadCliSettings } from "../settings/load.ts";
import { type Ctx, EXIT_OK, helpText, out, printJson, usageError, widthOf } from "./common.ts";
import { type Program, programOf } from "./program.ts";

/** The version in deno.json, embedded in the binary. */
const VERSION: string = denoJson.version;

const MAIN_HELP = `lessons-reinject ${VERSION}

A Claude Code hook that restates your standing rules as the context window fills (at 30, 52 and
70 % by default, and after each compaction), so they are not forgotten in long sessions: the
lessons-learned plugin's directives and protocols, and the lines of CLAUDE.md you mark between
<!-- reinject --> and <!-- /reinject --> (or a .claude/reinject.md file, restated whole).

Usage:
  lessons-reinject                 run as the hook: a hook payload on stdin, the answer on stdout
  lessons-reinject <command> [options]

Commands:
  status      what the hook sees for a session now: gauge, tokens, window, what fired, what next;
              with --timeline, the whole session call by call (--svg FILE: also as an SVG)
  preview     the exact text the next refresh would inject, and its size against the budget
  demo        replay a bundled session through the hook: three refreshes at 30, 52, 70 %
  doctor      check the installation; each problem with its fix (exit 1 when there is one)
  statusline  bridge for Claude Code's statusLine: record its context reading, print a gauge
  why         why no refresh came: the hook's answer for its next call, and what it recorded

Options:
  -h, --help       this help (\`lessons-reinject <command> --help\` explains one command)
  -V, --version    print the version
  --json           (with --version, or any command) machine-readable output
  --project DIR    (status, preview, doctor, why) the project folder to look at; default:
                   the folder you run it from

Configuration: environment variables, then a JSONC file (lessons-reinject.jsonc in
$CLAUDE_PLUGIN_DATA, or ~/.config/lessons-reinject/config.jsonc; LESSONS_CONFIG names another),
then defaults. Every setting: docs/configuration.md.
`;

type Command = (args: string[], ctx: Ctx) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  status: async () => (await import("./status.ts")).runStatus,
  preview: async () => (await import("./preview.ts")).runPreview,
  demo: async () => (await import("./demo.ts")).runDemo,
  doctor: async () => (await import("./doctor.ts")).runDoctor,
  statusline: async () => (await import("./statusline.ts")).runStatusline,
  why: async () => (await import("./why.ts")).runWhy,
};

/** Runs the command line `args` (non-empty) and returns the exit code. */
export async function runCli(args: string[]): Promise<number> {
  const [first = "", ...rest] = args;
  if (first === "--version" || first === "-V") {
    if (rest.includes("--json")) await printJson({ name: "lessons-reinject", version: VERSION });
    else await out(`lessons-reinject ${VERSION}\n`);
    return EXIT_OK;
  }
  if (first === "help" && rest[0] !== undefined && rest[0] in COMMANDS) {
    return await runCli([rest[0], "--help"]);
  }
  if (first === "--help" || first === "-h" || first === "help") {
    await out(helpText(MAIN_HELP, Deno.stdout));
    return EXIT_OK;
  }
  const load = COMMANDS[first];
  if (!load) return await usageError(`unknown command "${first}"`, MAIN_HELP);
  const env = (name: string) => Deno.env.get(name);
  let program: Program | undefined;
  const programNow = () => program ??= thisProgram(env("INIT_CWD"));
  // The installed plugin's config file, as its hooks read it: found from where this runs.
  const [command, settings] = await Promise.all([
    load(),
    loadCliSettings(env, { root: programNow().root }),
  ]);
  const terminal = Deno.stdout.isTerminal();
  return await command(rest, {
    settings,
    program: programNow,
    width: widthOf(terminal ? Deno.consoleSize().columns : undefined, settings.columns),
    color: terminal && !settings.noColor,
  });
}

/** {@link programOf} for this process; `initCwd` is `INIT_CWD`, read at the edge. */
export function thisProgram(initCwd: string | undefined): Program {
  return programOf({
    standalone: Deno.build.standalone,
    execPath: Deno.execPath(),
    mainModule: Deno.mainModule,
    cwd: Deno.cwd(),
    initCwd,
    exists: (path) => statOf(path) !== undefined,
  });
}
