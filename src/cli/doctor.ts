/**
 * `lessons-reinject doctor`: checks an installation (config, settings, hooks wiring, the binary
 * for this platform, the manifest, thresholds against auto-compaction, the state folder, the
 * statusline bridge) and names a fix for each problem. Exit 0 when nothing failed, 1 otherwise.
 */
import { fieldOf } from "../core/field.ts";
import { fileReason } from "../core/errors.ts";
import { whyNotJson } from "../core/json_syntax.ts";
import { join } from "../core/path.ts";
import type { CombinedRefresh } from "../core/render_rules.ts";
import {
  BLOCKING_BUFFER,
  HOOK_EVENTS,
  INLINE_LIMIT,
  LARGE_WINDOW,
  SMALL_WINDOW,
  SUMMARY_OUTPUT_BUFFER,
} from "../core/claude_code.ts";
import {
  compactionPoint,
  type CompactSettings,
  mergeCompactSettings,
  thresholdSpan,
} from "../core/compaction_point.ts";
import { isTokenThreshold, type Threshold, thresholdText } from "../core/numbers.ts";
import { pointOf } from "../core/thresholds.ts";
import { readCompactSources } from "../io/claude_settings.ts";
import { compactionText } from "../hook/trace.ts";
import type { FoundManifest } from "../io/manifest_load.ts";
import { sampleRefresh } from "./sample_refresh.ts";
import { loadStandingRules } from "../io/standing_rules.ts";
import { checkOwnRules } from "./doctor_rules.ts";
import { newestInstalledFile } from "../io/plugin_cache.ts";
import { localPluginRoot } from "../io/local_marketplace.ts";
import { launcherVerdict, readLauncherState } from "../io/launcher_state.ts";
import { preparePrivateDir, untrustedDirReason } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";
import { isReading, percentText } from "../core/decide.ts";
import { formatTokens } from "../core/header.ts";
import { type DryRun, dryRun } from "./dry_run.ts";
import type { Plan } from "../hook/plan.ts";
import { deliveryLines } from "./delivery_lines.ts";
import { locateTranscript } from "./locate.ts";
import { manifestFix } from "./manifest_advice.ts";
import { stateDirFix } from "../hook/startup_notice.ts";
import {
  type CliIo,
  COMMON_OPTIONS,
  count,
  EXIT_OK,
  EXIT_PROBLEM,
  groupDigits,
  PLUGIN_INSTALL,
  printJson,
  programName,
  readFlags,
} from "./common.ts";
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

const ok = (name: string, detail: string): Check => ({ name, status: "ok", detail, fix: null });
const warn = (name: string, detail: string, fix: string): Check => ({
  name,
  status: "warn",
  detail,
  fix,
});
const fail = (name: string, detail: string, fix: string): Check => ({
  name,
  status: "fail",
  detail,
  fix,
});

/**
 * The plugin folder to check: `--plugin-root`, else `CLAUDE_PLUGIN_ROOT`, else the folder of a
 * marketplace added from a local folder (Claude Code runs the hook there, not from its cache copy),
 * else the newest install
 * under `~/.claude/plugins/cache/<marketplace>/lessons-reinject/<version>`, else the current folder
 * when it is a checkout of this plugin. (Not the executable's own location: a compiled binary's
 * modules have none, so the program never looks beside itself.)
 */
async function pluginRootFor(
  settings: Pick<Settings, "pluginRoot" | "claudeDir">,
  cwd: string,
  flag: string | undefined,
): Promise<{ root: string; via: string } | undefined> {
  if (flag) return { root: flag, via: "--plugin-root" };
  if (settings.pluginRoot) return { root: settings.pluginRoot, via: "CLAUDE_PLUGIN_ROOT" };
  const claude = settings.claudeDir;
  if (claude) {
    const local = await localPluginRoot(join(claude, "plugins"), "lessons-reinject");
    if (local) return { root: local, via: "marketplace added from a local folder" };
    const best = await newestInstalledFile(join(claude, "plugins"), "lessons-reinject", [
      "hooks",
      "hooks.json",
    ]);
    if (best) return { root: best.root, via: "installed plugin" };
  }
  try {
    const manifest = JSON.parse(
      await Deno.readTextFile(join(cwd, ".claude-plugin", "plugin.json")),
    );
    if (fieldOf(manifest, "name") === "lessons-reinject") {
      return { root: cwd, via: "this checkout" };
    }
  } catch {
    // Not a checkout.
  }
  return undefined;
}

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
  const session = await newestSession(settings, io.cwd());
  // Claude Code's own settings, read now (the hook keeps what a context's first call read).
  const files = mergeCompactSettings(readCompactSources({
    claudeDir: settings.claudeDir,
    projectDir: settings.projectDir ?? io.cwd(),
    os: Deno.build.os,
  }));
  const reading = session?.dry.plan?.reading;
  const learned = session?.dry.trace.state?.compactedAt;
  const cases: WindowCase[] = reading && isReading(reading) && reading.window !== undefined
    ? [{ window: reading.window, model: reading.model, learned, whose: "this session's" }]
    : [SMALL_WINDOW, LARGE_WINDOW].map((window) => ({
      window,
      model: undefined,
      learned,
      whose: "a",
    }));
  const checks: Check[] = [
    checkConfigFile(settings),
    checkEnvironment(settings),
    ...(plugin ? await checkPlugin(plugin, settings) : [notFound]),
    ...await checkRules(settings, io.cwd()),
    checkThresholds(settings, files, cases),
    await checkStateDir(settings.stateDir),
    await checkStatusline(settings.claudeDir),
    ...checkSession(session, programName(io)),
  ];
  return { ok: checks.every((c) => c.status !== "fail"), checks };
}

/** The plugin folder exists and is one; then its wiring and its binary. */
async function checkPlugin(
  plugin: { root: string; via: string },
  settings: Settings,
): Promise<Check[]> {
  const info = await Deno.stat(plugin.root).catch(() => undefined);
  const fix = "pass --plugin-root the folder holding the plugin's hooks/ and dist/, or reinstall " +
    `it (${PLUGIN_INSTALL})`;
  if (!info) return [fail("plugin", `${plugin.root} (${plugin.via}) does not exist`, fix)];
  if (!info.isDirectory) {
    return [fail("plugin", `${plugin.root} (${plugin.via}) is not a folder`, fix)];
  }
  // A folder with none of the plugin's files is another folder, not a broken plugin: one line
  // says so, instead of a wiring error and a download that would not apply.
  const marks = [[".claude-plugin", "plugin.json"], ["hooks", "hooks.json"], ["hooks", "run"]];
  const present = await Promise.all(
    marks.map((parts) => Deno.stat(join(plugin.root, ...parts)).then(() => true, () => false)),
  );
  if (!present.some((p) => p)) {
    return [
      fail(
        "plugin",
        `${plugin.root} (${plugin.via}) is not the lessons-reinject plugin: it has no ` +
          ".claude-plugin/plugin.json, hooks/hooks.json or hooks/run",
        fix,
      ),
    ];
  }
  return [
    ok("plugin", `${plugin.root} (${plugin.via})`),
    await checkHooks(plugin.root),
    await checkBinary(plugin.root, settings),
  ];
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
  return ok("config file", `${file.path} (${file.via}): valid`);
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

/** hooks/hooks.json registers every event this hook needs, with matchers that let them through. */
async function checkHooks(root: string): Promise<Check> {
  const path = join(root, "hooks", "hooks.json");
  const fix = `restore ${path} from the plugin (it registers PostToolUse and PostToolUseFailure ` +
    `with matcher ".+", SessionStart with "clear|compact", and PostCompact, calling hooks/run)`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    return fail("hooks wiring", `${path}: ${fileReason(error)}`, fix);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail("hooks wiring", `${path}: ${await whyNotJson(text)}`, fix);
  }
  const hooks = fieldOf(raw, "hooks");
  const missing: string[] = [];
  for (const { event, needs } of HOOK_EVENTS) {
    const groups = fieldOf(hooks, event);
    if (!Array.isArray(groups)) {
      missing.push(`${event} is not registered`);
      continue;
    }
    const calling = groups.filter((g) => {
      const list = fieldOf(g, "hooks");
      return Array.isArray(list) &&
        list.some((h) => /hooks\/run|lessons-reinject/.test(String(fieldOf(h, "command") ?? "")));
    });
    if (calling.length === 0) {
      missing.push(`${event} does not call hooks/run`);
      continue;
    }
    for (const need of needs) {
      if (!calling.some((g) => matches(fieldOf(g, "matcher"), need))) {
        missing.push(`${event}'s matcher does not let "${need}" through`);
      }
    }
  }
  const run = join(root, "hooks", "run");
  const info = await Deno.stat(run).catch(() => undefined);
  if (!info?.isFile) missing.push(`${run} is missing`);
  else if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o111) === 0) {
    missing.push(`${run} is not executable (chmod +x)`);
  }
  if (missing.length > 0) return fail("hooks wiring", `${path}: ${missing.join("; ")}`, fix);
  return ok("hooks wiring", `${path}: every event registered, calling hooks/run`);
}

/** Claude Code's matcher semantics: absent, empty or `*` match all; else a regex. */
function matches(matcher: unknown, value: string): boolean {
  if (matcher === undefined || matcher === null || matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${String(matcher)})$`).test(value);
  } catch {
    return String(matcher) === value;
  }
}

/**
 * What hooks/run does with `dist/lessons-reinject-<target>[.exe]`, deno and its cache, and the
 * download. It only reads: a download is started by a hook call, never by doctor.
 */
async function checkBinary(
  root: string,
  settings: Pick<Settings, "searchPath" | "denoNpmCache">,
): Promise<Check> {
  const windows = Deno.build.os === "windows";
  const name = `lessons-reinject-${Deno.build.target}${windows ? ".exe" : ""}`;
  const deno = await findOnPath(windows ? "deno.exe" : "deno", settings.searchPath);
  const state = await readLauncherState(root, name, settings.denoNpmCache);
  const verdict = launcherVerdict(state, deno);
  if (verdict.status === "ok") return ok("binary", verdict.detail);
  const fix = verdict.fix ?? `run ${join(root, "hooks", "install")}`;
  return verdict.status === "warn"
    ? warn("binary", verdict.detail, fix)
    : fail("binary", verdict.detail, fix);
}

async function findOnPath(
  program: string,
  searchPath: readonly string[],
): Promise<string | undefined> {
  for (const dir of searchPath) {
    const path = join(dir, program);
    if ((await Deno.stat(path).catch(() => undefined))?.isFile) return path;
  }
  return undefined;
}

/**
 * The manifest's check and the own rules' check: either source may be the only one. Both quote
 * one measure, the refresh `preview` shows (sample_refresh.ts).
 */
async function checkRules(settings: Settings, cwd: string): Promise<Check[]> {
  const rules = await loadStandingRules(settings, cwd);
  const rendered = sampleRefresh(rules, settings.thresholds, settings.maxChars);
  const own = checkOwnRules(settings, rules, rendered);
  if (rules.manifest.kind === "off") {
    return [ok("manifest", "turned off (sources setting)"), own];
  }
  const manifest = checkManifest(rules.manifest, rendered, settings.maxChars);
  // Without a manifest, own rules are enough: a warning, not a failure.
  if (manifest.status === "fail" && rules.manifest.kind === "none" && rules.blocks.length > 0) {
    return [{ ...manifest, status: "warn" }, own];
  }
  // Nothing anywhere: one failure (the manifest's) says so; the own rules' check only warns.
  if (manifest.status === "fail" && own.status === "fail") {
    return [manifest, { ...own, status: "warn" }];
  }
  return [manifest, own];
}

/** Found, valid, how many directives and protocols, and how its lessons fit the refresh. */
function checkManifest(
  found: FoundManifest,
  rendered: CombinedRefresh,
  maxChars: number,
): Check {
  if (found.kind === "none") {
    return fail(
      "manifest",
      "no manifest found (no LESSONS_MANIFEST_PATH, no manifestPath in the config file, no " +
        "CLAUDE_PLUGIN_ROOT/data/lesson-manifest.json, no lessons-learned plugin installed)",
      manifestFix(found),
    );
  }
  if (found.kind === "invalid") return fail("manifest", found.error, manifestFix(found));
  const { location, selection } = found;
  const directives = selection.lessons.filter((l) => l.kind === "directive").length;
  const protocols = selection.lessons.length - directives;
  const invalid = selection.invalid.length > 0
    ? `; ${count(selection.invalid.length, "invalid lesson")} skipped (${
      selection.invalid.join(" | ")
    })`
    : "";
  const counts = `${location.path} (${location.via}): ${count(directives, "directive")}, ` +
    `${count(protocols, "protocol")}${invalid}`;
  if (selection.lessons.length === 0) {
    return fail(
      "manifest",
      `${counts}: nothing to restate`,
      "add directive or protocol lessons (or check their scope)",
    );
  }
  // Its lessons' share of the one refresh; the rules check gives the refresh's size.
  const ids = new Set(selection.lessons.map((l) => l.slug));
  const mine = (names: string[]) => names.filter((name) => ids.has(name)).length;
  const [whole, summarized, omitted] = [rendered.whole, rendered.summarized, rendered.omitted]
    .map(mine) as [number, number, number];
  const fit = `in a refresh of ${groupDigits(rendered.text.length)} of ${groupDigits(maxChars)} ` +
    `characters: ${whole} whole, ${summarized} as a summary, ${omitted} left out`;
  if (whole + summarized === 0) {
    return fail(
      "manifest",
      `${counts}; ${fit}`,
      `raise LESSONS_REINJECT_MAX_CHARS (up to ${INLINE_LIMIT})`,
    );
  }
  if (omitted > 0 || invalid) {
    return warn(
      "manifest",
      `${counts}; ${fit}`,
      omitted > 0
        ? `raise LESSONS_REINJECT_MAX_CHARS (up to ${INLINE_LIMIT}) or shorten the lessons' summaries`
        : "fix the invalid lessons in the manifest",
    );
  }
  return ok("manifest", `${counts}; ${fit}`);
}

/** A window the thresholds check looks at, and the model and learned point that go with it. */
interface WindowCase {
  window: number;
  model: string | undefined;
  learned: number | undefined;
  /** How the detail names it: "this session's" or "a". */
  whose: string;
}

/**
 * Where each threshold falls on each window that matters (the newest session's, else 200k and
 * 1M), against Claude Code's compaction point read afresh from its environment and settings
 * files; and the thresholds that never fire there: a token count at or past the compaction
 * point (or, with auto-compaction off, past where Claude Code stops the context), a percentage
 * past it when the thresholds are not measured against it (`LESSONS_SCALE_FOR_AUTOCOMPACT=0`).
 */
function checkThresholds(
  config: Pick<Settings, "thresholds" | "compactEnv" | "scaleForAutocompact">,
  files: CompactSettings,
  cases: readonly WindowCase[],
): Check {
  const details: string[] = [];
  const never = new Set<Threshold>();
  let scalingOff = false;
  for (const at of cases) {
    const point = compactionPoint({
      window: at.window,
      model: at.model,
      env: config.compactEnv,
      files,
      learned: at.learned,
    });
    const span = thresholdSpan(point, at.window, config.thresholds, config.scaleForAutocompact);
    // Where the context ends: the compaction point, or Claude Code's blocking limit without it.
    const end = point.kind === "point"
      ? point.tokens
      : at.window - SUMMARY_OUTPUT_BUFFER - BLOCKING_BUFFER;
    const late = config.thresholds.filter((t) => pointOf(t, span) >= end);
    late.forEach((t) => never.add(t));
    if (late.some((t) => !isTokenThreshold(t)) && point.kind === "point") scalingOff = true;
    const points = config.thresholds.map((t) => groupDigits(pointOf(t, span))).join(", ");
    const measured = span === at.window
      ? `of ${at.whose} ${formatTokens(at.window)} window`
      : `of the ${groupDigits(span)} tokens before auto-compaction on ${at.whose} ` +
        `${formatTokens(at.window)} window`;
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
  const list = config.thresholds.map((t) => thresholdText(t)).join(", ");
  const detail = [`${list}`, ...details].join("\n");
  if (never.size === 0) return ok("thresholds", detail);
  const lost = [...never].map((t) => thresholdText(t)).join(", ");
  if (scalingOff && !config.scaleForAutocompact) {
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
async function checkStateDir(dir: string): Promise<Check> {
  const untrusted = untrustedDirReason(dir);
  if (untrusted) {
    return fail(
      "state folder",
      `${untrusted}: the hook will not use it`,
      stateDirFix(dir, untrusted),
    );
  }
  const problem = await preparePrivateDir(dir);
  if (problem) return fail("state folder", problem, stateDirFix(dir, problem));
  return ok("state folder", `${dir} (private, writable)`);
}

/** Whether Claude Code's statusLine feeds the bridge (optional: the transcript is the fallback). */
async function checkStatusline(root: string | undefined): Promise<Check> {
  const path = root ? join(root, "settings.json") : undefined;
  let command = "";
  if (path) {
    try {
      command = String(
        fieldOf(fieldOf(JSON.parse(await Deno.readTextFile(path)), "statusLine"), "command") ?? "",
      );
    } catch {
      // No settings: not set up.
    }
  }
  if (/lessons-reinject[^|]*statusline/.test(command)) {
    return ok("statusline bridge", `set up in ${path}: the hook prefers its fresh readings`);
  }
  return ok(
    "statusline bridge",
    "not set up (optional): readings come from the transcript; see README for the statusLine " +
      "setting",
  );
}

/**
 * The newest session of this folder, as the hook's next tool call would see it (the hook's own
 * read-only steps): its reading, the window and the evidence for it, and what it would do.
 */
function checkSession(
  session: { path: string; dry: DryRun } | undefined,
  program: string,
): Check[] {
  if (session === undefined) {
    return [ok("this session", "no transcript for this folder yet: nothing to check")];
  }
  const { plan, problem, trace } = session.dry;
  if (!plan) {
    return [fail("this session", `${session.path}: ${problem}`, "see the state folder check")];
  }
  return [readingCheck(session.path, plan, trace, program), checkDeliveries(trace)];
}

/** The newest session of this folder and the hook's read-only steps on it, if there is one. */
async function newestSession(
  settings: Settings,
  cwd: string,
): Promise<{ path: string; dry: DryRun } | undefined> {
  const target = await locateTranscript({}, settings.claudeDir, cwd);
  if (target.kind === "error") return undefined;
  return { path: target.path, dry: await dryRun(target, settings, cwd, false) };
}

/**
 * The last session's deliveries in its current context: each refresh and whether Claude Code
 * recorded it (src/core/receipts.ts). A refresh given up on is a warning.
 */
function checkDeliveries(trace: DryRun["trace"]): Check {
  const deliveries = (trace.deliveries ?? []).map((d) => ({ ...d, reason: d.reason ?? null }));
  if (deliveries.length === 0) {
    return ok("deliveries", "no refresh in this session's current context yet");
  }
  const detail = deliveryLines(deliveries).join("\n");
  if (deliveries.some((d) => d.status === "given up")) {
    return warn(
      "deliveries",
      detail,
      "Claude Code did not deliver a refresh even when it was sent again: look for hook " +
        "timeouts or errors in `claude --debug`, and see docs/reliability.md (delivery receipts)",
    );
  }
  return ok("deliveries", detail);
}

/** The session's reading, its window and evidence, and what the next call would do. */
function readingCheck(path: string, plan: Plan, trace: DryRun["trace"], program: string): Check {
  const reading = plan.reading;
  const next = plan.decision.cause
    ? "the next tool call refreshes"
    : "the next tool call is silent";
  if (!isReading(reading)) {
    return warn(
      "this session",
      `${path}: no reading (${reading.reason}); ${next}: ${trace.reason}`,
      "nothing to do if the session just started or compacted; otherwise run " +
        `\`${program} status\` to see why`,
    );
  }
  const window = reading.window === undefined
    ? "an unknown window"
    : `a ${formatTokens(reading.window)} window (${reading.windowSource})`;
  return ok(
    "this session",
    `${path}: ${percentText(reading.percent)} of ${window}, from ${reading.source}` +
      `${compactionText(reading)}; ${next}: ${trace.reason}`,
  );
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
  const flags = parsed.values;
  const report = await diagnose(io, settings, flags["plugin-root"]);
  if (flags.json) await printJson(io, report);
  else await io.stdout(renderDoctor(report));
  return report.ok ? EXIT_OK : EXIT_PROBLEM;
}
