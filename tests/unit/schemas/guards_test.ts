/**
 * The guards of the shapes every hook call reads (src/schemas/): what each accepts and rejects,
 * edge and hostile values included, and every captured real payload accepted. The guards follow
 * zod's rules (finite numbers, counts as safe non-negative integers, unknown fields kept).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isContextWindow, isHookPayload } from "../../../src/schemas/payload.ts";
import { EMPTY_STATE, isState } from "../../../src/schemas/state.ts";
import { isStatuslineInput, isStatuslineRecord } from "../../../src/schemas/statusline.ts";
import { PAYLOADS } from "../../_helpers.ts";

type Fields = Record<string, unknown>;
/** What a row says of its value, and the value. */
type Row = [label: string, value: unknown];

const show = (value: unknown) => Deno.inspect(value, { compact: true, breakLength: Infinity });

/** `base` with `changes` made; a field set to `undefined` is there, holding undefined. */
const row = (base: Fields, changes: Fields): Row => [show(changes), { ...base, ...changes }];

/** `base` without `key`. */
function without(base: Fields, key: string): Row {
  const { [key]: _, ...rest } = base;
  return [`no ${key}`, rest];
}

/** One row per field and value: `base` with that field holding that value. */
const rowsOf = (base: Fields, keys: string[], values: unknown[]): Row[] =>
  keys.flatMap((key) => values.map((value) => row(base, { [key]: value })));

/** A hole: `[30, , 70]`, which zod reads as undefined. */
const HOLED = [30, , 70];
/** Values that are no object of any shape: an array is not one either, even with the fields. */
const notObjects = (base: Fields): Row[] =>
  [null, undefined, "{}", 42, true, [], [base], Object.assign([1], base)].map((v) => [show(v), v]);
/** No number zod takes: not finite, or not a number. */
const NOT_NUMBERS = [NaN, Infinity, -Infinity, "1", null, true, [1], {}];
/** Finite numbers, the odd ones included: no shape here asks more of a plain number. */
const NUMBERS = [0, -0, -1, 0.5, 2 ** 53, -(2 ** 53), 1e308, Number.MIN_VALUE];
/** Counts: safe integers from 0 (-0 is 0). */
const COUNTS = [0, -0, 1, 2 ** 53 - 1];
const NOT_COUNTS = [-1, 0.5, 2 ** 53, -(2 ** 53 - 1), ...NOT_NUMBERS];
const NOT_STRINGS = [null, 1, true, [], {}, ["a"]];

const PAYLOAD = { session_id: "s-1", hook_event_name: "PostToolUse" };
const PAYLOAD_STRINGS = ("transcript_path cwd tool_name tool_use_id agent_id agent_type " +
  "agent_transcript_path source prompt_id").split(" ");
const PAYLOAD_ANY = ["model", "context_window", "tool_response", "error"];
const ANY = [null, 0, NaN, "", [], {}, { nested: [null] }];

const STATE = { fired: [30], toolCount: 7 };
const STATE_COUNTS = "epoch firedAt checkedTo provenWindow compactedAt compactedFrom".split(" ");
const STATE_STRINGS = "compactPrompt claudeSettings provenModel provenVersion agentTranscript"
  .split(" ");
const DELIVERY = { refresh: "30", call: "toolu_01", at: 1024, sent: 1, status: "pending" };
const STATUSES = ["pending", "delivered", "given up", "unrecorded"];
const CHAIN = { tip: "uuid-1", fired: [30] };
const deliveries = (changes: Fields) => [DELIVERY, { ...DELIVERY, ...changes }];
const chains = (changes: Fields) => [{ ...CHAIN, ...changes }];

const RECORD = { sessionId: "s-1", recordedAt: 1_765_000_000_000, percent: 31.5 };
const USAGE = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];

interface Shape {
  guard: (value: unknown) => boolean;
  accepts: Row[];
  rejects: Row[];
}

const SHAPES: Shape[] = [{
  guard: isHookPayload,
  accepts: [
    ["the two required fields", PAYLOAD],
    ...rowsOf(PAYLOAD, PAYLOAD_STRINGS, ["", "x", undefined]),
    ...rowsOf(PAYLOAD, PAYLOAD_ANY, ANY),
    row(PAYLOAD, { tool_input: { command: "ls" }, version: 2 }), // unknown fields kept
    ["a Map carrying the fields (zod's object test)", Object.assign(new Map(), PAYLOAD)],
    // zod reads a field the way `.` does: through the prototype.
    ["an inherited session_id", { __proto__: { session_id: "p" }, hook_event_name: "Stop" }],
  ],
  rejects: [
    ...notObjects(PAYLOAD),
    without(PAYLOAD, "session_id"),
    without(PAYLOAD, "hook_event_name"),
    ...rowsOf(PAYLOAD, ["session_id", "hook_event_name"], ["", undefined, ...NOT_STRINGS]),
    ...rowsOf(PAYLOAD, PAYLOAD_STRINGS, NOT_STRINGS),
  ],
}, {
  guard: isContextWindow,
  accepts: [
    ["no field", {}],
    ["a Date", new Date(0)],
    ["an object without a prototype", Object.create(null)],
    ...rowsOf({}, ["used_percentage", "context_window_size", "current_usage"], [null, ...NUMBERS]),
    // Ranges are not the guard's: core/reading.ts's absurdFigure() names what is out of range.
    row({}, { used_percentage: 150, context_window_size: 7 }),
    row({}, { current_usage: {} }),
    row({}, { current_usage: { input_tokens: 1, cache_creation_input_tokens: 2, other: "x" } }),
    ...USAGE.flatMap((key) => rowsOf({}, ["current_usage"], [{ [key]: 0.5 }, { [key]: -0 }])),
    row({}, { total_input_tokens: "unchecked", extra: null }),
  ],
  rejects: [
    ...[null, undefined, "{}", 42, [], [{}]].map((v): Row => [show(v), v]),
    ...rowsOf(
      {},
      ["used_percentage", "context_window_size"],
      NOT_NUMBERS.filter((v) => v !== null),
    ),
    ...rowsOf({}, ["current_usage"], [NaN, Infinity, "1", true, [], [1]]),
    ...USAGE.flatMap((key) =>
      rowsOf({}, ["current_usage"], NOT_NUMBERS.map((v) => ({ [key]: v })))
    ),
  ],
}, {
  guard: isState,
  accepts: [
    ["the two required fields", STATE],
    ["EMPTY_STATE", EMPTY_STATE],
    ...rowsOf(STATE, ["fired"], [[], [0.5, -3, 2 ** 53]]),
    ...rowsOf(STATE, ["toolCount", ...STATE_COUNTS], COUNTS),
    ...rowsOf(STATE, [...STATE_COUNTS, ...STATE_STRINGS], [undefined]),
    ...rowsOf(STATE, STATE_STRINGS, ["", "x"]),
    ...rowsOf(STATE, ["firedPercent"], NUMBERS),
    ...rowsOf(STATE, ["afterCompact"], ["pending", "delivered"]),
    ...rowsOf(STATE, ["firedWindow", "results"], [{}, { "30": 200_000, toolu_1: 0.5 }]),
    ...rowsOf(STATE, ["deliveries"], [[], ...STATUSES.map((status) => deliveries({ status }))]),
    row(STATE, { deliveries: deliveries({ reason: "", at: 0, sent: 2 ** 53 - 1 }) }),
    row(STATE, { deliveries: deliveries({ reason: undefined, extra: [] }) }),
    ...rowsOf(STATE, ["chains"], [[], chains({ message: "", anchor: false, fired: [] })]),
    row(STATE, { chains: chains({ message: undefined, anchor: true, extra: 1 }) }),
    ...rowsOf(STATE, ["forked"], [true, false]),
    row(STATE, { version: 2, fired: [30, 52] }), // unknown fields kept
    // What JSON text can hold: a `__proto__` key is a field like any other; the last duplicate wins.
    ["a __proto__ key", JSON.parse('{"__proto__":{"toolCount":-1},"fired":[],"toolCount":1}')],
    ["a duplicate key", JSON.parse('{"fired":[],"toolCount":null,"toolCount":3}')],
  ],
  rejects: [
    ...notObjects(STATE),
    without(STATE, "fired"),
    without(STATE, "toolCount"),
    ...rowsOf(STATE, ["fired"], [HOLED, [30, NaN], [30, "52"], [null], { 0: 30 }, null, 30]),
    ...rowsOf(STATE, ["toolCount", ...STATE_COUNTS], NOT_COUNTS),
    ...rowsOf(STATE, STATE_STRINGS, NOT_STRINGS),
    ...rowsOf(STATE, ["firedPercent"], NOT_NUMBERS),
    ...rowsOf(STATE, ["afterCompact"], ["Pending", "given up", "", null, true]),
    ...rowsOf(STATE, ["firedWindow", "results"], [[], [1], null, "x", { "30": NaN }]),
    ...rowsOf(STATE, ["firedWindow", "results"], [{ "30": "1" }, { "30": null }, { a: {} }]),
    ...rowsOf(STATE, ["deliveries"], [{}, DELIVERY, null, [DELIVERY, null], [, DELIVERY]]),
    ...["Pending", "Delivered", "given-up", "", null].map((status) =>
      row(STATE, { deliveries: deliveries({ status }) })
    ),
    ...["refresh", "call"].flatMap((key) =>
      [undefined, 30, null].map((v) => row(STATE, { deliveries: deliveries({ [key]: v }) }))
    ),
    ...["at", "sent"].flatMap((key) =>
      [undefined, ...NOT_COUNTS].map((v) => row(STATE, { deliveries: deliveries({ [key]: v }) }))
    ),
    row(STATE, { deliveries: deliveries({ reason: null }) }),
    ...rowsOf(STATE, ["chains"], [{}, CHAIN, null, [CHAIN, null], [, CHAIN]]),
    ...[undefined, 1, null].map((tip) => row(STATE, { chains: chains({ tip }) })),
    ...[undefined, HOLED, [NaN], null].map((fired) => row(STATE, { chains: chains({ fired }) })),
    ...[null, 1].map((message) => row(STATE, { chains: chains({ message }) })),
    ...["true", 1, null].map((anchor) => row(STATE, { chains: chains({ anchor }) })),
    ...rowsOf(STATE, ["forked"], ["true", 1, 0, null]),
    ["an overflowing count", JSON.parse('{"fired":[],"toolCount":1e400}')],
  ],
}, {
  guard: isStatuslineRecord,
  accepts: [
    ["the three required fields", RECORD],
    ...rowsOf(RECORD, ["recordedAt", "percent", "tokens", "window", "transcriptSize"], NUMBERS),
    ...rowsOf(RECORD, ["sessionId", "model", "transcriptPath"], ["", "x"]),
    ...rowsOf(RECORD, ["tokens", "window", "transcriptSize", "model", "transcriptPath"], [
      undefined,
    ]),
    row(RECORD, { version: 2 }),
  ],
  rejects: [
    ...notObjects(RECORD),
    ...["sessionId", "recordedAt", "percent"].map((key) => without(RECORD, key)),
    ...rowsOf(RECORD, ["sessionId", "model", "transcriptPath"], NOT_STRINGS),
    // Optional, not nullable: a null reading is not a record.
    ...rowsOf(RECORD, ["recordedAt", "percent", "tokens", "window", "transcriptSize"], NOT_NUMBERS),
  ],
}, {
  guard: isStatuslineInput,
  accepts: [
    ["a session_id", { session_id: "s-1" }],
    ...rowsOf({ session_id: "s-1" }, ["transcript_path"], [null, "", undefined]),
    ...rowsOf({ session_id: "s-1" }, ["model"], [null, undefined, {}, { id: null }, { id: "" }]),
    row({ session_id: "s-1" }, { model: { id: undefined, display_name: "Opus" } }),
    ...rowsOf({ session_id: "s-1" }, ["context_window", "cost"], ANY),
  ],
  rejects: [
    ...notObjects({ session_id: "s-1" }),
    ["no session_id", { transcript_path: "/t.jsonl" }],
    ...rowsOf({}, ["session_id"], ["", undefined, ...NOT_STRINGS]),
    ...rowsOf({ session_id: "s-1" }, ["transcript_path"], [1, [], {}]),
    ...rowsOf({ session_id: "s-1" }, ["model"], ["opus", 1, [], [{ id: "x" }]]),
    ...rowsOf({ session_id: "s-1" }, ["model"], [{ id: 1 }, { id: [] }, { id: {} }]),
  ],
}];

for (const { guard, accepts, rejects } of SHAPES) {
  Deno.test(`${guard.name}() accepts and rejects what its table says`, () => {
    for (const [label, value] of accepts) assertEquals(guard(value), true, `accepts ${label}`);
    for (const [label, value] of rejects) assertEquals(guard(value), false, `rejects ${label}`);
  });
}

Deno.test("the guards accept every captured real payload", () => {
  const names = readdirSync(PAYLOADS).filter((name) => name.endsWith(".json"));
  for (const name of names) {
    const value: unknown = JSON.parse(Deno.readTextFileSync(join(PAYLOADS, name)));
    if (!name.startsWith("statusline.")) assertEquals(isHookPayload(value), true, name);
    else {
      assertEquals(isStatuslineInput(value), true, name);
      assertEquals(isContextWindow((value as Fields).context_window), true, name);
    }
  }
  // Hook payloads and statusline inputs captured from real Claude Code, 2.1.328 on.
  const statuslines = names.filter((n) => n.startsWith("statusline.")).length;
  assert(names.length >= 11 && statuslines >= 3, `${names.length} payloads, ${statuslines}`);
});
