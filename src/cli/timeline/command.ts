/**
 * `lessons-reinject status --timeline`: a whole session at a glance. Replays the session through
 * the hook's own steps (`replaySession` in src/hook.ts), then draws it as text, as a standalone
 * SVG (`--svg FILE`) or as JSON.
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
import { timelineOf } from "./from_replay.ts";
import { timelineJson } from "./model.ts";
import { timelineSvg } from "./svg.ts";
import { renderTimeline } from "./text.ts";

const HELP = `Usage: lessons-reinject status --timeline [--transcript PATH | --session ID]
                                       [--svg FILE] [--json]

A session at a glance: the context's use call by call, the thresholds and the window as lines,
each compaction and each refresh marked (delivered, missed and sent again, restated after a
compaction), then one line per event. The session is replayed through the hook's own steps.

Options:
  --transcript PATH  the transcript to draw
  --session ID       the session's transcript under ~/.claude/projects/ (default: the newest
                     transcript of this folder's project)
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
  const flags = parsed.values;
  if (flags.transcript && flags.session) {
    return await usageError(io, "give --transcript or --session, not both", HELP);
  }
  const cwd = io.cwd();
  const target = await locateTranscript(
    { transcript: flags.transcript, session: flags.session },
    settings.claudeDir,
    cwd,
  );
  if (target.kind === "error") {
    await io.stderr(`lessons-reinject: ${target.error}\n`);
    return EXIT_PROBLEM;
  }
  const files = settings.scaleForAutocompact && !settings.compactEnv.off
    ? compactSettingsFor(undefined, {
      claudeDir: settings.claudeDir,
      projectDir: settings.projectDir ?? cwd,
      os: Deno.build.os,
    }).files
    : undefined;
  const replayed = await replaySession(
    Deno.readFileSync(target.path),
    refreshToken(target.sessionId, target.agentId),
    settings,
    files,
    target.agentId !== undefined,
  );
  const timeline = timelineOf(replayed, {
    transcript: target.path,
    sessionId: target.sessionId,
    thresholds: settings.thresholds,
    subagents: target.agentId ? 0 : subagentCount(target.path, target.sessionId),
  });
  if (flags.svg) await Deno.writeTextFile(flags.svg, timelineSvg(timeline));
  if (flags.json) await io.stdout(`${timelineJson(timeline)}\n`);
  else {
    const color = (io.isTerminal?.() ?? false) && !settings.noColor;
    const columns = io.columns?.() ?? (Number(settings.columns) || undefined);
    await io.stdout(renderTimeline(timeline, { width: columns ?? 100, color }));
  }
  return EXIT_OK;
}
