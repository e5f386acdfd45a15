/**
 * `lessons-reinject status`: what the hook sees for a session now, rendered from the trace of the
 * hook's dry run (`dryRun` in src/hook.ts). It reads; it never writes.
 */
import { formatTokens } from "../core/header.ts";
import { isTokenThreshold, percentText, thresholdText } from "../core/numbers.ts";
import { endOf } from "../core/compaction_point.ts";
import { fillOf, isReading } from "../core/reading.ts";
import { plannedRefreshes, refreshPoints } from "../core/schedule.ts";
import { pointOf } from "../core/thresholds.ts";
import { percentOf } from "../core/window.ts";
import { dryRun, type Trace } from "../hook.ts";
import { NOTHING_TO_RESTATE } from "../hook/refresh.ts";
import { settingsFor } from "../io/hosts.ts";
import { loadStandingRules } from "../io/standing_rules.ts";
import { statePaths } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";
import * as cli from "./common.ts";
import { chosenTarget, nextCallPayload, type Target } from "./locate.ts";
import { sampleRefresh, sourceLines } from "./rules.ts";
import type { StatusJson } from "./schemas.ts";

const HELP =
  `Usage: lessons-reinject status [--transcript PATH | --session ID] [--project DIR] [--json]
       [--timeline [--svg FILE]]

What the hook sees for a session now: a gauge of the context use with the thresholds marked, the
tokens and window and how they were found, the thresholds, which fired, what the next tool call
does and why, the sources of rules and the state file. Reads, never writes.

Options:
  --transcript PATH  the transcript to read
  --session ID       the session's transcript under ~/.claude/projects/ (its id, or its start)
  --project DIR      the project whose newest session to read (default: this folder)
  --json             print the report as JSON (docs/commands.md: "status --json")
  --timeline         the whole session instead, call by call: a chart of the context use with
                     each threshold, compaction and refresh (status --timeline --help)
  --svg FILE         write the timeline's chart as a standalone SVG file (implies --timeline)
  -h, --help         this help
`;

/** `status --json` from a dry run's trace. Pure. */
export function statusOf(
  trace: Trace,
  target: Target,
  settings: Settings,
  rules: { sources: string[]; leftOut: string[] },
): StatusJson {
  const { decision, reading } = trace;
  const known = decision?.known ?? trace.stateBefore ?? { fired: [], toolCount: 0 };
  const cause = decision?.cause?.kind === "thresholds" ? decision.cause.thresholds : [];
  const measured = reading && isReading(reading) ? reading : undefined;
  const none = reading && !isReading(reading) ? reading : undefined;
  const span = measured ? fillOf(measured).span : undefined;
  const point = measured?.compaction;
  const end = point && measured?.window !== undefined ? endOf(point, measured.window) : Infinity;
  const fired = trace.result === "fired";
  // Refused for want of rules: what it crossed is still ahead.
  const next = trace.refused ? cause[0] : decision?.upcoming;
  return {
    transcript: target.path,
    sessionId: target.sessionId,
    agentId: target.agentId ?? null,
    percent: measured?.percent ?? null,
    tokens: measured?.tokens ?? null,
    window: measured?.window ?? null,
    windowSource: measured?.windowSource ?? null,
    source: measured?.source ?? (none?.countCalls ? "tool count" : null),
    reason: measured ? null : none?.reason ?? trace.reason,
    model: measured?.model ?? null,
    thresholds: span === undefined
      ? settings.thresholds
      : plannedRefreshes(settings.thresholds, span).flatMap((p) => p.thresholds),
    cadence: measured?.cadence?.every ?? null,
    span: span ?? null,
    thresholdTokens: span === undefined ? [] : refreshPoints(decision?.thresholds ?? [], span, end),
    compaction: point === undefined ? null : {
      tokens: point.kind === "point" ? point.tokens : null,
      window: point.kind === "point" ? point.window : null,
      source: point.kind === "point" ? point.source : "off",
      evidence: point.evidence,
    },
    autocompactPct: settings.compactEnv.pct ?? null,
    fired: decision?.fired ?? known.fired,
    recovered: trace.facts?.recovered ?? [],
    inherited: trace.facts?.inherited ?? [],
    pending: fired ? [...cause] : [],
    // Refused for want of rules: what it crossed is still ahead.
    next: next ?? null,
    nextTokens: next !== undefined && span !== undefined ? Math.round(pointOf(next, span)) : null,
    toolCount: known.toolCount,
    toolCountInterval: settings.toolCountInterval,
    statePath: trace.statePath ?? statePaths(settings.stateDir, target.sessionId).state,
    stateFile: trace.stateFile ?? "missing",
    action: fired ? "refresh" : "nothing",
    decision: decision
      // The refusal without its list of sources: they have a row of their own.
      ? decision.reason + (trace.refused ? `, but ${NOTHING_TO_RESTATE}` : "") +
        (trace.reloaded ? `, but nothing restated: ${trace.reloaded}` : "")
      : trace.reason,
    beforeCompaction: none?.before
      ? {
        ...none.before,
        model: none.before.model ?? null,
        percent: percentOf(none.before.tokens, none.before.window),
      }
      : null,
    sources: rules.sources,
    afterCompact: known.afterCompact ?? null,
    deliveries: (decision?.deliveries ?? []).map((d) => ({ ...d, reason: d.reason ?? null })),
    leftOut: rules.leftOut,
    configFile: settings.configFile.path ?? null,
    configFileText: cli.configFileText(settings.configFile),
    problems: settings.problems,
  };
}

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
      : `${d.refresh}${/^[0-9.]+$/.test(d.refresh) ? "%" : ""}`;
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
  const flags = await cli.readFlags(args, cli.TARGET, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const target = await chosenTarget(flags.values, ctx, flags.cwd, HELP);
  if ("exit" in target) return target.exit;
  const { settings } = ctx;
  // The rules of the session's agent (AGENTS.md for Codex: io/hosts.ts), loaded once.
  const host = settingsFor(target.path, settings);
  const rules = await loadStandingRules(host, target.cwd ?? flags.cwd);
  const trace = await dryRun(nextCallPayload(target, flags.cwd), settings, { render: true, rules });
  const leftOut = sampleRefresh(rules, settings).omitted;
  const r = statusOf(trace, target, settings, { sources: sourceLines(rules, host.agent), leftOut });
  if (flags.values.json) await cli.printJson(r);
  else {
    const bar = cli.gauge(r.percent, r.thresholds, r.window, 40, r.span);
    await cli.out(`${bar}\n\n${cli.table(statusRows(r), 13, ctx.width)}`);
  }
  return cli.EXIT_OK;
}
