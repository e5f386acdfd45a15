/**
 * `lessons-reinject preview`: the exact text the next refresh would inject, its size against the
 * budget, and which lessons went in whole, as a summary, or were left out.
 */
import { refreshHeader } from "../core/header.ts";
import { renderRefresh } from "../core/render.ts";
import { nextThreshold } from "../core/thresholds.ts";
import { loadState, refreshToken, stateOf, statePaths } from "../io/state_store.ts";
import { findManifest } from "../io/manifest_load.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  EXIT_OK,
  EXIT_PROBLEM,
  printJson,
  readFlags,
  usageError,
} from "./common.ts";
import { locateTranscript } from "./locate.ts";
import type { PreviewJson } from "./schemas.ts";
import { loadSettings } from "./settings.ts";
import { inspectSession } from "./status.ts";

export const PREVIEW_HELP =
  `Usage: lessons-reinject preview [--threshold N] [--transcript PATH | --session ID] [--json]

The exact text the next refresh would inject, then its size against the budget
(LESSONS_REINJECT_MAX_CHARS) and which lessons went in whole, as a summary line, or were left out.

Options:
  --threshold N      preview the refresh for threshold N (default: the session's next one)
  --transcript PATH  the session to preview for (its window and unfired thresholds)
  --session ID       the same, by session id (default: the newest session of this folder)
  --json             print the text and the accounting as JSON
  -h, --help         this help
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  threshold: { type: "string" },
  transcript: { type: "string" },
  session: { type: "string" },
} as const;

/** The human report: the text, a rule, then the accounting. Pure. */
export function renderPreview(preview: PreviewJson): string {
  const list = (names: string[]) => (names.length > 0 ? names.join(", ") : "none");
  const lines = [
    preview.text.trimEnd(),
    "",
    "-".repeat(72),
    `size         ${preview.chars} of ${preview.budget} characters (${
      preview.chars <= preview.budget ? "within" : "OVER"
    } the budget)`,
    `manifest     ${preview.manifest}`,
    `whole        ${list(preview.whole)}`,
    `summarized   ${list(preview.summarized)}`,
    `left out     ${list(preview.omitted)}`,
  ];
  if (preview.invalid.length > 0) lines.push(`invalid      ${preview.invalid.join(" | ")}`);
  return lines.join("\n") + "\n";
}

/** Runs `preview`. Exit 0 with the text; 1 when there is no usable manifest; 2 on bad flags. */
export async function runPreview(args: string[], io: CliIo): Promise<number> {
  const parsed = await readFlags(args, OPTIONS, PREVIEW_HELP, io);
  if ("exit" in parsed) return parsed.exit;
  const flags = parsed.values;
  let threshold: number | undefined;
  if (flags.threshold !== undefined) {
    threshold = Number(flags.threshold);
    if (!Number.isFinite(threshold) || threshold < 1 || threshold > 99) {
      return await usageError(io, `--threshold ${flags.threshold}: expected 1 to 99`, PREVIEW_HELP);
    }
  }
  const settings = await loadSettings(io.env);
  const { config } = settings;
  for (const problem of settings.problems) await io.stderr(`${problem}\n`);

  // The session, when there is one, gives the window, the next threshold and the header's ref.
  let token = await refreshToken("preview");
  let window: number | undefined;
  let fired: number[] = [];
  const explicit = flags.transcript !== undefined || flags.session !== undefined;
  const target = await locateTranscript(
    { transcript: flags.transcript, session: flags.session },
    io.env,
    io.cwd(),
  );
  if ("error" in target) {
    if (explicit) {
      await io.stderr(`lessons-reinject: ${target.error}\n`);
      return EXIT_PROBLEM;
    }
  } else {
    token = await refreshToken(target.sessionId, target.agentId);
    const report = await inspectSession(target, settings);
    window = report.window ?? report.beforeCompaction?.window ?? undefined;
    const paths = await statePaths(settings.stateDir, target.sessionId, target.agentId);
    fired = stateOf(loadState(paths.state)).fired;
  }
  const chosen = threshold ?? nextThreshold(config.thresholds, fired) ?? config.thresholds[0] ?? 30;

  const found = await findManifest(config.manifestPath, io.env, io.cwd());
  if (found.kind === "none") {
    await io.stderr(
      "lessons-reinject: no manifest found: set LESSONS_MANIFEST_PATH or manifestPath in the " +
        "config file (run `lessons-reinject doctor`)\n",
    );
    return EXIT_PROBLEM;
  }
  if (found.kind === "invalid") {
    await io.stderr(`lessons-reinject: ${found.error}\n`);
    return EXIT_PROBLEM;
  }
  const { location, selection } = found;
  const header = refreshHeader(
    {
      kind: "thresholds",
      thresholds: [chosen],
      percent: chosen,
      ...(window !== undefined ? { window } : {}),
    },
    token,
  );
  const rendered = renderRefresh(header, selection.lessons, config.maxChars);
  const preview: PreviewJson = {
    text: rendered.text,
    chars: rendered.text.length,
    budget: config.maxChars,
    thresholds: [chosen],
    manifest: location.path,
    whole: rendered.whole,
    summarized: rendered.summarized,
    omitted: rendered.omitted,
    invalid: selection.invalid,
  };
  if (flags.json) await printJson(io, preview);
  else await io.stdout(renderPreview(preview));
  return EXIT_OK;
}
