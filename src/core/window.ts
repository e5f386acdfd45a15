/**
 * Which context window a reading is measured against, and why.
 * Pure: the environment arrives as plain values.
 */
import { DEFAULT_WINDOW, LARGE_WINDOW, NATIVE_1M_MODELS } from "./claude_code.ts";

/** How the window was decided; shown by `status` and the debug line. */
export type WindowSource =
  | "env LESSONS_CONTEXT_WINDOW"
  | "reported by Claude Code"
  | "[1m] model id"
  | "CLAUDE_CODE_DISABLE_1M_CONTEXT"
  | "native 1M model"
  | "default 200k"
  | "usage above 200k";

export interface WindowChoice {
  window: number;
  source: WindowSource;
}

export interface WindowInputs {
  /** Model id of the usage entry, if known. */
  model?: string | undefined;
  /** Tokens observed; a reading above the assumed window proves a larger one. */
  tokens?: number | undefined;
  /** `LESSONS_CONTEXT_WINDOW`, already parsed (positive integer) or undefined. */
  override?: number | undefined;
  /** `CLAUDE_CODE_DISABLE_1M_CONTEXT` is set to a true value. */
  disable1m?: boolean | undefined;
}

/**
 * True when `model` names a natively-1M family (dated or provider-prefixed ids included).
 *
 * @example
 * ```ts
 * isNative1m("claude-opus-4-7-20260101"); // true
 * isNative1m("claude-sonnet-4-6"); // false
 * ```
 */
export function isNative1m(model: string): boolean {
  const id = normalizeModelId(model);
  return NATIVE_1M_MODELS.some((family) =>
    id === family || (id.startsWith(family) && "-@:".includes(id.charAt(family.length)))
  );
}

/** Lower-cased id from its `claude-` part on, without a `[1m]` suffix. */
function normalizeModelId(model: string): string {
  const lower = model.toLowerCase().replace(/\[1m\]$/, "");
  const at = lower.indexOf("claude-");
  return at > 0 ? lower.slice(at) : lower;
}

/**
 * Decides the window in the documented order: override, `[1m]`, the 1M kill switch, the model
 * table, the default; then a reading larger than the chosen window means the 1M window.
 */
export function resolveWindow(inputs: WindowInputs): WindowChoice {
  const choice = baseWindow(inputs);
  if (
    choice.source !== "env LESSONS_CONTEXT_WINDOW" && inputs.tokens !== undefined &&
    inputs.tokens > choice.window && choice.window < LARGE_WINDOW
  ) {
    return { window: LARGE_WINDOW, source: "usage above 200k" };
  }
  return choice;
}

function baseWindow({ model, override, disable1m }: WindowInputs): WindowChoice {
  if (override !== undefined) return { window: override, source: "env LESSONS_CONTEXT_WINDOW" };
  if (disable1m) return { window: DEFAULT_WINDOW, source: "CLAUDE_CODE_DISABLE_1M_CONTEXT" };
  if (model !== undefined && /\[1m\]$/i.test(model)) {
    return { window: LARGE_WINDOW, source: "[1m] model id" };
  }
  if (model !== undefined && isNative1m(model)) {
    return { window: LARGE_WINDOW, source: "native 1M model" };
  }
  return { window: DEFAULT_WINDOW, source: "default 200k" };
}

/**
 * Percent of `window` that `tokens` fill. Multiplies first: `(58000 / 200000) * 100` is
 * 28.999..., which would miss a 29 % threshold by a rounding error.
 */
export function percentOf(tokens: number, window: number): number {
  return (tokens * 100) / window;
}

/** Token counts as the Messages API reports them; any may be absent or null. */
export interface UsageCounts {
  input_tokens?: number | null | undefined;
  cache_creation_input_tokens?: number | null | undefined;
  cache_read_input_tokens?: number | null | undefined;
}

/** Context size from usage: `input + cache_creation + cache_read`, Claude Code's own formula. */
export function usedTokens(usage: UsageCounts): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0);
}
