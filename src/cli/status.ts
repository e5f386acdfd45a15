/**
 * `lessons-reinject status`: what the hook sees for a session now, rendered from the trace of the
 * hook's dry run (`dryRun` in src/hook.ts). It reads; it never writes.
 */
import { formatTokens } from "../core/header.ts";
import { isTokenThreshold, percentText, thresholdText } from "../core/numbers.ts";
import * as cli from "./common.ts";
import { accountOf } from "./account.ts";
import { readSessionFlags } from "./locate.ts";
import type { StatusJson } from "./schemas.ts";

const HELP =
  `Usage: lessons-reinject status [--transcript PATH | --session ID] [--project DIR] [--json]
       [--timeline [--svg FILE]]

What the hook sees for a session now: a gauge of the context use with the thresholds marked, the
tokens and window and how they were found, the thresholds, which fired, what the next tool call
does and why, the sources of rules and the state file. Reads, never writes.

Options:
${cli.SESSION_OPTIONS}
  --json             print the report as JSON (docs/commands.md: "status --json")
  --timeline         the whole session instead, call by call: a chart of the context use with
                     each threshold, compaction and refresh (status --timeline --help)
  --svg FILE         write the timeline's chart as a standalone SVG file (implies --timeline)
  -h, --help         this help
`;

const DELIVERY: Record<StatusJson["deliveries"][number]["status"], string> = {
  "delivered": "delivered (seen in the transcript, on {call}{again})",
  "pending": "pending (not recorded yet for {call})",
  "owed": "not delivered ({reason}); the next tool call sends it again",
  "re-sent": "re-sent on {call}, not recorded yet (first: {reason})",
  "given up": "given up: {reason}",
  "unrecorded": "sent once on {call}; {reason}, so it is not checked",
};

/** One line per delivery: `30%: delivered (seen in the transcript, on toolu_01...)`. */
export function deliveryLines(deliveries: StatusJson["deliveries"]): string[] {
  return deliveries.map((d) => {
    const what = d.refresh === "compact"
      ? "restatement after compaction"
      : cli.labelText(d.refresh);
    const again = d.sent > 1 ? ", sent twice" : "";
    const fields: Record<string, string> = { call: d.call, again, reason: d.reason ?? "" };
    return `${what}: ${DELIVERY[d.status].replace(/\{(\w+)\}/g, (_, k) => fields[k]!)}`;
  });
}

/** What the next tool call does, and why: `refreshes: 31% crossed 30`. */
export const nextCallText = (r: StatusJson): string =>
  `${r.action === "refresh" ? "refreshes" : "does nothing"}: ${r.decision}`;

/** How full the context is, or why that is not known. */
export const contextText = (r: StatusJson): string =>
  r.percent !== null
    ? `${percentText(r.percent)}: ${r.tokens === null ? "?" : cli.groupDigits(r.tokens)} tokens`
    : r.beforeCompaction
    ? "not measured yet: no usage recorded since the compaction"
    : `not measured: ${r.reason}`;

/** The report's rows, label and value; a row is left out where it says nothing. Pure. */
function statusRows(r: StatusJson): [string, string][] {
  const { beforeCompaction: b, compaction: c } = r;
  const n = (value: number | null) => value === null ? "?" : cli.groupDigits(value);
  const list = (values: number[], then: string) => values.length > 0 && cli.names(values) + then;
  const before = b && `from ${n(b.tokens)} tokens of ${formatTokens(b.window)} (` +
      `${percentText(b.percent)}${b.model ? `, ${b.model}` : ""}): no longer the context`;
  const cadence = r.cadence === null ? "" : `, then every ${n(r.cadence)} tokens`;
  const span = r.cadence !== null
    ? `; percentages of ${n(r.span)} tokens, as on a 200k window`
    : r.span !== null && r.span !== r.window
    ? `, percentages of the ${n(r.span)} tokens before auto-compaction`
    : "";
  const at = r.thresholdTokens.length > 0
    ? ` (at ${r.thresholdTokens.map(n).join(", ")} tokens)`
    : "";
  const nextAt = r.next !== null && r.nextTokens !== null && !isTokenThreshold(r.next)
    ? ` (at ${n(r.nextTokens)} tokens)`
    : "";
  const counted = r.source === "tool count"
    ? `tool count (a refresh every ${r.toolCountInterval} calls)`
    : "none yet";
  const point = c && (c.tokens === null ? "never automatic" : `at ${n(c.tokens)} tokens`);
  const past = r.pending.length > 0
    ? "none after the pending ones: the context is past every threshold"
    : "none: every threshold has fired";
  const restate = "the next tool call restates the rules for the new context";
  const settles = "the next tool call restates nothing (see decision)";
  const rows: [string, string | false | null][] = [
    ["transcript", r.transcript ?? "(none)"],
    ["session", `${r.sessionId ?? "?"}${r.agentId ? ` (subagent ${r.agentId})` : ""}`],
    ["context", contextText(r)],
    ["compacted", before],
    ["window", r.percent !== null && `${n(r.window)} tokens: ${r.windowSource ?? "unknown"}`],
    ["model", r.model],
    ["source", r.percent !== null ? r.source ?? "?" : counted],
    ["thresholds", `${cli.names(r.thresholds)}${cadence}${span}${at}`],
    ["compaction", c && `${point}: ${c.evidence}`],
    ["fired", `${cli.names(r.fired)} in this context`],
    [
      "inherited",
      list(r.inherited, " from the parent's refreshes (a fork starts with its parent's context)"),
    ],
    [
      "recovered",
      list(r.recovered, " from this hook's refreshes in the transcript (no state file)"),
    ],
    ["pending", list(r.pending, ": the next tool call refreshes")],
    ["next call", nextCallText(r)],
    ["next", r.next === null ? past : `${thresholdText(r.next)}${nextAt}`],
    // Only when the count decides (no reading): otherwise it is not kept, and "0" misleads.
    [
      "tool count",
      r.source === "tool count" &&
      `${r.toolCount} (fallback refresh every ${r.toolCountInterval} calls)`,
    ],
    ["state file", `${r.statePath} (${r.stateFile})`],
    ["compaction", r.afterCompact === "pending" && (r.action === "refresh" ? restate : settles)],
    ["deliveries", deliveryLines(r.deliveries).join("\n")],
    ["sources", r.sources.join("\n")],
    ["left out", r.leftOut.length > 0 && `${r.leftOut.join(", ")} (over the refresh budget)`],
    ["config file", r.configFileText],
    ...r.problems.map((p): [string, string] => ["problem", p]),
  ];
  return rows.filter((row): row is [string, string] => typeof row[1] === "string" && row[1] !== "");
}

/** Runs `status`. Exit 0 with a report; 1 when no transcript could be found; 2 on bad flags. */
export async function runStatus(args: string[], ctx: cli.Ctx): Promise<number> {
  // --svg is the timeline's: asked for alone, it implies --timeline.
  if (args.some((arg) => arg === "--timeline" || arg === "--svg" || arg.startsWith("--svg="))) {
    return await (await import("./timeline/command.ts")).runTimeline(args, ctx);
  }
  const flags = await readSessionFlags(args, cli.TARGET, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const r = (await accountOf(ctx.settings, flags.cwd, flags.target)).status!;
  if (flags.values.json) await cli.printJson(r);
  else {
    const bar = cli.gauge(r.percent, r.thresholds, r.window, 40, r.span);
    await cli.out(`${bar}\n\n${cli.table(statusRows(r), 13, ctx.width)}`);
  }
  return cli.EXIT_OK;
}
