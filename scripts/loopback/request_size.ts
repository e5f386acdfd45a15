/**
 * How big a Messages API request is, in bytes and in tokens at the rate real transcripts show
 * (`TOKENS_PER_BYTE`, src/core/claude_code.ts): what the loopback stand-in reports as usage when
 * a script asks it to derive usage from the request, and what the unseen-growth measurement and
 * the e2e suite's "every step is backed" check compare.
 */
import { TOKENS_PER_BYTE } from "../../src/core/claude_code.ts";

type Json = Record<string, unknown>;

/**
 * Tokens of an image block: the Messages API bills an image by its pixels, about
 * width × height / 750 after scaling it to at most 1,568 pixels on the long side and 1.15
 * megapixels (Anthropic's vision documentation), whatever its bytes. Unknown formats count as
 * the largest image.
 */
export function imageTokens(block: Json): number {
  const source = block.source as Json | undefined;
  const data = typeof source?.data === "string" ? source.data : "";
  const size = imageSize(data);
  if (!size) return LARGEST_IMAGE_TOKENS;
  let { width, height } = size;
  const long = Math.max(width, height);
  if (long > 1568) [width, height] = [width * 1568 / long, height * 1568 / long];
  const pixels = width * height;
  const scale = pixels > 1_150_000 ? 1_150_000 / pixels : 1;
  return Math.ceil((pixels * scale) / 750);
}

/** 1.15 megapixels / 750. */
export const LARGEST_IMAGE_TOKENS = Math.ceil(1_150_000 / 750);

/** Width and height from the header of a base64 PNG or JPEG. */
export function imageSize(base64: string): { width: number; height: number } | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(base64.slice(0, 64 * 1024 * 4 / 3 & ~3)), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  const view = new DataView(bytes.buffer);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let i = 2; i + 9 < bytes.length;) {
      if (bytes[i] !== 0xff) return undefined;
      const marker = bytes[i + 1]!;
      const length = view.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}

/** Tool names a request's messages load with `tool_reference` blocks (tool search). */
function referencedTools(messages: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) {
      const v = value as Json;
      if (v.type === "tool_reference" && typeof v.tool_name === "string") found.add(v.tool_name);
      for (const child of Object.values(v)) walk(child);
    }
  };
  walk(messages);
  return found;
}

/** A request's parts as the model reads them: no cache markers, images apart. */
export interface RequestParts {
  /** JSON of the system prompt. */
  system: string;
  /** JSON of each tool the model sees: deferred tools only once a message references them. */
  tools: Map<string, string>;
  /** JSON of each message, image data left out. */
  messages: string[];
  /** Tokens of the images, by {@link imageTokens}. */
  imageTokens: number;
}

/** Splits a request body into what counts toward its context. */
export function requestParts(body: Json): RequestParts {
  let images = 0;
  const strip = (_key: string, value: unknown) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const v = value as Json;
      if (v.type === "image") {
        images += imageTokens(v);
        return { type: "image" };
      }
      if ("cache_control" in v) {
        const { cache_control: _, ...rest } = v;
        return rest;
      }
    }
    return value;
  };
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const loaded = referencedTools(messages);
  const tools = new Map<string, string>();
  for (const tool of Array.isArray(body.tools) ? body.tools as Json[] : []) {
    const name = String(tool.name);
    if (tool.defer_loading === true && !loaded.has(name)) continue;
    const { defer_loading: _, ...rest } = tool;
    tools.set(name, JSON.stringify(rest, strip));
  }
  return {
    system: JSON.stringify(body.system ?? "", strip),
    tools,
    messages: messages.map((m) => JSON.stringify(m, strip)),
    imageTokens: images,
  };
}

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;

/** Bytes of a request that count toward its context (images excluded: see `imageTokens`). */
export function requestBytes(parts: RequestParts): number {
  let total = bytesOf(parts.system);
  for (const tool of parts.tools.values()) total += bytesOf(tool);
  for (const message of parts.messages) total += bytesOf(message);
  return total;
}

/** A request's context in tokens at the measured rate: its bytes, plus its images. */
export function requestTokens(body: Json): number {
  const parts = requestParts(body);
  return Math.round(requestBytes(parts) * TOKENS_PER_BYTE) + parts.imageTokens;
}

/** Bytes to write so that they carry `tokens` at the measured rate. */
export function bytesForTokens(tokens: number): number {
  return Math.ceil(tokens / TOKENS_PER_BYTE);
}
