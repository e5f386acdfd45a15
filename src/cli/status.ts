/**
 * `lessons-reinject status`: what the hook sees for a session now. It runs the hook's own steps
 * as a dry run (`dryRun` in src/hook.ts) and renders their trace: the reading, its window, the
 * thresholds, what fired, what the next tool call would do. It reads; it never writes.
 */
import { formatTokens } from "../core/header.ts";
import { percentText, thresholdText } from "../core/numbers.ts";
import { fillOf, isReading, type Reading } from "../core/reading.ts";
import { pointOf } from "../core/thresholds.ts";
import { percentOf } from "../core/window.ts";
import { dryRun, type Trace } from "../hook.ts";
import { loadStandingRules } from "../io/standing_rules.ts";
import { statePaths } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  EXIT_OK,
  EXIT_PROBLEM,
  groupDigits,
  printJson,
  readFlags,
  usageError,
} from "./common.ts";
import { deliveryLines } from "./delivery_lines.ts";
import { gauge } from "./gauge.ts";
import { sampleRefresh } from "./sample_refresh.ts";
import { locateTranscript, nextCallPayload, type TranscriptTarget } from "./locate.ts";
import type { StatusJson } from "./schemas.ts";

const STATUS_HELP = `Usage: lessons-reinject status [--transcript PATH | --session ID] [--json]

What the hook sees for a session now: a gauge of the context use with the thresholds marked,
the tokens and window and how they were found, the reading's source, the thresholds in effect,
which fired, the next one, the tool count and the state file. Reads, never writes.

Options:
  --transcript PATH  the transcript to read
  --session ID       the session's transcript under ~/.claude/projects/ (its id, or the
                     start of one that no other session shares)
                     (default: the newest transcript of this folder's project)
  --json             print the report as JSON (see docs/commands.md: "status --json")
  -h, --help         this help
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  transcript: { type: "string" },
  session: { type: "string" },
} as const;

/** The report: the trace of the hook's next tool call in `target`, run dry. */
export async function inspectSession(
  target: TranscriptTarget,
  settings: Settings,
  cwd: string,
): Promise<StatusJson> {
  const trace = await dryRun(nextCallPayload(target, cwd), settings, { render: true });
  const rules = await loadStandingRules(settings, cwd);
  return statusOf(trace, target, settings, {
    sources: rules.trace,
    leftOut: sampleRefresh(rules, settings.thresholds, settings.maxChars).omitted,
  });
}

/** `status --json` from a dry run's trace. Pure. */
export function statusOf(
  trace: Trace,
  target: TranscriptTarget,
  settings: Settings,
  rules: { sources: string[]; leftOut: string[] },
): StatusJson {
  const decision = trace.decision;
  const known = decision?.known ?? trace.stateBefore ?? { fired: [], toolCount: 0 };
  const cause = decision?.cause;
  const reading = trace.reading;
  const measured = reading && isReading(reading) ? reading : undefined;
  const span = measured ? fillOf(measured).span : undefined;
  const noReading = reading && !isReading(reading) ? reading : undefined;
  const before = noReading?.before;
  return {
    transcript: target.path,
    sessionId: target.sessionId,
    agentId: target.agentId ?? null,
    percent: measured?.percent ?? null,
    tokens: measured?.tokens ?? null,
    window: measured?.window ?? null,
    windowSource: measured?.windowSource ?? null,
    source: measured?.source ?? (noReading?.countCalls ? "tool count" : null),
    reason: measured ? null : noReading?.reason ?? trace.reason,
    model: measured?.model ?? null,
    thresholds: settings.thresholds,
    span: span ?? null,
    thresholdTokens: span === undefined ? [] : settings.thresholds.map((t) => pointOf(t, span)),
    compaction: compactionJson(measured),
    autocompactPct: settings.compactEnv.pct ?? null,
    fired: decision?.fired ?? known.fired,
    recovered: trace.facts?.recovered ?? [],
    inherited: trace.facts?.inherited ?? [],
    pending: cause?.kind === "thresholds" && trace.result === "fired" ? [...cause.thresholds] : [],
    next: decision?.upcoming ?? null,
    toolCount: known.toolCount,
    toolCountInterval: settings.toolCountInterval,
    statePath: trace.statePath ?? statePaths(settings.stateDir, target.sessionId).state,
    stateFile: trace.stateFile ?? "missing",
    action: trace.result === "fired" ? "refresh" : "nothing",
    decision: decision
      ? decision.reason + (trace.refused ? `, but ${trace.refused}` : "")
      : trace.reason,
    beforeCompaction: before
      ? { ...before, model: before.model ?? null, percent: percentOf(before.tokens, before.window) }
      : null,
    sources: rules.sources,
    afterCompact: known.afterCompact ?? null,
    deliveries: (decision?.deliveries ?? []).map((d) => ({ ...d, reason: d.reason ?? null })),
    leftOut: rules.leftOut,
    configFile: settings.configFile.path ?? null,
    problems: settings.problems,
  };
}

function compactionJson(reading: Reading | undefined): StatusJson["compaction"] {
  const point = reading?.compaction;
  if (point === undefined) return null;
  return point.kind === "off"
    ? { tokens: null, window: null, source: "off", evidence: point.evidence }
    : {
      tokens: point.tokens,
      window: point.window,
      source: point.source,
      evidence: point.evidence,
    };
}

/** The one-screen report. Pure. */
function renderStatus(report: StatusJson): string {
  const window = report.window ?? undefined;
  const names = (list: readonly number[]) =>
    list.length > 0 ? list.map((t) => thresholdText(t)).join(", ") : "none";
  const lines = [
    gauge(report.percent ?? undefined, report.thresholds, window, 40, report.span ?? undefined),
    "",
    `transcript   ${report.transcript ?? "(none)"}`,
    `session      ${report.sessionId ?? "?"}${
      report.agentId ? ` (subagent ${report.agentId})` : ""
    }`,
  ];
  if (report.percent !== null) {
    const tokens = report.tokens === null ? "?" : groupDigits(report.tokens);
    lines.push(`context      ${percentText(report.percent)}: ${tokens} tokens`);
    lines.push(
      `window       ${window === undefined ? "?" : groupDigits(window)} tokens (${
        report.windowSource ?? "unknown"
      })${report.model ? `, model ${report.model}` : ""}`,
    );
    lines.push(`source       ${report.source}`);
  } else {
    lines.push(`context      no reading: ${report.reason}`);
    lines.push(
      `source       ${
        report.source === "tool count"
          ? `tool count (a refresh every ${report.toolCountInterval} calls)`
          : "none yet"
      }`,
    );
    const b = report.beforeCompaction;
    if (b) {
      lines.push(
        `compacted    from ${groupDigits(b.tokens)} tokens of ${formatTokens(b.window)} (${
          percentText(b.percent)
        }${b.model ? `, ${b.model}` : ""}): no longer the context`,
      );
    }
  }
  const points = report.thresholdTokens.length > 0
    ? ` (at ${report.thresholdTokens.map((t) => groupDigits(t)).join(", ")} tokens)`
    : "";
  const against = report.span !== null && report.span !== report.window
    ? `, percentages of the ${groupDigits(report.span)} tokens before auto-compaction`
    : "";
  lines.push(`thresholds   ${names(report.thresholds)}${against}${points}`);
  const point = report.compaction;
  if (point) {
    lines.push(
      point.tokens === null
        ? `compaction   never automatic: ${point.evidence}`
        : `compaction   at ${groupDigits(point.tokens)} tokens: ${point.evidence}`,
    );
  }
  lines.push(`fired        ${names(report.fired)} in this context`);
  if (report.inherited.length > 0) {
    lines.push(
      `inherited    ${
        names(report.inherited)
      } from the parent's refreshes (a fork starts with its parent's context)`,
    );
  }
  if (report.recovered.length > 0) {
    lines.push(
      `recovered    ${
        names(report.recovered)
      } from this hook's refreshes in the transcript (no state file)`,
    );
  }
  if (report.pending.length > 0) {
    lines.push(`pending      ${names(report.pending)}: the next tool call refreshes`);
  }
  lines.push(
    `next call    ${
      report.action === "refresh" ? "refreshes" : "does nothing"
    }: ${report.decision}`,
  );
  const none = report.pending.length > 0
    ? "none after the pending ones: the context is past every threshold"
    : "none: every threshold has fired";
  lines.push(`next         ${report.next === null ? none : thresholdText(report.next)}`);
  lines.push(
    `tool count   ${report.toolCount} (fallback refresh every ${report.toolCountInterval} calls)`,
  );
  lines.push(`state file   ${report.statePath} (${report.stateFile})`);
  if (report.afterCompact === "pending") {
    lines.push("compaction   the next tool call restates the rules for the new context");
  }
  deliveryLines(report.deliveries).forEach((line, i) =>
    lines.push(`${i === 0 ? "deliveries  " : "            "} ${line}`)
  );
  report.sources.forEach((line, i) =>
    lines.push(`${i === 0 ? "sources     " : "            "} ${line}`)
  );
  if (report.leftOut.length > 0) {
    lines.push(`left out     ${report.leftOut.join(", ")} (over the refresh budget)`);
  }
  lines.push(`config file  ${report.configFile ?? "none"}`);
  for (const problem of report.problems) lines.push(`problem      ${problem}`);
  return lines.join("\n") + "\n";
}

/** Runs `status`. Exit 0 with a report; 1 when no transcript could be found; 2 on bad flags. */
export async function runStatus(args: string[], io: CliIo, settings: Settings): Promise<number> {
  if (args.includes("--timeline")) {
    return await (await import("./timeline/command.ts")).runTimeline(args, io, settings);
  }
  const parsed = await readFlags(args, OPTIONS, STATUS_HELP, io);
  if (parsed.kind === "done") return parsed.exit;
  const flags = parsed.values;
  if (flags.transcript && flags.session) {
    return await usageError(io, "give --transcript or --session, not both", STATUS_HELP);
  }
  const target = await locateTranscript(
    { transcript: flags.transcript, session: flags.session },
    settings.claudeDir,
    io.cwd(),
  );
  if (target.kind === "error") {
    if (flags.json) await printJson(io, { error: target.error });
    await io.stderr(`lessons-reinject: ${target.error}\n`);
    return EXIT_PROBLEM;
  }
  const report = await inspectSession(target, settings, io.cwd());
  if (flags.json) await printJson(io, report);
  else await io.stdout(renderStatus(report));
  return EXIT_OK;
}
