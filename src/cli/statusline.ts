/**
 * `lessons-reinject statusline`: the bridge for Claude Code's `statusLine` command, whose stdin
 * carries `context_window`. Records that reading for the session (atomically, in the state folder)
 * so the hook can prefer it, and prints a compact gauge, or with `--pass` its stdin unchanged.
 */
import { messageOf } from "../core/errors.ts";
import { thresholdText } from "../core/numbers.ts";
import { fillOf, isReading } from "../core/reading.ts";
import { dryRun } from "../hook.ts";
import { preparePrivateDir } from "../io/state_store.ts";
import { readStdinCapped } from "../io/stdin.ts";
import { recordFromStatusline, saveStatusline } from "../io/statusline_store.ts";
import type { Settings } from "../settings/resolve.ts";
import {
  COMMON,
  type Ctx,
  err,
  EXIT_OK,
  gauge,
  names,
  out,
  printJson,
  readFlags,
} from "./common.ts";
import type { StatuslineJson } from "./schemas.ts";

const STATUSLINE_HELP = `Usage: lessons-reinject statusline [--pass] [--json]

For Claude Code's statusLine setting. Reads the statusLine JSON on stdin, records its context
reading (context_window: used_percentage, context_window_size, current_usage) for the session in
the state folder, and prints a compact gauge line. The hook prefers this reading while it is
fresh (at most 60 s old and not older than the transcript's last usage). Always exits 0.

  "statusLine": { "type": "command", "command": "<plugin folder>/hooks/run statusline" }
  "statusLine": { "type": "command", "command": "<plugin folder>/hooks/run statusline --pass | ccstatusline" }

(\`lessons-reinject doctor\` names the plugin folder.)

Options:
  --pass      print stdin back unchanged instead of the gauge (to pipe into your own statusline)
  --json      print what was recorded as JSON
  -h, --help  this help
`;

/** Records the reading in `stdin`; returns what happened. Never throws. */
async function bridge(
  stdin: string | undefined | { unreadable: string },
  settings: Settings,
  now: number,
): Promise<StatuslineJson> {
  const none = { recorded: false, path: null, percent: null, tokens: null, window: null };
  const nothing = (error: string): StatuslineJson => ({
    ...none,
    line: `lessons-reinject: no context reading (${error})`,
    error,
  });
  if (stdin === undefined) return nothing("stdin is larger than the cap");
  if (typeof stdin !== "string") return nothing(stdin.unreadable);
  let input: unknown;
  try {
    input = JSON.parse(stdin);
  } catch {
    return nothing(stdin.trim() === "" ? "stdin is empty" : "stdin is not JSON");
  }
  const transcript = typeof input === "object" && input !== null && "transcript_path" in input &&
      typeof input.transcript_path === "string"
    ? input.transcript_path
    : undefined;
  const size = transcript === undefined ? undefined : fileSize(transcript);
  const made = recordFromStatusline(input, now, size);
  if ("error" in made) return nothing(made.error);
  const { record } = made;
  // The hook's own steps on Claude Code's figures, run dry: what is due, what comes next.
  const trace = await dryRun(
    {
      session_id: record.sessionId,
      hook_event_name: "PostToolUse",
      ...(transcript === undefined ? {} : { transcript_path: transcript }),
      context_window: {
        used_percentage: record.percent,
        context_window_size: record.window ?? null,
        current_usage: record.tokens ?? null,
      },
    },
    settings,
    { render: false },
  );
  const reading = trace.reading && isReading(trace.reading) ? trace.reading : undefined;
  const due = trace.decision?.cause?.kind === "thresholds" ? trace.decision.cause.thresholds : [];
  const next = trace.decision?.upcoming;
  const bar = gauge(
    record.percent,
    settings.thresholds,
    reading?.window ?? record.window,
    20,
    reading && fillOf(reading).span,
  );
  const after = due.length > 0
    ? `refresh due (${names(due)})`
    : next === undefined
    ? "all refreshed"
    : `next refresh ${thresholdText(next)}`;
  const shown = {
    percent: record.percent,
    tokens: record.tokens ?? null,
    window: record.window ?? null,
    line: `${bar} · ${after}`,
  };
  const problem = preparePrivateDir(settings.stateDir);
  if (problem) return { ...shown, recorded: false, path: null, error: problem };
  try {
    return {
      ...shown,
      recorded: true,
      path: saveStatusline(settings.stateDir, record),
      error: null,
    };
  } catch (error) {
    return { ...shown, recorded: false, path: null, error: messageOf(error) };
  }
}

function fileSize(path: string): number | undefined {
  try {
    return Deno.statSync(path).size;
  } catch {
    return undefined;
  }
}

/** Runs `statusline`. Always exit 0 (a failing statusLine command blanks the line). */
export async function runStatusline(args: string[], ctx: Ctx): Promise<number> {
  const flags = await readFlags(args, { ...COMMON, pass: "boolean" }, STATUSLINE_HELP, ctx);
  if ("exit" in flags) return flags.exit;
  // A folder or a closed descriptor as stdin: say so on the line, exit 0 as promised.
  const stdin = await readStdinCapped().catch((error) => ({ unreadable: messageOf(error) }));
  const result = await bridge(stdin, ctx.settings, Date.now());
  if (flags.values.pass) await out(typeof stdin === "string" ? stdin : "");
  else if (flags.values.json) await printJson(result);
  else await out(`${result.line}\n`);
  if (!result.recorded && ctx.settings.debug) await err(`statusline not recorded: ${result.error}`);
  return EXIT_OK;
}
