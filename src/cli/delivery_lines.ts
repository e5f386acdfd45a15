/**
 * How each delivery of a session reads in `status` and `doctor`: a threshold or the restatement
 * after a compaction, and whether the transcript shows Claude Code delivered it.
 */
import type { StatusJson } from "./schemas.ts";

/**
 * One line per delivery, e.g. `30%: delivered (seen in the transcript, on toolu_01...)`. Pure;
 * `status` shows them for a session, `doctor` for the last one.
 */
export function deliveryLines(deliveries: StatusJson["deliveries"]): string[] {
  return deliveries.map((d) => {
    const what = d.refresh === "compact"
      ? "restatement after compaction"
      : /^[0-9.]+$/.test(d.refresh)
      ? `${d.refresh}%`
      : d.refresh;
    const again = d.sent > 1 ? ", sent twice" : "";
    switch (d.status) {
      case "delivered":
        return `${what}: delivered (seen in the transcript, on ${d.call}${again})`;
      case "pending":
        return `${what}: pending (not recorded yet for ${d.call})`;
      case "owed":
        return `${what}: not delivered (${d.reason}); the next tool call sends it again`;
      case "re-sent":
        return `${what}: re-sent on ${d.call}, not recorded yet (first: ${d.reason})`;
      case "given up":
        return `${what}: given up: ${d.reason}`;
      case "unrecorded":
        return `${what}: sent once on ${d.call}; ${d.reason}, so it is not checked`;
    }
  });
}
