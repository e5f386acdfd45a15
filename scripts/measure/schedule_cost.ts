/**
 * What the every-window schedule costs on real sessions: each transcript replayed through the
 * hook's own steps (`replaySession`, as `status --timeline` does) under several cadences, counting
 * the refreshes per context and their characters as a share of the context they land in.
 *
 *     deno run -A scripts/measure/schedule_cost.ts <transcript.jsonl>...
 *
 * A refresh's size is taken as two figures: the bundled sample manifest's (about 1,340
 * characters) and the whole budget (9,500). A context's size in characters is its peak reading
 * times 4 characters per token, the usual rule of thumb for English and code.
 */
import { replaySession } from "../../src/hook.ts";
import { resolveSettings } from "../../src/settings/resolve.ts";

const CADENCES: [string, string][] = [["off", "off"], ["25k", "25000"], ["40k", "40000"], [
  "50k",
  "50000",
]];
const SIZES = [1_340, 9_500];
const CHARS_PER_TOKEN = 4;

interface Context {
  peak: number;
  window: number;
  refreshes: number[];
}

async function contextsOf(path: string, cadence: string): Promise<Context[]> {
  const env: Record<string, string> = { LESSONS_REINJECT_CADENCE: cadence, HOME: "/nonexistent" };
  const settings = resolveSettings((name) => env[name]);
  const replayed = await replaySession(path, "00000000", settings, undefined, false);
  if ("error" in replayed) throw new Error(`${path}: ${replayed.error}`);
  const contexts: Context[] = [{ peak: 0, window: 0, refreshes: [] }];
  for (const r of replayed) {
    if (r.kind === "compaction") contexts.push({ peak: 0, window: 0, refreshes: [] });
    if (r.kind !== "call") continue;
    const context = contexts.at(-1)!;
    const reading = r.reading.kind === "reading" ? r.reading : undefined;
    if (reading?.tokens !== undefined) context.peak = Math.max(context.peak, reading.tokens);
    if (reading?.window !== undefined) context.window = reading.window;
    // A threshold fired anew; not a re-send (these transcripts hold no receipt of this hook).
    const { known, state } = r.decision;
    const fresh = state.fired.filter((t) => !known.fired.includes(t));
    if (r.decision.cause?.kind === "thresholds" && fresh.length > 0) {
      context.refreshes.push(reading?.tokens ?? 0);
    }
  }
  return contexts.filter((c) => c.peak > 0);
}

const rows: string[] = [];
for (const path of Deno.args) {
  const name = path.split("/").pop();
  for (const [label, value] of CADENCES) {
    for (const [i, c] of (await contextsOf(path, value)).entries()) {
      const shares = SIZES.map((size) =>
        ((100 * c.refreshes.length * size) / (c.peak * CHARS_PER_TOKEN)).toFixed(2)
      );
      const at = c.refreshes.map((t) => `${Math.round(t / 1000)}k`).join(" ");
      rows.push(
        [name, i + 1, c.window, c.peak, label, c.refreshes.length, ...shares, at].join("\t"),
      );
    }
  }
}
const head = ["file", "context", "window", "peak tokens", "cadence", "refreshes"];
const shares = SIZES.map((size) => `% at ${size} chars`);
const table = [[...head, ...shares, "refreshed at"].join("\t"), ...rows].join("\n");
Deno.stdout.writeSync(new TextEncoder().encode(`${table}\n`));
