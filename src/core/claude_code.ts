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
 * At most this many tokens per byte of transcript written after a reading reach the next request
 * (the ceiling on a call's reading, src/core/ceiling.ts). Over consecutive main-chain readings of
 * real transcripts (versions 1.0.90 to 2.1.212) growth is under 0.7 tokens per byte on all but
 * small gaps; small gaps are {@link UNSEEN_TOKENS}'s.
 */
export const TOKENS_PER_BYTE = 1;

/**
 * Tokens a request can carry that the transcript does not show (system reminders, tool schemas
 * loaded on demand): up to about 16,000 measured over ~130 real transcripts; at most 6,635 above
 * {@link TOKENS_PER_BYTE} per byte over the consecutive readings of the public transcripts in
 * tests/fixtures/transcripts.
 */
export const UNSEEN_TOKENS = 20_000;
