/**
 * `lessons-reinject status --timeline`: replays a whole session through the hook's own steps
 * (`replaySession` in src/hook.ts), then draws it as text, as a standalone SVG or as JSON.
 */
import { failed, type Result } from "../../core/result.ts";
import { settingsFor } from "../../io/hosts.ts";
import { writeReason } from "../../core/errors.ts";
import { compactionSettings } from "../../io/claude_settings.ts";
import { subagentCount } from "../../io/session_files.ts";
import { refreshToken, statePaths } from "../../io/state_store.ts";
import { statOf } from "../../io/files.ts";
import { replaySession } from "../../hook.ts";
import * as cli from "../common.ts";
import { readSessionFlags, type Target } from "../locate.ts";
import type { Settings } from "../../settings/resolve.ts";
import { type Timeline, timelineJson, timelineOf } from "./model.ts";
import { timelineSvg } from "./svg.ts";
import { renderTimeline } from "./text.ts";

const HELP = `Usage: lessons-reinject status --timeline [--transcript PATH | --session ID]
                                       [--project DIR] [--svg FILE] [--json]

The session's context use call by call, replayed through the hook's own steps: the thresholds
and the window as lines, each compaction and refresh marked, then one line per event.

Options:
${cli.SESSION_OPTIONS}
  --svg FILE         also write the chart as one standalone SVG file
  --json             print the calls and the events as JSON
  -h, --help         this help
`;

const OPTIONS = { ...cli.TARGET, timeline: "boolean", svg: "string" } as const;

/** The session `target` replayed through the hook's steps under its host's settings, drawn. */
export async function timelineFor(
  target: Target,
  given: Settings,
  cwd: string,
): Promise<Result<Timeline>> {
  const settings = settingsFor(target.path, given);
  const { files } = compactionSettings(settings, cwd);
  const { path, sessionId, agentId } = target;
  const token = refreshToken(sessionId, agentId);
  const ran = statOf(statePaths(settings.stateDir, sessionId, agentId).state) !== undefined;
  const replayed = await replaySession(path, token, settings, files, agentId !== undefined, ran);
  if (failed(replayed)) return replayed;
  return timelineOf(replayed, {
    transcript: path,
    sessionId,
    thresholds: settings.thresholds,
    subagents: agentId ? 0 : subagentCount(path, sessionId),
  });
}

/** Runs `status --timeline`. Exit 0 with the chart, 1 without a transcript, 2 on bad flags. */
export async function runTimeline(args: string[], ctx: cli.Ctx): Promise<number> {
  // Without a transcript, --json prints nothing: the error goes to stderr only.
  const flags = await readSessionFlags(args, OPTIONS, HELP, ctx, false);
  if ("exit" in flags) return flags.exit;
  const { svg, json } = flags.values;
  const timeline = await timelineFor(flags.target, ctx.settings, flags.cwd);
  if (failed(timeline)) return await cli.fail(timeline.error, false);
  if (svg !== undefined) {
    try {
      await Deno.writeTextFile(svg, timelineSvg(timeline));
    } catch (error) {
      return await cli.fail(`cannot write the SVG to ${svg}: ${writeReason(error)}`, json);
    }
  }
  if (json) await cli.out(`${timelineJson(timeline)}\n`);
  else await cli.out(renderTimeline(timeline, { width: ctx.width, color: ctx.color }));
  return cli.EXIT_OK;
}
