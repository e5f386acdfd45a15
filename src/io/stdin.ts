/** Reads the hook payload from stdin, refusing more than a fixed number of bytes. */
import { messageOf } from "../core/errors.ts";

/** Claude Code payloads are kilobytes; a tool response can be large, but not this large. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** Something to read bytes from: `Deno.stdin`, or a stand-in in tests. */
export interface ByteReader {
  read(buffer: Uint8Array): Promise<number | null>;
}

/** stdin cannot be read at all (a directory given as stdin, a closed descriptor). */
export class StdinError extends Error {
  override name = "StdinError";
}

function unreadable(error: unknown): StdinError {
  if (error instanceof Deno.errors.IsADirectory) {
    return new StdinError("stdin is a directory, not a hook payload");
  }
  return new StdinError(`cannot read stdin: ${messageOf(error)}`);
}

/**
 * All of stdin as text, or undefined when it exceeds `maxBytes`. Past the cap the rest is still
 * read and dropped, so the writer (Claude Code) never meets a closed pipe.
 * The default reads `Deno.stdin` directly: its `readable` stream loads Deno's web-streams code,
 * a measurable part of a short-lived hook's start-up (see docs/maintainers/benchmarks.md).
 * Throws a {@link StdinError} with a plain reason when stdin cannot be read.
 */
export async function readStdinCapped(
  source: ReadableStream<Uint8Array> | ByteReader = Deno.stdin,
  maxBytes = MAX_STDIN_BYTES,
): Promise<string | undefined> {
  try {
    return await readAll(source, maxBytes);
  } catch (error) {
    throw unreadable(error);
  }
}

async function readAll(
  source: ReadableStream<Uint8Array> | ByteReader,
  maxBytes: number,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if ("getReader" in source) {
    const reader = source.getReader();
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.length;
        if (total > maxBytes) return undefined;
        chunks.push(value);
      }
    } finally {
      reader.releaseLock();
    }
  } else {
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
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}
