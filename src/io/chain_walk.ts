/** A tool call's chain of entries, walked back from its own entry to the nearest known tip. */
import type { ChainFacts } from "../core/chains.ts";
import { chainLinkOf, parseLine } from "../core/transcript_entry.ts";
import { type ByteSource, readLinesBackward } from "./reverse_lines.ts";

/** Read at most this much before the call's entry (a tip is usually a few kilobytes back). */
const WALK_MAX_BYTES = 8 * 1024 * 1024;
const decoder = new TextDecoder();

type Link = NonNullable<ReturnType<typeof chainLinkOf>>;

/**
 * Follows `parentUuid` from `link` (the call's entry, at `at`) to an entry or response in `tips`;
 * stops at a compaction marker, a chain's start (`started`: no tip is on this chain) or the cap.
 * Only lines naming the uuid sought are parsed; read back from `size`, in the reading's own chunks
 * (a cached source serves them again).
 */
export function chainFrom(
  source: ByteSource,
  size: number,
  at: number,
  link: Link,
  tips: ReadonlySet<string>,
): ChainFacts {
  const met = (l: Link) => [l.uuid, l.message].find((id) => id !== undefined && tips.has(id));
  let [found, wanted, turned] = [tips.size > 0 ? met(link) : undefined, link.parent, false];
  for (const line of readLinesBackward(source, size, { maxBytes: size - at + WALK_MAX_BYTES })) {
    if (found !== undefined || wanted === undefined || tips.size === 0) break;
    if (line.start >= at || line.oversized) continue;
    if (!decoder.decode(line.bytes).includes(`"uuid":"${wanted}"`)) continue;
    const parent = chainLinkOf(parseLine(line.bytes));
    if (parent?.uuid !== wanted) continue;
    if (parent.marker) break;
    [found, wanted, turned] = [met(parent), parent.parent, turned || parent.turn];
  }
  const facts = { entry: link.uuid, message: link.message };
  if (found !== undefined) return { ...facts, met: found, turned };
  // The chain's first entry reached with no tip on the way: a chain that never got a refresh.
  return wanted === undefined && tips.size > 0 ? { ...facts, started: true } : facts;
}
