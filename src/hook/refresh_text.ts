/**
 * Step 6 (firing calls only): the refresh text. Finds and reads every source of standing rules
 * (the manifest's lessons for this project, the user's own rules) and lays them out within the
 * budget. Its code and schemas are loaded here, on first use, so a call that does not fire never
 * pays for them.
 */
import type { RefreshCause } from "../core/header.ts";
import { refreshHeader } from "../core/header.ts";
import type { Settings } from "../settings/resolve.ts";
import type { RefreshAccount } from "./trace.ts";
import type { StandingRules } from "../io/standing_rules.ts";

/** What rendering needs from the settings. */
export type RefreshSettings =
  & Pick<
    Settings,
    "manifestPath" | "pluginRoot" | "claudeDir" | "projectDir" | "maxChars" | "home"
  >
  & Pick<Settings, "sources" | "rulesFiles">;

/** The text, or why there is none. */
export type BuiltRefresh =
  | { kind: "text"; account: RefreshAccount }
  | { kind: "error"; error: string; manifest: StandingRules["manifest"] };

/**
 * Builds the refresh for `cause`, for the project at `cwd`, headed with `token`: the manifest's
 * lessons and the user's own rules (docs/own-rules.md), in one budget.
 */
export async function buildRefresh(
  cause: RefreshCause,
  token: string,
  cwd: string | undefined,
  settings: RefreshSettings,
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
  const rendered = renderCombined(
    refreshHeader(cause, token),
    rules.blocks,
    rules.lessons,
    settings.maxChars,
  );
  const manifest = rules.manifest.kind === "ok" ? rules.manifest.location.path : undefined;
  const own = [...new Set(rules.blocks.map((b) => b.id.replace(/:[0-9]+$/, "")))];
  return {
    kind: "text",
    account: {
      text: rendered.text,
      chars: rendered.text.length,
      budget: settings.maxChars,
      source: [...(manifest ? [manifest] : []), ...own].join(", "),
      whole: rendered.whole,
      summarized: rendered.summarized,
      omitted: rendered.omitted,
      invalid: rules.manifest.kind === "ok" ? rules.manifest.selection.invalid : [],
      sources: rules.trace,
      manifest,
    },
  };
}
