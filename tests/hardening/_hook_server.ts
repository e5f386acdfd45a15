/**
 * A long-lived hook process for the concurrency rounds: it imports the hook (src/hook.ts) once
 * and runs it for every command line on stdin, so 50 separate OS processes can contend for the
 * same lock 200 times without paying Deno's start-up 10,000 times. Run with the binary's
 * permissions only. One JSON command per line in, one JSON result per line out.
 */
import { runHook } from "../../src/hook.ts";
import { resolveSettings } from "../../src/settings/resolve.ts";

/** What the harness asks for. */
export interface ServerCommand {
  id: number;
  /** The hook's stdin. */
  stdin: string;
  /** The hook's environment (nothing else is visible to it). */
  env: Record<string, string>;
  /** Wall-clock instant (ms since the epoch) to start at, so all processes start together. */
  startAt?: number;
  /** Appended to a file just before the hook runs (a compaction marker written by Claude Code). */
  append?: { path: string; text: string };
}

/** What one run produced. */
export interface ServerResult {
  id: number;
  stdout: string | undefined;
  stderr: string[];
  /** Set when runHook threw (it must not). */
  threw?: string;
}

/** The lines of a stream, as they arrive. */
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
}

async function serve(): Promise<void> {
  for await (const line of lines(Deno.stdin.readable)) {
    if (line.trim() === "") continue;
    const result = await execute(JSON.parse(line));
    await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(result) + "\n"));
  }
}

async function execute(command: ServerCommand): Promise<ServerResult> {
  if (command.startAt !== undefined) {
    const wait = command.startAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  if (command.append) {
    await Deno.writeTextFile(command.append.path, command.append.text, { append: true });
  }
  try {
    const outcome = await runHook(command.stdin, resolveSettings((name) => command.env[name]));
    return { id: command.id, stdout: outcome.stdout, stderr: outcome.stderr };
  } catch (error) {
    return { id: command.id, stdout: undefined, stderr: [], threw: String(error) };
  }
}

if (import.meta.main) await serve();
