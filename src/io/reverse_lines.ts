/** Reads a file's lines from its end, a bounded chunk at a time, however large the file is. */

/** Random access to bytes: a file, or a stand-in in tests. */
export interface ByteSource {
  /** Up to `length` bytes at `offset`; fewer only at the end of the source. */
  readAt(offset: number, length: number): Uint8Array;
}

/** One line without its `\n`, at byte offset `start`; an oversized line comes without bytes. */
interface BackwardLine {
  start: number;
  bytes: Uint8Array;
  oversized: boolean;
}

/** Defaults: 64 KiB chunks, 16 MiB lines; `maxBytes` stops before the line in progress. */
interface BackwardOptions {
  chunkSize?: number;
  maxLineBytes?: number;
  maxBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * Yields the non-empty lines of the first `size` bytes of `source`, last first, including a last
 * line without its newline (it may still be being written). Only the chunks needed are read.
 */
export function* readLinesBackward(
  source: ByteSource,
  size: number,
  options: BackwardOptions = {},
): Generator<BackwardLine> {
  const chunkSize = Math.max(1, options.chunkSize ?? 64 * 1024);
  const maxLineBytes = options.maxLineBytes ?? 16 * 1024 * 1024;
  const maxBytes = options.maxBytes ?? Infinity;
  // The line being assembled, pieces last first.
  let pieces: Uint8Array[] = [];
  let pending = 0;
  let oversized = false;
  const take = (piece: Uint8Array) => {
    if (oversized || piece.length === 0) return;
    if (pending + piece.length > maxLineBytes) {
      oversized = true;
      pieces = [];
      pending = 0;
    } else {
      pieces.push(piece);
      pending += piece.length;
    }
  };
  const finish = (start: number): BackwardLine => {
    const bytes = oversized ? new Uint8Array() : joinLastFirst(pieces, pending);
    const line = { start, bytes, oversized };
    pieces = [];
    pending = 0;
    oversized = false;
    return line;
  };
  for (let position = size; position > 0;) {
    if (size - position >= maxBytes) return;
    const from = Math.max(0, position - chunkSize);
    const chunk = source.readAt(from, position - from);
    let end = chunk.length;
    for (let i = chunk.lastIndexOf(NEWLINE); i >= 0; i = chunk.lastIndexOf(NEWLINE, i - 1)) {
      take(chunk.subarray(i + 1, end));
      if (pending > 0 || oversized) yield finish(from + i + 1);
      end = i;
      if (i === 0) break;
    }
    take(chunk.subarray(0, end));
    position = from;
  }
  if (pending > 0 || oversized) yield finish(0);
}

/** Pieces collected last-first, joined in file order. */
export function joinLastFirst(pieces: readonly Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1 && pieces[0]) return pieces[0];
  const out = new Uint8Array(length);
  let at = length;
  for (const piece of pieces) {
    at -= piece.length;
    out.set(piece, at);
  }
  return out;
}

export function fileSource(file: Deno.FsFile): ByteSource {
  return {
    readAt: (offset, length) => {
      file.seekSync(offset, Deno.SeekMode.Start);
      const buffer = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const n = file.readSync(buffer.subarray(filled));
        if (n === null) break;
        filled += n;
      }
      return filled === length ? buffer : buffer.subarray(0, filled);
    },
  };
}

/** A {@link ByteSource} that counts what it hands out and keeps nothing: for one pass back. */
export function countingSource(inner: ByteSource): ByteSource & { bytesRead: number } {
  const source = {
    bytesRead: 0,
    readAt: (offset: number, length: number) => {
      const bytes = inner.readAt(offset, length);
      source.bytesRead += bytes.length;
      return bytes;
    },
  };
  return source;
}

/** A {@link ByteSource} that counts what it hands out and reads each chunk from disk once. */
export function cachedSource(inner: ByteSource): ByteSource & { bytesRead: number } {
  const chunks = new Map<string, Uint8Array>();
  const source = {
    bytesRead: 0,
    readAt: (offset: number, length: number) => {
      const key = `${offset}:${length}`;
      let bytes = chunks.get(key);
      if (bytes === undefined) {
        bytes = inner.readAt(offset, length);
        source.bytesRead += bytes.length;
        chunks.set(key, bytes);
      }
      return bytes;
    },
  };
  return source;
}
