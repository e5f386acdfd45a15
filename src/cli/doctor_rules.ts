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
import { type CompactionPoint, mergeCompactSettings, spanFor } from "../core/compaction_point.ts";
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
import { CLAUDE_MD_ROUTE, manifestFix, sourceLines } from "./rules.ts";
import type { Check } from "./schemas.ts";

const RAISE = `raise LESSONS_REINJECT_MAX_CHARS (up to ${INLINE_LIMIT})`;

/**
 * The manifest's check and the own rules' check, both quoting `rendered`, the one refresh every
 * command measures. A missing manifest is a problem only when no other source has rules.
 */
export function checkRules(
  rules: StandingRules,
  rendered: CombinedRefresh,
  maxChars: number,
): Check[] {
  const any = rules.lessons.length + rules.blocks.length > 0;
  const manifest = checkManifest(rules, rendered, maxChars, any);
  // The manifest's own failure is the cause: the rules check does not repeat it.
  const blamed = manifest.status === "fail";
  return [manifest, checkOwnRules(rules, rendered, maxChars, any || blamed)];
}

function checkManifest(
  rules: StandingRules,
  rendered: CombinedRefresh,
  maxChars: number,
  any: boolean,
): Check {
  const found = rules.manifest;
  if (found.kind === "off") return check("manifest", "ok", "turned off (sources setting)");
  if (found.kind === "none") {
    const looked =
      "no manifest found (no LESSONS_MANIFEST_PATH, no manifestPath in the config file, no " +
      "CLAUDE_PLUGIN_ROOT/data/lesson-manifest.json, no lessons-learned plugin installed)";
    return any
      ? check("manifest", "ok", `none found; not needed: your own rules are restated`)
      : check("manifest", "warn", looked, manifestFix(found));
  }
  if (found.kind === "invalid") return check("manifest", "fail", found.error, manifestFix(found));
  const { location, selection } = found;
  const directives = selection.lessons.filter((l) => l.kind === "directive").length;
  const invalid = selection.invalid.length > 0
    ? `; ${count(selection.invalid.length, "invalid lesson")} skipped (${
      selection.invalid.join(" | ")
    })`
    : "";
  const counts = `${location.path} (${location.via}): ${count(directives, "directive")}, ` +
    `${count(selection.lessons.length - directives, "protocol")}${invalid}`;
  if (selection.lessons.length === 0) {
    return check(
      "manifest",
      any ? "warn" : "fail",
      `${counts}: nothing to restate`,
      "add directive or protocol lessons (or check their scope)",
    );
  }
  // Its lessons' share of the one refresh; the rules check gives the refresh's size.
  const ids = new Set(selection.lessons.map((l) => l.slug));
  const [whole, summarized, omitted] = [rendered.whole, rendered.summarized, rendered.omitted]
    .map((list) => list.filter((name) => ids.has(name)).length) as [number, number, number];
  const detail =
    `${counts}; in a refresh of ${groupDigits(rendered.text.length)} of ${groupDigits(maxChars)} ` +
    `characters: ${whole} whole, ${summarized} as a summary, ${omitted} left out`;
  if (whole + summarized === 0) return check("manifest", "fail", detail, RAISE);
  if (omitted > 0) {
    return check("manifest", "warn", detail, `${RAISE} or shorten the lessons' summaries`);
  }
  if (invalid) return check("manifest", "warn", detail, "fix the invalid lessons in the manifest");
  return check("manifest", "ok", detail);
}

/**
 * The "rules" check: each own-rule source and what it gave. With nothing to restate from any
 * source it is the failure, naming a marker to mend when one is broken; it warns of odd markers,
 * unreadable sources and rules the budget leaves out.
 */
function checkOwnRules(
  rules: StandingRules,
  rendered: CombinedRefresh,
  maxChars: number,
  enough: boolean,
): Check {
  const detail = (more: string) =>
    [
      `${count(rules.blocks.length, "section")} of your own rules`,
      ...sourceLines(rules).slice(1),
      more,
    ]
      .filter((l) => l !== "").join("\n");
  const odd = rules.sources.flatMap((s) =>
    s.status === "skipped"
      ? [`fix ${s.display} (${s.notes.join("; ")})`]
      : s.notes.filter((n) => n.startsWith("line ")).map((note) =>
        note.includes("never closed")
          ? `close the section ${s.display} opens at ${
            note.split(":")[0]
          } with a <!-- /reinject --> line`
          : `fix ${s.display} ${note}`
      )
  );
  if (rules.lessons.length + rules.blocks.length === 0) {
    const fix = odd.length > 0
      ? odd.join("; ")
      : `${CLAUDE_MD_ROUTE}, write .claude/reinject.md, or install lessons-learned`;
    return check(
      "rules",
      enough ? "warn" : "fail",
      detail("nothing to restate from any source"),
      fix,
    );
  }
  const fit =
    `a refresh of every source is ${groupDigits(rendered.text.length)} of ${
      groupDigits(maxChars)
    } ` +
    `characters: ${rendered.whole.length} whole, ${rendered.summarized.length} first line or summary ` +
    `only, ${rendered.omitted.length} left out` +
    (rendered.omitted.length > 0 ? ` (${rendered.omitted.join(", ")})` : "");
  if (odd.length > 0) return check("rules", "warn", detail(fit), odd.join("; "));
  if (rendered.omitted.length > 0) {
    return check(
      "rules",
      "warn",
      detail(fit),
      `${RAISE}, shorten the marked sections, or turn a source off (LESSONS_REINJECT_SOURCES)`,
    );
  }
  return check("rules", "ok", detail(fit));
}

/** A window the thresholds check looks at: where it compacts and the span percentages use. */
interface WindowCase {
  window: number;
  point: CompactionPoint;
  span: number;
  whose: string;
}

/**
 * The windows that matter: the newest session's, as the hook's dry run measured it; else 200k
 * and 1M, against Claude Code's environment and settings files read now.
 */
function windowCases(settings: Settings, cwd: string, trace: Trace | undefined): WindowCase[] {
  const reading = trace?.reading;
  if (reading && isReading(reading) && reading.window !== undefined && reading.compaction) {
    return [{
      window: reading.window,
      point: reading.compaction,
      span: fillOf(reading).span,
      whose: "this session's",
    }];
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
 * Where each threshold falls on each window that matters, against where Claude Code compacts; a
 * threshold at or past that point (or, with auto-compaction off, past where the context stops)
 * never fires: a warning, or a failure when only turning percentage scaling back on would mend it.
 */
export function checkThresholds(settings: Settings, cwd: string, trace: Trace | undefined): Check {
  const lines = [names(settings.thresholds)];
  const never = new Set<Threshold>();
  let scalingOff = false;
  for (const { window, point, span, whose } of windowCases(settings, cwd, trace)) {
    const end = point.kind === "point"
      ? point.tokens
      : window - SUMMARY_OUTPUT_BUFFER - BLOCKING_BUFFER;
    const late = settings.thresholds.filter((t) => pointOf(t, span) >= end);
    late.forEach((t) => never.add(t));
    if (late.some((t) => !isTokenThreshold(t)) && point.kind === "point") scalingOff = true;
    const measured = span === window
      ? `of ${whose} ${formatTokens(window)} window`
      : `of the ${groupDigits(span)} tokens before auto-compaction on ${whose} ${
        formatTokens(window)
      } window`;
    const compaction = point.kind === "point"
      ? `auto-compaction at ${groupDigits(point.tokens)} (${point.evidence})`
      : `no auto-compaction (${point.evidence}): the context stops at ${groupDigits(end)}`;
    const lost = late.length > 0
      ? `; ${names(late)} never ${late.length === 1 ? "fires" : "fire"} there`
      : "";
    const at = settings.thresholds.map((t) => groupDigits(pointOf(t, span))).join(", ");
    lines.push(`${measured}: at ${at} tokens; ${compaction}${lost}`);
  }
  const detail = lines.join("\n");
  if (never.size === 0) return check("thresholds", "ok", detail);
  const lost = names([...never]);
  if (scalingOff && !settings.scaleForAutocompact) {
    return check(
      "thresholds",
      "fail",
      detail,
      "unset LESSONS_SCALE_FOR_AUTOCOMPACT=0 (on by default, it measures the percentages " +
        `against the compaction point), or lower ${lost}`,
    );
  }
  return check(
    "thresholds",
    "warn",
    detail,
    `lower ${lost} below the compaction point (LESSONS_REINJECT_THRESHOLDS), or drop ${
      never.size === 1 ? "it" : "them"
    }`,
  );
}
