/**
 * `doctor`'s checks of what the hook restates and when: the lessons-learned manifest, the user's
 * own rules (either may be the only source; when there is nothing to restate, the one failure
 * names the real cause), and where each threshold falls against Claude Code's compaction point.
 */
import {
  BLOCKING_BUFFER,
  INLINE_LIMIT,
  LARGE_WINDOW,
  SMALL_WINDOW,
  SUMMARY_OUTPUT_BUFFER,
} from "../core/claude_code.ts";
import { mergeCompactSettings, spanFor } from "../core/compaction_point.ts";
import { formatTokens } from "../core/header.ts";
import { isTokenThreshold, type Threshold } from "../core/numbers.ts";
import { fillOf, isReading } from "../core/reading.ts";
import type { CombinedRefresh } from "../core/render_rules.ts";
import { pointOf } from "../core/thresholds.ts";
import type { Trace } from "../hook.ts";
import { readCompactSources } from "../io/claude_settings.ts";
import type { StandingRules } from "../io/standing_rules.ts";
import type { Settings } from "../settings/resolve.ts";
import { count, groupDigits, names } from "./common.ts";
import { check } from "./doctor_setup.ts";
import type { Check } from "./schemas.ts";
import { CLAUDE_MD_ROUTE, manifestFix, sourceLines } from "./rules.ts";

const RAISE = `raise LESSONS_REINJECT_MAX_CHARS (up to ${INLINE_LIMIT})`;

/**
 * The manifest's check and the own rules' check, both quoting `rendered`, the one refresh every
 * command measures. A missing manifest is a problem only when no other source has rules; with
 * nothing to restate, the one failure names the cause.
 */
export function checkRules(rules: StandingRules, rendered: CombinedRefresh, maxChars: number) {
  const any = rules.lessons.length + rules.blocks.length > 0;
  const size = `${groupDigits(rendered.text.length)} of ${groupDigits(maxChars)} characters`;
  const manifest = checkManifest(rules.manifest, rendered, size, any);
  return [manifest, checkOwnRules(rules, rendered, size, any || manifest.status === "fail")];
}

function checkManifest(
  found: StandingRules["manifest"],
  r: CombinedRefresh,
  size: string,
  any: boolean,
) {
  if (found.kind === "off") return check("manifest", "ok", "turned off (sources setting)");
  if (found.kind === "none") {
    if (any) return check("manifest", "ok", "none found; not needed: your own rules are restated");
    const looked = "no manifest found (no LESSONS_MANIFEST_PATH, no manifestPath in the config " +
      "file, no CLAUDE_PLUGIN_ROOT/data/lesson-manifest.json, no lessons-learned plugin installed)";
    return check("manifest", "warn", looked, manifestFix(found));
  }
  if (found.kind === "invalid") return check("manifest", "fail", found.error, manifestFix(found));
  const { lessons, invalid } = found.selection;
  const directives = lessons.filter((l) => l.kind === "directive").length;
  const skipped = invalid.length > 0
    ? `; ${count(invalid.length, "invalid lesson")} skipped (${invalid.join(" | ")})`
    : "";
  const counts = `${found.location.path} (${found.location.via}): ` +
    `${count(directives, "directive")}, ${
      count(lessons.length - directives, "protocol")
    }${skipped}`;
  if (lessons.length === 0) {
    const fix = "add directive or protocol lessons (or check their scope)";
    return check("manifest", any ? "warn" : "fail", `${counts}: nothing to restate`, fix);
  }
  // Its lessons' share of the one refresh; the rules check gives the refresh's size.
  const ids = new Set(lessons.map((l) => l.slug));
  const [whole, summarized, omitted] = [r.whole, r.summarized, r.omitted]
    .map((list) => list.filter((name) => ids.has(name)).length);
  const detail = `${counts}; in a refresh of ${size}: ${whole} whole, ${summarized} as a ` +
    `summary, ${omitted} left out`;
  if (whole! + summarized! === 0) return check("manifest", "fail", detail, RAISE);
  if (omitted) {
    return check("manifest", "warn", detail, `${RAISE} or shorten the lessons' summaries`);
  }
  if (skipped) return check("manifest", "warn", detail, "fix the invalid lessons in the manifest");
  return check("manifest", "ok", detail);
}

/**
 * The "rules" check: each own-rule source and what it gave. With nothing to restate it fails
 * (unless the manifest's failure is the cause), naming a marker to mend when one is broken; it
 * warns of odd markers, unreadable sources and rules the budget leaves out.
 */
function checkOwnRules(rules: StandingRules, r: CombinedRefresh, size: string, excused: boolean) {
  const lines = [
    `${count(rules.blocks.length, "section")} of your own rules`,
    ...sourceLines(rules).slice(1),
  ];
  const odd = rules.sources.flatMap((s) =>
    s.status === "skipped" ? [`fix ${s.display} (${s.notes.join("; ")})`] : s.notes
      .filter((note) => note.startsWith("line "))
      .map((note) =>
        note.includes("never closed")
          ? `close the section ${s.display} opens at ${
            note.split(":")[0]
          } with a <!-- /reinject --> line`
          : `fix ${s.display} ${note}`
      )
  );
  if (rules.lessons.length + rules.blocks.length === 0) {
    const fix = odd.join("; ") ||
      `${CLAUDE_MD_ROUTE}, write .claude/reinject.md, or install lessons-learned`;
    return check(
      "rules",
      excused ? "warn" : "fail",
      [...lines, "nothing to restate from any source"].join("\n"),
      fix,
    );
  }
  const left = r.omitted.length > 0 ? ` (${r.omitted.join(", ")})` : "";
  const detail = [
    ...lines,
    `a refresh of every source is ${size}: ${r.whole.length} whole, ` +
    `${r.summarized.length} first line or summary only, ${r.omitted.length} left out${left}`,
  ].join("\n");
  if (odd.length > 0) return check("rules", "warn", detail, odd.join("; "));
  const fix =
    `${RAISE}, shorten the marked sections, or turn a source off (LESSONS_REINJECT_SOURCES)`;
  return check(
    "rules",
    r.omitted.length > 0 ? "warn" : "ok",
    detail,
    r.omitted.length > 0 ? fix : undefined,
  );
}

/**
 * Where each threshold falls against where Claude Code compacts, on the newest session's window
 * as the hook's dry run measured it, else on 200k and 1M with Claude Code's environment and
 * settings files read now. A threshold at or past that point (or, with auto-compaction off, past
 * where the context stops) never fires: a warning, or a failure when only turning percentage
 * scaling back on would mend it.
 */
export function checkThresholds(settings: Settings, cwd: string, trace: Trace | undefined): Check {
  const reading = trace?.reading && isReading(trace.reading) ? trace.reading : undefined;
  const files = mergeCompactSettings(readCompactSources({
    claudeDir: settings.claudeDir,
    projectDir: settings.projectDir ?? cwd,
    os: Deno.build.os,
  }));
  const cases = reading?.window !== undefined && reading.compaction
    ? [{
      window: reading.window,
      point: reading.compaction,
      span: fillOf(reading).span,
      whose: "this session's",
    }]
    : [SMALL_WINDOW, LARGE_WINDOW].map((window) => {
      const { compaction, span } = spanFor(window, undefined, {
        env: settings.compactEnv,
        files,
        learned: trace?.stateBefore?.compactedAt,
        thresholds: settings.thresholds,
        scale: settings.scaleForAutocompact,
      });
      return { window, point: compaction, span, whose: "a" };
    });
  const lines = [names(settings.thresholds)];
  const never = new Set<Threshold>();
  let scalingOff = false;
  for (const { window, point, span, whose } of cases) {
    const end = point.kind === "point"
      ? point.tokens
      : window - SUMMARY_OUTPUT_BUFFER - BLOCKING_BUFFER;
    const late = settings.thresholds.filter((t) => pointOf(t, span) >= end);
    late.forEach((t) => never.add(t));
    if (late.some((t) => !isTokenThreshold(t)) && point.kind === "point") scalingOff = true;
    const of = `${whose} ${formatTokens(window)} window`;
    const measured = span === window
      ? `of ${of}`
      : `of the ${groupDigits(span)} tokens before auto-compaction on ${of}`;
    const compaction = point.kind === "point"
      ? `auto-compaction at ${groupDigits(point.tokens)} (${point.evidence})`
      : `no auto-compaction (${point.evidence}): the context stops at ${groupDigits(end)}`;
    const lost = late.length > 0
      ? `; ${names(late)} never ${late.length === 1 ? "fires" : "fire"} there`
      : "";
    lines.push(
      `${measured}: at ${
        settings.thresholds.map((t) => groupDigits(pointOf(t, span))).join(", ")
      } tokens; ${compaction}${lost}`,
    );
  }
  const lost = names([...never]);
  if (never.size === 0) return check("thresholds", "ok", lines.join("\n"));
  if (scalingOff && !settings.scaleForAutocompact) {
    const fix =
      "unset LESSONS_SCALE_FOR_AUTOCOMPACT=0 (on by default, it measures the percentages " +
      `against the compaction point), or lower ${lost}`;
    return check("thresholds", "fail", lines.join("\n"), fix);
  }
  const fix = `lower ${lost} below the compaction point (LESSONS_REINJECT_THRESHOLDS), or drop ` +
    (never.size === 1 ? "it" : "them");
  return check("thresholds", "warn", lines.join("\n"), fix);
}
