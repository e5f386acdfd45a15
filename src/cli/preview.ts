/**
 * `lessons-reinject preview`: the exact text the hook's next tool call would inject (from its dry
 * run), its size against the budget, and which rules went in whole, as a summary, or were left out.
 */
import type { RefreshCause } from "../core/header.ts";
import {
  isTokenThreshold,
  shownValue,
  THRESHOLD_EXPECTED,
  thresholdOf,
  thresholdText,
} from "../core/numbers.ts";
import { isReading } from "../core/reading.ts";
import { buildRefresh, dryRun } from "../hook.ts";
import { refreshToken } from "../io/state_store.ts";
import {
  type Ctx,
  err,
  EXIT_OK,
  EXIT_PROBLEM,
  groupDigits,
  out,
  printJson,
  PROJECT,
  readFlags,
  table,
  usageError,
} from "./common.ts";
import { locateTranscript, nextCallPayload } from "./locate.ts";
import { nothingToRestate, sampleCause } from "./rules.ts";
import type { PreviewJson } from "./schemas.ts";

const PREVIEW_HELP =
  `Usage: lessons-reinject preview [--threshold N] [--transcript PATH | --session ID] [--project DIR] [--json]

The exact text the hook's next tool call would inject in this session (the thresholds it would
name, at the real percentage); when nothing is due, the text of the next threshold's refresh.
Then its size against the budget (LESSONS_REINJECT_MAX_CHARS) and which rules went in whole, as a
summary line, or were left out. With no session found, a refresh at the first threshold.

Options:
  --threshold N      the text a refresh for threshold N would inject, due or not: a
                     percentage (30 or 30%) or a token count (60k, 120000)
  --transcript PATH  the session to preview for (its window and unfired thresholds)
  --session ID       the same, by session id or its start
  --project DIR      the project whose rules and newest session to use (default: the folder
                     you run it from)
  --json             print the text and the accounting as JSON
  -h, --help         this help
`;

const OPTIONS = {
  ...PROJECT,
  threshold: "string",
  transcript: "string",
  session: "string",
} as const;

/** The human report: the text, a rule, then the accounting; or why nothing is due. Pure. */
function renderPreview(p: PreviewJson, program: string, width: number): string {
  if (p.text === null) {
    return `nothing is due in this context: ${p.reason}\n` +
      `(\`${program} preview --threshold N\` shows the text a refresh for N would inject)\n`;
  }
  const list = (items: string[]) => (items.length > 0 ? items.join(", ") : "none");
  const rows: [string, string][] = [
    ["due", `${p.due ? "yes" : "no"}: ${p.reason}`],
    [
      "size",
      `${groupDigits(p.chars)} of ${groupDigits(p.budget)} characters (${
        p.chars <= p.budget ? "within" : "OVER"
      } the budget)`,
    ],
    ["manifest", p.manifest ?? "none"],
    ["whole", list(p.whole)],
    ["summarized", list(p.summarized)],
    ["left out", list(p.omitted)],
    ["sources", p.sources.join("\n")],
  ];
  if (p.invalid.length > 0) rows.push(["invalid", p.invalid.join(" | ")]);
  return `${p.text.trimEnd()}\n\n${"-".repeat(Math.min(72, width))}\n${table(rows, 13, width)}`;
}

/**
 * Runs `preview`. Exit 0 with the text or "nothing is due"; 1 when nothing can be restated or the
 * named session is missing; 2 on bad flags.
 */
export async function runPreview(args: string[], ctx: Ctx): Promise<number> {
  const flags = await readFlags(args, OPTIONS, PREVIEW_HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const { threshold: asked, transcript, session, json } = flags.values;
  const { settings } = ctx;
  const threshold = asked === undefined ? undefined : thresholdOf(asked);
  if (threshold?.kind === "invalid") {
    const why = `(${shownValue(asked)}: ${threshold.problem})`;
    return await usageError(
      `--threshold ${asked}: expected ${THRESHOLD_EXPECTED} ${why}`,
      PREVIEW_HELP,
    );
  }
  const fail = async (error: string) => {
    if (json) await printJson({ error });
    await err(error);
    return EXIT_PROBLEM;
  };
  for (const problem of settings.problems) await err(problem);
  const target = locateTranscript({ transcript, session }, settings.claudeDir, flags.cwd);
  if ("error" in target && (transcript || session)) return await fail(target.error);

  let cause: RefreshCause | undefined;
  let reason: string;
  let due = false;
  if ("error" in target) {
    cause = sampleCause(settings.thresholds, threshold?.value);
    reason = `no session found (${target.error}); a refresh at ${
      thresholdText(cause.thresholds[0]!)
    } reads like this`;
  } else {
    // The hook's own steps, run dry: its decision, and the text it would render for it.
    const trace = await dryRun(nextCallPayload(target, flags.cwd), settings, { render: false });
    const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
    due = trace.result === "fired";
    reason = trace.reason;
    // Not due: the next threshold's refresh, as --threshold shows it.
    const shown = threshold?.value ?? (due ? undefined : trace.decision?.upcoming);
    cause = shown === undefined ? trace.decision?.cause : {
      // The text states this session's reading, whatever the threshold.
      kind: "thresholds",
      thresholds: [shown],
      percent: reading?.percent ?? (isTokenThreshold(shown) ? 0 : shown),
      ...(reading?.window !== undefined ? { window: reading.window } : {}),
      ...(reading?.span !== undefined && reading.span !== reading.window
        ? { span: reading.span }
        : {}),
      ...(reading?.tokens !== undefined
        ? { tokens: reading.tokens }
        : isTokenThreshold(shown) && !reading
        ? { tokens: shown }
        : {}),
    };
  }
  const empty = { chars: 0, budget: settings.maxChars, thresholds: [], manifest: null };
  const lists = { whole: [], summarized: [], omitted: [], invalid: [], sources: [] };
  let preview: PreviewJson = { text: null, due: false, reason, ...empty, ...lists };
  if (cause) {
    const token = "error" in target
      ? refreshToken("preview")
      : refreshToken(target.sessionId, target.agentId);
    const built = await buildRefresh(cause, token, flags.cwd, settings);
    if (built.kind === "error") return await fail(nothingToRestate(built.manifest));
    const { text, chars, budget, whole, summarized, omitted, invalid, sources } = built.account;
    const thresholds = cause.kind === "thresholds" ? [...cause.thresholds] : [];
    const manifest = built.account.manifest ?? null;
    preview = {
      text,
      due,
      reason,
      chars,
      budget,
      thresholds,
      manifest,
      whole,
      summarized,
      omitted,
      invalid,
      sources,
    };
  }
  if (json) await printJson(preview);
  else await out(renderPreview(preview, ctx.program().command, ctx.width));
  return EXIT_OK;
}
