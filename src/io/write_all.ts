/** Writes to stdout or stderr without Deno's web streams (loading them costs start-up time). */

/** Writes all of `text`, however many `write()` calls that takes. */
export async function writeAll(
  target: { write(bytes: Uint8Array): Promise<number> },
  text: string,
): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length;) at += await target.write(bytes.subarray(at));
}
