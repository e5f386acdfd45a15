/**
 * `lessons-reinject status`: what the hook sees for a session right now (the reading, its source,
 * the thresholds, what fired, what comes next). It reads; it never writes.
 */
import { loadStandingRules } from "../io/standing_rules.ts";
import { isReading } from "../core/decide.ts";
import { formatTokens } from "../core/header.ts";
import { nextThreshold } from "../core/thresholds.ts";
import { percentOf, resolveWindow } from "../core/window.ts";
import { statePaths } from "../io/state_store.ts";
import { scanUsage, withTranscript } from "../io/transcript.ts";
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
import { dryRun } from "./dry_run.ts";
import { gauge } from "./gauge.ts";
import { sampleRefresh } from "./sample_refresh.ts";
import { locateTranscript, type TranscriptTarget } from "./locate.ts";
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

/**
 * Builds the report for `target`: the hook's own read-only steps (dry-run.ts), so it says what
 * the next tool call would do at this reading, including the refreshes it would recover from the
 * transcript when the state file is gone. Writes nothing.
 */
async function inspectSession(
  target: TranscriptTarget,
  settings: Settings,
  cwd: string,
): Promise<StatusJson> {
  const [{ plan, problem, trace }, rules] = await Promise.all([
    dryRun(target, settings, cwd, false),
    loadStandingRules(settings, cwd),
  ]);
  const state = trace.state ?? { fired: [], toolCount: 0 };
  const decision = trace.planned;
  const cause = decision?.cause;
  const pending = cause?.kind === "thresholds" ? [...cause.thresholds] : [];
  const base = {
    transcript: target.path,
    sessionId: target.sessionId,
    agentId: target.agentId ?? null,
    thresholds: settings.thresholds,
    configuredThresholds: settings.configuredThresholds,
    autocompactPct: settings.autocompactPct ?? null,
    fired: state.fired,
    recovered: trace.facts?.recovered ?? [],
    // The next threshold still ahead: the pending ones fire at the next call, so not those.
    next: nextThreshold(settings.thresholds, [...state.fired, ...pending]) ?? null,
    toolCount: state.toolCount,
    toolCountInterval: settings.toolCountInterval,
    statePath: trace.statePath ?? (await statePaths(settings.stateDir, target.sessionId)).state,
    stateFile: trace.stateFile ?? "missing",
    action: cause ? "refresh" as const : "nothing" as const,
    // The decision's own phrase: the reading it rests on has fields of its own.
    decision: problem ?? decision?.reason ?? trace.reason,
    sources: rules.trace,
    afterCompact: state.afterCompact ?? null,
    leftOut: sampleRefresh(rules, settings.thresholds, settings.maxChars).omitted,
    configFile: settings.configFile.path ?? null,
    problems: settings.problems,
  };
  const reading = plan?.reading;
  if (reading && isReading(reading)) {
    return {
      percent: reading.percent,
      tokens: reading.tokens ?? null,
      window: reading.window ?? null,
      windowSource: reading.windowSource ?? null,
      source: reading.source,
      reason: null,
      model: reading.model ?? null,
      pending,
      beforeCompaction: null,
      ...base,
    };
  }
  let beforeCompaction: StatusJson["beforeCompaction"] = null;
  const marker = trace.facts?.marker;
  if (marker !== undefined) {
    const scan = await withTranscript(
      target.path,
      (source) => scanUsage(source, marker, { sidechainFile: target.agentId !== undefined }),
    );
    if (!("error" in scan) && scan.usage) {
      const choice = resolveWindow({
        model: scan.usage.model,
        tokens: scan.usage.tokens,
        override: settings.windowOverride,
        disable1m: settings.disable1m,
      });
      beforeCompaction = {
        tokens: scan.usage.tokens,
        window: choice.window,
        percent: percentOf(scan.usage.tokens, choice.window),
        model: scan.usage.model ?? null,
      };
    }
  }
  return {
    percent: null,
    tokens: null,
    window: null,
    windowSource: null,
    source: reading?.countCalls ? "tool count" : null,
    reason: reading?.reason ?? problem ?? null,
    model: null,
    pending: [],
    beforeCompaction,
    ...base,
  };
}

/** The one-screen report. Pure. */
function renderStatus(report: StatusJson): string {
  const lines: string[] = [];
  const window = report.window ?? undefined;
  lines.push(gauge(report.percent ?? undefined, report.thresholds, window));
  lines.push("");
  lines.push(`transcript   ${report.transcript ?? "(none)"}`);
  lines.push(
    `session      ${report.sessionId ?? "?"}${
      report.agentId ? ` (subagent ${report.agentId})` : ""
    }`,
  );
  if (report.percent !== null) {
    const tokens = report.tokens === null ? "?" : groupDigits(report.tokens);
    lines.push(`context      ${report.percent.toFixed(1)}%: ${tokens} tokens`);
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
    if (report.beforeCompaction) {
      const b = report.beforeCompaction;
      lines.push(
        `compacted    from ${groupDigits(b.tokens)} tokens of ${formatTokens(b.window)} (${
          b.percent.toFixed(1)
        }%${b.model ? `, ${b.model}` : ""}): no longer the context`,
      );
    }
  }
  const scaled = report.thresholds.join() !== report.configuredThresholds.join()
    ? ` (configured ${report.configuredThresholds.join(", ")}, scaled for ` +
      `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${report.autocompactPct})`
    : "";
  lines.push(`thresholds   ${report.thresholds.map((t) => `${t}%`).join(", ")}${scaled}`);
  lines.push(
    `fired        ${report.fired.length ? report.fired.join(", ") : "none"} in this context`,
  );
  if (report.recovered.length > 0) {
    lines.push(
      `recovered    ${report.recovered.join(", ")} from this hook's refreshes in the transcript ` +
        `(no state file)`,
    );
  }
  if (report.pending.length > 0) {
    lines.push(`pending      ${report.pending.join(", ")}: the next tool call refreshes`);
  }
  lines.push(
    `next call    ${
      report.action === "refresh" ? "refreshes" : "does nothing"
    }: ${report.decision}`,
  );
  const none = report.pending.length > 0
    ? "none after the pending ones: the context is past every threshold"
    : "none: every threshold has fired";
  lines.push(`next         ${report.next === null ? none : `${report.next}%`}`);
  lines.push(
    `tool count   ${report.toolCount} (fallback refresh every ${report.toolCountInterval} calls)`,
  );
  lines.push(`state file   ${report.statePath} (${report.stateFile})`);
  if (report.afterCompact === "pending") {
    lines.push("compaction   the next tool call restates the rules for the new context");
  }
  for (const [i, source] of report.sources.entries()) {
    lines.push(`${i === 0 ? "sources     " : "            "} ${source}`);
  }
  if (report.leftOut.length > 0) {
    lines.push(`left out     ${report.leftOut.join(", ")} (over the refresh budget)`);
  }
  lines.push(`config file  ${report.configFile ?? "none"}`);
  for (const problem of report.problems) lines.push(`problem      ${problem}`);
  return lines.join("\n") + "\n";
}

/** Runs `status`. Exit 0 with a report; 1 when no transcript could be found; 2 on bad flags. */
export async function runStatus(args: string[], io: CliIo, settings: Settings): Promise<number> {
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
