/**
 * A measurement, not a test: the ceiling (src/core/ceiling.ts) against every pair of consecutive
 * readings of real transcripts. Run: `deno run --allow-read scripts/measure/ceiling_margins.ts
 * <folder or file>...` (folders are searched for `.jsonl` files). Prints, per argument, the pairs
 * and the tightest margin (the ceiling less the next reading), then the pairs that gained most
 * beyond their bytes, with what the transcript holds between the two readings.
 */
import { join } from "node:path";
import { MARGIN_TOKENS } from "../../src/core/ceiling.ts";
import { describe, excessOf, marginOf, type Pair, pairsOf } from "./reading_pairs.ts";

function filesUnder(path: string): string[] {
  if (!Deno.statSync(path).isDirectory) return [path];
  return [...Deno.readDirSync(path)].flatMap((e) => filesUnder(join(path, e.name)))
    .filter((f) => f.endsWith(".jsonl")).sort();
}

/** The kinds of entry between a pair's readings: `type`, attachment type or system subtype. */
function between(bytes: Uint8Array, pair: Pair): string {
  const text = new TextDecoder().decode(bytes.subarray(pair.previous.firstEnd, pair.next.start));
  const kinds = new Map<string, number>();
  for (const line of text.split("\n")) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const detail = entry.attachment as { type?: string } | undefined;
    const blocks = (entry.message as { content?: unknown })?.content;
    const block = Array.isArray(blocks) ? (blocks[0] as { type?: string })?.type : undefined;
    const kind = [entry.type, detail?.type ?? entry.subtype ?? block].filter(Boolean).join(":");
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([k, n]) => `${k}×${n}`).join(", ");
}

const figure = (n: number) => n.toLocaleString("en-US");
const print = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));

if (import.meta.main) {
  const all: { pair: Pair; bytes: Uint8Array }[] = [];
  for (const arg of Deno.args) {
    let count = 0;
    let files = 0;
    let tightest: Pair | undefined;
    for (const path of filesUnder(arg)) {
      const bytes = Deno.readFileSync(path);
      const pairs = pairsOf(path, bytes);
      files++;
      count += pairs.length;
      for (const pair of pairs) {
        all.push({ pair, bytes });
        if (!tightest || marginOf(pair) < marginOf(tightest)) tightest = pair;
      }
    }
    const least = tightest ? `${figure(marginOf(tightest))} at ${describe(tightest)}` : "-";
    print(`${arg}: ${files} files, ${count} pairs; tightest margin ${least}`);
  }
  const beyond = all.filter(({ pair }) => excessOf(pair) > 0);
  print(
    `\n${all.length} pairs; ${beyond.length} gained beyond their bytes (margin ${
      figure(MARGIN_TOKENS)
    }); the most:`,
  );
  beyond.sort((a, b) => excessOf(b.pair) - excessOf(a.pair));
  for (const { pair, bytes } of beyond.slice(0, 12)) {
    print(
      `  +${figure(excessOf(pair))}: ${describe(pair)}; between: ${between(bytes, pair)}`,
    );
  }
}
