/** The one number rule (src/core/numbers.ts): every flag and setting parses numbers with it. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  groupDigits,
  MAX_TOKENS,
  MIN_TOKENS,
  parseTokens,
  parseWhole,
  percentText,
  THRESHOLD_EXPECTED,
  thresholdOf,
  thresholdText,
  TOKENS_EXPECTED,
} from "../../../src/core/numbers.ts";
import { failed, type Result } from "../../../src/core/result.ts";

const valueOf = <T>(parsed: Result<T>) => failed(parsed) ? undefined : parsed;

Deno.test("thresholdOf(): percentages below 100, token counts from 1,000, and nothing between", async (t) => {
  const cases: [unknown, number | undefined, string?][] = [
    ["30", 30],
    ["30%", 30],
    [" 52 % ", 52],
    [30, 30],
    ["99", 99],
    ["60k", 60_000],
    ["60K", 60_000],
    ["1.5M", 1_500_000],
    ["120000", 120_000],
    [120_000, 120_000],
    ["1000", 1_000],
    ["100000000", 100_000_000],
    ["0", undefined, "at least 1%"],
    ["100", undefined, "ambiguous: as a percentage it is over 99, as tokens under 1,000"],
    ["250", undefined, "write 99% or less, or 250k tokens"],
    [250, undefined, "ambiguous"],
    ["100%", undefined, "a percentage from 1 to 99"],
    ["52.5", undefined, "a whole percentage or a whole number of tokens"],
    [52.5, undefined, "a whole percentage or a whole number of tokens"],
    ["52.5%", undefined, "a whole percentage"],
    ["0x10", undefined, "decimal digits"],
    ["1e2", undefined, "without an exponent"],
    ["-5", undefined, "a sign is not allowed"],
    ["+30", undefined, "a sign is not allowed"],
    ["0.5k", undefined, "below 1,000"],
    ["1.0001k", undefined, "not a whole number of tokens"],
    ["200M", undefined, "above 100,000,000"],
    ["", undefined, "empty"],
    ["abc", undefined, "not a number"],
    [true, undefined, "not a number"],
  ];
  for (const [raw, expected, why] of cases) {
    await t.step(JSON.stringify(raw), () => {
      const parsed = thresholdOf(raw);
      assertEquals(valueOf(parsed), expected);
      if (failed(parsed)) {
        ok(why !== undefined && parsed.error.includes(why), parsed.error);
        ok(!parsed.error.includes("\n"));
      }
    });
  }
});

Deno.test("thresholdText() writes what thresholdOf() reads back", () => {
  for (const t of [1, 30, 99, 1_000, 60_000, 123_456, 1_000_000, 1_500_000, 100_000_000]) {
    assertEquals(valueOf(thresholdOf(thresholdText(t))), t);
    assertEquals(valueOf(thresholdOf(thresholdText(t, { bare: true }))), t);
  }
  assertEquals([30, 60_000, 2_000_000].map((t) => thresholdText(t)), ["30%", "60k", "2M"]);
});

Deno.test("parseWhole(): decimal digits only, bounds named", () => {
  const expected = "a whole number from 1 to 4000";
  for (const raw of [" 250 ", 250]) assertEquals(valueOf(parseWhole(raw, 1, 4000, expected)), 250);
  for (const raw of ["0x10", "1e2", "-5", "2.5", "1,000", "", "ten", 2.5, "5000", 0]) {
    const parsed = parseWhole(raw, 1, 4000, expected);
    ok(failed(parsed), String(raw));
    ok(parsed.error.startsWith(`expected ${expected} (`), parsed.error);
  }
});

Deno.test("parseTokens(): 1,000 to 100,000,000, with k and M, named in the message", () => {
  const valid = ["200k", "1M", "200000", "1.1k"].map((raw) => valueOf(parseTokens(raw)));
  assertEquals(valid, [200_000, 1_000_000, 200_000, 1_100]);
  for (const raw of ["1", "12345678901234567890123", "0x10", "1e6", "-1", "1.5", "0.5k"]) {
    const parsed = parseTokens(raw);
    ok(failed(parsed), raw);
    ok(parsed.error.includes("from 1,000 to 100,000,000"), parsed.error);
  }
  const fraction = parseTokens("0.0001k");
  ok(failed(fraction) && fraction.error.includes("not a whole number of tokens"));
});

Deno.test("percentText() rounds down: a refresh never claims more than was read", () => {
  assertEquals([percentText(31.9), percentText(52), percentText(0.4)], ["31%", "52%", "0%"]);
});

Deno.test("the messages' bounds are the constants' (written out so loading builds no text)", () => {
  // The percentages' bounds, 1 and 99, are thresholdOf()'s own.
  const percents = [0, 1, 99, 100].map((p) => valueOf(thresholdOf(`${p}%`)));
  assertEquals(percents, [undefined, 1, 99, undefined]);
  ok(THRESHOLD_EXPECTED.includes("from 1 to 99 "));
  ok(THRESHOLD_EXPECTED.includes(`from ${groupDigits(MIN_TOKENS)} to ${groupDigits(MAX_TOKENS)} `));
  ok(TOKENS_EXPECTED.includes(`from ${groupDigits(MIN_TOKENS)} to ${groupDigits(MAX_TOKENS)} `));
});
