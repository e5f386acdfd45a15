/**
 * lessons-reinject: with no arguments, a Claude Code hook (payload on stdin, answer on stdout);
 * with a command, the tools around it. Nothing escapes: the hook always exits 0.
 */
import { runHook } from "./hook.ts";
import { readStdinCapped, StdinError } from "./io/stdin.ts";
import { loadSettings } from "./settings/load.ts";
import { writeAll } from "./io/write_all.ts";
import { messageOf, writeReason } from "./core/errors.ts";

/** Commands load only with arguments: a hook call loads only the hook (scripts/bundle.ts). */
async function commands(): Promise<typeof import("./cli/dispatch.ts")> {
  const bundled = import.meta.url.endsWith(".js");
  const module = bundled ? "lessons-reinject-cli.js" : "cli/dispatch.ts";
  return await import(new URL(module, import.meta.url).href);
}

async function hookMain(): Promise<void> {
  try {
    if (Deno.stdin.isTerminal()) {
      // Run by hand: say what this is instead of waiting for end of input.
      const { command } = (await commands()).thisProgram(Deno.env.get("INIT_CWD"));
      await writeAll(
        Deno.stderr,
        "lessons-reinject: a Claude Code hook; it reads a hook payload on stdin. " +
          `Try \`${command} --help\` or \`${command} demo\`.\n`,
      );
      return;
    }
    const stdin = await readStdinCapped();
    const settings = await loadSettings((name) => Deno.env.get(name));
    const outcome = await runHook(stdin, settings);
    if (outcome.stderr.length > 0) await writeAll(Deno.stderr, outcome.stderr.join("\n") + "\n");
    if (outcome.stdout !== undefined) await writeAll(Deno.stdout, outcome.stdout);
  } catch (error) {
    // The one catch-all: report, never disturb the session.
    const line = error instanceof StdinError
      ? `${error.message}; nothing to do`
      : `internal error: ${error}`;
    try {
      await writeAll(Deno.stderr, `lessons-reinject: ${line}\n`);
    } catch {
      // stderr closed: nothing left to tell.
    }
  }
}

/**
 * A command's own catch-all: whatever escapes it (a package Deno cannot load, stdout closed, a
 * failure no command foresaw) is one line naming the command, never Deno's stack trace; exit 1.
 */
async function cliMain(args: string[]): Promise<number> {
  try {
    return await (await commands()).runCli(args);
  } catch (error) {
    const what = error instanceof Deno.errors.BrokenPipe
      ? `cannot write to stdout: ${writeReason(error)}`
      : messageOf(error);
    try {
      await writeAll(Deno.stderr, `lessons-reinject: ${args[0]}: ${what}\n`);
    } catch {
      // stderr closed too: the exit code says it.
    }
    return 1;
  }
}

/**
 * The program: with no arguments the hook, which exits 0; else the command `args`, which keeps its
 * status. Exported for hooks/source_bundle.js, which imports the source's bundle and runs it.
 */
export async function main(args: readonly string[]): Promise<never> {
  if (args.length === 0) {
    await hookMain();
    Deno.exit(0);
  }
  Deno.exit(await cliMain([...args]));
}

if (import.meta.main) await main(Deno.args);
