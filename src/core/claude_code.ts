/**
 * Everything this program relies on about Claude Code: each fact names the release it was measured
 * or read in and how to measure it again (docs/maintainers/claude-code-facts.md has the
 * measurements). A release that moves one is one edit here.
 */

/**
 * `additionalContext` up to this many characters reaches the model inline; from 10,001 Claude
 * Code saves it to a file and the model sees a ~2 KB preview (2.1.328 to 2.1.332; re-measure with
 * the e2e suite's size scenario).
 */
export const INLINE_LIMIT = 10_000;

/** The two windows: 200k, and 1M (natively-1M models, `[1m]`, the 1M beta, usage above 200k). */
export const SMALL_WINDOW = 200_000;
export const LARGE_WINDOW = 1_000_000;

/**
 * Auto-compaction (read in 2.1.328's code; unchanged to 2.1.332): the effective window is the
 * auto-compact window less `min(max output, 20,000)` (every current model's output limit is
 * above it), and compaction fires 13,000 below that (`AUTOCOMPACT_MARGIN` below the window:
 * 167,000 on 200k), or at `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` percent of the effective window when
 * lower. With auto-compaction off, a request is refused 3,000 below the effective window.
 */
export const SUMMARY_OUTPUT_BUFFER = 20_000;
export const AUTOCOMPACT_BUFFER = 13_000;
export const AUTOCOMPACT_MARGIN = SUMMARY_OUTPUT_BUFFER + AUTOCOMPACT_BUFFER;
export const BLOCKING_BUFFER = 3_000;
/**
 * The smallest auto-compact window: `CLAUDE_CODE_AUTO_COMPACT_WINDOW` below it counts as it, an
 * `autoCompactWindow` setting below it is dropped (2.1.328).
 */
export const MIN_AUTO_COMPACT_WINDOW = 100_000;

/** Where managed settings live (`managed-settings.json` and `managed-settings.d/*.json`). */
export const MANAGED_SETTINGS_DIRS: Readonly<Record<string, string>> = {
  darwin: "/Library/Application Support/ClaudeCode",
  windows: "C:\\Program Files\\ClaudeCode",
  linux: "/etc/claude-code",
};

/**
 * How each model family gets its window, read release by release
 * (docs/maintainers/windows-by-release.md): `native`: 1M from `nativeFrom` on (`notNativeUntil`:
 * the last release read without it); `optIn`: 200k unless `[1m]`, the 1M beta or a server
 * experiment chose 1M, none of which the transcript records; `fixed`: 200k always. Longest id
 * first, so `claude-opus-4-7` is not taken for `claude-opus-4`.
 */
export const MODEL_ROWS: readonly {
  family: string;
  kind: "native" | "optIn" | "fixed";
  nativeFrom?: string;
  notNativeUntil?: string;
}[] = [
  { family: "claude-opus-4-7", kind: "native", nativeFrom: "2.1.117", notNativeUntil: "2.1.116" },
  { family: "claude-opus-4-8", kind: "native", nativeFrom: "2.1.160", notNativeUntil: "2.1.150" },
  { family: "claude-fable-5-2", kind: "native", nativeFrom: "2.1.328", notNativeUntil: "2.1.300" },
  { family: "claude-fable-5-1", kind: "native", nativeFrom: "2.1.260", notNativeUntil: "2.1.250" },
  { family: "claude-fable-5", kind: "native", nativeFrom: "2.1.185", notNativeUntil: "2.1.167" },
  { family: "claude-mythos-5-2", kind: "native", nativeFrom: "2.1.328", notNativeUntil: "2.1.300" },
  { family: "claude-mythos-5-1", kind: "native", nativeFrom: "2.1.260", notNativeUntil: "2.1.250" },
  { family: "claude-mythos-5", kind: "native", nativeFrom: "2.1.185", notNativeUntil: "2.1.167" },
  { family: "claude-sonnet-5-5", kind: "native", nativeFrom: "2.1.287", notNativeUntil: "2.1.275" },
  { family: "claude-sonnet-5", kind: "native", nativeFrom: "2.1.200", notNativeUntil: "2.1.185" },
  { family: "claude-opus-5-5", kind: "native", nativeFrom: "2.1.287", notNativeUntil: "2.1.275" },
  { family: "claude-opus-5", kind: "native", nativeFrom: "2.1.250", notNativeUntil: "2.1.212" },
  { family: "claude-haiku-5-5", kind: "native", nativeFrom: "2.1.300", notNativeUntil: "2.1.287" },
  { family: "claude-opus-4-6", kind: "optIn" },
  { family: "claude-sonnet-4-6", kind: "optIn" },
  { family: "claude-sonnet-4-5", kind: "optIn" },
  { family: "claude-sonnet-4", kind: "optIn" },
  { family: "claude-3-7-sonnet", kind: "optIn" },
  { family: "claude-3-5-sonnet", kind: "optIn" },
  { family: "claude-opus-4-5", kind: "fixed" },
  { family: "claude-opus-4-1", kind: "fixed" },
  { family: "claude-opus-4-0", kind: "fixed" },
  { family: "claude-opus-4", kind: "fixed" },
  { family: "claude-haiku-4-5", kind: "fixed" },
  { family: "claude-3-5-haiku", kind: "fixed" },
  { family: "claude-3-opus", kind: "fixed" },
  { family: "claude-3-haiku", kind: "fixed" },
];

/**
 * After `lastWithout` and before `firstWithoutAfter`, a natively-1M model is 1M only on the
 * first-party API (no gateway `ANTHROPIC_BASE_URL`, no Bedrock, Vertex or Foundry): read in
 * 2.1.150 and 2.1.275, absent from 2.1.143 and 2.1.287; the releases between, not read, count as
 * gated.
 */
export const FIRST_PARTY_GATE = { lastWithout: "2.1.143", firstWithoutAfter: "2.1.287" } as const;

/**
 * A statusLine reading is trusted for this long: the statusLine runs ~380 ms after an assistant
 * message and merges close runs (2.1.328), so an older record no longer describes the context.
 */
export const STATUSLINE_MAX_AGE_MS = 60_000;

/** The events a tool call fires: PostToolUse, or PostToolUseFailure for a failing tool. */
export const TOOL_CALL_EVENTS: readonly string[] = ["PostToolUse", "PostToolUseFailure"];
/** SessionStart sources that begin a new context; `startup`, `resume` and `fork` do not. */
export const RESET_SOURCES: readonly string[] = ["clear", "compact"];
/**
 * SessionStart sources that continue a context already under way: its answer reaches the model
 * in the session's next request, so a threshold passed meanwhile is refreshed there. 2.1.328 on
 * also sends `context_tokens` (the last response's input, cache and output tokens); the hook reads
 * the same response from the transcript, less its output, as it reads every call.
 */
export const CONTINUE_SOURCES: readonly string[] = ["resume", "fork"];
/** The SessionStart source whose `systemMessage` is shown under the banner, to no model. */
export const STARTUP_SOURCE = "startup";
/**
 * The event whose answer reaches the model after a compaction: SessionStart (`source:
 * "compact"`), whose `additionalContext` arrives in the new context's first request (2.1.328,
 * tests/e2e/measure_compact_context.ts); it runs before the compaction's marker is written.
 * Claude Code records that answer with this `toolUseID`.
 */
export const SESSION_START = "SessionStart";

/**
 * Transcript attachments around a hook's answer (2.1.328): every `additionalContext` delivered is
 * recorded as `hook_additional_context` (`toolUseID`, `hookEvent`, `content`); every hook that ran
 * leaves `hook_success` (its stdout, delivered or not), one killed at its timeout
 * `hook_cancelled`. A tool call's records follow its `tool_result` and precede the next main-chain
 * response, so an answer not recorded by then was not delivered.
 */
export const DELIVERED_ATTACHMENT = "hook_additional_context";
export const RAN_ATTACHMENT = "hook_success";
export const CANCELLED_ATTACHMENT = "hook_cancelled";
/**
 * The first release that writes those records: 2.1.96 writes none of them, so nothing in its
 * transcript tells a delivered answer from a dropped one (bisected on npm's releases with
 * `tests/e2e/measure_versions.ts --bisect 2.1.0 2.1.328 --on receipts`).
 */
export const RECORDS_HOOK_OUTCOMES_FROM = "2.1.97";
/**
 * A subagent's own transcript holds those records from this release on; before it, a subagent's
 * answers are delivered and recorded nowhere in its file (bisected on npm's releases with
 * `tests/e2e/measure_subagent_receipts.ts`).
 */
export const RECORDS_IN_SUBAGENT_FILES_FROM = "2.1.259";

/**
 * Every event the hook is registered for, with values its matcher must let through. Not
 * PostCompact: a release before 2.1.76 refuses a whole hooks.json that names it, so the plugin
 * would not run there at all (tests/e2e/measure_plugin_events.ts), and SessionStart(compact) and
 * the transcript's compaction marker already tell the hook of every compaction.
 */
export const HOOK_EVENTS: readonly { event: string; needs: readonly string[] }[] = [
  { event: "PostToolUse", needs: ["Bash", "Read", "mcp__x__y"] },
  { event: "PostToolUseFailure", needs: ["Bash", "Read", "mcp__x__y"] },
  { event: "SessionStart", needs: [...RESET_SOURCES, ...CONTINUE_SOURCES] },
];

/**
 * Text every compaction marker line holds: 2.x writes a `system` entry of subtype
 * `compact_boundary`, 1.0.x only a `user` entry with `isCompactSummary: true`.
 */
export const COMPACT_BOUNDARY = "compact_boundary";
export const COMPACTION_MARKER_TEXTS: readonly string[] = [COMPACT_BOUNDARY, "isCompactSummary"];

/**
 * A fork subagent's own transcript starts with `{"type":"fork-context-ref","parentSessionId",
 * "parentLastUuid",...}`: it began with its parent's conversation up to that entry (2.1.328,
 * tests/e2e/measure_fork_agent.ts).
 */
export const FORK_CONTEXT_REF = "fork-context-ref";
/** Subagents' own transcripts: `agent-<id>.jsonl` (under `<session>/subagents/` from 2.1.x). */
export const SUBAGENT_FILE_PREFIX = "agent-";
/** The compaction summariser's transcript (2.1.30 to 2.1.80 write it): never a session. */
export const COMPACTION_SUMMARISER_PREFIX = "agent-acompact-";

/**
 * The densest text real transcripts show: at most 0.6 tokens reach a request per byte of
 * transcript written since the previous response began (docs/maintainers/claude-code-facts.md,
 * "Unseen growth").
 */
export const TOKENS_PER_BYTE = 0.6;
/**
 * The most tokens a request was seen to gain beyond what its transcript bytes carry: 3,346 (a
 * 2.1.167 session, six background-task notifications). 2.1.328 driven through every source of
 * growth showed none (tests/e2e/measure_unseen_growth.ts re-measures it).
 */
export const LARGEST_UNSEEN_TOKENS = 3_346;

/** The JSON a hook prints so that `text` reaches the model (plain stdout never does). */
export function hookAnswer(event: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
}

/** The JSON a hook prints so that `text` reaches the user, not the model. */
export function userNotice(text: string): string {
  return JSON.stringify({ systemMessage: text });
}
