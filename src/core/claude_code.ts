/** Claude Code facts, each with its release; docs/maintainers/claude-code-facts.md re-measures. */

/** `additionalContext` up to this length reaches the model inline; longer, a preview (2.1.332). */
export const INLINE_LIMIT = 10_000;

/** The two windows: 200k, and 1M (natively-1M models, `[1m]`, the 1M beta, usage above 200k). */
export const SMALL_WINDOW = 200_000;
export const LARGE_WINDOW = 1_000_000;

/**
 * Auto-compaction fires 13,000 below the auto-compact window less 20,000 (the summary's output),
 * or at `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`% of that when lower; with it off, a request is refused
 * 3,000 below it (2.1.328 to 2.1.332).
 */
export const SUMMARY_OUTPUT_BUFFER = 20_000;
export const AUTOCOMPACT_BUFFER = 13_000;
export const AUTOCOMPACT_MARGIN = SUMMARY_OUTPUT_BUFFER + AUTOCOMPACT_BUFFER;
export const BLOCKING_BUFFER = 3_000;
/**
 * From 2.1.334 a natively-1M model's "auto" auto-compact window is near 400K: 400,000 where the
 * rollout flag is out of reach (another API, telemetry off), else served per model between 300,000
 * and 1M; so it compacts near 367,000. An auto-compact window set in the environment or settings, or
 * `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, keeps the full window (read in 2.1.337).
 */
export const AUTO_WINDOW = { from: "2.1.334", tokens: 400_000 } as const;
/** Claude Code's default model in the newest release read: what doctor checks with no session. */
export const DEFAULT_MODEL = { model: "claude-opus-5-5", version: "2.1.337" } as const;
/** The least auto-compact window: a smaller env value counts as it, a setting is void (2.1.328). */
export const MIN_AUTO_COMPACT_WINDOW = 100_000;

/** Where managed settings live (`managed-settings.json` and `managed-settings.d/*.json`). */
export const MANAGED_SETTINGS_DIRS: Readonly<Record<string, string>> = {
  darwin: "/Library/Application Support/ClaudeCode",
  windows: "C:\\Program Files\\ClaudeCode",
  linux: "/etc/claude-code",
};

type ModelRow = {
  family: string;
  kind: "native" | "optIn" | "fixed";
  nativeFrom?: string;
  notNativeUntil?: string;
};
const native = (nativeFrom: string, notNativeUntil: string, ...families: string[]): ModelRow[] =>
  families.map((family) => ({ family, kind: "native", nativeFrom, notNativeUntil }));
const rows = (kind: "optIn" | "fixed", ...families: string[]): ModelRow[] =>
  families.map((family) => ({ family, kind }));

/**
 * Each model family's window (docs/maintainers/windows-by-release.md): `native`, 1M from
 * `nativeFrom` (`notNativeUntil`: the last release read without it); `optIn`, 200k unless `[1m]`,
 * the beta or an experiment chose 1M (the transcript records none); `fixed`, 200k.
 */
export const MODEL_ROWS: readonly ModelRow[] = [
  ...native("2.1.117", "2.1.116", "claude-opus-4-7"),
  ...native("2.1.160", "2.1.150", "claude-opus-4-8"),
  ...native("2.1.185", "2.1.167", "claude-fable-5", "claude-mythos-5"),
  ...native("2.1.200", "2.1.185", "claude-sonnet-5"),
  ...native("2.1.250", "2.1.212", "claude-opus-5"),
  ...native("2.1.260", "2.1.250", "claude-fable-5-1", "claude-mythos-5-1"),
  ...native("2.1.287", "2.1.275", "claude-sonnet-5-5", "claude-opus-5-5"),
  ...native("2.1.300", "2.1.287", "claude-haiku-5-5"),
  ...native("2.1.328", "2.1.300", "claude-fable-5-2", "claude-mythos-5-2"),
  ...rows("optIn", "claude-opus-4-6", "claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4"),
  ...rows("optIn", "claude-3-7-sonnet", "claude-3-5-sonnet"),
  ...rows("fixed", "claude-opus-4-5", "claude-opus-4-1", "claude-opus-4-0", "claude-opus-4"),
  ...rows("fixed", "claude-haiku-4-5", "claude-3-5-haiku", "claude-3-opus", "claude-3-haiku"),
];

/** Strictly between these, native 1M is first-party-API only (read in 2.1.150 and 2.1.275). */
export const FIRST_PARTY_GATE = { lastWithout: "2.1.143", firstWithoutAfter: "2.1.287" } as const;

/** From this release the statusLine's `used_percentage` is of the auto-compact window. */
export const PERCENT_OF_AUTO_WINDOW_FROM = "2.1.336";
/** An older statusLine record no longer describes the context (it runs ~380 ms late, 2.1.328). */
export const STATUSLINE_MAX_AGE_MS = 60_000;

/** The events a tool call fires: PostToolUse, or PostToolUseFailure for a failing tool. */
export const TOOL_CALL_EVENTS: readonly string[] = ["PostToolUse", "PostToolUseFailure"];
/** SessionStart sources that begin a new context; `startup`, `resume` and `fork` do not. */
export const RESET_SOURCES: readonly string[] = ["clear", "compact"];
/** SessionStart sources that continue a context: the answer reaches its next request (2.1.328). */
export const CONTINUE_SOURCES: readonly string[] = ["resume", "fork"];
/** The SessionStart source whose `systemMessage` is shown under the banner, to no model. */
export const STARTUP_SOURCE = "startup";
/** SessionStart(compact) answers into the new context, before its marker, as this id (2.1.328). */
export const SESSION_START = "SessionStart";

/**
 * Transcript attachments (2.1.328): each delivered `additionalContext` (`hook_additional_context`),
 * each hook that ran (`hook_success`), each killed at its timeout (`hook_cancelled`). A tool call's
 * records precede the next main-chain response: not recorded by then, not delivered.
 */
export const DELIVERED_ATTACHMENT = "hook_additional_context";
export const RAN_ATTACHMENT = "hook_success";
export const CANCELLED_ATTACHMENT = "hook_cancelled";
/** The first release that writes those records (2.1.96 writes none). */
export const RECORDS_HOOK_OUTCOMES_FROM = "2.1.97";
/** From this release a subagent's own transcript holds them too. */
export const RECORDS_IN_SUBAGENT_FILES_FROM = "2.1.259";

/** Events registered, with what matchers pass; not PostCompact: before 2.1.76 it is refused. */
export const HOOK_EVENTS: readonly { event: string; needs: readonly string[] }[] = [
  { event: "PostToolUse", needs: ["Bash", "Read", "mcp__x__y"] },
  { event: "PostToolUseFailure", needs: ["Bash", "Read", "mcp__x__y"] },
  { event: "SessionStart", needs: [...RESET_SOURCES, ...CONTINUE_SOURCES] },
];

/** Compaction markers: 2.x writes a system `compact_boundary`, 1.0.x a user `isCompactSummary`. */
export const COMPACT_BOUNDARY = "compact_boundary";
export const COMPACTION_MARKER_TEXTS: readonly string[] = [COMPACT_BOUNDARY, "isCompactSummary"];

/** A fork subagent's transcript starts with this entry, naming its parent's last one (2.1.328). */
export const FORK_CONTEXT_REF = "fork-context-ref";
/** Subagents' own transcripts: `agent-<id>.jsonl`. */
export const SUBAGENT_FILE_PREFIX = "agent-";
/** The compaction summariser's transcript (2.1.30 to 2.1.80): never a session. */
export const COMPACTION_SUMMARISER_PREFIX = "agent-acompact-";

/** At most this many tokens reach a request per transcript byte written since the last response. */
export const TOKENS_PER_BYTE = 0.6;
/** The most tokens a request was seen to gain beyond its transcript bytes (2.1.167; 2.1.328: 0). */
export const LARGEST_UNSEEN_TOKENS = 3_346;
/** A ToolSearch call or result: any size of schema loads, unwritten before 2.1.328 (2.1.112). */
export const TOOL_SEARCH = /"name":"ToolSearch"|"type":"tool_reference"/;

/** The JSON a hook prints so that `text` reaches the model (plain stdout never does). */
export function hookAnswer(event: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
}

/** The JSON a hook prints so that `text` reaches the user, not the model. */
export function userNotice(text: string): string {
  return JSON.stringify({ systemMessage: text });
}
