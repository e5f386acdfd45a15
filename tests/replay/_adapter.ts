/**
 * The one place the replay suite meets the hook: a payload in, what the hook decided out. Re-point
 * `callHook` here when the hook's entry changes; nothing else in tests/replay imports src/.
 */
import { runHook } from "../../src/hook.ts";
import { loadSettings } from "../../src/settings/load.ts";

/** What one hook call did: the thresholds it refreshed for, a counter refresh, or nothing. */
export interface HookDecision {
  kind: "thresholds" | "count" | "compact" | "none";
  thresholds: number[];
  /** The refresh's first line (`... Context refresh at 31% of the 200k-token ...`), or "". */
  header: string;
  /** The whole refresh, or "". */
  text: string;
  /** The hook's debug line (LESSONS_DEBUG=1), to explain a disagreement. */
  debug: string;
}

const HEADER =
  /^\[lessons-reinject refresh ([0-9]+[kM]?(?:,[0-9]+[kM]?)*|calls:[0-9]+|compact) ref=[0-9a-f]{8}\]/;

/** A threshold as the header names it: `30` (a percentage), `60k`, `1M` or digits (tokens). */
function named(name: string): number {
  const unit = name.endsWith("k") ? 1_000 : name.endsWith("M") ? 1_000_000 : 1;
  return Number(unit === 1 ? name : name.slice(0, -1)) * unit;
}

/** Runs the hook in this process on `payload`, with exactly `env` as its environment. */
export async function callHook(
  payload: Record<string, unknown>,
  env: Record<string, string>,
): Promise<HookDecision> {
  const settings = await loadSettings((name) => env[name]);
  const outcome = await runHook(JSON.stringify(payload), settings);
  const debug = outcome.stderr.join(" | ");
  if (outcome.stdout === undefined) {
    return { kind: "none", thresholds: [], header: "", text: "", debug };
  }
  const context = JSON.parse(outcome.stdout)?.hookSpecificOutput?.additionalContext;
  const match = typeof context === "string" ? HEADER.exec(context) : null;
  if (!match || match[1] === undefined) {
    throw new Error(`unexpected hook answer: ${outcome.stdout}`);
  }
  const text = String(context);
  const header = text.split("\n")[0] ?? "";
  if (match[1].startsWith("calls:")) return { kind: "count", thresholds: [], header, text, debug };
  if (match[1] === "compact") return { kind: "compact", thresholds: [], header, text, debug };
  const thresholds = match[1].split(",").map(named);
  return { kind: "thresholds", thresholds, header, text, debug };
}
