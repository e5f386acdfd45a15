/** What the io tests share: a file held in memory, and a folder of files. */
import { join } from "node:path";
import type { ByteSource } from "../../../src/io/reverse_lines.ts";
import { sandbox } from "../../_helpers.ts";

/** `lines` as a JSONL file's text: values as JSON, strings (lines cut from a file) as they are. */
export const jsonl = (lines: unknown[]): string =>
  lines.map((l) => typeof l === "string" ? l : JSON.stringify(l)).join("\n") + "\n";

/** A file held in memory: `text`, or `lines` as {@link jsonl} writes them. */
export function memory(text: string | unknown[]): { source: ByteSource; size: number } {
  const bytes = new TextEncoder().encode(typeof text === "string" ? text : jsonl(text));
  return { source: { readAt: (o, l) => bytes.slice(o, o + l) }, size: bytes.length };
}

/** `dir` (default: a fresh sandbox) holding `files`, path under it to text, folders made. */
export function folderWith(files: Record<string, string>, dir = sandbox().dir): string {
  for (const [name, text] of Object.entries(files)) {
    Deno.mkdirSync(join(dir, name, ".."), { recursive: true });
    Deno.writeTextFileSync(join(dir, name), text);
  }
  return dir;
}
