/**
 * Step 8 (a refresh at a threshold in `LESSONS_REINJECT_REARM_DEDUP`, main thread only): lets
 * the lessons-learned plugin's tool-specific lessons fire once more, by forgetting what its
 * PreToolUse hook recorded as seen this session. Off by default; docs/prd-departures.md says why.
 */
import type { RefreshCause } from "../core/header.ts";
import { messageOf } from "../core/errors.ts";
import {
  dedupPaths,
  manifestSlugs,
  rearmDedup,
  rearmDue,
  type RearmResult,
} from "../io/lessons_learned_dedup.ts";
import { hexDigest } from "../io/state_store.ts";
import type { Settings } from "../settings/resolve.ts";

/** What re-arming needs from the settings. */
export type RearmSettings = Pick<Settings, "rearmDedupAt" | "lessonsLearnedTmp">;

/**
 * Re-arms when `cause` names a chosen threshold and the call is not a subagent's; `manifest` is
 * the file the refresh was built from (its lessons' slugs name the claim files). Undefined when
 * not due. Never throws.
 */
export async function rearmAfterRefresh(
  cause: RefreshCause,
  session: { sessionId: string; agentId: string | undefined },
  manifest: string,
  settings: RearmSettings,
): Promise<RearmResult | undefined> {
  if (cause.kind !== "thresholds") return undefined;
  if (!rearmDue(cause.thresholds, settings.rearmDedupAt, session.agentId !== undefined)) {
    return undefined;
  }
  let text: string;
  try {
    text = await Deno.readTextFile(manifest);
  } catch (error) {
    return {
      forgotten: [],
      seenFileRemoved: false,
      problems: [`${manifest}: ${messageOf(error)}`],
    };
  }
  const digest = await hexDigest(session.sessionId, 16);
  return await rearmDedup(dedupPaths(settings.lessonsLearnedTmp, digest), manifestSlugs(text));
}
