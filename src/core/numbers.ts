/**
 * The one number rule for every setting and flag a person types: decimal digits, a fraction only
 * where the unit makes it whole (`1.5M`), no hex, exponent or sign; messages name the bounds.
 */
import { fail, failed, type Result } from "./result.ts";

/** The smallest and largest context window, and token count, the program accepts. */
export const MIN_TOKENS = 1_000;
export const MAX_TOKENS = 100_000_000;

const DIGITS = /^[0-9]+$/;
const SUFFIXED = /^([0-9]+(?:\.[0-9]+)?)([kKmM])$/;
const FRACTION = /^[0-9]*\.[0-9]+$/;

/** `100,000,000` as people write it. */
export function groupDigits(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A value as it arrived, for a message: as JSON, so strings are quoted. */
export function shownValue(raw: unknown): string {
  return JSON.stringify(raw) ?? String(raw);
}

/** What is wrong with text that should be decimal digits; undefined: nothing. */
function notDigits(text: string): string | undefined {
  if (DIGITS.test(text)) return undefined;
  if (text === "") return "it is empty";
  if (/^[-+]/.test(text)) return "a sign is not allowed";
  if (/^0[xXbBoO]/.test(text)) return "write it in decimal digits";
  if (/^[0-9.]+[eE][-+]?[0-9]+$/.test(text)) return "write it out in digits, without an exponent";
  if (FRACTION.test(text)) return "a whole number is expected";
  if (/^[0-9]{1,3}([,_ ][0-9]{3})+$/.test(text)) return "write it without separators";
  return "not a number";
}

/** `raw` as a number (digits, with `suffixed` also `1.5M` when whole), or why not. */
function numberOf(raw: unknown, suffixed: boolean): Result<number> {
  if (typeof raw === "number") return raw;
  if (typeof raw !== "string") return fail("not a number");
  const text = raw.trim();
  const match = suffixed ? SUFFIXED.exec(text) : null;
  if (!match) {
    const why = notDigits(text);
    return why === undefined ? Number(text) : fail(why);
  }
  const scale = match[2]?.toLowerCase() === "k" ? 1_000 : 1_000_000;
  // Decimal arithmetic on the digits, so `1.1k` is exactly 1100.
  const [whole = "0", fraction = ""] = (match[1] ?? "").split(".");
  const scaled = Number(whole) * scale + Number(fraction || "0") * scale / 10 ** fraction.length;
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-6 ? rounded : fail("not a whole number of tokens");
}

/**
 * A whole number from `min` to `max` (`suffixed`: also `200k`, `1.5M`); `expected` names the valid
 * values for the message.
 */
export function parseWhole(
  raw: unknown,
  min: number,
  max: number,
  expected: string,
  suffixed = false,
): Result<number> {
  const value = numberOf(raw, suffixed);
  const bad = (why: string) => fail(`expected ${expected} (${shownValue(raw)}: ${why})`);
  if (failed(value)) return bad(value.error);
  if (Number.isNaN(value)) return bad("not a number");
  // Digits too many for a double read as Infinity: above any bound.
  if (Number.isFinite(value) && !Number.isInteger(value)) return bad("a whole number is expected");
  if (value < min) return bad(`below ${groupDigits(min)}`);
  if (value > max) return bad(`above ${groupDigits(max)}`);
  return value;
}

export const TOKENS_EXPECTED =
  "a whole number of tokens from 1,000 to 100,000,000 (200000, 200k or 1M)";

/** A token count from 1,000 to 100,000,000: `200000`, `200k`, `1.5M`. */
export function parseTokens(raw: unknown): Result<number> {
  return parseWhole(raw, MIN_TOKENS, MAX_TOKENS, TOKENS_EXPECTED, true);
}

/** A percentage of the span (1 to 99) or a token count (1,000 or more): ranges that never meet. */
export type Threshold = number;

export function isTokenThreshold(threshold: Threshold): boolean {
  return threshold >= MIN_TOKENS;
}

export const THRESHOLD_EXPECTED = "a percentage from 1 to 99 (30 or 30%) or a token count " +
  "from 1,000 to 100,000,000 (60k, 1.5M or 120000)";

/** A threshold (`30`, `30%`, `60k`), or why not; a bare 100 to 999 could be either: refused. */
export function thresholdOf(raw: unknown): Result<Threshold> {
  // A JSON number is read as its digits would be: 52.5 and 250 are refused alike.
  const text = typeof raw === "number" || typeof raw === "string" ? String(raw).trim() : "";
  const percent = text.endsWith("%");
  const bare = text.replace(/%$/, "").trim();
  const value = text === "" ? numberOf(raw, false) : numberOf(bare, !percent);
  if (failed(value) && FRACTION.test(bare)) {
    return fail(`a whole percentage${percent ? "" : " or a whole number of tokens"} is expected`);
  }
  if (failed(value)) return value;
  if (percent && (value < 1 || value > 99)) return fail("a percentage from 1 to 99 is expected");
  if (percent) return value;
  if (SUFFIXED.test(text) && value < MIN_TOKENS) {
    return fail(`${groupDigits(value)} tokens is below 1,000`);
  }
  if (value < 1) return fail("a threshold is at least 1%");
  if (value > 99 && value < MIN_TOKENS) {
    const fix = `write 99% or less, or ${value}k tokens`;
    return fail(`ambiguous: as a percentage it is over 99, as tokens under 1,000; ${fix}`);
  }
  if (value > MAX_TOKENS) return fail(`above ${groupDigits(MAX_TOKENS)} tokens`);
  return value;
}

/** A threshold as the header names it: `30%` (`bare`: `30`), `60k`, `1500k`, `2M`, `123456`. */
export function thresholdText(threshold: Threshold, options: { bare?: boolean } = {}): string {
  if (!isTokenThreshold(threshold)) return options.bare ? String(threshold) : `${threshold}%`;
  if (threshold % 1_000_000 === 0) return `${threshold / 1_000_000}M`;
  if (threshold % 1_000 === 0) return `${threshold / 1_000}k`;
  return String(threshold);
}

/** A percentage rounded down (`31.9` is `31%`): a crossed threshold never shows as not reached. */
export function percentText(percent: number): string {
  return `${Math.floor(percent)}%`;
}
