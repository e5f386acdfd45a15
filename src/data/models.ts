/**
 * Context-window sizes by model, as Claude Code 2.1.328's own model table sets them.
 * The one place to edit when Anthropic ships a model (see docs: claude-code-facts.md).
 */

/** The window every model has unless listed below or given a `[1m]` suffix. */
export const DEFAULT_WINDOW = 200_000;

/** The window of natively-1M models, `[1m]` ids and sessions whose usage outgrew 200k. */
export const LARGE_WINDOW = 1_000_000;

/**
 * Model families Claude Code treats as natively 1M. An id matches a family when it equals it or
 * continues it after `-`, `@` or `:` (dated ids, Bedrock/Vertex suffixes).
 */
export const NATIVE_1M_MODELS: readonly string[] = [
  "claude-opus-4-7",
  "claude-opus-4-8",
  "claude-opus-5",
  "claude-opus-5-5",
  "claude-sonnet-5",
  "claude-sonnet-5-5",
  "claude-haiku-5-5",
  "claude-fable-5",
  "claude-fable-5-1",
  "claude-fable-5-2",
  "claude-mythos-5",
  "claude-mythos-5-1",
  "claude-mythos-5-2",
];
