/** `lessons-reinject doctor`: checks an installation and the newest session (its dry run). */
import { formatTokens } from "../core/header.ts";
import { percentText } from "../core/numbers.ts";
import { stateDirFix } from "../hook.ts";
import type { Failure } from "../core/result.ts";
import { preparePrivateDir } from "../io/state_store.ts";
import { envProblems, type Settings } from "../settings/resolve.ts";
import * as cli from "./common.ts";
import { checkRules, checkThresholds } from "./doctor_rules.ts";
import { check, checkPlugin, checkStatusline, pluginRootFor } from "./doctor_setup.ts";
import { locateTranscript } from "./locate.ts";
import { accountOf, shownRefresh } from "./account.ts";
import type { Check, DoctorJson, StatusJson } from "./schemas.ts";
import { contextText, deliveryLines, nextCallText } from "./status.ts";

const HELP = `Usage: lessons-reinject doctor [--plugin-root DIR] [--project DIR] [--json]

Checks the installation: the config file, settings in the environment, the hooks wiring, the
binary for this platform, the rules (the manifest and your own), the thresholds against
auto-compaction, the state folder, the statusline bridge, and the project's newest session. Each
problem comes with its fix. Exit 0 when nothing failed (warnings allowed), 1 otherwise.

Options:
  --plugin-root DIR  the plugin folder to check (default: the one Claude Code runs, else the
                     checkout or plugin doctor runs from)
  --project DIR      the project to check (default: this folder)
  --json             print the checks as JSON
  -h, --help         this help
`;

/** Runs every check for the project at `cwd`. */
async function diagnose(ctx: cli.Ctx, cwd: string, flag: string | undefined): Promise<DoctorJson> {
  const program = ctx.program();
  const target = locateTranscript({}, cwd, ctx.settings);
  // The rules of the project's newest session's agent (AGENTS.md for Codex: io/hosts.ts).
  const account = await accountOf(ctx.settings, cwd, target);
  const { host: settings, trace, status } = account;
  const plugin = pluginRootFor(settings, program.root, flag);
  // The size `preview` gives: the refresh this session's next one would be, at its reading.
  const next = await shownRefresh(account, cwd, target, { always: true });
  const measured = next.built?.kind === "text" ? next.built.account : undefined;
  const checks: Check[] = [
    ...checkSettings(settings),
    ...await checkPlugin(plugin, settings),
    ...checkRules(account, measured ?? account.sample!),
    checkThresholds(settings, cwd, trace),
    checkStateDir(settings.stateDir, account.stateProblem),
    checkStatusline(settings, plugin),
    ...checkSession(status, program.command),
  ];
  return { ok: checks.every((c) => c.status !== "fail"), checks };
}

/** The config file and the environment: each setting valid, else the lines naming what is not. */
function checkSettings(settings: Settings): Check[] {
  const { configFile: file } = settings;
  const env = envProblems(settings);
  const where = `correct ${file.path ?? "the file"} at the line and column named (or remove it)`;
  const unset = "correct or unset the variables named (docs/configuration.md lists every setting)";
  const found = `${cli.configFileText(file)}: ` +
    (file.path ? (file.empty ? "empty" : "valid") : "environment and defaults apply");
  return [
    file.problems.length > 0
      ? check("config file", "fail", file.problems.join("\n"), where)
      : check("config file", "ok", found),
    env.length > 0
      ? check("environment", "fail", env.join("\n"), unset)
      : check("environment", "ok", "every LESSONS_* setting is valid"),
  ];
}

/**
 * The state folder exists (or can be made) with mode 0700, owned by this user, writable;
 * `untrusted`: the account's reason the hook will not use it.
 */
function checkStateDir(dir: string, untrusted: Failure | undefined): Check {
  const problem = untrusted ?? preparePrivateDir(dir);
  if (!problem) return check("state folder", "ok", `${dir} (private, writable)`);
  const said = untrusted ? `${untrusted.error}: the hook will not use it` : problem.error;
  return check("state folder", "fail", said, stateDirFix(dir, problem));
}

/** The project's newest session, as the hook's next tool call would see it. */
function checkSession(r: StatusJson | undefined, program: string): Check[] {
  if (r === undefined) return [check("this session", "ok", "no transcript for this project yet")];
  const next = `the next tool call ${nextCallText(r)}`;
  const c = r.compaction;
  const point = c?.tokens == null
    ? ""
    : `; auto-compaction at ${cli.groupDigits(c.tokens)} (${c.evidence})`;
  const window = `a ${formatTokens(r.window ?? 0)} window (${r.windowSource})`;
  const why =
    `nothing to do if the session just started or compacted; else \`${program} status\` says why`;
  const given =
    "Claude Code did not deliver a refresh even when it was sent again: look for hook " +
    "timeouts or errors in `claude --debug`, and see docs/how-it-decides.md (delivery receipts)";
  const lines = deliveryLines(r.deliveries).join("\n");
  const seen = r.percent === null
    ? contextText(r)
    : `${percentText(r.percent)} of ${window}, from ${r.source}${point}`;
  return [
    r.percent === null
      ? check("this session", "warn", `${r.transcript}: ${seen}; ${next}`, why)
      : check("this session", "ok", `${r.transcript}: ${seen}; ${next}`),
    r.deliveries.length === 0
      ? check("deliveries", "ok", "no refresh in this session's current context yet")
      : r.deliveries.some((d) => d.status === "given up")
      ? check("deliveries", "warn", lines, given)
      : check("deliveries", "ok", lines),
  ];
}

/** The human report: each check's detail and fix from column 28. */
function render(report: DoctorJson, width: number): string {
  const rows = report.checks.flatMap((c): [string, string][] => [
    [`  ${{ ok: "ok", warn: "warn", fail: "FAIL" }[c.status].padEnd(4)}  ${c.name}`, c.detail],
    ...(c.fix ? [["", `fix: ${c.fix}`] as [string, string]] : []),
  ]);
  const failures = report.checks.filter((c) => c.status === "fail").length;
  const warnings = report.checks.filter((c) => c.status === "warn").length;
  const end = failures > 0
    ? `${cli.count(failures, "problem")} to fix.`
    : `All well${warnings > 0 ? ` (${cli.count(warnings, "warning")})` : ""}.`;
  return `lessons-reinject doctor\n\n${cli.table(rows, 27, width)}\n${end}\n`;
}

/** Runs `doctor`. Exit 0 when no check failed, 1 otherwise. */
export async function runDoctor(args: string[], ctx: cli.Ctx): Promise<number> {
  const flags = await cli.readFlags(args, { ...cli.PROJECT, "plugin-root": "string" }, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const report = await diagnose(ctx, flags.cwd, flags.values["plugin-root"]);
  await (flags.values.json ? cli.printJson(report) : cli.out(render(report, ctx.width)));
  return report.ok ? cli.EXIT_OK : cli.EXIT_PROBLEM;
}
