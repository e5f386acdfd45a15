/**
 * `lessons-reinject why`: the hook's dry run for the next call (the trace of its debug line), and
 * what Claude Code recorded of its runs in the transcript: stderr lines it keeps but never shows.
 */
import { failed } from "../core/result.ts";
import { debugLine, stateDirFix } from "../hook.ts";
import { type HookRecord, hookRecordsOf } from "../io/hook_records.ts";
import { withTranscript } from "../io/transcript.ts";
import * as cli from "./common.ts";
import { type Account, accountOf } from "./account.ts";
import { readSessionFlags } from "./locate.ts";
import type { WhyJson } from "./schemas.ts";

const HELP =
  `Usage: lessons-reinject why [--transcript PATH | --session ID] [--project DIR] [--json]

Why no refresh came in a session, or when the next one comes: one answer from the hook's own steps
for the next tool call (the line it writes with LESSONS_DEBUG=1), then what Claude Code recorded
of the hook in the transcript: the lines it wrote to stderr (Claude Code keeps them there and does
not show them, even with --verbose) and runs cancelled at their timeout. Reads, never writes.

Options:
${cli.SESSION_OPTIONS}
  --json             print the answer as JSON
  -h, --help         this help
`;

/**
 * The one answer: what stops the hook (a state folder it will not use, nothing to restate), else
 * what its next call does and why. Pure.
 */
export function answerOf({ trace, host, nothing, stateProblem }: Account): string {
  if (stateProblem) {
    return `no refresh will come: ${stateProblem.error}, and the hook will not use it; ` +
      stateDirFix(host.stateDir, stateProblem);
  }
  const { decision, reason, refused, result } = trace!;
  const why = decision?.reason ?? reason;
  if (nothing) return `no refresh will come: ${nothing} (the next tool call: ${why})`;
  if (refused) return `no refresh can be given: ${refused} (${why})`;
  return result === "fired"
    ? `a refresh is due: the next tool call gives it (${why})`
    : `no refresh is due now: ${why}`;
}

/** The recorded runs as lines: `2026-12-04 10:02:11 PostToolUse:Bash: lessons-reinject: ...`. */
function recordLines(records: readonly HookRecord[]): string[] {
  return records.flatMap((r) => {
    const at = r.at ? `${r.at.replace("T", " ").replace(/\.\d+Z$/, "Z")} ` : "";
    return r.cancelled
      ? [`${at}${r.hook}: a hook was cancelled at its timeout (Claude Code names no command)`]
      : r.lines.map((line) => `${at}${r.hook}: ${line}`);
  });
}

/** Runs `why`. Exit 0 with an answer; 1 when no transcript could be found; 2 on bad flags. */
export async function runWhy(args: string[], ctx: cli.Ctx): Promise<number> {
  const flags = await readSessionFlags(args, cli.TARGET, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const { target } = flags;
  const { settings } = ctx;
  // The host's settings and rules (AGENTS.md for Codex), as the dry run's own.
  const account = await accountOf(settings, flags.cwd, target);
  const read = withTranscript(target.path, (source, size) => hookRecordsOf(source, size));
  const records = failed(read) ? [] : read;
  const quiet = "none: the hook writes a line per call only with LESSONS_DEBUG=1 (or " +
    `"debug": true in the config file), and otherwise only when a setting is wrong`;
  const why: WhyJson = {
    transcript: target.path,
    answer: answerOf(account),
    nextCall: debugLine(account.trace!),
    recorded: recordLines(records),
    problems: settings.problems,
    configFile: cli.configFileText(settings.configFile),
  };
  if (flags.values.json) {
    await cli.printJson(why);
    return cli.EXIT_OK;
  }
  const rows: [string, string][] = [
    ["answer", why.answer],
    ["next call", why.nextCall],
    ["recorded", why.recorded.length > 0 ? why.recorded.join("\n") : quiet],
    ...why.problems.map((p): [string, string] => ["problem", p]),
    ["config file", why.configFile],
    ["transcript", why.transcript],
  ];
  await cli.out(cli.table(rows, 12, ctx.width));
  return cli.EXIT_OK;
}
