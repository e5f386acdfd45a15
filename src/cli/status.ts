/**
 * `lessons-reinject status`: what the hook sees for a session now. It runs the hook's own steps
 * as a dry run (`dryRun` in src/hook.ts) and renders their trace: the reading, its window, the
 * thresholds, what fired, what the next tool call would do. It reads; it never writes.
 */
import { formatTokens } from "../core/header.ts";
import { percentText, thresholdText } from "../core/numbers.ts";
import { fillOf, isReading } from "../core/reading.ts";
import { pointOf } from "../core/thresholds.ts";
import { percentOf } from "../core/window.ts";
import { dryRun, type Trace } from "../hook.ts";
import { loadStandingRules } from "../io/standing_rules.ts";
import { statePaths } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";
import {
  type Ctx,
  err,
  EXIT_OK,
  EXIT_PROBLEM,
  gauge,
  groupDigits,
  names,
  out,
  printJson,
  PROJECT,
  readFlags,
  table,
  usageError,
} from "./common.ts";
import { locateTranscript, nextCallPayload, type Target } from "./locate.ts";
import { sampleRefresh, sourceLines } from "./rules.ts";
import type { StatusJson } from "./schemas.ts";

const STATUS_HELP =
  `Usage: lessons-reinject status [--transcript PATH | --session ID] [--project DIR] [--json]

What the hook sees for a session now: a gauge of the context use with the thresholds marked,
the tokens and window and how they were found, the thresholds in effect, which fired, what the
next tool call does, the sources of rules and the state file. Reads, never writes.

Options:
  --transcript PATH  the transcript to read
  --session ID       the session's transcript under ~/.claude/projects/ (its id, or the
                     start of one that no other session shares)
  --project DIR      the project whose newest session to read (default: the folder you run it from)
  --json             print the report as JSON (see docs/commands.md: "status --json")
  -h, --help         this help
`;

const OPTIONS = { ...PROJECT, transcript: "string", session: "string" } as const;

/** The width of the label column. */
const LABEL = 13;

/** `status --json`: the trace of the hook's next tool call in `target`, run dry. */
export async function inspect(
  target: Target,
  settings: Settings,
  cwd: string,
): Promise<StatusJson> {
  const trace = await dryRun(nextCallPayload(target, cwd), settings, { render: true });
  const rules = await loadStandingRules(settings, cwd);
  const leftOut = sampleRefresh(rules, settings.thresholds, settings.maxChars).omitted;
  return statusOf(trace, target, settings, { sources: sourceLines(rules), leftOut });
}

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
  const fired = trace.result === "fired";
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
    thresholds: settings.thresholds,
    span: span ?? null,
    thresholdTokens: span === undefined ? [] : settings.thresholds.map((t) => pointOf(t, span)),
    compaction: point === undefined
      ? null
      : point.kind === "off"
      ? { tokens: null, window: null, source: "off", evidence: point.evidence }
      : {
        tokens: point.tokens,
        window: point.window,
        source: point.source,
        evidence: point.evidence,
      },
    autocompactPct: settings.compactEnv.pct ?? null,
    fired: decision?.fired ?? known.fired,
    recovered: trace.facts?.recovered ?? [],
    inherited: trace.facts?.inherited ?? [],
    pending: fired ? [...cause] : [],
    // Refused for want of rules, what it crossed is still ahead.
    next: (trace.refused ? cause[0] : decision?.upcoming) ?? null,
    toolCount: known.toolCount,
    toolCountInterval: settings.toolCountInterval,
    statePath: trace.statePath ?? statePaths(settings.stateDir, target.sessionId).state,
    stateFile: trace.stateFile ?? "missing",
    action: fired ? "refresh" : "nothing",
    decision: decision
      ? decision.reason + (trace.refused ? `, but ${trace.refused}` : "")
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
    problems: settings.problems,
  };
}

/** One line per delivery: `30%: delivered (seen in the transcript, on toolu_01...)`. */
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
    }
  });
}

/** The report's rows, label and value. Pure. */
function statusRows(r: StatusJson): [string, string][] {
  const rows: [string, string][] = [
    ["transcript", r.transcript ?? "(none)"],
    ["session", `${r.sessionId ?? "?"}${r.agentId ? ` (subagent ${r.agentId})` : ""}`],
  ];
  const b = r.beforeCompaction;
  if (r.percent !== null) {
    rows.push(
      [
        "context",
        `${percentText(r.percent)}: ${r.tokens === null ? "?" : groupDigits(r.tokens)} tokens`,
      ],
      [
        "window",
        `${r.window === null ? "?" : groupDigits(r.window)} tokens: ${r.windowSource ?? "unknown"}`,
      ],
    );
    if (r.model) rows.push(["model", r.model]);
    rows.push(["source", r.source ?? "?"]);
  } else {
    rows.push([
      "context",
      b ? "not measured yet: no usage recorded since the compaction" : `not measured: ${r.reason}`,
    ]);
    if (b) {
      const model = b.model ? `, ${b.model}` : "";
      rows.push([
        "compacted",
        `from ${groupDigits(b.tokens)} tokens of ${formatTokens(b.window)} (${
          percentText(b.percent)
        }${model}): no longer the context`,
      ]);
    }
    rows.push([
      "source",
      r.source === "tool count"
        ? `tool count (a refresh every ${r.toolCountInterval} calls)`
        : "none yet",
    ]);
  }
  const against = r.span !== null && r.span !== r.window
    ? `, percentages of the ${groupDigits(r.span)} tokens before auto-compaction`
    : "";
  const at = r.thresholdTokens.length > 0
    ? ` (at ${r.thresholdTokens.map(groupDigits).join(", ")} tokens)`
    : "";
  rows.push(["thresholds", `${names(r.thresholds)}${against}${at}`]);
  if (r.compaction) {
    rows.push([
      "compaction",
      r.compaction.tokens === null
        ? `never automatic: ${r.compaction.evidence}`
        : `at ${groupDigits(r.compaction.tokens)} tokens: ${r.compaction.evidence}`,
    ]);
  }
  rows.push(["fired", `${names(r.fired)} in this context`]);
  if (r.inherited.length > 0) {
    rows.push([
      "inherited",
      `${names(r.inherited)} from the parent's refreshes (a fork starts with its parent's context)`,
    ]);
  }
  if (r.recovered.length > 0) {
    rows.push([
      "recovered",
      `${names(r.recovered)} from this hook's refreshes in the transcript (no state file)`,
    ]);
  }
  if (r.pending.length > 0) {
    rows.push(["pending", `${names(r.pending)}: the next tool call refreshes`]);
  }
  rows.push([
    "next call",
    `${r.action === "refresh" ? "refreshes" : "does nothing"}: ${r.decision}`,
  ]);
  const past = r.pending.length > 0
    ? "none after the pending ones: the context is past every threshold"
    : "none: every threshold has fired";
  rows.push(["next", r.next === null ? past : thresholdText(r.next)]);
  rows.push(
    ["tool count", `${r.toolCount} (fallback refresh every ${r.toolCountInterval} calls)`],
    ["state file", `${r.statePath} (${r.stateFile})`],
  );
  if (r.afterCompact === "pending") {
    rows.push(["compaction", "the next tool call restates the rules for the new context"]);
  }
  if (r.deliveries.length > 0) rows.push(["deliveries", deliveryLines(r.deliveries).join("\n")]);
  rows.push(["sources", r.sources.join("\n")]);
  if (r.leftOut.length > 0) {
    rows.push(["left out", `${r.leftOut.join(", ")} (over the refresh budget)`]);
  }
  rows.push(["config file", r.configFile ?? "none"]);
  for (const problem of r.problems) rows.push(["problem", problem]);
  return rows;
}

/** The one-screen report: the gauge, then the rows. Pure. */
export function renderStatus(report: StatusJson, width: number): string {
  const bar = gauge(
    report.percent ?? undefined,
    report.thresholds,
    report.window ?? undefined,
    40,
    report.span ?? undefined,
  );
  return `${bar}\n\n${table(statusRows(report), LABEL, width)}`;
}

/** Runs `status`. Exit 0 with a report; 1 when no transcript could be found; 2 on bad flags. */
export async function runStatus(args: string[], ctx: Ctx): Promise<number> {
  const flags = await readFlags(args, OPTIONS, STATUS_HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const { transcript, session, json } = flags.values;
  if (transcript && session) {
    return await usageError("give --transcript or --session, not both", STATUS_HELP);
  }
  const target = locateTranscript({ transcript, session }, ctx.settings.claudeDir, flags.cwd);
  if ("error" in target) {
    if (json) await printJson({ error: target.error });
    await err(target.error);
    return EXIT_PROBLEM;
  }
  const report = await inspect(target, ctx.settings, flags.cwd);
  if (json) await printJson(report);
  else await out(renderStatus(report, ctx.width));
  return EXIT_OK;
}
