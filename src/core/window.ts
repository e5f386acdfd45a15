/**
 * Which context window a reading is measured against, how sure that is, and on what evidence.
 * Pure: the environment and the transcript's facts arrive as plain values. The table it reads is
 * data/window_table.ts; why each rule holds is docs/context-windows.md.
 */
import {
  AUTOCOMPACT_MARGIN,
  FIRST_PARTY_GATE,
  LARGE_WINDOW,
  MODEL_ROWS,
  type ModelRow,
  SMALL_WINDOW,
} from "../data/window_table.ts";

/** How the window was decided; shown by `status`, `doctor` and the debug line. */
export type WindowSource =
  | "env LESSONS_CONTEXT_WINDOW"
  | "reported by Claude Code"
  | "CLAUDE_CODE_DISABLE_1M_CONTEXT"
  | "[1m] model id"
  | "usage above 200k"
  | "auto-compaction point"
  | "proven earlier in this session"
  | "model and version"
  | "unknown model"
  | "no model";

export interface WindowChoice {
  window: number;
  source: WindowSource;
  /**
   * False when a larger window is possible (a `[1m]` choice, the 1M beta, an unknown model or an
   * unread version): the reading is then measured against the smaller window, so no threshold is
   * missed, and refreshes made under it stop counting once a larger window is proven.
   */
  certain: boolean;
  /** One phrase: the evidence, for humans. */
  evidence: string;
  /** The window this evidence proves for the rest of the session, and for which model. */
  proves?: WindowProof;
}

/** A compaction the transcript records (`compact_boundary.compactMetadata`). */
export interface CompactionEvidence {
  trigger: string | undefined;
  preTokens: number;
  /** Model of the compacted context's last usage, when it was read: the size speaks for it. */
  model?: string | undefined;
  /** Claude Code version that wrote that usage. */
  version?: string | undefined;
}

/**
 * A window this session proved, with the model and the Claude Code version of the evidence: a
 * window is the model's in that release (docs/context-windows.md), so after a `/model` switch or
 * a resume in another release the proof no longer speaks for the entries measured. Undefined
 * model or version: not known, the proof speaks for every entry (state files of earlier
 * releases of this hook).
 */
export interface WindowProof {
  window: number;
  model?: string | undefined;
  version?: string | undefined;
}

export interface WindowInputs {
  /** Model id of the usage entry, if known. */
  model?: string | undefined;
  /** Claude Code version that wrote the entry (every transcript entry has `version`). */
  version?: string | undefined;
  /** Tokens observed; a reading above 200k proves a larger window. */
  tokens?: number | undefined;
  /** `LESSONS_CONTEXT_WINDOW`, already parsed (positive integer) or undefined. */
  override?: number | undefined;
  /** `CLAUDE_CODE_DISABLE_1M_CONTEXT` is set to a true value. */
  disable1m?: boolean | undefined;
  /**
   * Claude Code talks to the first-party API (no gateway `ANTHROPIC_BASE_URL`, no Bedrock,
   * Vertex or Foundry). Undefined: not known.
   */
  firstParty?: boolean | undefined;
  /** The newest compaction this session's transcript records, if read. */
  compaction?: CompactionEvidence | undefined;
  /** A window proven earlier in this session (kept in the state file across compactions). */
  proven?: WindowProof | undefined;
  /**
   * An auto-compact window or percentage is set (core/compaction_point.ts `compactsEarly`): an
   * auto-compaction below 200k then says nothing about the model's window.
   */
  compactsEarly?: boolean | undefined;
}

/**
 * True when `model` names a family that Claude Code `version` (newest read when undefined)
 * treats as natively 1M.
 *
 * @example
 * ```ts
 * isNative1m("claude-opus-4-7-20260101"); // true
 * isNative1m("claude-opus-4-7", "2.1.112"); // false
 * isNative1m("claude-sonnet-4-6"); // false
 * ```
 */
export function isNative1m(model: string, version?: string): boolean {
  const row = rowOf(model);
  if (row?.kind !== "native" || row.nativeFrom === undefined) return false;
  return version === undefined || compareVersions(version, row.nativeFrom) >= 0;
}

/** The table row of `model`'s family, or undefined for a model the table does not know. */
export function rowOf(model: string): ModelRow | undefined {
  const id = normalizeModelId(model);
  return MODEL_ROWS.find(({ family }) => {
    if (id === family) return true;
    if (!id.startsWith(family) || !"-@:".includes(id.charAt(family.length))) return false;
    // `claude-opus-4-70` or `claude-sonnet-4-7` is another model, not a dated `claude-opus-4`.
    return !/^-\d{1,2}(?:$|[-@:])/.test(id.slice(family.length));
  });
}

/**
 * True when evidence about `evidence.model` in `evidence.version` speaks for an entry of `model`
 * written by `version`: the same model family (or id, for a model the table does not know) and
 * the same release. What either side does not know does not tell them apart.
 *
 * @example
 * ```ts
 * speaksFor({ model: "claude-opus-5", version: "2.1.328" }, "claude-sonnet-4-6", "2.1.328"); // false
 * speaksFor({ model: "claude-opus-4-7", version: "2.1.112" }, "claude-opus-4-7", "2.1.328"); // false
 * speaksFor({}, "claude-sonnet-4-6", "2.1.328"); // true
 * ```
 */
export function speaksFor(
  evidence: { model?: string | undefined; version?: string | undefined },
  model: string | undefined,
  version: string | undefined,
): boolean {
  if (evidence.version !== undefined && version !== undefined && evidence.version !== version) {
    return false;
  }
  if (evidence.model === undefined || model === undefined) return true;
  const a = rowOf(evidence.model)?.family ?? normalizeModelId(evidence.model);
  const b = rowOf(model)?.family ?? normalizeModelId(model);
  return a === b;
}

/** Lower-cased id from its `claude-` part on, without a `[1m]` suffix. */
function normalizeModelId(model: string): string {
  const lower = model.toLowerCase().replace(/\[1m\]$/, "");
  const at = lower.indexOf("claude-");
  return at > 0 ? lower.slice(at) : lower;
}

/**
 * `a` against `b` as Claude Code versions (`2.1.112`): negative, zero or positive. Parts that are
 * not numbers compare as 0, so a malformed version sorts before every real one.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).slice(0, 3).map((p) => Number(p) || 0);
  const pb = b.split(/[.-]/).slice(0, 3).map((p) => Number(p) || 0);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function choice(
  window: number,
  source: WindowSource,
  certain: boolean,
  evidence: string,
): WindowChoice {
  return { window, source, certain, evidence };
}

/**
 * Decides the window from the best evidence at hand: an exact figure, the 1M kill switch, a
 * `[1m]` id, a reading above 200k, a window proven earlier, an auto-compaction's `preTokens`, the
 * model against the table for the version that wrote the transcript. Where a larger window stays
 * possible the answer is the smaller one, marked not `certain`.
 */
export function resolveWindow(inputs: WindowInputs): WindowChoice {
  const { override, model, version, tokens } = inputs;
  // Evidence about another model, or the same model in another release, says nothing here.
  const proven = inputs.proven !== undefined && speaksFor(inputs.proven, model, version)
    ? inputs.proven.window
    : undefined;
  const compaction = inputs.compaction !== undefined &&
      speaksFor(inputs.compaction, model, version)
    ? inputs.compaction
    : undefined;
  if (override !== undefined) {
    return choice(override, "env LESSONS_CONTEXT_WINDOW", true, "set by LESSONS_CONTEXT_WINDOW");
  }
  if (inputs.disable1m) {
    return choice(
      SMALL_WINDOW,
      "CLAUDE_CODE_DISABLE_1M_CONTEXT",
      true,
      "CLAUDE_CODE_DISABLE_1M_CONTEXT caps every model at 200k",
    );
  }
  if (model !== undefined && /\[1m\]$/i.test(model)) {
    return choice(LARGE_WINDOW, "[1m] model id", true, `${model} asks for the 1M window`);
  }
  if (tokens !== undefined && tokens > SMALL_WINDOW) {
    return {
      ...choice(
        LARGE_WINDOW,
        "usage above 200k",
        true,
        `a reading of ${tokens} tokens does not fit 200k`,
      ),
      proves: { window: LARGE_WINDOW, model, version },
    };
  }
  if (proven !== undefined && proven > SMALL_WINDOW) {
    return choice(proven, "proven earlier in this session", true, "a reading above 200k earlier");
  }
  if (compaction !== undefined) {
    // The compacted context's model, when read; else the one measured now.
    const by = { model: compaction.model ?? model, version: compaction.version ?? version };
    if (compaction.preTokens > SMALL_WINDOW) {
      return {
        ...choice(
          LARGE_WINDOW,
          "auto-compaction point",
          true,
          `a compaction at ${compaction.preTokens} tokens does not fit 200k`,
        ),
        proves: { window: LARGE_WINDOW, ...by },
      };
    }
    if (
      compaction.trigger === "auto" && compaction.preTokens >= SMALL_WINDOW / 2 &&
      !inputs.compactsEarly
    ) {
      return {
        ...choice(
          SMALL_WINDOW,
          "auto-compaction point",
          true,
          `auto-compaction at ${compaction.preTokens} tokens (a 200k window compacts at ${
            SMALL_WINDOW - AUTOCOMPACT_MARGIN
          })`,
        ),
        proves: { window: SMALL_WINDOW, ...by },
      };
    }
  }
  if (proven !== undefined) {
    return choice(proven, "proven earlier in this session", true, "proven earlier");
  }
  return fromTable(model, version, inputs.firstParty);
}

function fromTable(
  model: string | undefined,
  version: string | undefined,
  firstParty: boolean | undefined,
): WindowChoice {
  if (model === undefined) {
    return choice(SMALL_WINDOW, "no model", false, "no model recorded: 200k, 1M possible");
  }
  const row = rowOf(model);
  const seen = version === undefined ? "an unknown Claude Code version" : `Claude Code ${version}`;
  if (row === undefined) {
    return choice(
      SMALL_WINDOW,
      "unknown model",
      false,
      `${model} is not in the window table: 200k, 1M possible`,
    );
  }
  if (row.kind === "fixed") {
    return choice(SMALL_WINDOW, "model and version", true, `${model} has 200k in every version`);
  }
  if (row.kind === "optIn") {
    return choice(
      SMALL_WINDOW,
      "model and version",
      false,
      `${model} has 200k unless [1m] or the 1M beta was chosen (not recorded)`,
    );
  }
  const from = row.nativeFrom ?? "";
  if (version === undefined || compareVersions(version, from) < 0) {
    const unread = version !== undefined && row.notNativeUntil !== undefined &&
      compareVersions(version, row.notNativeUntil) > 0;
    return choice(
      SMALL_WINDOW,
      "model and version",
      false,
      version === undefined
        ? `${model} in ${seen}: 1M from ${from}, 200k before`
        : unread
        ? `${model} in ${seen}: not read (200k in ${row.notNativeUntil}, 1M in ${from})`
        : `${model} in ${seen}: 200k unless [1m] or the 1M beta was chosen (1M from ${from})`,
    );
  }
  const gate = firstPartyGate(version);
  if (gate !== "none" && firstParty !== true) {
    return choice(
      SMALL_WINDOW,
      "model and version",
      false,
      firstParty === false
        ? `${model} in ${seen}: 1M only on the first-party API, and a gateway or cloud provider is set`
        : `${model} in ${seen}: 1M only on the first-party API${
          gate === "maybe" ? " (this version not read)" : ""
        }`,
    );
  }
  return choice(LARGE_WINDOW, "model and version", true, `${model} is natively 1M in ${seen}`);
}

/** Whether `version` makes native 1M depend on the first-party API: yes, no, or not read. */
function firstPartyGate(version: string): "yes" | "no" | "none" | "maybe" {
  const g = FIRST_PARTY_GATE;
  if (compareVersions(version, g.lastWithout) <= 0) return "none";
  if (compareVersions(version, g.firstWithoutAfter) >= 0) return "none";
  if (compareVersions(version, g.from) >= 0 && compareVersions(version, g.until) <= 0) return "yes";
  return "maybe";
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

/**
 * The thresholds of `fired` that still count under `span` (the window, or the span before an
 * early auto-compaction): a refresh made under a smaller, uncertain span lies below that
 * percentage of a larger one once the larger one is proven, so it stops counting and the
 * threshold fires again at its share of the larger span. Token thresholds never move.
 */
export function firedUnder(
  fired: readonly number[],
  firedWindow: Readonly<Record<string, number>> | undefined,
  span: number | undefined,
): number[] {
  if (firedWindow === undefined || span === undefined) return [...fired];
  return fired.filter((t) => {
    const under = firedWindow[String(t)];
    return under === undefined || under >= span;
  });
}

/**
 * The window as the debug line, `status` and `doctor` show it: the window's source, whether it is
 * certain, and the evidence.
 */
export function windowText(choice: WindowChoice): string {
  return `${choice.source}${
    choice.certain ? "" : ", uncertain: the smaller window"
  }: ${choice.evidence}`;
}

/**
 * The proof `choice` makes, when it proves a window worth keeping for the rest of the session (a
 * reading or a compaction that shows its size) and differs from the one already `proven`.
 */
export function newProof(
  choice: WindowChoice,
  proven: WindowProof | undefined,
): WindowProof | undefined {
  const proof = choice.proves;
  if (proof === undefined) return undefined;
  const same = proven !== undefined && proof.window === proven.window &&
    proof.model === proven.model && proof.version === proven.version;
  return same ? undefined : proof;
}
