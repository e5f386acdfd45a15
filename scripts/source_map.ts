/**
 * Which source file a byte of a bundle came from, read from the bundle's version 3 source map
 * (`deno bundle --sourcemap external`): enough to tell the hook's code from the commands'.
 */

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The fields of a source map this reader uses. */
export interface SourceMap {
  sources: string[];
  mappings: string;
}

/** One mapped span's start: its generated column and the index of its source. */
interface Segment {
  column: number;
  source: number;
}

/** Decodes one line's segments (base64 VLQ, fields relative to the previous segment). */
function decodeLine(line: string, state: { source: number }): Segment[] {
  const segments: Segment[] = [];
  let column = 0;
  for (const text of line.split(",")) {
    if (text === "") continue;
    const fields: number[] = [];
    let value = 0;
    let shift = 0;
    for (const char of text) {
      const digit = BASE64.indexOf(char);
      if (digit < 0) throw new SyntaxError(`Cannot decode source map segment "${text}"`);
      value += (digit & 31) << shift;
      if (digit & 32) {
        shift += 5;
        continue;
      }
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
    column += fields[0] ?? 0;
    if (fields.length >= 4) {
      state.source += fields[1] ?? 0;
      segments.push({ column, source: state.source });
    }
  }
  return segments;
}

/**
 * A lookup from a UTF-16 offset in `code` to the source that generated it (as named in the
 * map), or undefined where the map says nothing.
 *
 * @example
 * ```ts
 * const sourceOf = sourceLookup(code, JSON.parse(mapText));
 * sourceOf(code.indexOf("function")); // "../src/hook.ts"
 * ```
 */
export function sourceLookup(code: string, map: SourceMap): (offset: number) => string | undefined {
  const state = { source: 0 };
  const lines = map.mappings.split(";").map((line) => decodeLine(line, state));
  const lineStarts = [0];
  for (let i = code.indexOf("\n"); i >= 0; i = code.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  return (offset) => {
    let line = lineStarts.length - 1;
    while (line > 0 && (lineStarts[line] ?? 0) > offset) line--;
    const column = offset - (lineStarts[line] ?? 0);
    let found: Segment | undefined;
    for (const segment of lines[line] ?? []) {
      if (segment.column > column) break;
      found = segment;
    }
    return found === undefined ? undefined : map.sources[found.source];
  };
}
