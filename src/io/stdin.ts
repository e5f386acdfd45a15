/** Reads the hook payload from stdin, refusing more than a fixed number of bytes. */
import { messageOf } from "../core/errors.ts";

/** Payloads are kilobytes; a tool response can be large, but not this large. */
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

export interface ByteReader {
  read(buffer: Uint8Array): Promise<number | null>;
}

/** stdin cannot be read at all (a directory given as stdin, a closed descriptor). */
export class StdinError extends Error {
  override name = "StdinError";
}

/**
 * All of stdin as text, or undefined past `maxBytes` (the rest is drained: Claude Code never meets
 * a closed pipe). Read directly: `Deno.stdin.readable` would load Deno's web streams, a measurable
 * part of a hook's start-up (docs/maintainers/benchmarks.md). Throws a {@link StdinError}.
 */
export async function readStdinCapped(
  source: ByteReader = Deno.stdin,
  maxBytes = MAX_STDIN_BYTES,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const buffer = new Uint8Array(64 * 1024);
      const n = await source.read(buffer);
      if (n === null) break;
      total += n;
      if (total > maxBytes) {
        while (await source.read(buffer) !== null) {
          // Drain and drop.
        }
        return undefined;
      }
      chunks.push(buffer.subarray(0, n));
    }
  } catch (error) {
    throw new StdinError(
      error instanceof Deno.errors.IsADirectory
        ? "stdin is a directory, not a hook payload"
        : `cannot read stdin: ${messageOf(error)}`,
    );
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}
