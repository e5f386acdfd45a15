/**
 * What to do about a manifest that is missing or unusable, said once for `doctor` and `preview`:
 * mend the setting that named it (never "set" one that is already set), reinstall the plugin it
 * came from, or restate CLAUDE.md rules instead, which need no manifest.
 */
import type { FoundManifest } from "../io/manifest_load.ts";

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
