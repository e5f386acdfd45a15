/**
 * The host seam: which agent wrote a session's transcript, and what differs between them. Each
 * host's facts live in its own module (core/claude_code.ts, core/codex.ts) and its transcript
 * reader gives the same view (core/view.ts); the decision, the state, the rendering and the
 * commands know no host. docs/architecture.md draws it.
 */
import { autoCompactLimitOf, DEFAULT_COMPACT_SHARE, isRolloutPath } from "../core/codex.ts";
import { AGENTS_FILES, rolloutPointsOf } from "../core/codex.ts";
import type { CompactEnv } from "../core/compaction_point.ts";
import { join } from "../core/path.ts";
import { readText } from "./files.ts";
import type { Settings } from "../settings/resolve.ts";
import { rolloutHistoryOf, rolloutViewOf } from "./codex_rollout.ts";
import { AFTER_TOOL, chatPointsOf, isChatPath } from "../core/gemini.ts";
import { TOOL_CALL_EVENTS as CLAUDE_CODE_EVENTS } from "../core/claude_code.ts";
import { chatHistoryOf, chatViewOf } from "./gemini_chat.ts";
import { geminiSettings } from "./gemini_sessions.ts";
import { historyOf, viewOf } from "./transcript.ts";

export type HostName = "Claude Code" | "Codex" | "Gemini CLI";

/** The events a tool call fires, on any host. */
export const TOOL_CALL_EVENTS: readonly string[] = [...CLAUDE_CODE_EVENTS, AFTER_TOOL];

/** What the shared steps ask of a host's transcript. */
export interface TranscriptReader {
  host: HostName;
  viewOf: typeof viewOf;
  historyOf: (...args: Parameters<typeof rolloutHistoryOf>) => ReturnType<typeof historyOf>;
  /** Where the hook ran, read forward (`status --timeline`); absent: Claude Code's own reading. */
  pointsOf?: typeof rolloutPointsOf;
}

export const CLAUDE_CODE: TranscriptReader = { host: "Claude Code", viewOf, historyOf };
export const CODEX: TranscriptReader = {
  host: "Codex",
  viewOf: rolloutViewOf,
  historyOf: rolloutHistoryOf,
  pointsOf: rolloutPointsOf,
};
export const GEMINI: TranscriptReader = {
  host: "Gemini CLI",
  viewOf: chatViewOf,
  historyOf: chatHistoryOf,
  pointsOf: chatPointsOf,
};

/** The reader for a transcript: a rollout is Codex's, a `chats/session-*` Gemini's, else Claude's. */
export function readerFor(path: string | undefined): TranscriptReader {
  return isRolloutPath(path) ? CODEX : isChatPath(path) ? GEMINI : CLAUDE_CODE;
}

/**
 * The settings a session of that host runs under. Codex: its own instruction files and
 * `$CODEX_HOME`, and none of Claude Code's auto-compaction settings (the rollout states the
 * window Codex works with, and Codex compacts by its own settings).
 */
export function settingsFor<S extends Settings>(path: string | undefined, settings: S): S {
  if (readerFor(path) === GEMINI) return { ...settings, ...geminiSettings(settings) };
  if (readerFor(path) !== CODEX) return settings;
  const { codexHome } = settings;
  const host = compactions.get(codexHome) ?? codexCompaction(codexHome);
  compactions.set(codexHome, host);
  const hostRules = { files: AGENTS_FILES, dir: codexHome };
  const pluginsDir = codexHome && join(codexHome, "plugins");
  const compactEnv = { host };
  return {
    ...settings,
    agent: "codex",
    compactEnv,
    scaleForAutocompact: false,
    hostRules,
    pluginsDir,
  };
}

/** Codex's config.toml is read once per process. */
const compactions = new Map<string | undefined, NonNullable<CompactEnv["host"]>>();

/** Where Codex compacts: `model_auto_compact_token_limit` in its config.toml, else its default. */
function codexCompaction(codexHome: string | undefined): NonNullable<CompactEnv["host"]> {
  const file = codexHome && join(codexHome, "config.toml");
  const text = file ? readText(file) : undefined;
  const limit = text === undefined ? undefined : autoCompactLimitOf(text);
  if (limit !== undefined) {
    const evidence = `model_auto_compact_token_limit = ${limit} in ${file}`;
    return { tokens: limit, source: "model_auto_compact_token_limit", evidence };
  }
  const evidence = "Codex's default: 90% of the configured window, of which it states 95%";
  return { share: DEFAULT_COMPACT_SHARE, source: "Codex's default", evidence };
}
