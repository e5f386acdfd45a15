/**
 * One tool call's decision, read-only: the steps the hook takes before it writes anything.
 * `status` and `preview` run exactly this (a dry run); the hook then claims the decision under
 * the lock (claim.ts).
 */
import { applyFacts, type ContextFacts, proofOf } from "../core/context_facts.ts";
import { afterCompaction, compactionFound } from "../core/compaction_refresh.ts";
import {
  type ReceiptEvidence,
  receiptQuery,
  receiptsSettled,
  settleDeliveries,
  withReceipts,
} from "../core/receipts.ts";
import {
  decide,
  type Decision,
  fillOf,
  isReading,
  type NoReading,
  type Reading,
} from "../core/decide.ts";
import type { CompactSettings } from "../core/compaction_point.ts";
import { compactSettingsFor } from "./compaction_settings.ts";
import { crossedThresholds } from "../core/thresholds.ts";
import { type LoadedState, loadState, stateOf, untrustedDirReason } from "../io/state_store.ts";
import type { HookPayload } from "../schemas/payload.ts";
import type { State } from "../schemas/state.ts";
import type { Settings } from "../settings/resolve.ts";
import { type ContextFiles, contextFiles, locateTranscript } from "./context_files.ts";
import { firedUnder } from "../core/window.ts";
import { lookBack } from "./look_back.ts";
import { measure, type Measured, withSpan } from "./measure.ts";
import { buildRefresh, type BuiltRefresh } from "./refresh_text.ts";
import { describeDecision, timed, type Trace } from "./trace.ts";

/** What a call decided before taking the lock, and everything it was decided on. */
export interface Plan {
  kind: "plan";
  payload: HookPayload;
  files: ContextFiles;
  loaded: LoadedState;
  reading: Reading | NoReading;
  facts: ContextFacts;
  size: number | undefined;
  state: State;
  decision: Decision;
  /** The state file must be written even if nothing fires (first call, facts learned). */
  needsWrite: boolean;
  /** The refresh text, when the decision fires and rendering was asked for. */
  refresh: BuiltRefresh | undefined;
  /** What the transcript showed about outstanding deliveries (judged again under the lock). */
  receipts: ReceiptEvidence | undefined;
}

/** The reading, facts and state after looking back through the transcript where needed. */
async function lookBackAsNeeded(
  measured: Measured,
  loaded: LoadedState,
  files: ContextFiles,
  settings: Settings,
  compactFiles: CompactSettings | undefined,
  trace: Trace,
  mainPath: string | undefined,
): Promise<{ reading: Reading | NoReading; facts: ContextFacts; state: State }> {
  const found = loaded.kind === "found";
  let reading = measured.reading;
  const facts = { ...measured.facts };
  // A reset the transcript's facts cause (a compaction no event reported) leaves the rules to
  // restate on this call.
  const withFacts = () =>
    compactionFound(
      stateOf(loaded),
      applyFacts(stateOf(loaded), facts, found),
      settings.refreshAfterCompact,
    );
  let state = withFacts();
  const transcript = files.transcript;
  const measuredReading = measured.reading;
  if (isReading(measuredReading) && transcript && measured.size !== undefined) {
    const before = state;
    const extra = await timed(trace, "look back", () =>
      lookBack({
        state: before,
        reading: measuredReading,
        stateFound: found,
        transcriptPath: transcript.path,
        token: files.token,
        thresholds: settings.thresholds,
        disable1m: settings.disable1m,
        compactEnv: settings.compactEnv,
        compactFiles,
        ...(transcript.sidechainFile ? { subagent: { mainPath } } : {}),
      }));
    Object.assign(facts, extra);
    state = withFacts();
    if (facts.marker !== undefined && facts.marker >= measured.size) {
      // Compacted after this reading was taken: it describes the old context, not this one.
      reading = {
        kind: "none",
        reason: "compacted since this reading: no reading yet",
        countCalls: false,
      };
    }
  }
  return { reading, facts, state };
}

/** How to plan: the hook's way, or a command's dry run. */
export interface PlanOptions {
  /** Render the refresh when the decision fires. */
  render: boolean;
}

/**
 * Runs the read-only steps for a tool call: find the context's files, read its state, measure,
 * look back where the decision needs it, decide, and render when it fires. Fills `trace`.
 * Returns the reason instead when the state folder cannot be trusted.
 */
export async function planCall(
  payload: HookPayload,
  settings: Settings,
  options: PlanOptions,
  trace: Trace,
): Promise<Plan | { kind: "untrusted"; reason: string }> {
  const untrusted = untrustedDirReason(settings.stateDir);
  if (untrusted) return { kind: "untrusted", reason: untrusted };
  const named = await timed(trace, "files", () => contextFiles(payload, settings.stateDir));
  trace.statePath = named.paths.state;

  const loaded = await timed(trace, "state", () => loadState(named.paths.state));
  trace.stateFile = loaded.kind;
  trace.stateBefore = stateOf(loaded);
  // A subagent's file may be nested (2.1.167): found once, then remembered in its state.
  const located = named.transcript
    ? locateTranscript(named.transcript, stateOf(loaded).agentTranscript)
    : undefined;
  const files: ContextFiles = { ...named, transcript: located?.ref };
  // Claude Code's auto-compaction settings: read on a context's first call, then kept.
  const compactRead = await compactSettingsFor(stateOf(loaded), settings, payload.cwd);
  const remembered = {
    ...(located?.remember ? { agentTranscript: located.remember } : {}),
    ...(compactRead.remember !== undefined ? { claudeSettings: compactRead.remember } : {}),
  };
  trace.transcript = files.transcript;

  // A call whose ceiling rules every crossing out answers without waiting for its own entry;
  // should the look-back then unfire a threshold the ceiling reaches, it measures again, waiting.
  let earlyFired: readonly number[] | undefined = stateOf(loaded).fired;
  // Refreshes still awaiting their receipt: read from the bytes since their claim, nothing else.
  const query = files.transcript ? receiptQuery(stateOf(loaded)) : undefined;
  const receiptCheck = query && {
    query: { ...query, token: files.token },
    settledBy: (evidence: ReceiptEvidence | undefined) =>
      receiptsSettled(stateOf(loaded), evidence),
  };
  let measured: Measured;
  let reading: Reading | NoReading;
  let facts: ContextFacts;
  let state: State;
  while (true) {
    const fired = earlyFired;
    const once = await timed(
      trace,
      "measure",
      () =>
        measure(payload, files.transcript, settings, files.paths.sessionKey, fired, {
          proven: proofOf(stateOf(loaded)),
          firedWindow: stateOf(loaded).firedWindow,
          compactedAt: stateOf(loaded).compactedAt,
          compactFiles: compactRead.files,
        }, receiptCheck),
    );
    measured = { ...once, facts: { ...once.facts, ...remembered } };
    ({ reading, facts, state } = await lookBackAsNeeded(
      measured,
      loaded,
      files,
      settings,
      compactRead.files,
      trace,
      payload.transcript_path,
    ));
    // What this call learned (a compaction point) measures its own reading too.
    if (isReading(reading)) {
      reading = withSpan(reading, settings, {
        compactedAt: state.compactedAt,
        compactFiles: compactRead.files,
      });
    }
    const ceiling = measured.ceiling;
    if (ceiling === undefined) break;
    // Refreshes made under a smaller span than the reading's no longer count (never miss).
    const counting = isReading(reading)
      ? firedUnder(state.fired, state.firedWindow, fillOf(reading).span)
      : state.fired;
    if (crossedThresholds(ceiling, settings.thresholds, counting).length === 0) break;
    earlyFired = undefined;
  }
  const ceiling = measured.ceiling;
  trace.ceiling = ceiling === undefined ? undefined : (ceiling.tokens * 100) / ceiling.span;
  trace.reading = reading;
  trace.transcriptSize = measured.size;
  trace.facts = facts;
  // The receipts of earlier refreshes: what is owed is sent again with this call's decision.
  const receipts = settleDeliveries(state, measured.receipts);
  state = receipts.state;
  trace.state = state;
  trace.receipts = receipts.notes;
  trace.deliveries = receipts.report;

  const decision = withReceipts(
    afterCompaction(
      decide({
        reading,
        thresholds: settings.thresholds,
        state,
        toolCountInterval: settings.toolCountInterval,
        transcriptSize: measured.size,
      }),
      state,
      reading,
    ),
    receipts,
    reading,
    { call: payload.tool_use_id, at: measured.size },
  );
  trace.planned = decision;
  trace.reason = describeDecision(reading, decision);
  // A context without a state file gets one on its first call, even when nothing changed:
  // else its first refresh would look like a lost state file and scan the transcript back.
  const needsWrite = loaded.kind === "missing" || decision.next !== undefined ||
    JSON.stringify(state) !== JSON.stringify(stateOf(loaded));

  let refresh: BuiltRefresh | undefined;
  if (decision.cause && options.render) {
    const cause = decision.cause;
    refresh = await timed(
      trace,
      "render",
      () => buildRefresh(cause, files.token, payload.cwd, settings),
    );
    if (refresh.kind === "text") trace.refresh = refresh.account;
  }
  return {
    kind: "plan",
    payload,
    files,
    loaded,
    reading,
    facts,
    size: measured.size,
    state,
    decision,
    needsWrite,
    refresh,
    receipts: measured.receipts,
  };
}
