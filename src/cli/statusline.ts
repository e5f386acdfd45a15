/**
 * `lessons-reinject statusline`: the bridge for Claude Code's `statusLine` command. Records the
 * stdin's `context_window` reading for the hook to prefer; prints a gauge (`--pass`: the stdin).
 */
import { messageOf } from "../core/errors.ts";
import { failed } from "../core/result.ts";
import { formatTokens } from "../core/header.ts";
import { isTokenThreshold, thresholdText } from "../core/numbers.ts";
import { percentOf } from "../core/window.ts";
import { NOTHING_TO_RESTATE } from "../hook/refresh.ts";
import { sourceProblems } from "../io/rule_sources.ts";
import { preparePrivateDir } from "../io/state_store.ts";
import { fieldOf } from "../schemas/guards.ts";
import { statOf } from "../io/files.ts";
import { readStdinCapped } from "../io/stdin.ts";
import { recordFromStatusline, saveStatusline } from "../io/statusline_store.ts";
import type { Settings } from "../settings/resolve.ts";
import * as cli from "./common.ts";
import { accountOf } from "./account.ts";
import type { StatuslineJson } from "./schemas.ts";

const HELP = `Usage: lessons-reinject statusline [--pass] [--json]

For Claude Code's statusLine setting: records the context reading of the statusLine JSON on stdin
for the session, which the hook prefers while it is fresh (at most 60 s old and newer than the
transcript's last usage), and prints a compact gauge. Always exits 0. In ~/.claude/settings.json:

  "statusLine": {
    "type": "command",
    "command": "<plugin folder>/hooks/run statusline"
  }

Options:
  --pass      print stdin back unchanged instead of the gauge (to pipe into your own statusline)
  --json      print what was recorded as JSON
  -h, --help  this help
`;

/** Records the reading in `stdin`; returns what happened. Never throws. */
export async function bridge(
  stdin: string | undefined | Error,
  settings: Settings,
  here: string,
): Promise<StatuslineJson> {
  const none = {
    recorded: false,
    path: null,
    percent: null,
    tokens: null,
    window: null,
    configFile: cli.configFileText(settings.configFile),
  };
  // Settings the hook refused, while they last (session start named them; `doctor` details them).
  const count = settings.problems.length;
  const refused = count === 0 ? "" : ` · settings: ${cli.count(count, "problem")}, see doctor`;
  // At startup the line says so plainly; any other lack of a reading says why.
  const nothing = (error: string, early?: boolean): StatuslineJson => ({
    ...none,
    line: `lessons-reinject: no context reading ${early ? "yet" : `(${error})`}${refused}`,
    error,
  });
  if (stdin instanceof Error) return nothing(messageOf(stdin));
  if (stdin === undefined) return nothing("stdin is larger than the cap");
  let input: unknown;
  try {
    input = JSON.parse(stdin);
  } catch {
    return nothing(stdin.trim() === "" ? "stdin is empty" : "stdin is not JSON");
  }
  const transcript = fieldOf(input, "transcript_path");
  const path = typeof transcript === "string" ? transcript : undefined;
  // The session's folder, whose rules the hook restates (Claude Code runs the command there).
  const folder = fieldOf(input, "cwd") ?? fieldOf(fieldOf(input, "workspace"), "current_dir");
  const cwd = typeof folder === "string" && folder !== "" ? folder : here;
  // No transcript yet: the record carries no size.
  const record = recordFromStatusline(input, Date.now(), path ? statOf(path)?.size : undefined);
  if (failed(record)) return nothing(record.error, record.early);
  // The account of the session at this reading, as `status --json` gives it: the host's settings
  // and rules, one dry run (no transcript yet: the reading alone).
  const target = { path: path ?? "", sessionId: record.sessionId, agentId: undefined };
  const account = await accountOf(settings, cwd, target, {
    used_percentage: record.percent,
    context_window_size: record.window ?? null,
    current_usage: record.tokens ?? null,
  });
  const { host, rules } = account;
  const r = account.status!;
  const window = r.window ?? record.window;
  // Compacting early, of the auto-compact window: what Claude Code's own figure counts (2.1.336).
  const point = r.compaction;
  const early = point?.tokens != null && point.window != null && window !== undefined &&
      point.window < window
    ? { tokens: point.tokens, window: point.window, source: point.source }
    : undefined;
  const { tokens } = record;
  const percent = early && tokens !== undefined ? percentOf(tokens, early.window) : record.percent;
  const bar = cli.gauge(percent, host.thresholds, early?.window ?? window, 20, r.span);
  const near = early ? ` · compaction near ${formatTokens(early.tokens)} (${early.source})` : "";
  // Never a promise the hook will not keep: no state folder it will use, or no rules.
  const problem = preparePrivateDir(host.stateDir)?.error;
  const promise = r.pending.length > 0
    ? `refresh due (${cli.names(r.pending)})`
    : r.next === null
    ? undefined
    : `next refresh at ${nextAt(r.next, r.nextTokens)}`;
  // Nothing to restate, said in a few words: the first problem found, if any.
  const brief = () =>
    [rules.manifest.kind === "invalid" ? rules.manifest.error : [], sourceProblems(rules.sources)]
      .flat()[0] ?? NOTHING_TO_RESTATE;
  const broken = problem ?? (promise && account.nothing && brief());
  const after = broken ? `no refresh: ${broken}` : promise ?? "all refreshed";
  const result = {
    ...none,
    percent: record.percent,
    tokens: record.tokens ?? null,
    window: record.window ?? null,
    line: `${bar} · ${after}${near}${refused}`,
    error: null,
  };
  if (problem) return { ...result, error: problem };
  try {
    return { ...result, recorded: true, path: saveStatusline(host.stateDir, record) };
  } catch (error) {
    return { ...result, error: messageOf(error) };
  }
}

/** The next refresh in tokens, as people say them: `180k`; `60k (30%)` for a percentage. */
function nextAt(next: number, tokens: number | null): string {
  if (isTokenThreshold(next)) return formatTokens(next);
  return tokens === null ? thresholdText(next) : `${formatTokens(tokens)} (${thresholdText(next)})`;
}

/** Runs `statusline`. Always exit 0 (a failing statusLine command blanks the line). */
export async function runStatusline(args: string[], ctx: cli.Ctx): Promise<number> {
  const flags = await cli.readFlags(args, { ...cli.COMMON, pass: "boolean" }, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  // A folder or a closed descriptor as stdin: say so on the line, exit 0 as promised.
  const stdin = await readStdinCapped().catch((error: Error) => error);
  const result: StatuslineJson = await bridge(stdin, ctx.settings, ctx.program().cwd);
  if (flags.values.pass) await cli.out(typeof stdin === "string" ? stdin : "");
  else if (flags.values.json) await cli.printJson(result);
  else await cli.out(`${result.line}\n`);
  if (!result.recorded && ctx.settings.debug) {
    await cli.err(`statusline not recorded: ${result.error}`);
  }
  return cli.EXIT_OK;
}
