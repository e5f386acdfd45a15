/**
 * Which context window a reading is measured against, how sure that is, and on what evidence.
 * Pure: the environment and the transcript's facts arrive as values. Why each rule holds:
 * docs/maintainers/windows-by-release.md.
 */
import {
  AUTOCOMPACT_MARGIN,
  FIRST_PARTY_GATE,
  LARGE_WINDOW,
  MODEL_ROWS,
  type ModelRow,
  SMALL_WINDOW,
} from "./claude_code.ts";

/** How the window was decided; shown by `status`, `doctor` and the debug line. */
export type WindowSource =
  | "LESSONS_CONTEXT_WINDOW"
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
   * False when a larger window stays possible: the reading is measured against the smaller one,
   * so no threshold is missed, and refreshes made under it stop counting once a larger is proven.
   */
  certain: boolean;
  /** The evidence, in a few plain words. */
  evidence: string;
  /** The window this evidence proves for the rest of the session, and for which model. */
  proves?: WindowProof;
}

/** A compaction the transcript records, and the model and release of the usage it compacted. */
export interface CompactionEvidence {
  trigger: string | undefined;
  preTokens: number;
  model?: string | undefined;
  version?: string | undefined;
}

/**
 * A window this session proved, for the model and Claude Code release of the evidence (a window
 * is the model's in that release). Undefined model or version: it speaks for every entry.
 */
export interface WindowProof {
  window: number;
  model?: string | undefined;
  version?: string | undefined;
}

export interface WindowInputs {
  model?: string | undefined;
  /** The Claude Code release that wrote the entry. */
  version?: string | undefined;
  /** Tokens observed; above 200k proves a larger window. */
  tokens?: number | undefined;
  /** `LESSONS_CONTEXT_WINDOW`. */
  override?: number | undefined;
  /** `CLAUDE_CODE_DISABLE_1M_CONTEXT`. */
  disable1m?: boolean | undefined;
  /** Claude Code talks to the first-party API; undefined: not known. */
  firstParty?: boolean | undefined;
  /** The newest compaction the transcript records, if read. */
  compaction?: CompactionEvidence | undefined;
  proven?: WindowProof | undefined;
  /** An auto-compact window or percentage is set: a compaction below 200k proves nothing. */
  compactsEarly?: boolean | undefined;
}

/**
 * A model id as Claude Code keys its families and per-model settings: lower case, from its
 * `claude-` part on, without `[1m]` or a date; a family the table knows is reduced to it.
 *
 * @example
 * ```ts
 * modelKey("claude-sonnet-4-5-20250929"); // "claude-sonnet-4-5"
 * modelKey("us.anthropic.claude-opus-5-5[1m]"); // "claude-opus-5-5"
 * ```
 */
export function modelKey(model: string): string {
  const row = rowOf(model);
  if (row) return row.family;
  const lower = model.toLowerCase().replace(/\[1m\]$/, "");
  const at = lower.indexOf("claude-");
  return (at > 0 ? lower.slice(at) : lower).replace(/[-@]\d{8}$/, "");
}

function rowOf(model: string): ModelRow | undefined {
  const lower = model.toLowerCase().replace(/\[1m\]$/, "");
  const at = lower.indexOf("claude-");
  const id = at > 0 ? lower.slice(at) : lower;
  return MODEL_ROWS.find(({ family }) => {
    if (id === family) return true;
    if (!id.startsWith(family) || !"-@:".includes(id.charAt(family.length))) return false;
    // `claude-opus-4-70` or `claude-sonnet-4-7` is another model, not a dated `claude-opus-4`.
    return !/^-\d{1,2}(?:$|[-@:])/.test(id.slice(family.length));
  });
}

/**
 * True when evidence about `evidence.model` in `evidence.version` speaks for an entry of `model`
 * written by `version`: the same family and the same release; what either side does not know
 * does not tell them apart.
 */
export function speaksFor(
  evidence: { model?: string | undefined; version?: string | undefined },
  model: string | undefined,
  version: string | undefined,
): boolean {
  if (evidence.version !== undefined && version !== undefined && evidence.version !== version) {
    return false;
  }
  return evidence.model === undefined || model === undefined ||
    modelKey(evidence.model) === modelKey(model);
}

/** `a` against `b` as release numbers (`2.1.112`); parts that are not numbers count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).slice(0, 3).map((p) => Number(p) || 0);
  const pb = b.split(/[.-]/).slice(0, 3).map((p) => Number(p) || 0);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const choice = (window: number, source: WindowSource, certain: boolean, evidence: string) => ({
  window,
  source,
  certain,
  evidence,
});

/**
 * The window from the best evidence at hand: an exact figure, the 1M kill switch, a `[1m]` id, a
 * reading above 200k, a window proven earlier, an auto-compaction's size, the model against the
 * table for the release that wrote the transcript. Where a larger window stays possible the
 * answer is the smaller one, not `certain`.
 *
 * @example
 * ```ts
 * resolveWindow({ model: "claude-sonnet-4-6", tokens: 250_000 }).window; // 1_000_000
 * resolveWindow({ model: "claude-opus-4-7", version: "2.1.112" }).window; // 200_000
 * ```
 */
export function resolveWindow(inputs: WindowInputs): WindowChoice {
  const { override, model, version, tokens } = inputs;
  const proven = inputs.proven !== undefined && speaksFor(inputs.proven, model, version)
    ? inputs.proven.window
    : undefined;
  const compaction = inputs.compaction !== undefined &&
      speaksFor(inputs.compaction, model, version)
    ? inputs.compaction
    : undefined;
  if (override !== undefined) {
    return choice(override, "LESSONS_CONTEXT_WINDOW", true, "set by LESSONS_CONTEXT_WINDOW");
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
        `a reading of ${tokens} tokens is over 200k`,
      ),
      proves: { window: LARGE_WINDOW, model, version },
    };
  }
  if (proven !== undefined && proven > SMALL_WINDOW) {
    return choice(
      proven,
      "proven earlier in this session",
      true,
      "a reading over 200k earlier in this session",
    );
  }
  if (compaction !== undefined) {
    const by = { model: compaction.model ?? model, version: compaction.version ?? version };
    const at = compaction.preTokens;
    if (at > SMALL_WINDOW) {
      return {
        ...choice(
          LARGE_WINDOW,
          "auto-compaction point",
          true,
          `a compaction at ${at} tokens, over 200k`,
        ),
        proves: { window: LARGE_WINDOW, ...by },
      };
    }
    if (compaction.trigger === "auto" && at >= SMALL_WINDOW / 2 && !inputs.compactsEarly) {
      return {
        ...choice(
          SMALL_WINDOW,
          "auto-compaction point",
          true,
          `auto-compacted at ${at} tokens, as a 200k window does (${
            SMALL_WINDOW - AUTOCOMPACT_MARGIN
          })`,
        ),
        proves: { window: SMALL_WINDOW, ...by },
      };
    }
  }
  if (proven !== undefined) {
    return choice(proven, "proven earlier in this session", true, "proven earlier in this session");
  }
  return fromTable(model, version, inputs.firstParty);
}

function fromTable(
  model: string | undefined,
  version: string | undefined,
  firstParty: boolean | undefined,
): WindowChoice {
  if (model === undefined) return choice(SMALL_WINDOW, "no model", false, "no model recorded yet");
  const row = rowOf(model);
  if (row === undefined) {
    return choice(SMALL_WINDOW, "unknown model", false, `${model} is not in the window table`);
  }
  if (row.kind === "fixed") {
    return choice(SMALL_WINDOW, "model and version", true, `${model} has 200k in every release`);
  }
  if (row.kind === "optIn") {
    return choice(SMALL_WINDOW, "model and version", false, `${model} has 1M only if chosen`);
  }
  const from = row.nativeFrom ?? "";
  const inRelease = version === undefined
    ? `${model} (its Claude Code release not recorded)`
    : `${model} in Claude Code ${version}`;
  if (version === undefined || compareVersions(version, from) < 0) {
    const unread = version !== undefined && row.notNativeUntil !== undefined &&
      compareVersions(version, row.notNativeUntil) > 0;
    return choice(
      SMALL_WINDOW,
      "model and version",
      false,
      unread ? `${inRelease}: that release was not measured` : `${inRelease}: 1M only from ${from}`,
    );
  }
  const gate = firstPartyGate(version);
  if (gate !== "none" && firstParty !== true) {
    return choice(
      SMALL_WINDOW,
      "model and version",
      false,
      firstParty === false
        ? `${inRelease}: 1M only on Anthropic's own API, and another API is set`
        : `${inRelease}: 1M only on Anthropic's own API`,
    );
  }
  return choice(LARGE_WINDOW, "model and version", true, `${inRelease} has 1M natively`);
}

/** Whether `version` makes native 1M depend on the first-party API: yes, no, or not read. */
function firstPartyGate(version: string): "yes" | "none" | "maybe" {
  const g = FIRST_PARTY_GATE;
  if (compareVersions(version, g.lastWithout) <= 0) return "none";
  if (compareVersions(version, g.firstWithoutAfter) >= 0) return "none";
  if (compareVersions(version, g.from) >= 0 && compareVersions(version, g.until) <= 0) return "yes";
  return "maybe";
}

/** Percent of `window` that `tokens` fill; multiplies first, so 58,000 of 200,000 is 29. */
export function percentOf(tokens: number, window: number): number {
  return (tokens * 100) / window;
}

/** Context size from usage: `input + cache_creation + cache_read`, Claude Code's own formula. */
export function usedTokens(usage: {
  input_tokens?: number | null | undefined;
  cache_creation_input_tokens?: number | null | undefined;
  cache_read_input_tokens?: number | null | undefined;
}): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0);
}

/**
 * The thresholds of `fired` that still count under `span`: a refresh made under a smaller,
 * uncertain span lies below its percentage of a larger one once that is proven, so it fires
 * again there. Token thresholds never move.
 */
export function firedUnder(
  fired: readonly number[],
  firedWindow: Readonly<Record<string, number>> | undefined,
  span: number | undefined,
): number[] {
  if (firedWindow === undefined || span === undefined) return [...fired];
  return fired.filter((t) => (firedWindow[String(t)] ?? span) >= span);
}

/** The evidence in one phrase, and, when a larger window stays possible, that 200k is used. */
export function windowText(choice: WindowChoice): string {
  return choice.certain
    ? choice.evidence
    : `${choice.evidence}; counted as 200k until a reading shows more`;
}

/** The proof `choice` makes when it is worth keeping and differs from the one `proven`. */
export function newProof(choice: WindowChoice, proven: WindowProof | undefined) {
  const proof = choice.proves;
  if (proof === undefined) return undefined;
  const same = proven !== undefined && proof.window === proven.window &&
    proof.model === proven.model && proof.version === proven.version;
  return same ? undefined : proof;
}
