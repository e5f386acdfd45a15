/**
 * `lessons-reinject statusline`: the bridge for Claude Code's `statusLine` command, whose stdin
 * carries `context_window`. Records that reading for the session (atomically, in the state folder)
 * so the hook can prefer it, and prints a compact gauge, or with `--pass` its stdin unchanged.
 */
import { thresholdText } from "../core/numbers.ts";
import { fillOf, isReading } from "../core/reading.ts";
import { dryRun } from "../hook.ts";
import { preparePrivateDir } from "../io/state_store.ts";
import { recordFromStatusline, saveStatusline } from "../io/statusline_store.ts";
import { type CliIo, COMMON_OPTIONS, EXIT_OK, messageOf, printJson, readFlags } from "./common.ts";
import { gauge } from "./gauge.ts";
import type { StatuslineJson } from "./schemas.ts";
import type { Settings } from "../settings/resolve.ts";

const STATUSLINE_HELP = `Usage: lessons-reinject statusline [--pass] [--json]

For Claude Code's statusLine setting. Reads the statusLine JSON on stdin, records its context
reading (context_window: used_percentage, context_window_size, current_usage) for the session in
the state folder, and prints a compact gauge line. The hook prefers this reading while it is
fresh (at most 60 s old and not older than the transcript's last usage). Always exits 0.

  "statusLine": { "type": "command", "command": "lessons-reinject statusline" }
  "statusLine": { "type": "command", "command": "lessons-reinject statusline --pass | ccstatusline" }

Options:
  --pass      print stdin back unchanged instead of the gauge (to pipe into your own statusline)
  --json      print what was recorded as JSON
  -h, --help  this help
`;

const OPTIONS = { ...COMMON_OPTIONS, pass: { type: "boolean" } } as const;

/** Records the reading in `stdin`; returns what happened. Never throws. */
async function bridgeStatusline(
  stdin: string | undefined | { unreadable: string },
  io: CliIo,
  settings: Settings,
): Promise<StatuslineJson> {
  const nothing = (error: string): StatuslineJson => ({
    recorded: false,
    path: null,
    percent: null,
    tokens: null,
    window: null,
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
  const transcriptPath = typeof input === "object" && input !== null && "transcript_path" in input
    ? input.transcript_path
    : undefined;
  const size = typeof transcriptPath === "string"
    ? (await Deno.stat(transcriptPath).catch(() => undefined))?.size
    : undefined;
  const made = recordFromStatusline(input, io.now(), size);
  if ("error" in made) return nothing(made.error);
  const { record } = made;
  const { stateDir } = settings;
  // The hook's own steps on Claude Code's figures, run dry: what is due, what comes next.
  const trace = await dryRun(
    {
      session_id: record.sessionId,
      hook_event_name: "PostToolUse",
      ...(typeof transcriptPath === "string" ? { transcript_path: transcriptPath } : {}),
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
  const span = reading ? fillOf(reading).span : undefined;
  const due = trace.decision?.cause?.kind === "thresholds" ? trace.decision.cause.thresholds : [];
  const next = trace.decision?.upcoming;
  const names = (list: readonly number[]) => list.map((t) => thresholdText(t)).join(", ");
  const line = `${
    gauge(record.percent, settings.thresholds, reading?.window ?? record.window, 20, span)
  }${
    due.length > 0
      ? ` · refresh due (${names(due)})`
      : next === undefined
      ? " · all refreshed"
      : ` · next refresh ${thresholdText(next)}`
  }`;
  const shown = {
    percent: record.percent,
    tokens: record.tokens ?? null,
    window: record.window ?? null,
    line,
  };
  const problem = preparePrivateDir(stateDir);
  if (problem) return { ...shown, recorded: false, path: null, error: problem };
  try {
    const path = saveStatusline(stateDir, record);
    return { ...shown, recorded: true, path, error: null };
  } catch (error) {
    return { ...shown, recorded: false, path: null, error: messageOf(error) };
  }
}

/** Runs `statusline`. Always exit 0 (a failing statusLine command blanks the line). */
export async function runStatusline(
  args: string[],
  io: CliIo,
  settings: Settings,
): Promise<number> {
  const parsed = await readFlags(args, OPTIONS, STATUSLINE_HELP, io);
  if (parsed.kind === "done") return parsed.exit;
  const flags = parsed.values;
  // A directory or a closed descriptor as stdin: say so on the line, exit 0 as promised.
  const stdin = await io.readStdin().catch((error) => ({ unreadable: messageOf(error) }));
  const result = await bridgeStatusline(stdin, io, settings);
  if (flags.pass) await io.stdout(typeof stdin === "string" ? stdin : "");
  else if (flags.json) await printJson(io, result);
  else await io.stdout(`${result.line}\n`);
  if (!result.recorded && settings.debug) {
    await io.stderr(`lessons-reinject: statusline not recorded: ${result.error}\n`);
  }
  return EXIT_OK;
}
