/**
 * The one number rule for every flag and setting a person types: decimal digits, a fraction only
 * where the unit makes it whole (`1.5M` tokens), no hex, no exponent, no sign, and bounds named
 * in the message. Settings (settings/table.ts) and command-line flags (cli/) both parse with it.
 */

/** A value that follows the rule, or what is wrong with it (a phrase: "expected ..."). */
export type Parsed<T> = { kind: "valid"; value: T } | { kind: "invalid"; problem: string };

/** The smallest and largest context window, and token count, the program accepts. */
export const MIN_TOKENS = 1_000;
export const MAX_TOKENS = 100_000_000;

/** Percent thresholds are whole percentages in this range. */
export const MIN_PERCENT = 1;
export const MAX_PERCENT = 99;

const DIGITS = /^[0-9]+$/;
const SUFFIXED = /^([0-9]+(?:\.[0-9]+)?)([kKmM])$/;

/**
 * `12,345` as people write it.
 *
 * @example
 * ```ts
 * groupDigits(100_000_000); // "100,000,000"
 * ```
 */
export function groupDigits(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A value as it arrived, for a message: strings quoted, JSON values as JSON. */
export function shownValue(raw: unknown): string {
  return typeof raw === "string" ? JSON.stringify(raw) : JSON.stringify(raw) ?? String(raw);
}

/**
 * What is wrong with a string that should hold a number, in the words of the rule, or undefined
 * when it is plain decimal digits.
 */
function notDigits(text: string): string | undefined {
  if (DIGITS.test(text)) return undefined;
  if (text === "") return "it is empty";
  if (/^[-+]/.test(text)) return "a sign is not allowed";
  if (/^0[xXbBoO]/.test(text)) return "write it in decimal digits";
  if (/^[0-9.]+[eE][-+]?[0-9]+$/.test(text)) return "write it out in digits, without an exponent";
  if (/^[0-9]*\.[0-9]+$/.test(text)) return "a whole number is expected";
  if (/^[0-9]{1,3}([,_ ][0-9]{3})+$/.test(text)) return "write it without separators";
  return "not a number";
}

/**
 * A whole number from `min` to `max`: a JSON number, or a string of decimal digits (surrounding
 * blanks allowed). `expected` describes the valid values for the message.
 *
 * @example
 * ```ts
 * parseWhole("250", 1, 4000, "a whole number of milliseconds from 1 to 4000");
 * // { kind: "valid", value: 250 }
 * parseWhole("0x10", 1, 4000, "...").kind; // "invalid"
 * ```
 */
export function parseWhole(
  raw: unknown,
  min: number,
  max: number,
  expected: string,
): Parsed<number> {
  const bad = (why: string): Parsed<number> => ({
    kind: "invalid",
    problem: `expected ${expected} (${shownValue(raw)}: ${why})`,
  });
  let value: number;
  if (typeof raw === "number") value = raw;
  else if (typeof raw === "string") {
    const text = raw.trim();
    if (!DIGITS.test(text)) return bad(notDigits(text) ?? "not a number");
    value = Number(text);
  } else return bad("not a number");
  if (!Number.isFinite(value)) return bad("not a number");
  if (!Number.isInteger(value)) return bad("a whole number is expected");
  if (value < min) return bad(`below ${groupDigits(min)}`);
  if (value > max) return bad(`above ${groupDigits(max)}`);
  return { kind: "valid", value };
}

/**
 * A count of tokens as digits (`120000`) or with a `k` or `M` suffix (`120k`, `1.5M`), whose
 * value is whole; undefined when `text` is neither (the caller names the problem).
 *
 * @example
 * ```ts
 * tokenCount("1.5M"); // 1_500_000
 * tokenCount("60k"); // 60_000
 * tokenCount("0.0001k"); // undefined: not a whole number of tokens
 * ```
 */
export function tokenCount(text: string): number | undefined {
  if (DIGITS.test(text)) return Number(text);
  const match = SUFFIXED.exec(text);
  if (!match || match[1] === undefined || match[2] === undefined) return undefined;
  const unit = match[2].toLowerCase() === "k" ? 1_000 : 1_000_000;
  // Decimal arithmetic on the digits, so `1.1k` is exactly 1100.
  const [whole = "0", fraction = ""] = match[1].split(".");
  const scaled = Number(whole) * unit + Number(fraction || "0") * unit / 10 ** fraction.length;
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-6 ? rounded : undefined;
}

/** The valid token counts, as messages name them. */
export const TOKENS_EXPECTED =
  "a whole number of tokens from 1,000 to 100,000,000 (200000, 200k or 1M)";

/**
 * A token count from {@link MIN_TOKENS} to {@link MAX_TOKENS}: a JSON number, digits, or `k`/`M`.
 *
 * @example
 * ```ts
 * parseTokens("1M"); // { kind: "valid", value: 1_000_000 }
 * parseTokens("1").kind; // "invalid": below 1,000
 * ```
 */
export function parseTokens(raw: unknown, expected = TOKENS_EXPECTED): Parsed<number> {
  if (typeof raw !== "string") return parseWhole(raw, MIN_TOKENS, MAX_TOKENS, expected);
  const bad = (why: string): Parsed<number> => ({
    kind: "invalid",
    problem: `expected ${expected} (${shownValue(raw)}: ${why})`,
  });
  const text = raw.trim();
  const count = tokenCount(text);
  if (count === undefined) {
    return SUFFIXED.test(text)
      ? bad("not a whole number of tokens")
      : parseWhole(raw, MIN_TOKENS, MAX_TOKENS, expected);
  }
  if (count < MIN_TOKENS) return bad(`below ${groupDigits(MIN_TOKENS)}`);
  if (count > MAX_TOKENS) return bad(`above ${groupDigits(MAX_TOKENS)}`);
  return { kind: "valid", value: count };
}

/**
 * A threshold: a percentage of the span the thresholds are measured against (1 to 99), or a
 * number of tokens (1,000 or more). The two ranges never meet, so one number says which: a value
 * below 100 is a percentage, one of 1,000 or more a token count.
 */
export type Threshold = number;

/** True when `threshold` is a token count rather than a percentage. */
export function isTokenThreshold(threshold: Threshold): boolean {
  return threshold >= MIN_TOKENS;
}

/** One threshold's valid forms, as messages name them. */
export const THRESHOLD_EXPECTED = "a percentage from 1 to 99 (30 or 30%) or a token count " +
  "from 1,000 to 100,000,000 (60k, 1.5M or 120000)";

/**
 * A threshold's value, or why `raw` is not one (a phrase, without the list of valid forms). A bare number up to 99 or one with `%` is a
 * percentage; a `k`/`M` suffix or a whole number of at least 1,000 is a token count. A bare number
 * from 100 to 999 could be either and is neither: the message names both readings.
 *
 * @example
 * ```ts
 * thresholdOf("30"); // { kind: "valid", value: 30 }
 * thresholdOf("60k"); // { kind: "valid", value: 60_000 }
 * thresholdOf("250").kind; // "invalid": 250 % is over 99, 250 tokens under 1,000
 * ```
 */
export function thresholdOf(raw: unknown): Parsed<Threshold> {
  const why = (problem: string): Parsed<Threshold> => ({ kind: "invalid", problem });
  let text: string;
  // A JSON number is read as its digits would be: 52.5 and 250 are refused alike.
  if (typeof raw === "number") text = String(raw);
  else if (typeof raw === "string") text = raw.trim();
  else return why("not a number");
  if (text.endsWith("%")) {
    const digits = text.slice(0, -1).trim();
    const bad = notDigits(digits);
    if (bad !== undefined) {
      return why(bad === "a whole number is expected" ? "a whole percentage is expected" : bad);
    }
    const value = Number(digits);
    if (value < MIN_PERCENT || value > MAX_PERCENT) {
      return why(`a percentage from ${MIN_PERCENT} to ${MAX_PERCENT} is expected`);
    }
    return { kind: "valid", value };
  }
  if (SUFFIXED.test(text)) {
    const count = tokenCount(text);
    if (count === undefined) return why("not a whole number of tokens");
    if (count < MIN_TOKENS) return why(`${groupDigits(count)} tokens is below 1,000`);
    if (count > MAX_TOKENS) return why(`above ${groupDigits(MAX_TOKENS)} tokens`);
    return { kind: "valid", value: count };
  }
  const bad = notDigits(text);
  if (bad !== undefined) {
    return why(
      bad === "a whole number is expected"
        ? "a whole percentage or a whole number of tokens is expected"
        : bad,
    );
  }
  const value = Number(text);
  if (value < MIN_PERCENT) return why(`a threshold is at least ${MIN_PERCENT}%`);
  if (value <= MAX_PERCENT) return { kind: "valid", value };
  if (value < MIN_TOKENS) {
    return why(
      `ambiguous: as a percentage it is over ${MAX_PERCENT}, as tokens under ` +
        `${groupDigits(MIN_TOKENS)}; write ${MAX_PERCENT}% or less, or ${value}k tokens`,
    );
  }
  if (value > MAX_TOKENS) return why(`above ${groupDigits(MAX_TOKENS)} tokens`);
  return { kind: "valid", value };
}

/**
 * A threshold as people read it and as the refresh header names it: `30%` or `60k`; with
 * `bare`, a percentage without its `%` (the header's form: `30`).
 *
 * @example
 * ```ts
 * thresholdText(30); // "30%"
 * thresholdText(60_000); // "60k"
 * thresholdText(1_500_000); // "1500k"
 * thresholdText(123_456); // "123456"
 * thresholdText(30, { bare: true }); // "30"
 * ```
 */
export function thresholdText(threshold: Threshold, options: { bare?: boolean } = {}): string {
  if (!isTokenThreshold(threshold)) return options.bare ? String(threshold) : `${threshold}%`;
  if (threshold % 1_000_000 === 0) return `${threshold / 1_000_000}M`;
  if (threshold % 1_000 === 0) return `${threshold / 1_000}k`;
  return String(threshold);
}

/**
 * A percentage as every output shows it: rounded down to a whole percent, so a refresh never
 * claims more than was read, and a threshold crossed is never shown as not reached.
 *
 * @example
 * ```ts
 * percentText(31.9); // "31%"
 * ```
 */
export function percentText(percent: number): string {
  return `${Math.floor(percent)}%`;
}
