/**
 * Turns a Claude Code transcript into its skeleton: every entry, type, usage figure, model,
 * version, id, timestamp and marker kept, every free-text string replaced by filler, every line
 * exactly as many bytes long as before. Pure; scripts/skeleton.ts runs it on files.
 */

/** A string is kept whole when its key is one of these, and it reads like a token (below). */
const STRUCTURE_KEYS: ReadonlySet<string> = new Set([
  "type",
  "subtype",
  "role",
  "model",
  "version",
  "timestamp",
  "stop_reason",
  "service_tier",
  "speed",
  "inference_geo",
  "userType",
  "entrypoint",
  "level",
  "trigger",
  "operation",
  "media_type",
  "hookEvent",
  "hookName",
  "hookEventName",
  "permissionMode",
  "mode",
  "kind",
  "effort",
  "commandMode",
  "promptSource",
  // Codex rollouts: what kind of content a message holds (a hook's answer), the window's role.
  "content_item_kinds",
  "cli_version",
]);

/** Ids: `id`, `uuid`, `sessionId`, `tool_use_id`, `toolUseID`, `leafUuid`, `uuids`, ... */
const ID_KEY = /^(?:id|uuid|uuids)$|(?:Id|ID|_id|Uuid|UUID|Uuids)$/;

/** What an id, a model, a version, a timestamp or an enum looks like: no spaces, no escapes. */
const TOKEN = /^[\w.:/<>@+\[\]-]{0,128}$/;

/** A key kept as it is: a field name, not data (a file path, a question, a header value). */
const FIELD_NAME = /^[A-Za-z_$][\w$-]{0,63}$/;

/** Objects whose keys are data (file paths, the questions a user answered): keys are filled. */
const DATA_KEYED: ReadonlySet<string> = new Set(["trackedFileBackups", "answers"]);

/** Blocks whose `name` is a tool's name (structure, read by the replay oracle). */
const TOOL_BLOCKS: ReadonlySet<string> = new Set([
  "tool_use",
  "server_tool_use",
  "mcp_tool_use",
  "function_call", // a Codex rollout's
]);

/**
 * Text the hook reads inside free text, kept where it stands: the header of a refresh this hook
 * injected (at a string's start) and a `Token usage: X/Y` warning (anywhere in the line).
 */
const REFRESH_HEADER = /^\[lessons-reinject refresh [0-9a-z,:= ]{1,80}\]/;
const TOKEN_WARNING = /<system_warning>Token usage: \d+\/\d+/g;

type Path = (string | number)[];

/** True when the string value at `path` (inside `parent`) is structure, kept whole. */
function keepsValue(path: Path, parent: unknown, raw: string): boolean {
  if (!TOKEN.test(raw)) return false;
  let key: string | undefined;
  for (let i = path.length - 1; i >= 0; i--) {
    const part = path[i];
    if (typeof part === "string") {
      key = part;
      break;
    }
  }
  if (key === undefined) return false;
  if (STRUCTURE_KEYS.has(key) || ID_KEY.test(key)) return true;
  if (key !== "name" || typeof path.at(-1) !== "string") return false;
  // A tool's name: in a tool_use block, or an OpenAI-style `function` a gateway wrote.
  const type = isRecord(parent) ? parent.type : undefined;
  return (typeof type === "string" && TOOL_BLOCKS.has(type)) || path.at(-2) === "function";
}

/** True when a key of the object at `path` is a field name, kept. */
function keepsKey(path: Path, raw: string): boolean {
  const owner = path.at(-1);
  return FIELD_NAME.test(raw) && !(typeof owner === "string" && DATA_KEYED.has(owner));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;

/** `length` bytes of filler. */
function filler(length: number): string {
  return "x".repeat(length);
}

/** Filler for a raw string body, keeping the markers the hook reads from free text. */
function fillBody(raw: string): string {
  const kept: { start: number; end: number }[] = [];
  const header = REFRESH_HEADER.exec(raw);
  if (header) kept.push({ start: 0, end: header[0].length });
  for (const match of raw.matchAll(TOKEN_WARNING)) {
    if (match.index >= (kept.at(-1)?.end ?? 0)) {
      kept.push({ start: match.index, end: match.index + match[0].length });
    }
  }
  let out = "";
  let at = 0;
  for (const span of kept) {
    out += filler(bytesOf(raw.slice(at, span.start))) + raw.slice(span.start, span.end);
    at = span.end;
  }
  return out + filler(bytesOf(raw.slice(at)));
}

/**
 * A key's filler: as many bytes as the key, and different from every other key of its object
 * (two equal keys would make the skeleton's object lose one). `n` numbers the filled keys.
 */
function keyFiller(length: number, n: number): string {
  const code = n.toString(26).split("").map((d) => String.fromCharCode(97 + parseInt(d, 26)))
    .join("");
  if (code.length > length) {
    throw new Error(`cannot fill key ${n} of ${length} bytes uniquely`);
  }
  return filler(length - code.length) + code;
}

interface Frame {
  kind: "object" | "array";
  /** The object's current key, or the array's current index. */
  at: string | number;
  expectKey: boolean;
  filledKeys: number;
}

/** The value at `path` in `root`, or undefined. */
function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const part of path) {
    if (typeof part === "number") value = Array.isArray(value) ? value[part] : undefined;
    else value = isRecord(value) ? value[part] : undefined;
  }
  return value;
}

/**
 * The skeleton of one JSON line (no newline). Throws when the line is not JSON: its structure
 * cannot be told from its text, so nothing of it could be kept safely.
 */
export function skeletonLine(line: string): string {
  if (line.trim() === "") return line;
  const root: unknown = JSON.parse(line);
  const stack: Frame[] = [];
  const path = (): Path => stack.map((f) => f.at);
  let out = "";
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c !== '"') {
      const top = stack.at(-1);
      if (c === "{" || c === "[") {
        const object = c === "{";
        stack.push({
          kind: object ? "object" : "array",
          at: object ? "" : 0,
          expectKey: object,
          filledKeys: 0,
        });
      } else if (c === "}" || c === "]") stack.pop();
      else if (c === "," && top) {
        if (top.kind === "object") top.expectKey = true;
        else top.at = (top.at as number) + 1;
      } else if (c === ":" && top) top.expectKey = false;
      out += c;
      i++;
      continue;
    }
    // A string: find its closing quote, stepping over escapes.
    let end = i + 1;
    while (line[end] !== '"') end += line[end] === "\\" ? 2 : 1;
    const raw = line.slice(i + 1, end);
    const top = stack.at(-1);
    if (top?.kind === "object" && top.expectKey) {
      const name = JSON.parse(`"${raw}"`) as string;
      const keep = keepsKey(path().slice(0, -1), raw);
      top.at = name;
      out += `"${keep ? raw : keyFiller(bytesOf(raw), top.filledKeys++)}"`;
    } else {
      const where = path();
      const keep = keepsValue(where, valueAt(root, where.slice(0, -1)), raw);
      out += `"${keep ? raw : fillBody(raw)}"`;
    }
    i = end + 1;
  }
  return out;
}

/**
 * A line's shape, names and text left out: objects as the sorted shapes of their values, arrays
 * in order, numbers, booleans and null as written. An original and its skeleton have the same.
 */
export function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shapeOf).join(",")}]`;
  if (isRecord(value)) return `{${Object.values(value).map(shapeOf).sort().join(",")}}`;
  return typeof value === "string" ? "s" : JSON.stringify(value);
}

/**
 * The skeleton of a whole transcript, line by line. Throws on bytes that are not UTF-8: a
 * replacement character would change the line's length.
 */
export function skeletonOf(bytes: Uint8Array): Uint8Array {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const lines = text.split("\n");
  const out = lines.map((line, n) => {
    let skeleton: string;
    try {
      skeleton = skeletonLine(line);
    } catch (error) {
      throw new Error(`line ${n + 1}: ${error instanceof Error ? error.message : error}`);
    }
    if (bytesOf(skeleton) !== bytesOf(line)) throw new Error(`line ${n + 1}: length changed`);
    if (line.trim() !== "" && shapeOf(JSON.parse(skeleton)) !== shapeOf(JSON.parse(line))) {
      throw new Error(`line ${n + 1}: shape changed`);
    }
    return skeleton;
  }).join("\n");
  const result = encoder.encode(out);
  if (result.length !== bytes.length) {
    throw new Error(`skeleton is ${result.length} bytes, the original ${bytes.length}`);
  }
  return result;
}
