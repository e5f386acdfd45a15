/**
 * What this program relies on about Claude Code, in one place: each fact with where it was
 * measured (docs/claude-code-facts.md has the measurements). A Claude Code release that changes
 * one of them is one edit here.
 */

/**
 * `additionalContext` up to this many characters reaches the model inline; one more and Claude
 * Code saves it to a file and shows a ~2 KB preview. Measured on 2.1.328: 9,990 and 10,000
 * inline; 10,001, 10,010, 12,000 and 20,000 persisted.
 */
export const INLINE_LIMIT = 10_000;

/** Auto-compaction on a 200k window fires near this share of the window (2.1.x, measured). */
export const AUTO_COMPACT_PCT = 83.5;

/**
 * Auto-compaction (2.1.328, read from its code: `jQ`, `s4`, `Ey`; docs/context-windows.md): the
 * effective window is the auto-compact window less `min(maxOutputTokens, 20000)` (every current
 * model's output limit is above 20,000), and compaction fires {@link AUTOCOMPACT_BUFFER} below
 * it, or at `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` percent of the effective window when that is lower.
 * The two buffers make data/window_table.ts's `AUTOCOMPACT_MARGIN`.
 */
export const SUMMARY_OUTPUT_BUFFER = 20_000;

/** Tokens below the effective window at which auto-compaction fires (2.1.328, `s4`). */
export const AUTOCOMPACT_BUFFER = 13_000;

/**
 * The smallest auto-compact window 2.1.328 takes: `CLAUDE_CODE_AUTO_COMPACT_WINDOW` below it
 * counts as it; an `autoCompactWindow` setting below it is dropped (`eH = 1e5`).
 */
export const MIN_AUTO_COMPACT_WINDOW = 100_000;

/**
 * Where 2.1.328 reads managed settings (`qS`): `managed-settings.json` and the
 * `managed-settings.d/*.json` drop-ins in this folder; any other system is Linux's.
 */
export const MANAGED_SETTINGS_DIRS: Readonly<Record<string, string>> = {
  darwin: "/Library/Application Support/ClaudeCode",
  windows: "C:\\Program Files\\ClaudeCode",
  linux: "/etc/claude-code",
};

/**
 * With auto-compaction off, 2.1.328 refuses a request at the effective window less this many
 * tokens (`bkt`: `blocked` at `window - min(maxOutput, 20000) - 3000`): the context ends there.
 */
export const BLOCKING_BUFFER = 3_000;

/**
 * A statusLine reading is trusted for this long: the statusLine runs ~380 ms after an assistant
 * message and merges close runs, so an older record no longer describes the context.
 */
export const STATUSLINE_MAX_AGE_MS = 60_000;

/** The events a tool call fires: PostToolUse, or PostToolUseFailure for a failing tool. */
export const TOOL_CALL_EVENTS: readonly string[] = ["PostToolUse", "PostToolUseFailure"];

/**
 * SessionStart `source` values that begin a new context (`startup`, `resume` and `fork` do not
 * reset: they continue or copy one). `hook_event_name` is always `"SessionStart"`.
 */
export const RESET_SOURCES: readonly string[] = ["clear", "compact"];

/**
 * The SessionStart `source` of a new session: its hook's `systemMessage` is shown to the user
 * under the banner and sent to no model (measured on 2.1.328, docs/claude-code-facts.md).
 */
export const STARTUP_SOURCE = "startup";

/** The event that ends a context after a compaction (manual or auto), besides SessionStart. */
export const POST_COMPACT_EVENT = "PostCompact";

/**
 * The compaction event whose answer reaches the model: SessionStart (`source: "compact"`). Its
 * `additionalContext` arrives in the first request of the new context, inside the new user
 * message, as `<system-reminder>SessionStart hook additional context: ...`; 10,000 characters
 * whole, 10,001 saved to a file with a 2 KB preview, as for tool calls. PostCompact's
 * `hookSpecificOutput` is refused ("Hook JSON output validation failed") and that error reaches
 * the model. SessionStart runs first, then PostCompact, with the same `prompt_id`. Measured on
 * 2.1.328 with `/compact` (tests/e2e/measure_compact_context.ts).
 */
export const COMPACT_ANSWER_EVENT = "SessionStart";

/**
 * The `toolUseID` Claude Code records for a SessionStart answer's `hook_additional_context`
 * attachment (a tool call's answer carries the call's `tool_use_id`). Measured on 2.1.328 after
 * `/compact`: `{"type":"hook_additional_context","hookName":"SessionStart","toolUseID":
 * "SessionStart","hookEvent":"SessionStart","content":["[lessons-reinject refresh compact ..."]}`.
 */
export const SESSION_START_CALL = "SessionStart";

/**
 * Transcript attachment types around a hook's answer (measured on 2.1.328): every
 * `additionalContext` Claude Code delivers is recorded as a `hook_additional_context` attachment
 * (`toolUseID`, `hookEvent`, `content: [text]`); `hook_success` records only the hook's stdout,
 * delivered or not; a hook killed at its `timeout` leaves `hook_cancelled` (`toolUseID`,
 * `hookEvent`) and its answer reaches no request.
 *
 * The order they are written in (every e2e recording, parallel and Agent calls included): the
 * assistant entry holding the `tool_use`; then, after the PostToolUse hooks ran, the `tool_result`
 * user entry and its hooks' attachments; then, after the next request, the next assistant entry.
 * A tool call's hook starts when the file ends just past its assistant entry. So an answer not
 * recorded between the call's `tool_result` and the next main-chain assistant entry was never
 * delivered, and before that assistant entry it may still be on its way. A SessionStart(compact)
 * hook starts before the `compact_boundary` is written; its answer is recorded before the new
 * context's first response.
 */
export const DELIVERED_ATTACHMENT = "hook_additional_context";
/** See {@link DELIVERED_ATTACHMENT}. */
export const CANCELLED_ATTACHMENT = "hook_cancelled";

/**
 * Every event the hook is registered for, with values its matcher must let through; doctor
 * checks `hooks/hooks.json` against this list.
 */
export const HOOK_EVENTS: readonly { event: string; needs: readonly string[] }[] = [
  { event: "PostToolUse", needs: ["Bash", "Read", "mcp__x__y"] },
  { event: "PostToolUseFailure", needs: ["Bash", "Read", "mcp__x__y"] },
  { event: "SessionStart", needs: RESET_SOURCES },
  { event: POST_COMPACT_EVENT, needs: ["manual", "auto"] },
];

/**
 * Substrings every compaction marker line holds: 2.x writes a `system` entry with subtype
 * `compact_boundary`; 1.0.x only a `user` entry with `isCompactSummary: true`. Lines without
 * either are never parsed when looking for markers.
 */
export const COMPACTION_MARKER_TEXTS: readonly string[] = ["compact_boundary", "isCompactSummary"];

/** The `system` entry subtype 2.x writes where a compaction ends a context. */
export const COMPACT_BOUNDARY_SUBTYPE = "compact_boundary";

/**
 * The first line of a fork subagent's own transcript (2.1.328, the Agent tool's `subagent_type:
 * "fork"` with `CLAUDE_CODE_FORK_SUBAGENT=1`): `{"type":"fork-context-ref","agentId",
 * "parentSessionId","parentLastUuid","contextLength"}`. The fork starts with its parent's
 * conversation up to the entry `parentLastUuid` (not copied into its file), then a copy of the
 * parent's Agent call with the parent's usage, then its directive. Forks start only from the main
 * thread. Measured: tests/e2e/measure_fork_agent.ts, tests/fixtures/transcripts/recorded-2.1.328-
 * fork-*.jsonl.
 */
export const FORK_CONTEXT_REF_TYPE = "fork-context-ref";

/**
 * Subagents' own transcripts are `agent-<agent id>.jsonl`: under `<session>/subagents/` from
 * 2.1.x (2.1.167 nests workflow agents deeper), beside the session transcripts in the project
 * folder in 2.0.x (2.0.76 read). None is a session's transcript.
 */
export const SUBAGENT_FILE_PREFIX = "agent-";

/**
 * The compaction summariser's own transcript, `agent-acompact-<16 hex>.jsonl` under
 * `<session>/subagents/`: its agent id is `a` + the fork label `compact` + `-` + 16 hex digits.
 * It holds a copy of the whole conversation being compacted and the summariser's answer, whose
 * usage is the size of that conversation. Read in the code: 2.1.30 and 2.1.80 record it (their
 * forked-agent runner writes a transcript unless told to skip it, and compaction does not);
 * 2.1.14 has no compaction fork; 2.1.112 and 2.1.328 pass `skipTranscript` (no such file: the
 * e2e measurement tests/e2e/measure_fork_agent.ts compacts and finds none).
 */
export const COMPACTION_SUMMARISER_PREFIX = "agent-acompact-";

/**
 * Context windows by model and Claude Code version (which model is natively 1M since which
 * release, when 1M needs the first-party API, where auto-compaction fires): the table is
 * data/window_table.ts, the evidence docs/context-windows.md.
 */
export { AUTOCOMPACT_MARGIN, LARGE_WINDOW, SMALL_WINDOW } from "../data/window_table.ts";

/**
 * The JSON a hook prints so that `text` reaches the model: plain stdout never does (measured,
 * 0 of 3 requests carried it).
 *
 * @example
 * ```ts
 * hookAnswer("PostToolUse", "hello");
 * // '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"hello"}}'
 * ```
 */
export function hookAnswer(event: string, text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
}

/**
 * The JSON a hook prints so that `text` reaches the user, not the model: a `systemMessage`.
 *
 * @example
 * ```ts
 * userNotice("hello"); // '{"systemMessage":"hello"}'
 * ```
 */
export function userNotice(text: string): string {
  return JSON.stringify({ systemMessage: text });
}

/**
 * At most this many tokens per byte reach a request for each byte of transcript written since the
 * previous response began (the ceiling on a call's reading, src/core/ceiling.ts). The densest
 * content real transcripts show: over consecutive main-chain readings whose gap holds at least
 * 8 KB of text (tool results and prompts, no images), at most 0.59 tokens per byte of that text
 * (0.56 per byte as the transcript holds it, JSON-escaped; a 2.1.212 session behind a gateway
 * reading C++ source; first-party sessions at most 0.53, median 0.39). Every byte a request gains
 * that the transcript shows is at least one transcript byte: the same JSON, often twice or three
 * times (docs/claude-code-facts.md, "Unseen growth").
 * The e2e suite and the in-session benchmark back each scripted step with output at this rate.
 */
export const TOKENS_PER_BYTE = 0.6;

/**
 * The most tokens a request was seen to gain beyond {@link TOKENS_PER_BYTE} per byte written to
 * the transcript since the previous response began. Real transcripts of 1.0.90 to 2.1.212: 3,346
 * (2.1.167 behind a gateway: six background-task notifications, which the transcript keeps only
 * as truncated queue entries). Real 2.1.328 driven through every source of growth a user meets
 * showed no request that grew more than its transcript bytes carry; the largest content missing
 * from its transcript was one MCP tool schema of 1,609 bytes (966 tokens), with the request
 * records (`api-request-*` lines) turned off (tests/fixtures/unseen-growth/, measured by
 * tests/e2e/measure_unseen_growth.ts; table in docs/claude-code-facts.md).
 */
export const LARGEST_UNSEEN_TOKENS = 3_346;
