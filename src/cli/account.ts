/**
 * The account of a session: the hook's view of it, computed once, which every command renders
 * (`status`, `why`, `preview`, `doctor`, the statusline). The host's settings, the rules (loaded
 * once), one dry run of the next tool call (`dryRun` in src/hook.ts) and, from its trace, the
 * thresholds, deliveries, what is pending, the next refresh and the compaction point.
 */
import { failed, type Failure, type Result } from "../core/result.ts";
import { endOf } from "../core/compaction_point.ts";
import type { RefreshCause } from "../core/header.ts";
import * as numbers from "../core/numbers.ts";
import { fillOf, isReading } from "../core/reading.ts";
import type { CombinedRefresh } from "../core/render_rules.ts";
import { plannedRefreshes, refreshPoints } from "../core/schedule.ts";
import { pointOf } from "../core/thresholds.ts";
import { percentOf } from "../core/window.ts";
import { buildRefresh, dryRun, type Trace } from "../hook.ts";
import { type BuiltRefresh, NOTHING_TO_RESTATE } from "../hook/refresh.ts";
import { compactionText, describeReading, FOR_PEOPLE } from "../hook/trace.ts";
import { thresholdsCause } from "../core/crossing.ts";
import { settingsFor } from "../io/hosts.ts";
import { loadStandingRules, type StandingRules } from "../io/standing_rules.ts";
import { refreshToken, statePaths, untrustedDirReason } from "../io/state_store.ts";
import { keepTranscriptsOpen } from "../io/transcript.ts";
import type { ContextWindow } from "../schemas/payload.ts";
import type { Settings } from "../settings/resolve.ts";
import * as cli from "./common.ts";
import { nextCallPayload, type Target } from "./locate.ts";
import { nothingToRestate, sampleCause, sampleRefresh, sourceLines } from "./rules.ts";
import type { StatusJson } from "./schemas.ts";

/** A session's account; without a session (`target` an error), its settings and rules only. */
export interface Account {
  /** The settings the session's host runs under (io/hosts.ts), resolved once. */
  host: Settings;
  rules: StandingRules;
  /** Why nothing can be restated, or undefined when some rule can be. */
  nothing: string | undefined;
  /** Why the hook will not use its state folder, if so (read, never made: commands only look). */
  stateProblem: Failure | undefined;
  /** The rules laid out as a refresh at the first threshold (not for the statusline). */
  sample: CombinedRefresh | undefined;
  trace: Trace | undefined;
  status: StatusJson | undefined;
}

/**
 * The account of `target`, its rules for the folder `cwd`: each file read once. `reading`: the
 * statusline's, from its stdin; its line shows no text, so its dry run renders none (and leaves
 * `leftOut` empty): it runs on every refresh of Claude Code's status bar.
 */
export async function accountOf<S extends Settings>(
  given: S,
  cwd: string,
  target: Result<Target>,
  reading?: ContextWindow,
): Promise<Account & { host: S }> {
  keepTranscriptsOpen();
  const found = failed(target) ? undefined : target;
  const host = settingsFor(found?.path, given);
  const rules = await loadStandingRules(host, found?.cwd ?? cwd);
  const nothing = nothingToRestate(rules, host.agent);
  const render = reading === undefined;
  const sample = render ? sampleRefresh(rules, host) : undefined;
  const stateProblem = untrustedDirReason(host.stateDir);
  const facts = { host, rules, nothing, stateProblem, sample };
  if (!found) return { ...facts, trace: undefined, status: undefined };
  const payload = { ...nextCallPayload(found, cwd), ...(reading && { context_window: reading }) };
  const trace = await dryRun(payload, host, { render, rules });
  const status = statusOf(trace, found, host, {
    sources: sourceLines(rules, host.agent),
    leftOut: sample?.omitted ?? [],
  });
  return { ...facts, trace, status };
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

/** The refresh a command shows and measures (`preview` prints it, `doctor` gives its size). */
export interface ShownRefresh {
  cause: RefreshCause | undefined;
  /** Undefined when nothing is due and no threshold is ahead (and none was asked for). */
  built: BuiltRefresh | undefined;
  due: boolean;
  /** Why it is due or not, its numbers as the reports write them (200k, 145,000). */
  reason: string;
}

/**
 * The refresh the account's next tool call would inject; when nothing is due, the next
 * threshold's (or `threshold`'s) at its reading; with no session, the first threshold's.
 * `always`: when nothing is ahead, the first threshold's rather than none.
 */
export async function shownRefresh(
  account: Account,
  cwd: string,
  target: Result<Target>,
  { threshold, always }: { threshold?: number | undefined; always?: boolean } = {},
): Promise<ShownRefresh> {
  const { host: settings, rules, trace } = account;
  if (failed(target) || !trace) {
    const cause = sampleCause(settings.thresholds, threshold);
    const first = numbers.thresholdText(cause.thresholds[0]!);
    const reason = `no session found (${failed(target) ? target.error : "?"}); a refresh at ` +
      `${first} reads like this`;
    const built = await buildRefresh(cause, refreshToken("preview"), cwd, settings, rules);
    return { cause, built, due: false, reason };
  }
  const r = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
  const due = trace.result === "fired";
  const refused = trace.refused ? `, but ${trace.refused}` : "";
  const reason = r && trace.decision
    ? `${describeReading(r, FOR_PEOPLE)}${compactionText(r, FOR_PEOPLE)} → ` +
      `${trace.decision.reason}${refused}`
    : trace.reason;
  // Not due: the next threshold's refresh, as --threshold shows it, at this reading.
  const ahead = due ? undefined : trace.decision?.upcoming;
  const shown = threshold ?? (ahead ?? (!due && always ? settings.thresholds[0] : undefined));
  const cause: RefreshCause | undefined = shown === undefined
    ? trace.decision?.cause
    : r
    ? thresholdsCause([shown], r)
    : sampleCause(settings.thresholds, shown);
  // Due: the dry run rendered the very text the hook would give.
  const token = refreshToken(target.sessionId, target.agentId);
  const built: BuiltRefresh | undefined = due && shown === undefined && trace.refresh
    ? { kind: "text", account: trace.refresh }
    : cause && await buildRefresh(cause, token, cwd, settings, rules);
  return { cause, built, due, reason };
}
