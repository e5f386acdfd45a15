/** `doctor`'s checks of what the hook restates and when: manifest, own rules, thresholds. */
import * as claudeCode from "../core/claude_code.ts";
import { type CompactionPoint, endOf, spanFor } from "../core/compaction_point.ts";
import { refreshPoints, type Schedule, scheduleFor, widestGap } from "../core/schedule.ts";
import { formatTokens } from "../core/header.ts";
import { isTokenThreshold, type Threshold } from "../core/numbers.ts";
import { isReading, type Reading } from "../core/reading.ts";
import { markerText } from "../core/marked_rules.ts";
import type { CombinedRefresh } from "../core/render_rules.ts";
import { pointOf } from "../core/thresholds.ts";
import type { Trace } from "../hook.ts";
import { compactionSettings } from "../io/claude_settings.ts";
import type { StandingRules } from "../io/standing_rules.ts";
import type { Settings } from "../settings/resolve.ts";
import { count, groupDigits, names } from "./common.ts";
import type { Account } from "./account.ts";
import { check } from "./doctor_setup.ts";
import type { Check } from "./schemas.ts";
import { CLAUDE_MD_ROUTE, leftOutList, manifestFix, sourceLines } from "./rules.ts";

type Manifest = StandingRules["manifest"];

const RAISE = `raise LESSONS_REINJECT_MAX_CHARS (up to ${claudeCode.INLINE_LIMIT})`;

/**
 * The manifest's check and the own rules', from the account's rules and its nothing to restate,
 * both measured on `rendered` (the next refresh, else the sample one).
 */
export function checkRules(account: Account, rendered: CombinedRefresh) {
  const { rules, nothing, host } = account;
  const size = `${groupDigits(rendered.text.length)} of ${groupDigits(host.maxChars)} characters`;
  const manifest = checkManifest(rules.manifest, rendered, size, nothing === undefined);
  const excused = manifest.status === "fail";
  return [manifest, checkOwnRules(account, rendered, size, excused)];
}

/** The manifest's check; `any`: some rule, the manifest's or an own one, can be restated. */
function checkManifest(m: Manifest, r: CombinedRefresh, size: string, any: boolean) {
  if (m.kind === "off") return check("manifest", "ok", "turned off (sources setting)");
  if (m.kind === "none" && any) {
    return check("manifest", "ok", "none found; not needed: your own rules are restated");
  }
  if (m.kind === "none") {
    const looked = "no manifest found (no LESSONS_MANIFEST_PATH, no manifestPath in the config " +
      "file, no CLAUDE_PLUGIN_ROOT/data/lesson-manifest.json, no lessons-learned plugin installed)";
    return check("manifest", "warn", looked, manifestFix(m));
  }
  if (m.kind === "invalid") return check("manifest", "fail", m.error, manifestFix(m));
  const { lessons, invalid, left, limits } = m.selection;
  const directives = lessons.filter((l) => l.kind === "directive").length;
  const skipped = invalid.length > 0
    ? `; ${count(invalid.length, "invalid lesson")} skipped (${invalid.join(" | ")})`
    : "";
  const counts = `${m.location.path} (${m.location.via}): ${count(directives, "directive")}, ` +
    `${count(lessons.length - directives, "protocol")}${skipped}`;
  const ids = new Set(lessons.map((l) => l.slug));
  // Every active lesson not restated, and why: scope, session start's limits, the budget.
  const over = r.omitted.filter((id) => ids.has(id));
  const cut = [...left, ...over.map((id) => ({ id, why: "refresh-budget" as const }))];
  const named = cut.length > 0 ? `\nleft out: ${leftOutList(cut).join(", ")}` : "";
  if (lessons.length === 0) {
    const fix = "add directive or protocol lessons (or check their scope)";
    return check("manifest", any ? "warn" : "fail", `${counts}: nothing to restate${named}`, fix);
  }
  const [whole = 0, summarized = 0, omitted = 0] = [r.whole, r.summarized, r.omitted]
    .map((list) => list.filter((name) => ids.has(name)).length);
  const detail = `${counts}; in a refresh of ${size}: ${whole} whole, ${summarized} as a ` +
    `summary, ${omitted} left out; session start shows at most ` +
    `${count(limits.maxLessons, "lesson")} within ${groupDigits(limits.budget)} characters` +
    `${named}`;
  if (whole + summarized === 0) return check("manifest", "fail", detail, RAISE);
  if (omitted) {
    return check("manifest", "warn", detail, `${RAISE} or shorten the lessons' summaries`);
  }
  if (skipped) return check("manifest", "warn", detail, "fix the invalid lessons in the manifest");
  return check("manifest", "ok", detail);
}

/**
 * Each own-rule source and what it gave: fails with nothing to restate (unless `excused` by the
 * manifest's failure); warns of odd markers, unreadable sources and rules over the budget.
 */
function checkOwnRules(account: Account, r: CombinedRefresh, size: string, excused: boolean) {
  const { rules, nothing, host: { agent } } = account;
  const lines = [
    `${count(rules.blocks.length, "section")} of your own rules`,
    ...sourceLines(rules, agent).slice(1),
  ];
  const odd = rules.sources.flatMap((s) =>
    s.status === "skipped"
      ? [`fix ${s.display} (${s.notes.join("; ")})`]
      : s.markers.map((m) =>
        m.leftOut
          ? `close the section ${s.display} opens at line ${m.line} with a <!-- /reinject --> line`
          : `fix ${s.display} line ${m.line}: ${markerText(m)}`
      )
  ).join("; ");
  if (nothing !== undefined) {
    const fix = odd || `${CLAUDE_MD_ROUTE}, write .claude/reinject.md, or install lessons-learned`;
    const detail = [...lines, "nothing to restate from any source"].join("\n");
    return check("rules", excused ? "warn" : "fail", detail, fix);
  }
  const left = r.omitted.length > 0 ? ` (${r.omitted.join(", ")})` : "";
  const detail = [
    ...lines,
    `a refresh of every source is ${size}: ${r.whole.length} whole, ` +
    `${r.summarized.length} first line or summary only, ${r.omitted.length} left out${left}`,
  ].join("\n");
  if (odd) return check("rules", "warn", detail, odd);
  if (r.omitted.length === 0) return check("rules", "ok", detail);
  const fix =
    `${RAISE}, shorten the marked sections, or turn a source off (LESSONS_REINJECT_SOURCES)`;
  return check("rules", "warn", detail, fix);
}

/** The schedule the dry run measured the session's reading against. */
const scheduleOf = (r: Reading): Schedule => ({
  span: r.span ?? r.window!,
  ...(r.cadence ? { cadence: r.cadence } : {}),
});

/** A window to check, where it compacts, the schedule of refreshes on it, and whose it is. */
type Case = [number, CompactionPoint, Schedule, string];

/** Without a session's reading: on a 200k window and on the default model's 1M (newest release). */
function onWindows(settings: Settings, cwd: string, learned: number | undefined): Case[] {
  const { thresholds, compactEnv: env, scaleForAutocompact: scale } = settings;
  // Where Claude Code compacts, whether or not the hook scales for it.
  const { files } = compactionSettings(settings, cwd, { always: true });
  const context = { env, files, learned, thresholds, scale };
  return [claudeCode.SMALL_WINDOW, claudeCode.LARGE_WINDOW].map((window) => {
    const { model, version } = window === claudeCode.LARGE_WINDOW ? claudeCode.DEFAULT_MODEL : {};
    const { compaction, span } = spanFor(window, model, { ...context, version });
    const schedule = scheduleFor(thresholds, settings.cadence, span, endOf(compaction, window));
    const whose = window === claudeCode.LARGE_WINDOW ? "the default model's" : "a";
    return [window, compaction, schedule, whose];
  });
}

/** Rules fade well before this many tokens pass without a refresh (docs/thresholds.md). */
const SPARSE_GAP = 100_000;

/**
 * Each threshold against where Claude Code compacts (or the context stops), on the session's window
 * as the dry run measured it, else on 200k and 1M: one never reached warns; it fails when only
 * percentage scaling (turned off) would mend it.
 */
export function checkThresholds(settings: Settings, cwd: string, trace: Trace | undefined): Check {
  const { thresholds } = settings;
  const reading = trace?.reading && isReading(trace.reading) ? trace.reading : undefined;
  const cases: Case[] = reading?.window !== undefined && reading.compaction
    ? [[reading.window, reading.compaction, scheduleOf(reading), "this session's"]]
    : onWindows(settings, cwd, trace?.stateBefore?.compactedAt);
  const never = new Set<Threshold>();
  const sparse: string[] = [];
  let scalingOff = false;
  const lines = cases.map(([window, point, schedule, whose]) => {
    const end = endOf(point, window);
    const span = schedule.span;
    const late = thresholds.filter((t) => pointOf(t, span) >= end);
    late.forEach((t) => never.add(t));
    if (point.kind === "point" && late.some((t) => !isTokenThreshold(t))) scalingOff = true;
    const of = `${whose} ${formatTokens(window)} window`;
    const measured = schedule.cadence
      ? `of ${groupDigits(span)} tokens, as on a 200k window, on ${of}`
      : span === window
      ? `of ${of}`
      : `of the ${groupDigits(span)} tokens before auto-compaction on ${of}`;
    const compaction = point.kind === "point"
      ? `auto-compaction at ${groupDigits(point.tokens)} (${point.evidence})`
      : `no auto-compaction (${point.evidence}): the context stops at ${groupDigits(end)}`;
    const lost = late.length > 0
      ? `; ${names(late)} never ${late.length === 1 ? "fires" : "fire"} there`
      : "";
    const points = refreshPoints(thresholds, span, end);
    const cadence = schedule.cadence?.points ?? [];
    const then = cadence.length === 0
      ? ""
      : `, then every ${groupDigits(schedule.cadence!.every)}` +
        ` to ${groupDigits(cadence.at(-1)!)} (${points.length + cadence.length} refreshes)`;
    const gap = widestGap([...points, ...cadence]);
    if (gap.tokens > SPARSE_GAP) {
      sparse.push(
        gap.from === 0
          ? `on ${of} the first refresh comes at ${groupDigits(gap.tokens)} tokens`
          : `on ${of} ${groupDigits(gap.tokens)} tokens pass between the refreshes at ` +
            `${groupDigits(gap.from)} and ${groupDigits(gap.from + gap.tokens)}`,
      );
    }
    const at = points.map(groupDigits).join(", ");
    return `${measured}: at ${at} tokens${then}; ${compaction}${lost}`;
  });
  const detail = [names(thresholds), ...lines, ...sparse].join("\n");
  const lost = names([...never]);
  if (never.size === 0 && sparse.length > 0) {
    const fix = settings.cadence > 0
      ? "add token thresholds where the gap is (LESSONS_REINJECT_THRESHOLDS=30,52,70 gives 60k, " +
        "104k and 140k on every window)"
      : "turn the cadence back on (unset LESSONS_REINJECT_CADENCE), or add token thresholds";
    return check("thresholds", "warn", detail, fix);
  }
  if (never.size === 0) return check("thresholds", "ok", detail);
  if (scalingOff && !settings.scaleForAutocompact) {
    const fix = "unset LESSONS_SCALE_FOR_AUTOCOMPACT=0 (on by default, it measures the " +
      `percentages against the compaction point), or lower ${lost}`;
    return check("thresholds", "fail", detail, fix);
  }
  const fix = `lower ${lost} below the compaction point (LESSONS_REINJECT_THRESHOLDS), or drop ` +
    (never.size === 1 ? "it" : "them");
  return check("thresholds", "warn", detail, fix);
}
