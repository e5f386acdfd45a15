/**
 * The host seam: which agent wrote a session's transcript, and what differs between them. Each
 * host's facts live in its own module (core/claude_code.ts, core/codex.ts, core/gemini.ts), its
 * transcript reader gives the same view (core/view.ts) and its own settings file the same
 * settings; the decision, the state, the rendering and the commands know no host.
 * docs/architecture.md draws it.
 */
import { autoCompactLimitOf, DEFAULT_COMPACT_SHARE, isRolloutPath } from "../core/codex.ts";
import { AGENTS_FILES, rolloutPointsOf } from "../core/codex.ts";
import { join } from "../core/path.ts";
import { readText } from "./files.ts";
import type { Settings } from "../settings/resolve.ts";
import { rolloutHistoryOf, rolloutViewOf } from "./codex_rollout.ts";
import { AFTER_TOOL, chatPointsOf, isChatPath } from "../core/gemini.ts";
import { TOOL_CALL_EVENTS as CLAUDE_CODE_EVENTS } from "../core/claude_code.ts";
import { chatHistoryOf, chatViewOf } from "./gemini_chat.ts";
import { geminiSettings } from "./gemini_sessions.ts";
import { historyOf, viewOf } from "./transcript.ts";

/** The events a tool call fires, on any host. */
export const TOOL_CALL_EVENTS: readonly string[] = [...CLAUDE_CODE_EVENTS, AFTER_TOOL];

/** What the shared steps ask of a host: its transcript's reader, and its own settings. */
export interface TranscriptReader {
  viewOf: typeof viewOf;
  historyOf: typeof historyOf;
  /** Where the hook ran, read forward (`status --timeline`); absent: Claude Code's own reading. */
  pointsOf?: typeof rolloutPointsOf;
  /** What a session of another host runs under instead of Claude Code's settings. */
  settingsOf?: (settings: Settings) => Partial<Settings>;
}

const CLAUDE_CODE: TranscriptReader = { viewOf, historyOf };
const CODEX: TranscriptReader = {
  viewOf: rolloutViewOf,
  historyOf: rolloutHistoryOf,
  pointsOf: rolloutPointsOf,
  settingsOf: codexSettings,
};
const GEMINI: TranscriptReader = {
  viewOf: chatViewOf,
  historyOf: chatHistoryOf,
  pointsOf: chatPointsOf,
  settingsOf: geminiSettings,
};

/** The reader for a transcript: a rollout is Codex's, a `chats/session-*` Gemini's, else Claude's. */
export function readerFor(path: string | undefined): TranscriptReader {
  return isRolloutPath(path) ? CODEX : isChatPath(path) ? GEMINI : CLAUDE_CODE;
}

/** Each host's own settings, by its folder: its settings file is read once per process. */
const hostSettings = new Map<string, Partial<Settings>>();

/** The settings a session of that host runs under: the host's own over the resolved ones. */
export function settingsFor<S extends Settings>(path: string | undefined, settings: S): S {
  const { settingsOf } = readerFor(path);
  if (!settingsOf) return settings;
  const key = `${isRolloutPath(path)} ${settings.codexHome} ${settings.geminiDir}`;
  const own = hostSettings.get(key) ?? settingsOf(settings);
  hostSettings.set(key, own);
  return { ...settings, ...own };
}

const DEFAULT_EVIDENCE = "Codex's default: 90% of the configured window, of which it states 95%";

/**
 * A Codex session's settings: its own instruction files and `$CODEX_HOME`, and none of Claude
 * Code's auto-compaction settings (the rollout states the window Codex works with, and Codex
 * compacts by its own: `model_auto_compact_token_limit` in its config.toml, else its default).
 */
function codexSettings({ codexHome }: Settings): Partial<Settings> {
  const file = codexHome && join(codexHome, "config.toml");
  const text = file ? readText(file) : undefined;
  const limit = text === undefined ? undefined : autoCompactLimitOf(text);
  const source = "model_auto_compact_token_limit";
  const host = limit !== undefined
    ? { tokens: limit, source, evidence: `${source} = ${limit} in ${file}` }
    : { share: DEFAULT_COMPACT_SHARE, source: "Codex's default", evidence: DEFAULT_EVIDENCE };
  return {
    agent: "codex",
    compactEnv: { host },
    scaleForAutocompact: false,
    hostRules: { files: AGENTS_FILES, dir: codexHome },
    pluginsDir: codexHome && join(codexHome, "plugins"),
  };
}
