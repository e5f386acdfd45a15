/**
 * `doctor`'s checks of the standing rules: the lessons-learned manifest and the user's own rules
 * (docs/own-rules.md), each source with its size and what it gave, measured as `preview` measures
 * one refresh of everything. Either source may be the only one.
 */
import { INLINE_LIMIT } from "../core/claude_code.ts";
import type { CombinedRefresh } from "../core/render_rules.ts";
import { type FoundManifest, loadStandingRules, type StandingRules } from "../io/standing_rules.ts";
import type { Settings } from "../settings/resolve.ts";
import { count, groupDigits } from "./common.ts";
import { sampleRefresh } from "./sample_refresh.ts";
import type { Check } from "./schemas.ts";

export const ok = (name: string, detail: string): Check => ({
  name,
  status: "ok",
  detail,
  fix: null,
});
export const warn = (name: string, detail: string, fix: string): Check => ({
  name,
  status: "warn",
  detail,
  fix,
});
export const fail = (name: string, detail: string, fix: string): Check => ({
  name,
  status: "fail",
  detail,
  fix,
});

/**
 * The manifest's check and the own rules' check: either source may be the only one. Both quote
 * one measure, the refresh `preview` shows (sample_refresh.ts).
 */
export async function checkRules(settings: Settings, cwd: string): Promise<Check[]> {
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

/**
 * The "rules" check: fails only when no source at all gives anything to restate; warns when a
 * source has odd markers or cannot be read, or when the budget leaves something out of
 * `rendered`, the one refresh every command measures (sample_refresh.ts).
 */
function checkOwnRules(
  settings: Pick<Settings, "maxChars">,
  rules: StandingRules,
  rendered: CombinedRefresh,
): Check {
  const lines = rules.trace.slice(1); // the manifest has its own check
  const detail = (more: string) =>
    [`${count(rules.blocks.length, "section")} of your own rules`, ...lines, more]
      .filter((l) => l !== "").join("\n");
  if (rules.blocks.length === 0 && rules.lessons.length === 0) {
    return {
      name: "rules",
      status: "fail",
      detail: detail("nothing to restate from any source"),
      fix: "mark sections of CLAUDE.md between <!-- reinject --> and <!-- /reinject --> lines, " +
        "write .claude/reinject.md, or install lessons-learned (see docs/own-rules.md)",
    };
  }
  const fit = `a refresh of every source is ${groupDigits(rendered.text.length)} of ` +
    `${groupDigits(settings.maxChars)} characters: ${rendered.whole.length} whole, ` +
    `${rendered.summarized.length} first line or summary only, ${rendered.omitted.length} left ` +
    "out" + (rendered.omitted.length > 0 ? ` (${rendered.omitted.join(", ")})` : "");
  const odd = rules.sources.filter((s) =>
    s.status === "skipped" || (s.kind === "claude-md" && s.notes.some((n) => n.startsWith("line ")))
  );
  if (rendered.omitted.length > 0 || odd.length > 0) {
    return {
      name: "rules",
      status: "warn",
      detail: detail(fit),
      fix: odd.length > 0
        ? `fix ${odd.map((s) => s.display).join(", ")} as noted`
        : `raise LESSONS_REINJECT_MAX_CHARS (up to ${INLINE_LIMIT}), shorten the marked sections, ` +
          `or turn a source off (LESSONS_REINJECT_SOURCES)`,
    };
  }
  return { name: "rules", status: "ok", detail: detail(fit), fix: null };
}

/** The other way to have rules restated (docs/own-rules.md). */
export const CLAUDE_MD_ROUTE = "mark rules in CLAUDE.md between <!-- reinject --> and " +
  "<!-- /reinject --> lines (docs/own-rules.md)";

/**
 * One line of advice for a manifest that was not found or could not be used.
 *
 * @example
 * ```ts
 * manifestFix({ kind: "invalid", location: { path: "/m.json", via: "LESSONS_MANIFEST_PATH" },
 *   error: "..." });
 * // "correct LESSONS_MANIFEST_PATH, or unset it to use the installed lessons-learned plugin's; or
 * //  mark rules in CLAUDE.md ..."
 * ```
 */
export function manifestFix(found: Exclude<FoundManifest, { kind: "ok" }>): string {
  if (found.kind === "none") {
    return "install the lessons-learned plugin, or set LESSONS_MANIFEST_PATH to its " +
      `data/lesson-manifest.json; or ${CLAUDE_MD_ROUTE}`;
  }
  const via = found.location.via;
  const mend = via === "LESSONS_MANIFEST_PATH"
    ? "correct LESSONS_MANIFEST_PATH, or unset it to use the installed lessons-learned plugin's"
    : via.startsWith("manifestPath in ")
    ? `correct ${via}, or remove it to use the installed lessons-learned plugin's`
    : "reinstall the lessons-learned plugin, or set LESSONS_MANIFEST_PATH to a valid manifest";
  return `${mend}; or ${CLAUDE_MD_ROUTE}`;
}
