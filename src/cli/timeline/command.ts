/**
 * `lessons-reinject status --timeline`: replays a whole session through the hook's own steps
 * (`replaySession` in src/hook.ts), then draws it as text, as a standalone SVG or as JSON.
 */
import { compactSettingsFor } from "../../io/claude_settings.ts";
import { subagentCount } from "../../io/session_files.ts";
import { refreshToken } from "../../io/state_store.ts";
import { replaySession } from "../../hook.ts";
import type { Settings } from "../../settings/resolve.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  EXIT_OK,
  EXIT_PROBLEM,
  readFlags,
  usageError,
} from "../common.ts";
import { locateTranscript } from "../locate.ts";
import { timelineJson, timelineOf } from "./model.ts";
import { timelineSvg } from "./svg.ts";
import { renderTimeline } from "./text.ts";

const HELP = `Usage: lessons-reinject status --timeline [--transcript PATH | --session ID]
                                       [--svg FILE] [--json]

The session's context use call by call, replayed through the hook's own steps: the thresholds
and the window as lines, each compaction and refresh marked, then one line per event.

Options:
  --transcript PATH  the transcript to draw (default: this folder's project's newest)
  --session ID       the session's transcript under ~/.claude/projects/
  --svg FILE         also write the chart as one standalone SVG file
  --json             print the calls and the events as JSON
  -h, --help         this help
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  timeline: { type: "boolean" },
  transcript: { type: "string" },
  session: { type: "string" },
  svg: { type: "string" },
} as const;

/** Runs `status --timeline`. Exit 0 with the chart, 1 without a transcript, 2 on bad flags. */
export async function runTimeline(args: string[], io: CliIo, settings: Settings): Promise<number> {
  const parsed = await readFlags(args, OPTIONS, HELP, io);
  if (parsed.kind === "done") return parsed.exit;
  const { transcript, session, svg, json } = parsed.values;
  if (transcript && session) {
    return await usageError(io, "give --transcript or --session, not both", HELP);
  }
  const cwd = io.cwd();
  const target = await locateTranscript({ transcript, session }, settings.claudeDir, cwd);
  if (target.kind === "error") {
    await io.stderr(`lessons-reinject: ${target.error}\n`);
    return EXIT_PROBLEM;
  }
  // Claude Code's auto-compaction settings, as the hook reads them, unless they cannot matter.
  const files = settings.scaleForAutocompact && !settings.compactEnv.off
    ? compactSettingsFor(undefined, {
      claudeDir: settings.claudeDir,
      projectDir: settings.projectDir ?? cwd,
      os: Deno.build.os,
    }).files
    : undefined;
  const { path, sessionId, agentId } = target;
  const replayed = await replaySession(
    Deno.readFileSync(path),
    refreshToken(sessionId, agentId),
    settings,
    files,
    agentId !== undefined,
  );
  const timeline = timelineOf(replayed, {
    transcript: path,
    sessionId,
    thresholds: settings.thresholds,
    subagents: agentId ? 0 : subagentCount(path, sessionId),
  });
  if (svg) await Deno.writeTextFile(svg, timelineSvg(timeline));
  const color = (io.isTerminal?.() ?? false) && !settings.noColor;
  const width = io.columns?.() ?? (Number(settings.columns) || 100);
  await io.stdout(
    json ? `${timelineJson(timeline)}\n` : renderTimeline(timeline, { width, color }),
  );
  return EXIT_OK;
}
