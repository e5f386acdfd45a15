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
import {
  type Ctx,
  EXIT_OK,
  EXIT_PROBLEM,
  groupDigits,
  out,
  printJson,
  PROJECT,
  readFlags,
  table,
  wrap,
} from "./common.ts";
import { checkRules, checkThresholds } from "./doctor_rules.ts";
import { check, checkPlugin, checkStatusline, pluginRootFor } from "./doctor_setup.ts";
import { locateTranscript, nextCallPayload } from "./locate.ts";
import { sampleRefresh } from "./rules.ts";
import type { Check, DoctorJson, StatusJson } from "./schemas.ts";
import { deliveryLines, statusOf } from "./status.ts";

const DOCTOR_HELP = `Usage: lessons-reinject doctor [--plugin-root DIR] [--project DIR] [--json]

Checks the installation: the config file, settings in the environment, the hooks wiring
(hooks/hooks.json), the binary for this platform, the rules (the manifest and your own: found,
valid, size against the budget), the thresholds against auto-compaction, the state folder
(writable, private), the statusline bridge, and the project's newest session. Each problem comes
with its fix. Exit 0 when nothing failed (warnings allowed), 1 otherwise.

Options:
  --plugin-root DIR  the plugin folder to check (default: $CLAUDE_PLUGIN_ROOT, else the newest
                     install under ~/.claude/plugins, else the checkout or plugin it runs from)
  --project DIR      the project to check (default: the folder you run it from)
  --json             print the checks as JSON
  -h, --help         this help
`;

/** Runs every check for the project at `cwd`. */
async function diagnose(ctx: Ctx, cwd: string, flag: string | undefined): Promise<DoctorJson> {
  const { settings } = ctx;
  const program = ctx.program();
  const plugin = await pluginRootFor(settings, program.root, flag);
  const target = locateTranscript({}, settings.claudeDir, cwd);
  const trace = "error" in target
    ? undefined
    : await dryRun(nextCallPayload(target, cwd), settings, { render: true });
  const session = trace && !("error" in target)
    ? statusOf(trace, target, settings, { sources: [], leftOut: [] })
    : undefined;
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
    ...checkSession(session, program.command),
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
    : `; auto-compaction at ${groupDigits(r.compaction.tokens)} (${r.compaction.evidence})`;
  const checks = [
    r.percent === null
      ? check(
        "this session",
        "warn",
        `${r.transcript}: no reading (${r.reason}); ${next}`,
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

/** The column where a check's detail starts: after `  FAIL  `, and the name padded. */
const DETAIL = 27;

/** The human report, wrapped to `width`. Pure. */
function renderDoctor(report: DoctorJson, width: number): string {
  const rows = report.checks.flatMap((c): [string, string][] => {
    const mark = { ok: "ok", warn: "warn", fail: "FAIL" }[c.status];
    return [
      [`  ${mark.padEnd(4)}  ${c.name}`, c.detail],
      ...(c.fix ? [["", `fix: ${c.fix}`] as [string, string]] : []),
    ];
  });
  const failures = report.checks.filter((c) => c.status === "fail").length;
  const warnings = report.checks.filter((c) => c.status === "warn").length;
  const plural = (n: number, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`}`;
  const end = failures > 0
    ? `${plural(failures, "problem")} to fix.`
    : `All well${warnings > 0 ? ` (${plural(warnings, "warning")})` : ""}.`;
  return `lessons-reinject doctor\n\n${table(rows, DETAIL, width)}\n${
    wrap(end, width).join("\n")
  }\n`;
}

/** Runs `doctor`. Exit 0 when no check failed, 1 otherwise. */
export async function runDoctor(args: string[], ctx: Ctx): Promise<number> {
  const flags = await readFlags(args, { ...PROJECT, "plugin-root": "string" }, DOCTOR_HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const report = await diagnose(ctx, flags.cwd, flags.values["plugin-root"]);
  if (flags.values.json) await printJson(report);
  else await out(renderDoctor(report, ctx.width));
  return report.ok ? EXIT_OK : EXIT_PROBLEM;
}
