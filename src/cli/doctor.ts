/**
 * `lessons-reinject doctor`: checks an installation (config, environment, the plugin's wiring and
 * binary, the rules, the thresholds against auto-compaction, the state folder, the statusline
 * bridge) and the newest session through the hook's own dry run; each problem with its fix.
 * Exit 0 when nothing failed, 1 otherwise.
 */
import { fieldOf } from "../schemas/guards.ts";
import { join } from "../core/path.ts";
import {
  BLOCKING_BUFFER,
  LARGE_WINDOW,
  SMALL_WINDOW,
  SUMMARY_OUTPUT_BUFFER,
} from "../core/claude_code.ts";
import { type CompactionPoint, mergeCompactSettings, spanFor } from "../core/compaction_point.ts";
import { formatTokens } from "../core/header.ts";
import { isTokenThreshold, percentText, type Threshold, thresholdText } from "../core/numbers.ts";
import { fillOf, isReading } from "../core/reading.ts";
import { pointOf } from "../core/thresholds.ts";
import { compactionText, dryRun, stateDirFix, type Trace } from "../hook.ts";
import { readCompactSources } from "../io/claude_settings.ts";
import { preparePrivateDir, untrustedDirReason } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  EXIT_OK,
  EXIT_PROBLEM,
  groupDigits,
  PLUGIN_INSTALL,
  printJson,
  programName,
  readFlags,
} from "./common.ts";
import { deliveryLines } from "./delivery_lines.ts";
import { checkRules, fail, ok, warn } from "./doctor_rules.ts";
import { checkPlugin, pluginRootFor } from "./doctor_setup.ts";
import { locateTranscript, nextCallPayload } from "./locate.ts";
import type { Check, DoctorJson } from "./schemas.ts";

const DOCTOR_HELP = `Usage: lessons-reinject doctor [--plugin-root DIR] [--json]

Checks the installation: the config file, settings in the environment, the hooks wiring
(hooks/hooks.json), the binary for this platform, the manifest (found, valid, how many directives
and protocols, size against the budget), the thresholds against auto-compaction, the state folder
(writable, private) and the statusline bridge. Each problem comes with its fix.
Exit 0 when nothing failed (warnings allowed), 1 otherwise.

Options:
  --plugin-root DIR  the plugin folder to check (default: $CLAUDE_PLUGIN_ROOT, else the newest
                     install under ~/.claude/plugins/cache, else this folder if it is a checkout)
  --json             print the checks as JSON
  -h, --help         this help
`;

const OPTIONS = { ...COMMON_OPTIONS, "plugin-root": { type: "string" } } as const;

/** Runs every check. */
async function diagnose(
  io: CliIo,
  settings: Settings,
  flag: string | undefined,
): Promise<DoctorJson> {
  const plugin = await pluginRootFor(settings, io.cwd(), flag);
  const notFound = fail(
    "plugin",
    "the lessons-reinject plugin was not found (no --plugin-root, no CLAUDE_PLUGIN_ROOT, no " +
      "install under ~/.claude/plugins/cache, and this folder is not a checkout)",
    `install the plugin (${PLUGIN_INSTALL}), or pass --plugin-root DIR`,
  );
  const target = await locateTranscript({}, settings.claudeDir, io.cwd());
  const session = target.kind === "error" ? undefined : {
    path: target.path,
    trace: await dryRun(nextCallPayload(target, io.cwd()), settings, { render: true }),
  };
  const checks: Check[] = [
    checkConfigFile(settings),
    checkEnvironment(settings),
    ...(plugin ? await checkPlugin(plugin, settings) : [notFound]),
    ...await checkRules(settings, io.cwd()),
    checkThresholds(settings, windowCases(settings, io.cwd(), session?.trace)),
    checkStateDir(settings.stateDir),
    await checkStatusline(settings.claudeDir),
    ...checkSession(session, programName(io)),
  ];
  return { ok: checks.every((c) => c.status !== "fail"), checks };
}

function checkConfigFile(settings: Settings): Check {
  const file = settings.configFile;
  if (file.problems.length > 0) {
    return fail(
      "config file",
      file.problems.join("\n"),
      `correct ${file.path ?? "the file"} at the line and column named (or remove it)`,
    );
  }
  if (!file.path) return ok("config file", "none: environment and defaults apply");
  return ok("config file", `${file.path} (${file.via}): ${file.empty ? "empty" : "valid"}`);
}

function checkEnvironment(settings: Settings): Check {
  const warnings = settings.problems.filter((p) => !settings.configFile.problems.includes(p));
  if (warnings.length === 0) return ok("environment", "every LESSONS_* setting is valid");
  return fail(
    "environment",
    warnings.join("\n"),
    "correct or unset the variables named (docs/configuration.md lists every setting)",
  );
}

/** A window the thresholds check looks at: where it compacts and the span percentages use. */
interface WindowCase {
  window: number;
  point: CompactionPoint;
  span: number;
  /** How the detail names it: "this session's" or "a". */
  whose: string;
}

/**
 * The windows that matter: the newest session's, as the hook's dry run measured it; else 200k
 * and 1M, against Claude Code's environment and settings files read now.
 */
function windowCases(settings: Settings, cwd: string, trace: Trace | undefined): WindowCase[] {
  const reading = trace?.reading;
  if (reading && isReading(reading) && reading.window !== undefined && reading.compaction) {
    const span = fillOf(reading).span;
    return [{ window: reading.window, point: reading.compaction, span, whose: "this session's" }];
  }
  const files = mergeCompactSettings(readCompactSources({
    claudeDir: settings.claudeDir,
    projectDir: settings.projectDir ?? cwd,
    os: Deno.build.os,
  }));
  return [SMALL_WINDOW, LARGE_WINDOW].map((window) => {
    const { compaction, span } = spanFor(window, undefined, {
      env: settings.compactEnv,
      files,
      learned: trace?.stateBefore?.compactedAt,
      thresholds: settings.thresholds,
      scale: settings.scaleForAutocompact,
    });
    return { window, point: compaction, span, whose: "a" };
  });
}

/**
 * Where each threshold falls on each window that matters, against where Claude Code compacts; and
 * the thresholds that never fire there: a token count at or past the compaction point (or, with
 * auto-compaction off, past where Claude Code stops the context), a percentage past it when the
 * thresholds are not measured against it (`LESSONS_SCALE_FOR_AUTOCOMPACT=0`).
 */
function checkThresholds(settings: Settings, cases: readonly WindowCase[]): Check {
  const details: string[] = [];
  const never = new Set<Threshold>();
  let scalingOff = false;
  for (const { window, point, span, whose } of cases) {
    const end = point.kind === "point"
      ? point.tokens
      : window - SUMMARY_OUTPUT_BUFFER - BLOCKING_BUFFER;
    const late = settings.thresholds.filter((t) => pointOf(t, span) >= end);
    late.forEach((t) => never.add(t));
    if (late.some((t) => !isTokenThreshold(t)) && point.kind === "point") scalingOff = true;
    const points = settings.thresholds.map((t) => groupDigits(pointOf(t, span))).join(", ");
    const measured = span === window
      ? `of ${whose} ${formatTokens(window)} window`
      : `of the ${groupDigits(span)} tokens before auto-compaction on ${whose} ${
        formatTokens(window)
      } window`;
    const compaction = point.kind === "point"
      ? `auto-compaction at ${groupDigits(point.tokens)} (${point.evidence})`
      : `no auto-compaction (${point.evidence}): the context stops at ${groupDigits(end)}`;
    const lost = late.length > 0
      ? `; ${late.map((t) => thresholdText(t)).join(", ")} never ${
        late.length === 1 ? "fires" : "fire"
      } there`
      : "";
    details.push(`${measured}: at ${points} tokens; ${compaction}${lost}`);
  }
  const detail = [settings.thresholds.map((t) => thresholdText(t)).join(", "), ...details].join(
    "\n",
  );
  if (never.size === 0) return ok("thresholds", detail);
  const lost = [...never].map((t) => thresholdText(t)).join(", ");
  if (scalingOff && !settings.scaleForAutocompact) {
    return fail(
      "thresholds",
      detail,
      "unset LESSONS_SCALE_FOR_AUTOCOMPACT=0 (on by default, it measures the percentages " +
        `against the compaction point), or lower ${lost}`,
    );
  }
  return warn(
    "thresholds",
    detail,
    `lower ${lost} below the compaction point (LESSONS_REINJECT_THRESHOLDS), or drop ` +
      `${never.size === 1 ? "it" : "them"}`,
  );
}

/** The state folder exists (or can be made) with mode 0700, owned by this user, writable. */
function checkStateDir(dir: string): Check {
  const untrusted = untrustedDirReason(dir);
  if (untrusted) {
    return fail(
      "state folder",
      `${untrusted}: the hook will not use it`,
      stateDirFix(dir, untrusted),
    );
  }
  const problem = preparePrivateDir(dir);
  if (problem) return fail("state folder", problem, stateDirFix(dir, problem));
  return ok("state folder", `${dir} (private, writable)`);
}

/** Whether Claude Code's statusLine feeds the bridge (optional: the transcript is the fallback). */
async function checkStatusline(root: string | undefined): Promise<Check> {
  const path = root ? join(root, "settings.json") : undefined;
  let command = "";
  if (path) {
    try {
      const json = JSON.parse(await Deno.readTextFile(path));
      command = String(fieldOf(fieldOf(json, "statusLine"), "command") ?? "");
    } catch {
      // No settings: not set up.
    }
  }
  if (/lessons-reinject[^|]*statusline/.test(command)) {
    return ok("statusline bridge", `set up in ${path}: the hook prefers its fresh readings`);
  }
  return ok(
    "statusline bridge",
    "not set up (optional): readings come from the transcript; see README for the statusLine setting",
  );
}

/** The newest session of this folder, as the hook's next tool call would see it. */
function checkSession(
  session: { path: string; trace: Trace } | undefined,
  program: string,
): Check[] {
  if (session === undefined) {
    return [ok("this session", "no transcript for this folder yet: nothing to check")];
  }
  const { path, trace } = session;
  if (!trace.decision) {
    return [fail("this session", `${path}: ${trace.reason}`, "see the state folder check")];
  }
  const next = trace.result === "fired"
    ? "the next tool call refreshes"
    : "the next tool call is silent";
  const reading = trace.reading;
  const checks: Check[] = [];
  if (!reading || !isReading(reading)) {
    checks.push(warn(
      "this session",
      `${path}: no reading (${reading?.reason}); ${next}: ${trace.reason}`,
      `nothing to do if the session just started or compacted; otherwise run \`${program} status\` to see why`,
    ));
  } else {
    const window = reading.window === undefined
      ? "an unknown window"
      : `a ${formatTokens(reading.window)} window (${reading.windowSource})`;
    checks.push(ok(
      "this session",
      `${path}: ${percentText(reading.percent)} of ${window}, from ${reading.source}${
        compactionText(reading)
      }; ${next}: ${trace.reason}`,
    ));
  }
  const deliveries = trace.decision.deliveries.map((d) => ({ ...d, reason: d.reason ?? null }));
  if (deliveries.length === 0) {
    checks.push(ok("deliveries", "no refresh in this session's current context yet"));
  } else if (deliveries.some((d) => d.status === "given up")) {
    checks.push(warn(
      "deliveries",
      deliveryLines(deliveries).join("\n"),
      "Claude Code did not deliver a refresh even when it was sent again: look for hook timeouts " +
        "or errors in `claude --debug`, and see docs/how-it-decides.md (delivery receipts)",
    ));
  } else checks.push(ok("deliveries", deliveryLines(deliveries).join("\n")));
  return checks;
}

/** The human report. Pure. */
function renderDoctor(report: DoctorJson): string {
  const lines = ["lessons-reinject doctor", ""];
  for (const check of report.checks) {
    const mark = check.status === "ok" ? "ok  " : check.status === "warn" ? "warn" : "FAIL";
    const [first, ...rest] = check.detail.split("\n");
    lines.push(`  ${mark}  ${check.name.padEnd(18)} ${first}`);
    for (const more of rest) lines.push(`${" ".repeat(27)}${more}`);
    if (check.fix) lines.push(`${" ".repeat(27)}fix: ${check.fix}`);
  }
  const failures = report.checks.filter((c) => c.status === "fail").length;
  const warnings = report.checks.filter((c) => c.status === "warn").length;
  lines.push("");
  lines.push(
    failures > 0
      ? `${failures} ${failures === 1 ? "problem" : "problems"} to fix.`
      : `All well${
        warnings > 0 ? ` (${warnings} ${warnings === 1 ? "warning" : "warnings"})` : ""
      }.`,
  );
  return lines.join("\n") + "\n";
}

/** Runs `doctor`. Exit 0 when no check failed, 1 otherwise. */
export async function runDoctor(args: string[], io: CliIo, settings: Settings): Promise<number> {
  const parsed = await readFlags(args, OPTIONS, DOCTOR_HELP, io);
  if (parsed.kind === "done") return parsed.exit;
  const report = await diagnose(io, settings, parsed.values["plugin-root"]);
  if (parsed.values.json) await printJson(io, report);
  else await io.stdout(renderDoctor(report));
  return report.ok ? EXIT_OK : EXIT_PROBLEM;
}
