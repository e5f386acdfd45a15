/**
 * `lessons-reinject status --timeline`: a whole session at a glance. Replays the session through
 * the hook's own steps (`replaySession` in src/hook.ts), then draws it as text, as a standalone
 * SVG (`--svg FILE`) or as JSON.
 */
import { compactSettingsFor } from "../../io/claude_settings.ts";
import { subagentCount } from "../../io/session_files.ts";
import { refreshToken } from "../../io/state_store.ts";
import { replaySession } from "../../hook.ts";
import * as cli from "../common.ts";
import { locateTranscript } from "../locate.ts";
import { timelineOf } from "./from_replay.ts";
import { timelineJson } from "./model.ts";
import { timelineSvg } from "./svg.ts";
import { renderTimeline } from "./text.ts";

const HELP = `Usage: lessons-reinject status --timeline [--transcript PATH | --session ID]
                                       [--project DIR] [--svg FILE] [--json]

A session at a glance: the context's use call by call, the thresholds and the window as lines,
each compaction and each refresh marked (delivered, missed and sent again, restated after a
compaction), then one line per event. The session is replayed through the hook's own steps.

Options:
  --transcript PATH  the transcript to draw
  --session ID       the session's transcript under ~/.claude/projects/ (default: the newest
                     transcript of this folder's project)
  --project DIR      the project whose newest session to draw (default: this folder)
  --svg FILE         also write the chart as one standalone SVG file
  --json             print the calls and the events as JSON
  -h, --help         this help
`;

const OPTIONS = {
  ...cli.PROJECT,
  timeline: "boolean",
  transcript: "string",
  session: "string",
  svg: "string",
} as const;

/** Runs `status --timeline`. Exit 0 with the chart, 1 without a transcript, 2 on bad flags. */
export async function runTimeline(args: string[], ctx: cli.Ctx): Promise<number> {
  const flags = await cli.readFlags(args, OPTIONS, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const { transcript, session, svg, json } = flags.values;
  if (transcript && session) {
    return await cli.usageError("give --transcript or --session, not both", HELP);
  }
  const { settings } = ctx;
  const cwd = flags.cwd;
  const target = locateTranscript({ transcript, session }, settings.claudeDir, cwd);
  if ("error" in target) {
    await cli.err(target.error);
    return cli.EXIT_PROBLEM;
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
  if (svg) await Deno.writeTextFile(svg, timelineSvg(timeline));
  if (json) await cli.out(`${timelineJson(timeline)}\n`);
  else await cli.out(renderTimeline(timeline, { width: ctx.width, color: ctx.color }));
  return cli.EXIT_OK;
}
