/**
 * The refresh text of a call that fires: every standing rule within the budget, under its header.
 * The rules' code loads on first use: a call that does not fire never pays for it.
 */
import { type RefreshCause, refreshHeader } from "../core/header.ts";
import type { LeftOut } from "../core/lessons.ts";
import type { Settings } from "../settings/resolve.ts";
import type { RefreshAccount } from "./trace.ts";
import type { StandingRules } from "../io/standing_rules.ts";

/** Why a refresh is refused: the one refusal there is; the sources it looked at follow it. */
export const NOTHING_TO_RESTATE = "no rules to restate";

/**
 * `reloaded`: after a compaction, nothing Claude Code does not reload itself (CLAUDE.md); a third
 * outcome, settled and recorded as `text` is (an `error` is not recorded), so not a `Result`.
 */
export type BuiltRefresh =
  | { kind: "text"; account: RefreshAccount }
  | { kind: "reloaded"; why: string }
  | { kind: "error"; error: string };

/**
 * Builds the refresh for `cause`, for the project at `cwd`, headed with `token`, from `loaded`
 * when a command has the rules already.
 */
export async function buildRefresh(
  cause: RefreshCause,
  token: string,
  cwd: string | undefined,
  settings: Settings,
  loaded?: StandingRules,
): Promise<BuiltRefresh> {
  const [{ loadStandingRules }, { renderCombined }, { sourceProblems }] = await Promise.all([
    import("../io/standing_rules.ts"),
    import("../core/render_rules.ts"),
    import("../io/rule_sources.ts"),
  ]);
  const rules = loaded ?? await loadStandingRules(settings, cwd);
  const { manifest, trace, sources, blocks: all, lessons } = rules;
  // After a compaction Claude Code puts every CLAUDE.md back into the context itself
  // (InstructionsLoaded, load_reason "compact"; measured in the first request after it, 2.1.328
  // and 2.1.332): restated, its marked sections would reach the model twice.
  const blocks = cause.kind === "compaction"
    ? sources.filter((s) => s.kind !== "claude-md").flatMap((s) => s.blocks)
    : all;
  if (lessons.length === 0 && blocks.length === 0) {
    if (all.length > 0) {
      const why = "only CLAUDE.md rules, which Claude Code puts back itself after a compaction";
      return { kind: "reloaded", why };
    }
    return { kind: "error", error: `${NOTHING_TO_RESTATE} (${trace.join("; ")})` };
  }
  const rendered = renderCombined(
    refreshHeader(cause, token, { blocks, lessons }),
    blocks,
    lessons,
    settings.maxChars,
  );
  const ok = manifest.kind === "ok";
  const excluded: LeftOut[] = [
    ...(ok ? manifest.selection.left : []),
    ...rendered.omitted.map((id) => ({ id, why: "refresh-budget" as const })),
    // A section never closed, a file that cannot be read: the user's rules, left out too.
    ...sourceProblems(sources, true).map((id) => ({ id, why: "unread" as const })),
  ];
  return {
    kind: "text",
    account: {
      ...rendered,
      excluded,
      chars: rendered.text.length,
      budget: settings.maxChars,
      invalid: ok ? manifest.selection.invalid : [],
      sources: trace,
      manifest: ok ? manifest.location.path : undefined,
    },
  };
}
