/**
 * The refresh text of a call that fires: every standing rule within the budget, under its header.
 * The rules' code loads on first use: a call that does not fire never pays for it.
 */
import { type RefreshCause, refreshHeader } from "../core/header.ts";
import type { Settings } from "../settings/resolve.ts";
import type { RefreshAccount } from "./trace.ts";
import type { StandingRules } from "../io/standing_rules.ts";

export type BuiltRefresh =
  | { kind: "text"; account: RefreshAccount }
  | {
    kind: "error";
    error: string;
    manifest: StandingRules["manifest"];
    sources: StandingRules["sources"];
  };

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
  const { manifest, trace, blocks, lessons, sources } = await loadStandingRules(settings, cwd);
  if (lessons.length === 0 && blocks.length === 0) {
    return { kind: "error", error: `no rules to restate (${trace.join("; ")})`, manifest, sources };
  }
  const rendered = renderCombined(
    refreshHeader(cause, token, { blocks, lessons }),
    blocks,
    lessons,
    settings.maxChars,
  );
  const ok = manifest.kind === "ok";
  return {
    kind: "text",
    account: {
      ...rendered,
      chars: rendered.text.length,
      budget: settings.maxChars,
      invalid: ok ? manifest.selection.invalid : [],
      sources: trace,
      manifest: ok ? manifest.location.path : undefined,
    },
  };
}
