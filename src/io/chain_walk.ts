/** A tool call's chain of entries walked back from its own entry to the nearest known tip. */
import type { ChainFacts } from "../core/chains.ts";
import { chainLinkOf, parseLine } from "../core/transcript_entry.ts";
import { type ByteSource, readLinesBackward } from "./reverse_lines.ts";

/** The walk reads at most this much before the call's entry (a tip is usually a few KB back). */
const WALK_MAX_BYTES = 8 * 1024 * 1024;
const decoder = new TextDecoder();

type Link = NonNullable<ReturnType<typeof chainLinkOf>>;

/**
 * Follows `parentUuid` back from `link` (the call's entry, whose line starts at `at`) until an
 * entry or response in `tips`; stops at a compaction marker, a chain's start or the byte cap.
 * Only lines naming the wanted uuid are parsed. It reads back from `size`, in the chunks the
 * reading read (a cached source serves them again).
 */
export function chainFrom(
  source: ByteSource,
  size: number,
  at: number,
  link: Link,
  tips: ReadonlySet<string>,
): ChainFacts {
  const facts: ChainFacts = { entry: link.uuid, message: link.message };
  let turned = false;
  const met = (l: Link) =>
    tips.has(l.uuid)
      ? l.uuid
      : l.message !== undefined && tips.has(l.message)
      ? l.message
      : undefined;
  if (tips.size === 0) return facts;
  let found = met(link);
  let wanted = link.parent;
  for (const line of readLinesBackward(source, size, { maxBytes: size - at + WALK_MAX_BYTES })) {
    if (found !== undefined || wanted === undefined) break;
    if (
      line.start >= at || line.oversized ||
      !decoder.decode(line.bytes).includes(`"uuid":"${wanted}"`)
    ) continue;
    const parent = chainLinkOf(parseLine(line.bytes));
    if (parent?.uuid !== wanted) continue;
    if (parent.marker) break;
    found = met(parent);
    turned ||= parent.turn;
    wanted = parent.parent;
  }
  return found === undefined ? facts : { ...facts, met: found, turned };
}
