/**
 * Replays an original transcript and its skeleton side by side, with and without compaction
 * events, and lists every call at which the hook or the replay oracle decided differently.
 */
import { replay, type Row } from "./_replay.ts";
import { expectedText } from "./oracle.ts";

/** How the two replays of one transcript compared. */
export interface Equivalence {
  /** Calls replayed (both modes), the same on both sides. */
  calls: number;
  /** Calls at which the hook refreshed (both modes): a replay where none fires proves little. */
  refreshes: number;
  /** One line per call that differs, saying how. */
  differences: string[];
}

/** What a row says, with the replay's temporary folder (different on each side) left out. */
function decisionOf(row: Row): string {
  const hook = (d: Row["hook"]) =>
    `${d.kind} ${d.thresholds.join(",")} ${d.header} | ${
      d.debug.replace(/\/[^\s"']*lessons-replay-[^\s"'/]+/g, "<replay>")
    }`;
  return [
    `call ${row.call.toolUseId} ${row.call.toolName} line ${row.call.line}`,
    `oracle ${expectedText(row.call.expected)} at ${row.call.tokens ?? "no"} tokens` +
    (row.call.event ? `, event ${expectedText(row.call.event)}` : ""),
    `hook ${hook(row.hook)}`,
    row.event ? `event ${hook(row.event)}` : "",
  ].join("\n");
}

/**
 * Replays `file` from `originals` and from `skeletons` (each folder holding the subagent's parent
 * too, for a subagent's file) and compares them call by call.
 */
export async function compareReplays(
  file: string,
  originals: string,
  skeletons: string,
): Promise<Equivalence> {
  const result: Equivalence = { calls: 0, refreshes: 0, differences: [] };
  for (const withEvents of [true, false]) {
    const mode = withEvents ? "events" : "no-events";
    const original = await replay(file, withEvents, originals);
    const skeleton = await replay(file, withEvents, skeletons);
    if (original.length !== skeleton.length) {
      result.differences.push(`${mode}: ${original.length} calls, skeleton ${skeleton.length}`);
    }
    original.forEach((row, i) => {
      const other = skeleton[i];
      const [a, b] = [decisionOf(row), other ? decisionOf(other) : "(no call)"];
      if (a !== b) result.differences.push(`${mode} call ${i + 1}:\n${a}\nskeleton:\n${b}`);
    });
    result.calls += original.length;
    result.refreshes += original.filter((r) => r.hook.kind !== "none").length;
  }
  return result;
}
