/**
 * The refresh text, for a call that fires: every source of standing rules (the manifest's lessons
 * for this project, the user's own rules) laid out within the budget. Loaded on first use, so a
 * call that does not fire never pays for the rules' code and schemas.
 */
import { type RefreshCause, refreshHeader } from "../core/header.ts";
import type { Settings } from "../settings/resolve.ts";
import type { RefreshAccount } from "./trace.ts";
import type { StandingRules } from "../io/standing_rules.ts";

/** The text, or why there is none. */
export type BuiltRefresh =
  | { kind: "text"; account: RefreshAccount }
  | { kind: "error"; error: string; manifest: StandingRules["manifest"] };

/** Builds the refresh for `cause`, for the project at `cwd`, headed with `token`. */
export async function buildRefresh(
  cause: RefreshCause,
  token: string,
  cwd: string | undefined,
  settings: Settings,
): Promise<BuiltRefresh> {
  const [{ loadStandingRules }, { renderCombined }] = await Promise.all([
    import("../io/standing_rules.ts"),
    import("../core/render_rules.ts"),
  ]);
  const rules = await loadStandingRules(settings, cwd);
  if (rules.lessons.length === 0 && rules.blocks.length === 0) {
    return {
      kind: "error",
      error: `no rules to restate (${rules.trace.join("; ")})`,
      manifest: rules.manifest,
    };
  }
  const header = refreshHeader(cause, token, rules);
  const rendered = renderCombined(header, rules.blocks, rules.lessons, settings.maxChars);
  return {
    kind: "text",
    account: {
      text: rendered.text,
      chars: rendered.text.length,
      budget: settings.maxChars,
      whole: rendered.whole,
      summarized: rendered.summarized,
      omitted: rendered.omitted,
      invalid: rules.manifest.kind === "ok" ? rules.manifest.selection.invalid : [],
      sources: rules.trace,
      manifest: rules.manifest.kind === "ok" ? rules.manifest.location.path : undefined,
    },
  };
}
