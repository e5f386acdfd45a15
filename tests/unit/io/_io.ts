/** What the io tests share: a file held in memory, and a folder of files. */
import { join } from "node:path";
import type { ViewQuery } from "../../../src/core/view.ts";
import { type ByteSource, cachedSource } from "../../../src/io/reverse_lines.ts";
import { viewOf, withTranscript } from "../../../src/io/transcript.ts";
import { sandbox } from "../../_helpers.ts";

/** `lines` as a JSONL file's text: values as JSON, strings (lines cut from a file) as they are. */
export const jsonl = (lines: unknown[]): string =>
  lines.map((l) => typeof l === "string" ? l : JSON.stringify(l)).join("\n") + "\n";

/**
 * A file held in memory: `text`, its bytes, or `lines` as {@link jsonl} writes them. Its source
 * counts the reads made of it, and the bytes they asked for.
 */
export function memory(text: string | Uint8Array | unknown[]) {
  const bytes = text instanceof Uint8Array
    ? text
    : new TextEncoder().encode(typeof text === "string" ? text : jsonl(text));
  const source: ByteSource & { reads: number; asked: number } = {
    reads: 0,
    asked: 0,
    readAt(offset, length) {
      source.reads++;
      source.asked += length;
      return bytes.slice(offset, offset + length);
    },
  };
  return { source, size: bytes.length };
}

/**
 * The file at `path` read as the hook reads it (withTranscript opens it): its view (of a main
 * transcript unless `query` says otherwise) and the bytes the reader handed out. Throws when the
 * file cannot be read.
 */
export function viewOfFile(path: string, query: Partial<ViewQuery> = {}) {
  const read = withTranscript(path, (source, size) => {
    const counted = cachedSource(source);
    const view = viewOf(counted, size, { sidechainFile: false, ...query });
    return { view, bytes: counted.bytesRead };
  });
  if ("error" in read) throw new Error(read.error);
  return read;
}

/** `dir` (default: a fresh sandbox) holding `files`, path under it to text, folders made. */
export function folderWith(files: Record<string, string>, dir = sandbox().dir): string {
  for (const [name, text] of Object.entries(files)) {
    Deno.mkdirSync(join(dir, name, ".."), { recursive: true });
    Deno.writeTextFileSync(join(dir, name), text);
  }
  return dir;
}
