/**
 * `lessons-reinject doctor`: checks an installation (config, environment, the plugin's wiring and
 * binary, the rules, the thresholds against auto-compaction, the state folder, the statusline
 * bridge) and the project's newest session through the hook's own dry run; each problem with its
 * fix. Exit 0 when nothing failed, 1 otherwise.
 */
import { formatTokens } from "../core/header.ts";
import { percentText } from "../core/numbers.ts";
import { dryRun, stateDirFix } from "../hook.ts";
import { loadStandingRules } from "../io/standing_rules.ts";
import { preparePrivateDir, untrustedDirReason } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";
import * as cli from "./common.ts";
import { checkRules, checkThresholds } from "./doctor_rules.ts";
import { check, checkPlugin, checkStatusline, pluginRootFor } from "./doctor_setup.ts";
import { locateTranscript, nextCallPayload } from "./locate.ts";
import { sampleRefresh } from "./rules.ts";
import type { Check, DoctorJson, StatusJson } from "./schemas.ts";
import { contextText, deliveryLines, statusOf } from "./status.ts";

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
  const { settings } = ctx;
  const program = ctx.program();
  const plugin = await pluginRootFor(settings, program.root, flag);
  const target = locateTranscript({}, settings.claudeDir, cwd);
  const found = "error" in target ? undefined : target;
  const trace = found && await dryRun(nextCallPayload(found, cwd), settings, { render: true });
  const rules = await loadStandingRules(settings, cwd);
  const checks: Check[] = [
    checkConfigFile(settings),
    checkEnvironment(settings),
    ...await checkPlugin(plugin, settings),
    ...checkRules(
      rules,
      sampleRefresh(rules, settings.thresholds, settings.maxChars),
      settings.maxChars,
    ),
    checkThresholds(settings, cwd, trace),
    checkStateDir(settings.stateDir),
    checkStatusline(settings, plugin),
    ...checkSession(
      trace && found && statusOf(trace, found, settings, { sources: [], leftOut: [] }),
      program.command,
    ),
  ];
  return { ok: checks.every((c) => c.status !== "fail"), checks };
}

function checkConfigFile(settings: Settings): Check {
  const file = settings.configFile;
  if (file.problems.length > 0) {
    return check(
      "config file",
      "fail",
      file.problems.join("\n"),
      `correct ${file.path ?? "the file"} at the line and column named (or remove it)`,
    );
  }
  if (!file.path) return check("config file", "ok", "none: environment and defaults apply");
  return check("config file", "ok", `${file.path} (${file.via}): valid`);
}

function checkEnvironment(settings: Settings): Check {
  const warnings = settings.problems.filter((p) => !settings.configFile.problems.includes(p));
  if (warnings.length === 0) return check("environment", "ok", "every LESSONS_* setting is valid");
  return check(
    "environment",
    "fail",
    warnings.join("\n"),
    "correct or unset the variables named (docs/configuration.md lists every setting)",
  );
}

/** The state folder exists (or can be made) with mode 0700, owned by this user, writable. */
function checkStateDir(dir: string): Check {
  const untrusted = untrustedDirReason(dir);
  const problem = untrusted ? `${untrusted}: the hook will not use it` : preparePrivateDir(dir);
  if (problem) {
    return check("state folder", "fail", problem, stateDirFix(dir, untrusted ?? problem));
  }
  return check("state folder", "ok", `${dir} (private, writable)`);
}

/** The project's newest session, as the hook's next tool call would see it (as `status` does). */
function checkSession(r: StatusJson | undefined, program: string): Check[] {
  if (r === undefined) return [check("this session", "ok", "no transcript for this project yet")];
  const next = `the next tool call ${
    r.action === "refresh" ? "refreshes" : "does nothing"
  }: ${r.decision}`;
  const point = r.compaction?.tokens == null
    ? ""
    : `; auto-compaction at ${cli.groupDigits(r.compaction.tokens)} (${r.compaction.evidence})`;
  const checks = [
    r.percent === null
      ? check(
        "this session",
        "warn",
        `${r.transcript}: ${contextText(r)}; ${next}`,
        `nothing to do if the session just started or compacted; otherwise run \`${program} status\` to see why`,
      )
      : check(
        "this session",
        "ok",
        `${r.transcript}: ${percentText(r.percent)} of a ${
          formatTokens(r.window ?? 0)
        } window (${r.windowSource}), from ${r.source}${point}; ${next}`,
      ),
  ];
  const lines = deliveryLines(r.deliveries).join("\n");
  if (r.deliveries.length === 0) {
    checks.push(check("deliveries", "ok", "no refresh in this session's current context yet"));
  } else if (r.deliveries.some((d) => d.status === "given up")) {
    checks.push(
      check(
        "deliveries",
        "warn",
        lines,
        "Claude Code did not deliver a refresh even when it was sent again: look for hook timeouts or errors in `claude --debug`, and see docs/reliability.md (delivery receipts)",
      ),
    );
  } else checks.push(check("deliveries", "ok", lines));
  return checks;
}

/** The human report, wrapped to `width`, each check's detail and fix from column 28. Pure. */
function render(report: DoctorJson, width: number): string {
  const rows = report.checks.flatMap((c): [string, string][] => [
    [`  ${{ ok: "ok", warn: "warn", fail: "FAIL" }[c.status].padEnd(4)}  ${c.name}`, c.detail],
    ...(c.fix ? [["", `fix: ${c.fix}`] as [string, string]] : []),
  ]);
  const failures = report.checks.filter((c) => c.status === "fail").length;
  const warnings = report.checks.filter((c) => c.status === "warn").length;
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const end = failures > 0
    ? `${plural(failures, "problem")} to fix.`
    : `All well${warnings > 0 ? ` (${plural(warnings, "warning")})` : ""}.`;
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
