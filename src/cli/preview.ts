/**
 * `lessons-reinject preview`: the exact text the next refresh would inject, its size against the
 * budget, and which lessons went in whole, as a summary, or were left out.
 */
import type { RefreshCause } from "../core/header.ts";
import {
  isTokenThreshold,
  shownValue,
  type Threshold,
  THRESHOLD_EXPECTED,
  thresholdOf,
  thresholdText,
} from "../core/numbers.ts";
import { isReading } from "../core/reading.ts";
import { refreshToken } from "../io/state_store.ts";
import { buildRefresh, dryRun } from "../hook.ts";
import type { StandingRules } from "../io/standing_rules.ts";
import { CLAUDE_MD_ROUTE, manifestFix } from "./doctor_rules.ts";
import type { Settings } from "../settings/resolve.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  EXIT_OK,
  EXIT_PROBLEM,
  groupDigits,
  printJson,
  programName,
  readFlags,
  usageError,
} from "./common.ts";
import { locateTranscript, nextCallPayload } from "./locate.ts";
import { sampleCause } from "./sample_refresh.ts";
import type { PreviewJson } from "./schemas.ts";

const PREVIEW_HELP =
  `Usage: lessons-reinject preview [--threshold N] [--transcript PATH | --session ID] [--json]

The exact text the hook's next tool call would inject in this session (the thresholds it would
name, at the real percentage), or that nothing is due; then its size against the budget
(LESSONS_REINJECT_MAX_CHARS) and which lessons went in whole, as a summary line, or were left out.
With no session found, the text of a refresh at the first threshold.

Options:
  --threshold N      the text a refresh for threshold N would inject, due or not: a
                     percentage (30 or 30%) or a token count (60k, 120000)
  --transcript PATH  the session to preview for (its window and unfired thresholds)
  --session ID       the same, by session id or its start (default: the newest session of
                     this folder)
  --json             print the text and the accounting as JSON
  -h, --help         this help
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  threshold: { type: "string" },
  transcript: { type: "string" },
  session: { type: "string" },
} as const;

/** The human report: the text, a rule, then the accounting; or why nothing is due. Pure. */
function renderPreview(preview: PreviewJson, program: string): string {
  if (preview.text === null) {
    return `nothing is due in this context: ${preview.reason}\n` +
      `(\`${program} preview --threshold N\` shows the text a refresh for N would inject)\n`;
  }
  const list = (names: string[]) => (names.length > 0 ? names.join(", ") : "none");
  const lines = [
    preview.text.trimEnd(),
    "",
    "-".repeat(72),
    `due          ${preview.due ? "yes" : "no"}: ${preview.reason}`,
    `size         ${groupDigits(preview.chars)} of ${groupDigits(preview.budget)} characters (${
      preview.chars <= preview.budget ? "within" : "OVER"
    } the budget)`,
    `manifest     ${preview.manifest ?? "none"}`,
    `whole        ${list(preview.whole)}`,
    `summarized   ${list(preview.summarized)}`,
    `left out     ${list(preview.omitted)}`,
    ...preview.sources.map((s, i) => `${i === 0 ? "sources     " : "            "} ${s}`),
  ];
  if (preview.invalid.length > 0) lines.push(`invalid      ${preview.invalid.join(" | ")}`);
  return lines.join("\n") + "\n";
}

/**
 * Why there is nothing to restate, and what to do, in one line: the manifest's problem and its
 * fix when it is the one source, else that no source gave a rule.
 */
function nothingToRestate(manifest: StandingRules["manifest"]): string {
  switch (manifest.kind) {
    case "off":
      return "nothing to restate: the manifest is turned off (sources setting) and no rules are " +
        `marked in CLAUDE.md; ${CLAUDE_MD_ROUTE}`;
    case "none":
      return "nothing to restate: no manifest found and no rules are marked in CLAUDE.md; " +
        manifestFix(manifest);
    case "invalid":
      return `nothing to restate: ${manifest.error}; ${manifestFix(manifest)}`;
    case "ok":
      return `nothing to restate: ${manifest.location.path} has no active directives or ` +
        `protocols, and no rules are marked in CLAUDE.md; add lessons, or ${CLAUDE_MD_ROUTE}`;
  }
}

/**
 * Runs `preview`. Exit 0 with the text or "nothing is due"; 1 when there is no usable manifest or
 * the named session is missing; 2 on bad flags.
 */
export async function runPreview(args: string[], io: CliIo, settings: Settings): Promise<number> {
  const parsed = await readFlags(args, OPTIONS, PREVIEW_HELP, io);
  if (parsed.kind === "done") return parsed.exit;
  const flags = parsed.values;
  let threshold: Threshold | undefined;
  if (flags.threshold !== undefined) {
    // The same rule as the thresholds setting (core/numbers.ts).
    const parsed = thresholdOf(flags.threshold);
    if (parsed.kind === "invalid") {
      return await usageError(
        io,
        `--threshold ${flags.threshold}: expected ${THRESHOLD_EXPECTED} ` +
          `(${shownValue(flags.threshold)}: ${parsed.problem})`,
        PREVIEW_HELP,
      );
    }
    threshold = parsed.value;
  }
  for (const problem of settings.problems) await io.stderr(`lessons-reinject: ${problem}\n`);

  const explicit = flags.transcript !== undefined || flags.session !== undefined;
  const target = await locateTranscript(
    { transcript: flags.transcript, session: flags.session },
    settings.claudeDir,
    io.cwd(),
  );
  if (target.kind === "error" && explicit) {
    await io.stderr(`lessons-reinject: ${target.error}\n`);
    return EXIT_PROBLEM;
  }
  let cause: RefreshCause;
  let token: string;
  let due: boolean;
  let reason: string;
  let text: Awaited<ReturnType<typeof buildRefresh>> | undefined;
  if (target.kind === "error") {
    // No session: a sample at the first threshold (or the one asked for).
    cause = sampleCause(settings.thresholds, threshold);
    token = refreshToken("preview");
    due = false;
    reason = `no session found (${target.error}); a refresh at ${
      thresholdText(cause.thresholds[0] ?? 30)
    } reads like this`;
  } else {
    // The hook's own steps, run dry: its decision and, when it fires, its exact text.
    const trace = await dryRun(nextCallPayload(target, io.cwd()), settings, {
      render: threshold === undefined,
    });
    token = refreshToken(target.sessionId, target.agentId);
    const planned = trace.decision?.cause;
    due = trace.result === "fired";
    reason = trace.reason;
    if (threshold !== undefined) {
      const reading = trace.reading;
      const measured = reading && isReading(reading) ? reading : undefined;
      // The text states this session's reading, whatever the threshold asked for.
      cause = {
        kind: "thresholds",
        thresholds: [threshold],
        percent: measured?.percent ?? (isTokenThreshold(threshold) ? 0 : threshold),
        ...(measured?.window !== undefined ? { window: measured.window } : {}),
        ...(measured?.span !== undefined && measured.span !== measured.window
          ? { span: measured.span }
          : {}),
        ...(measured?.tokens !== undefined
          ? { tokens: measured.tokens }
          : isTokenThreshold(threshold) && measured === undefined
          ? { tokens: threshold }
          : {}),
      };
    } else if (planned !== undefined) {
      cause = planned;
      if (trace.refresh) text = { kind: "text", account: trace.refresh };
    } else {
      const preview: PreviewJson = {
        text: null,
        due: false,
        reason,
        chars: 0,
        budget: settings.maxChars,
        thresholds: [],
        manifest: null,
        whole: [],
        summarized: [],
        omitted: [],
        invalid: [],
        sources: [],
      };
      if (flags.json) await printJson(io, preview);
      else await io.stdout(renderPreview(preview, programName(io)));
      return EXIT_OK;
    }
  }
  const built = text ?? await buildRefresh(cause, token, io.cwd(), settings);
  if (built.kind === "error") {
    await io.stderr(`lessons-reinject: ${nothingToRestate(built.manifest)}\n`);
    return EXIT_PROBLEM;
  }
  const { account } = built;
  const preview: PreviewJson = {
    text: account.text,
    due,
    reason,
    chars: account.chars,
    budget: account.budget,
    thresholds: cause.kind === "thresholds" ? [...cause.thresholds] : [],
    manifest: account.manifest ?? null,
    whole: account.whole,
    summarized: account.summarized,
    omitted: account.omitted,
    invalid: account.invalid,
    sources: account.sources,
  };
  if (flags.json) await printJson(io, preview);
  else await io.stdout(renderPreview(preview, programName(io)));
  return EXIT_OK;
}
