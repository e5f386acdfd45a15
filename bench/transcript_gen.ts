/**
 * Builds large transcripts for the benchmark by repeating a real one: every repetition gets
 * fresh uuids, message ids and tool ids, and the file ends with the assistant entry holding the
 * benchmark's tool call, so the hook finds this call's usage without waiting.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Ids Claude Code and the API mint: tool_use ids, message ids, request ids. */
const IDS = /\b(?:toolu|msg|req|call)_[A-Za-z0-9_]+/g;

/** A template split once into literal text and the ids to replace in each repetition. */
interface Template {
  literals: string[];
  ids: string[];
}

function compile(text: string, keep: ReadonlySet<string>): Template {
  const literals: string[] = [];
  const ids: string[] = [];
  const pattern = new RegExp(`${UUID.source}|${IDS.source}`, "g");
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (keep.has(match[0])) continue;
    literals.push(text.slice(last, match.index));
    ids.push(match[0]);
    last = match.index + match[0].length;
  }
  literals.push(text.slice(last));
  return { literals, ids };
}

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function freshLike(id: string): string {
  if (id.includes("-") && !id.includes("_")) return crypto.randomUUID();
  const prefix = id.slice(0, id.indexOf("_") + 1);
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return prefix + "01" + Array.from(bytes, (b) => BASE62[b % 62]).join("");
}

/** One repetition of the template with fresh ids (the same id maps to the same fresh one). */
function instantiate(template: Template): string {
  const fresh = new Map<string, string>();
  let out = template.literals[0] ?? "";
  for (let i = 0; i < template.ids.length; i++) {
    const id = template.ids[i] ?? "";
    let replacement = fresh.get(id);
    if (replacement === undefined) {
      replacement = freshLike(id);
      fresh.set(id, replacement);
    }
    out += replacement + (template.literals[i + 1] ?? "");
  }
  return out;
}

export interface GenerateOptions {
  /** The real transcript whose lines are repeated. */
  sourcePath: string;
  /** Where to write. */
  outPath: string;
  /** Size to reach, in bytes (the file ends up at most one repetition larger). */
  targetBytes: number;
  /** The last line: the assistant entry holding the benchmark's tool call. */
  lastLine: string;
}

/** Writes the transcript; returns its size in bytes and line count. */
export async function generateTranscript(
  options: GenerateOptions,
): Promise<{ bytes: number; lines: number }> {
  const text = await Deno.readTextFile(options.sourcePath);
  const body = text.endsWith("\n") ? text : `${text}\n`;
  const sessionIds = new Set<string>();
  for (const line of body.split("\n")) {
    const match = /"sessionId":"([^"]+)"/.exec(line);
    if (match?.[1]) sessionIds.add(match[1]);
  }
  const template = compile(body, sessionIds);
  const linesPerCopy = body.split("\n").length - 1;
  const copyBytes = new TextEncoder().encode(body).length;
  const last = new TextEncoder().encode(`${options.lastLine}\n`);
  const encoder = new TextEncoder();
  const file = await Deno.open(options.outPath, { write: true, create: true, truncate: true });
  let bytes = 0;
  let lines = 0;
  try {
    let batch: string[] = [];
    let batchChars = 0;
    const flush = async () => {
      const encoded = encoder.encode(batch.join(""));
      for (let at = 0; at < encoded.length;) at += await file.write(encoded.subarray(at));
      bytes += encoded.length;
      batch = [];
      batchChars = 0;
    };
    // Stop at the repetition count that lands closest to the target.
    while (bytes + batchChars + last.length + copyBytes / 2 < options.targetBytes) {
      const copy = instantiate(template);
      batch.push(copy);
      // Char count approximates bytes (the text is almost all ASCII); flush settles it exactly.
      batchChars += copy.length;
      lines += linesPerCopy;
      if (batchChars >= 8 * 1024 * 1024) await flush();
    }
    if (batch.length > 0) await flush();
    for (let at = 0; at < last.length;) at += await file.write(last.subarray(at));
    bytes += last.length;
    lines += 1;
  } finally {
    file.close();
  }
  return { bytes, lines };
}
