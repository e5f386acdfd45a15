/**
 * How many tool calls of real sessions would have to wait for their own transcript entry under a
 * schedule: each transcript replayed through the hook's steps (`replaySession`), and at each call
 * the hook's ceiling (src/core/ceiling.ts) asked on the transcript cut just before the call's entry,
 * with the state the call met. A call whose ceiling rules every crossing out answers at once; the
 * others wait (at most 250 ms) when Claude Code writes the entry late. Unlike a timing, this does
 * not depend on how loaded the machine is.
 *
 *     deno run -A scripts/measure/wait_share.ts <transcript.jsonl>...
 */
import { ceilingOf } from "../../src/core/ceiling.ts";
import { replaySession } from "../../src/hook.ts";
import { viewOf } from "../../src/io/transcript.ts";
import { resolveSettings } from "../../src/settings/resolve.ts";
import { indexOfBytes } from "../index_of_bytes.ts";

const SCHEDULES: [string, string][] = [["cadence off", "off"], ["cadence 40k", "40000"]];

const rows: string[] = [];
const encoder = new TextEncoder();
for (const path of Deno.args) {
  const bytes = Deno.readFileSync(path);
  const source = { readAt: (o: number, l: number) => bytes.slice(o, o + l) };
  const counts: string[] = [];
  for (const [, cadence] of SCHEDULES) {
    const env: Record<string, string> = { LESSONS_REINJECT_CADENCE: cadence, HOME: "/nonexistent" };
    const settings = resolveSettings((name) => env[name]);
    const replayed = await replaySession(path, "00000000", settings, undefined, false);
    if ("error" in replayed) throw new Error(`${path}: ${replayed.error}`);
    let calls = 0;
    let waits = 0;
    let large = 0;
    for (const r of replayed) {
      if (r.kind !== "call") continue;
      if (r.reading.kind === "reading" && (r.reading.window ?? 0) > 200_000) large++;
      const at = indexOfBytes(bytes, encoder.encode(`"id":"${r.toolUseId}"`));
      if (at < 0) continue;
      const start = bytes.lastIndexOf(10, at) + 1;
      const query = { toolUseId: r.toolUseId, sidechainFile: false };
      const ceiling = ceilingOf(
        viewOf(source, start, query),
        r.decision.known,
        settings,
        undefined,
      );
      calls++;
      if (ceiling === undefined) waits++;
    }
    counts.push(`${waits}/${calls}`, String(large));
  }
  rows.push([path.split("/").pop(), ...counts].join("\t"));
}
const head = ["file", ...SCHEDULES.flatMap(([name]) => [`${name}: may wait`, "calls on 1M"])];
Deno.stdout.writeSync(new TextEncoder().encode(`${[head.join("\t"), ...rows].join("\n")}\n`));
