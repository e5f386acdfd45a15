/** The window a reading is measured against, and why (docs/maintainers/windows-by-release.md). */
import { AUTO_WINDOW, FIRST_PARTY_GATE as GATE, LARGE_WINDOW } from "./claude_code.ts";
import { AUTOCOMPACT_MARGIN, MODEL_ROWS, SMALL_WINDOW } from "./claude_code.ts";

/** The window chosen, its source and evidence, whether it is certain, what it proves. */
export type WindowChoice = ReturnType<typeof pick>;

/** The model and release some evidence is about; unknown, it speaks for every one. */
interface Release {
  model?: string | undefined;
  version?: string | undefined;
}

export interface CompactionEvidence extends Release {
  trigger: string | undefined;
  preTokens: number;
}

export interface WindowProof extends Release {
  window: number;
}

/** `override`: `LESSONS_CONTEXT_WINDOW`; `firstParty`: undefined when not known. */
export interface WindowInputs extends Release {
  tokens?: number | undefined;
  override?: number | undefined;
  disable1m?: boolean | undefined;
  firstParty?: boolean | undefined;
  compaction?: CompactionEvidence | undefined;
  proven?: WindowProof | undefined;
  /** An auto-compact window or percentage is set: a compaction below 200k proves nothing. */
  compactsEarly?: boolean | undefined;
}

/** The id from its `claude-` part on, lower case, without `[1m]`. */
function idOf(model: string): string {
  const lower = model.toLowerCase().replace(/\[1m\]$/, "");
  const at = lower.indexOf("claude-");
  return at > 0 ? lower.slice(at) : lower;
}

function rowOf(id: string) {
  return MODEL_ROWS.find(({ family }) => {
    if (id === family) return true;
    if (!id.startsWith(family) || !"-@:".includes(id.charAt(family.length))) return false;
    // `claude-opus-4-70` or `claude-sonnet-4-7` is another model, not a dated `claude-opus-4`.
    return !/^-\d{1,2}(?:$|[-@:])/.test(id.slice(family.length));
  });
}

/** A model id as Claude Code keys settings per model: a family in the table, else undated. */
export function modelKey(model: string): string {
  const id = idOf(model);
  return rowOf(id)?.family ?? id.replace(/[-@]\d{8}$/, "");
}

/** True when `evidence` speaks for an entry of `model` written by `version`. */
function speaksFor(evidence: Release, model: string | undefined, version: string | undefined) {
  const { model: m, version: v } = evidence;
  if (v !== undefined && version !== undefined && v !== version) return false;
  return m === undefined || model === undefined || modelKey(m) === modelKey(model);
}

/** `model` is natively 1M and `version` gives such models the lower "auto" window (2.1.334+). */
export function hasAutoWindow(model: string | undefined, version: string | undefined): boolean {
  const native = model !== undefined && rowOf(idOf(model))?.kind === "native";
  return native && version !== undefined && compareVersions(version, AUTO_WINDOW.from) >= 0;
}

/** `a` against `b` as release numbers (`2.1.112`); parts that are not numbers count as 0. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a.split(/[.-]/), b.split(/[.-]/)];
  for (let i = 0; i < 3; i++) {
    const d = (Number(pa[i]) || 0) - (Number(pb[i]) || 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * `certain`: false when a larger window stays possible (the smaller is taken, so no threshold is
 * missed); `proves`: the window this evidence proves for the rest of the session.
 */
const pick = (
  window: number,
  source: string,
  evidence: string,
  certain = true,
  proves?: WindowProof,
) => ({ window, source, certain, evidence, ...(proves && { proves }) });

const OVERRIDE = "LESSONS_CONTEXT_WINDOW";
const PROVEN = "proven earlier in this session";
const COMPACTION = "auto-compaction point";
const TABLE = "model and version";

/** The window on the best evidence; while a larger one stays possible, the smaller, not certain. */
export function resolveWindow(inputs: WindowInputs): WindowChoice {
  const { override, model, version, tokens, compaction: c } = inputs;
  if (override !== undefined) return pick(override, OVERRIDE, `set by ${OVERRIDE}`);
  if (inputs.disable1m) {
    const off = "CLAUDE_CODE_DISABLE_1M_CONTEXT";
    return pick(SMALL_WINDOW, off, `${off} caps every model at 200k`);
  }
  if (model !== undefined && /\[1m\]$/i.test(model)) {
    return pick(LARGE_WINDOW, "[1m] model id", `${model} asks for the 1M window`);
  }
  if (tokens !== undefined && tokens > SMALL_WINDOW) {
    const proof = { window: LARGE_WINDOW, model, version };
    const evidence = `a reading of ${tokens} tokens is over 200k`;
    return pick(LARGE_WINDOW, "usage above 200k", evidence, true, proof);
  }
  const { proven: p } = inputs;
  const proven = p !== undefined && speaksFor(p, model, version) ? p.window : undefined;
  if (proven !== undefined && proven > SMALL_WINDOW) {
    return pick(proven, PROVEN, "a reading over 200k earlier in this session");
  }
  if (c !== undefined && speaksFor(c, model, version)) {
    const by = { model: c.model ?? model, version: c.version ?? version };
    const at = c.preTokens;
    if (at > SMALL_WINDOW) {
      const proof = { window: LARGE_WINDOW, ...by };
      return pick(LARGE_WINDOW, COMPACTION, `a compaction at ${at} tokens, over 200k`, true, proof);
    }
    if (c.trigger === "auto" && at >= SMALL_WINDOW / 2 && !inputs.compactsEarly) {
      const usual = SMALL_WINDOW - AUTOCOMPACT_MARGIN;
      const evidence = `auto-compacted at ${at} tokens, as a 200k window does (${usual})`;
      return pick(SMALL_WINDOW, COMPACTION, evidence, true, { window: SMALL_WINDOW, ...by });
    }
  }
  if (proven !== undefined) return pick(proven, PROVEN, PROVEN);
  if (model === undefined) return pick(SMALL_WINDOW, "no model", "no model recorded yet", false);
  const row = rowOf(idOf(model));
  if (row === undefined) {
    return pick(SMALL_WINDOW, "unknown model", `${model} is not in the window table`, false);
  }
  if (row.kind === "fixed") return pick(SMALL_WINDOW, TABLE, `${model} has 200k in every release`);
  if (row.kind === "optIn") {
    return pick(SMALL_WINDOW, TABLE, `${model} has 1M only if chosen`, false);
  }
  const from = row.nativeFrom ?? "";
  const inRelease = version === undefined
    ? `${model} (its Claude Code release not recorded)`
    : `${model} in Claude Code ${version}`;
  if (version === undefined || compareVersions(version, from) < 0) {
    const unread = version !== undefined && row.notNativeUntil !== undefined &&
      compareVersions(version, row.notNativeUntil) > 0;
    const why = unread ? "that release was not measured" : `1M only from ${from}`;
    return pick(SMALL_WINDOW, TABLE, `${inRelease}: ${why}`, false);
  }
  const gated = compareVersions(version, GATE.lastWithout) > 0 &&
    compareVersions(version, GATE.firstWithoutAfter) < 0;
  if (gated && inputs.firstParty !== true) {
    const other = inputs.firstParty === false ? ", and another API is set" : "";
    return pick(SMALL_WINDOW, TABLE, `${inRelease}: 1M only on Anthropic's own API${other}`, false);
  }
  return pick(LARGE_WINDOW, TABLE, `${inRelease} has 1M natively`);
}

/** Multiplies first, so 58,000 of 200,000 is 29. */
export function percentOf(tokens: number, window: number): number {
  return (tokens * 100) / window;
}

/** The evidence in one phrase, and, when a larger window stays possible, that 200k is used. */
export function windowText(choice: WindowChoice): string {
  const more = "; counted as 200k until a reading shows more";
  return choice.certain ? choice.evidence : choice.evidence + more;
}
