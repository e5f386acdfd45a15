/** Reads the hook payload from stdin, refusing more than a fixed number of bytes. */

/** Claude Code payloads are kilobytes; a tool response can be large, but not this large. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/**
 * All of stdin as text, or undefined when it exceeds `maxBytes` (the rest is left unread).
 */
export async function readStdinCapped(
  stream: ReadableStream<Uint8Array> = Deno.stdin.readable,
  maxBytes = MAX_STDIN_BYTES,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
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
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}
