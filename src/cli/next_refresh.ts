/**
 * The refresh a command shows and measures: the one the session's next tool call would inject;
 * when nothing is due, the next threshold's (or the one asked for) at the session's reading; with
 * no session, the first threshold's. `preview` prints it and `doctor` gives its size: one text,
 * one size, the size of the additionalContext string Claude Code receives.
 */
import { failed, type Result } from "../core/result.ts";
import { settingsFor } from "../io/hosts.ts";
import type { RefreshCause } from "../core/header.ts";
import * as numbers from "../core/numbers.ts";
import { isReading } from "../core/reading.ts";
import { buildRefresh, dryRun } from "../hook.ts";
import type { BuiltRefresh } from "../hook/refresh.ts";
import { compactionText, describeReading, FOR_PEOPLE } from "../hook/trace.ts";
import { refreshToken } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";
import { nextCallPayload, type Target } from "./locate.ts";
import { sampleCause } from "./rules.ts";

export interface NextRefresh {
  cause: RefreshCause | undefined;
  /** Undefined when nothing is due and no threshold is ahead (and none was asked for). */
  built: BuiltRefresh | undefined;
  due: boolean;
  /** Why it is due or not, its numbers as the reports write them (200k, 145,000). */
  reason: string;
}

/**
 * The refresh for `target` (or, when it is an error, for no session), at `threshold` when given;
 * `always`: when nothing is ahead, the first threshold's at this reading rather than none.
 */
export async function nextRefresh(
  given: Settings,
  cwd: string,
  target: Result<Target>,
  { threshold, always }: { threshold?: number | undefined; always?: boolean } = {},
): Promise<NextRefresh> {
  // The rules of the session's agent (AGENTS.md for Codex: io/hosts.ts).
  const settings = failed(target) ? given : settingsFor(target.path, given);
  if (failed(target)) {
    const cause = sampleCause(settings.thresholds, threshold);
    const first = numbers.thresholdText(cause.thresholds[0]!);
    const reason = `no session found (${target.error}); a refresh at ${first} reads like this`;
    const built = await buildRefresh(cause, refreshToken("preview"), cwd, settings);
    return { cause, built, due: false, reason };
  }
  const trace = await dryRun(nextCallPayload(target, cwd), settings, { render: false });
  const r = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
  const due = trace.result === "fired";
  const refused = trace.refused ? `, but ${trace.refused}` : "";
  const reason = r && trace.decision
    ? `${describeReading(r, FOR_PEOPLE)}${compactionText(r, FOR_PEOPLE)} → ` +
      `${trace.decision.reason}${refused}`
    : trace.reason;
  // Not due: the next threshold's refresh, as --threshold shows it, at this reading.
  const ahead = due ? undefined : trace.decision?.upcoming;
  const shown = threshold ??
    (ahead ?? (!due && always ? settings.thresholds[0] : undefined));
  const byTokens = shown !== undefined && numbers.isTokenThreshold(shown);
  const tokens = r?.tokens ?? (!r && byTokens ? shown : undefined);
  const cause: RefreshCause | undefined = shown === undefined ? trace.decision?.cause : {
    kind: "thresholds",
    thresholds: [shown],
    percent: r?.percent ?? (byTokens ? 0 : shown),
    ...(r?.window !== undefined ? { window: r.window } : {}),
    ...(r?.span !== undefined && r.span !== r.window && !r.cadence ? { span: r.span } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(r?.cadence ? { inTokens: true } : {}),
  };
  const token = refreshToken(target.sessionId, target.agentId);
  const built = cause && await buildRefresh(cause, token, cwd, settings);
  return { cause, built, due, reason };
}
