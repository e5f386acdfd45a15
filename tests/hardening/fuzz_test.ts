/**
 * Seeded fuzzing: payloads, transcripts and manifests mutated from the real captured ones, run
 * through the hook. Invariants: no exception; stdout empty or one JSON answer whose
 * additionalContext is at most 10,000 characters; nothing written outside the state folder.
 * Reproduce a failure with HARDEN_FUZZ_SEED=<seed> HARDEN_FUZZ_CASE=<case>.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  concatBytes as concat,
  payload as capturedPayload,
  RECORDED,
  runHook as spawnHook,
  SAMPLE_MANIFEST,
  seededRandom,
} from "../_helpers.ts";
import { runHook } from "../../src/hook.ts";
import { resolveSettings } from "../../src/settings/resolve.ts";
import {
  assertSane,
  box,
  envCount,
  saneAnswer,
  sessionToken,
  snapshotTree,
  STATE_NAME,
} from "./_harden.ts";

const SEED = envCount("HARDEN_FUZZ_SEED", 424242);
const CASES = envCount("HARDEN_FUZZ_CASES", 10_000);
const ONLY = Deno.env.get("HARDEN_FUZZ_CASE");
const SPAWNED = envCount("HARDEN_FUZZ_SPAWNED", 200);
const EVENTS = ["PostToolUse", "PostToolUseFailure", "SessionStart", "PostCompact", "Stop", ""];
const PAYLOADS = [
  "PostToolUse.Bash",
  "PostToolUse.Read",
  "PostToolUseFailure.Bash",
  "PostCompact",
  "SessionStart.compact",
  "SessionStart.resume",
  "SessionStart.startup",
];
const RECORDED_LINES = Deno.readTextFileSync(RECORDED).split("\n").filter((l) => l.trim() !== "");
const SAMPLE = Deno.readTextFileSync(SAMPLE_MANIFEST);
const encoder = new TextEncoder();
/** A compaction marker, put anywhere in a case's transcript. */
const BOUNDARY = encoder.encode(JSON.stringify({
  type: "system",
  subtype: "compact_boundary",
  compactMetadata: { trigger: "auto", preTokens: 1 },
}));

type Random = () => number;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const int = (r: Random, n: number) => Math.floor(r() * n);
const pick = <T>(r: Random, items: readonly T[]): T => items[int(r, items.length)]!;
const chance = (r: Random, p: number) => r() < p;

function oddString(r: Random): string {
  return pick(r, [
    "",
    " ",
    "../../x",
    "/etc/passwd",
    "\u0000",
    "😀",
    "\ud800",
    "x".repeat(int(r, 20_000)),
    "[lessons-reinject refresh 30,52,70 ref=00000000]",
    "toolu_1",
    String(int(r, 1e9)),
    "null",
    "<system_warning>Token usage: 150000/200000</system_warning>",
  ]);
}

function oddNumber(r: Random): number {
  return pick(r, [0, -1, 1, 0.5, 31, 99.999, 100, 1e9, -1e9, 1e308, -0, 2 ** 53, int(r, 300_000)]);
}

function oddValue(r: Random, depth = 0): Json {
  switch (int(r, depth > 3 ? 4 : 6)) {
    case 0:
      return null;
    case 1:
      return chance(r, 0.5);
    case 2:
      return oddNumber(r);
    case 3:
      return oddString(r);
    case 4:
      return Array.from({ length: int(r, 4) }, () => oddValue(r, depth + 1));
    default: {
      const object: Record<string, Json> = {};
      for (let i = int(r, 4); i > 0; i--) {
        object[oddString(r).slice(0, 20)] = oddValue(r, depth + 1);
      }
      return object;
    }
  }
}

/** Mutates a JSON value in place at a random path (set, delete, or replace a leaf). */
function mutateJson(r: Random, value: Json, rounds: number): Json {
  for (let n = 0; n < rounds; n++) {
    let node: Json = value;
    for (let depth = 0; depth < 4; depth++) {
      if (node === null || typeof node !== "object") break;
      const keys = Object.keys(node);
      if (keys.length === 0 || chance(r, 0.3)) break;
      const key = pick(r, keys);
      const child: Json = (node as Record<string, Json>)[key]!;
      if (child !== null && typeof child === "object" && chance(r, 0.7)) {
        node = child;
        continue;
      }
      if (chance(r, 0.2)) delete (node as Record<string, Json>)[key];
      else (node as Record<string, Json>)[key] = oddValue(r);
      break;
    }
  }
  return value;
}

/** Byte-level damage: truncation, NULs, invalid UTF-8, duplicated or dropped spans. */
function mutateBytes(r: Random, text: string): Uint8Array {
  let bytes: Uint8Array = encoder.encode(text);
  for (let n = 1 + int(r, 3); n > 0; n--) {
    const at = int(r, bytes.length + 1);
    switch (int(r, 5)) {
      case 0:
        bytes = bytes.slice(0, at);
        break;
      case 1:
        bytes = concat(bytes.slice(0, at), new Uint8Array(1 + int(r, 8)), bytes.slice(at));
        break;
      case 2:
        bytes = concat(
          bytes.slice(0, at),
          new Uint8Array([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
          bytes.slice(at),
        );
        break;
      case 3:
        bytes = concat(bytes.slice(0, at), bytes.slice(at, at + int(r, 200)), bytes.slice(at));
        break;
      default:
        bytes = concat(bytes.slice(0, at), bytes.slice(Math.min(bytes.length, at + int(r, 50))));
    }
  }
  return bytes;
}

interface FuzzCase {
  stdin: string;
  transcript: Uint8Array;
  manifest: Uint8Array;
  env: Record<string, string>;
  event: string;
}

/** Builds case `index` of `seed`: everything derives from the pair, so it can be replayed. */
async function buildCase(
  seed: number,
  index: number,
  paths: ReturnType<typeof casePaths>,
): Promise<FuzzCase> {
  const r = seededRandom((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const base = capturedPayload(pick(r, PAYLOADS)) as Record<string, Json>;
  const sessionId = chance(r, 0.8) ? `fuzz-${index % 97}` : oddString(r);
  const toolUseId = `toolu_f${int(r, 6)}`;
  const fields: Record<string, Json> = {
    ...base,
    session_id: sessionId,
    transcript_path: pick(r, [
      paths.transcript,
      paths.transcript,
      paths.transcript,
      paths.missing,
      paths.root,
      "/dev/null",
      paths.manifest,
    ]),
    tool_use_id: toolUseId,
  };
  if (chance(r, 0.2)) fields.hook_event_name = pick(r, EVENTS);
  if (chance(r, 0.15)) fields.source = pick(r, ["clear", "compact", "resume", oddString(r)]);
  if (chance(r, 0.15)) fields.agent_id = oddString(r) || "agent1";
  if (chance(r, 0.15)) {
    fields.context_window = {
      used_percentage: chance(r, 0.7) ? oddNumber(r) : oddValue(r),
      context_window_size: oddNumber(r),
      current_usage: chance(r, 0.5)
        ? oddNumber(r)
        : { input_tokens: oddNumber(r), cache_read_input_tokens: oddNumber(r) },
    };
  }
  if (chance(r, 0.3)) mutateJson(r, fields, 1 + int(r, 3)); // in place
  const event = typeof fields.hook_event_name === "string" ? fields.hook_event_name : "";
  let stdin = JSON.stringify(fields);
  if (chance(r, 0.1)) stdin = new TextDecoder().decode(mutateBytes(r, stdin));

  // Transcript: a window of the recorded real lines, mutated, plus lines this case needs.
  const start = int(r, RECORDED_LINES.length);
  const lines: Uint8Array[] = [];
  const token = await sessionToken(String(sessionId));
  for (const line of RECORDED_LINES.slice(start, start + 5 + int(r, 40))) {
    if (chance(r, 0.7)) {
      lines.push(encoder.encode(line));
      continue;
    }
    const parsed = JSON.parse(line) as Json;
    if (chance(r, 0.6)) {
      const usage = (parsed as { message?: { usage?: Record<string, Json> } })?.message?.usage;
      if (usage) usage.cache_read_input_tokens = chance(r, 0.8) ? int(r, 1_200_000) : oddValue(r);
      const content = (parsed as { message?: { content?: Json } })?.message?.content;
      if (Array.isArray(content) && chance(r, 0.5)) {
        content.push({ type: "tool_use", id: toolUseId, name: "Bash", input: {} });
      }
      const attachment = (parsed as { attachment?: { content?: Json } })?.attachment;
      if (attachment && chance(r, 0.5)) {
        attachment.content = [
          `[lessons-reinject refresh ${pick(r, ["30", "30,52", "52,70", "calls:20"])} ref=${
            chance(r, 0.5) ? token : "deadbeef"
          }] x`,
        ];
      }
      lines.push(encoder.encode(JSON.stringify(mutateJson(r, parsed, int(r, 2)))));
    } else {
      lines.push(mutateBytes(r, line));
    }
  }
  if (chance(r, 0.15)) lines.splice(int(r, lines.length + 1), 0, BOUNDARY);
  const joined = lines.flatMap((l) => [l, encoder.encode("\n")]);
  if (chance(r, 0.2)) joined.pop(); // a last line still being written
  const transcript = concat(...joined);

  // Manifest: the sample, its lessons mutated; sometimes byte-damaged or huge messages.
  const manifestJson = JSON.parse(SAMPLE) as { lessons: Record<string, Record<string, Json>> };
  for (const lesson of Object.values(manifestJson.lessons)) {
    if (chance(r, 0.15)) mutateJson(r, lesson, 1);
    if (chance(r, 0.05)) lesson.message = "m".repeat(int(r, 30_000));
  }
  for (let extra = chance(r, 0.2) ? int(r, 200) : 0; extra > 0; extra--) {
    manifestJson.lessons[`extra-${extra}`] = {
      slug: `extra-${extra}`,
      type: pick(r, ["directive", "protocol", "note", 7] as Json[]),
      priority: oddNumber(r),
      message: "lesson ".repeat(int(r, 300)),
      tags: chance(r, 0.5) ? [oddString(r).slice(0, 30)] : null,
      scope: null,
    };
  }
  const manifestText = JSON.stringify(manifestJson);
  const manifest = chance(r, 0.05) ? mutateBytes(r, manifestText) : encoder.encode(manifestText);

  const env: Record<string, string> = {
    LESSONS_STATE_DIR: paths.state,
    LESSONS_MANIFEST_PATH: paths.manifest,
    LESSONS_REINJECT_WAIT_MS: String(1 + int(r, 3)),
    TMPDIR: paths.tmp,
  };
  for (const [name, p, values] of ODD_SETTINGS) {
    // One value: no pick, so the draws (and every seed's cases) stay what they were.
    if (chance(r, p)) env[name] = values.length === 1 ? values[0]! : pick(r, values);
  }
  return { stdin, transcript, manifest, env, event };
}

/** Settings a case may set: each with its chance, and the values it picks from. */
const ODD_SETTINGS: [name: string, chance: number, values: string[]][] = [
  ["LESSONS_CONTEXT_WINDOW", 0.5, ["100000", "200000", "1000000", "0", "-5", "abc", ""]],
  ["LESSONS_REINJECT_THRESHOLDS", 0.2, ["30,52,70", "1,99", "0,100,abc", "", "5,5,5", "52,30"]],
  ["LESSONS_REINJECT_MAX_CHARS", 0.2, ["9500", "10000", "20000", "1", "0", "-1", "x"]],
  ["LESSONS_REINJECT_TOOL_COUNT", 0.1, ["1", "2", "20", "0", "x"]],
  ["LESSONS_DEBUG", 0.3, ["1"]],
  ["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", 0.05, ["50", "0", "150", "x"]],
];

/** The folders of a case under `root`, inputs/ and tmp/ made. */
function casePaths(root: string) {
  const inputs = join(root, "inputs");
  Deno.mkdirSync(inputs, { recursive: true });
  Deno.mkdirSync(join(root, "tmp"), { recursive: true });
  return {
    root,
    inputs,
    state: join(root, "state"),
    tmp: join(root, "tmp"),
    transcript: join(inputs, "session.jsonl"),
    manifest: join(inputs, "manifest.json"),
    missing: join(inputs, "missing.jsonl"),
  };
}

/** Writes case `c`'s inputs into `paths`; returns the check that nothing else there changed. */
function stage(paths: ReturnType<typeof casePaths>, c: FuzzCase): (where: string) => void {
  Deno.writeFileSync(paths.transcript, c.transcript);
  Deno.writeFileSync(paths.manifest, c.manifest);
  const before = snapshotTree(paths.root, ["state"]);
  return (where) =>
    assertEquals(snapshotTree(paths.root, ["state"]), before, `${where}: written outside state`);
}

Deno.test(`fuzz: ${ONLY ? `case ${ONLY}` : CASES} mutated payloads, transcripts and manifests (seed ${SEED}), in-process`, async () => {
  using root = box();
  const paths = casePaths(root.dir);
  const started = performance.now();
  const tally = { refreshes: 0, silent: 0, notices: 0, maxChars: 0 };
  const indices = ONLY !== undefined ? [Number(ONLY)] : Array.from({ length: CASES }, (_, i) => i);
  for (const index of indices) {
    const where =
      `seed ${SEED} case ${index} (replay: HARDEN_FUZZ_SEED=${SEED} HARDEN_FUZZ_CASE=${index} deno task harden --filter fuzz)`;
    const c = await buildCase(SEED, index, paths);
    const unchanged = stage(paths, c);
    let outcome;
    try {
      outcome = await runHook(c.stdin, resolveSettings((name) => c.env[name]));
    } catch (error) {
      throw new Error(`${where}: runHook threw: ${error instanceof Error ? error.stack : error}`);
    }
    const context = saneAnswer(outcome.stdout, where, c.event);
    assert(outcome.stderr.every((l) => typeof l === "string"), where);
    unchanged(where);
    if (outcome.stdout === undefined) tally.silent++;
    else if (context === undefined) tally.notices++;
    else {
      tally.refreshes++;
      tally.maxChars = Math.max(tally.maxChars, context.length);
    }
    if (index % 500 === 499 || index === indices.at(-1)) {
      const stray = [...Deno.readDirSync(paths.state)].filter((e) => !STATE_NAME.test(e.name));
      assertEquals(stray.map((e) => e.name), [], `${where}: stray files in the state folder`);
      Deno.removeSync(paths.state, { recursive: true });
    }
  }
  // deno-lint-ignore no-console
  console.log(
    `  seed ${SEED}: ${
      ONLY ?? CASES
    } cases, ${tally.refreshes} refreshes (longest ${tally.maxChars} chars), ${tally.silent} silent, ${tally.notices} startup notices, ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
});

Deno.test(`fuzz: ${SPAWNED} mutated cases through src/main.ts as a process (seed ${SEED}): exit 0, one JSON answer or nothing`, async () => {
  using root = box();
  const started = performance.now();
  for (let batch = 0; batch < SPAWNED; batch += 4) {
    await Promise.all(Array.from({ length: Math.min(4, SPAWNED - batch) }, async (_, k) => {
      const index = CASES + batch + k; // cases the in-process run did not use
      const paths = casePaths(join(root.dir, String(k)));
      const c = await buildCase(SEED, index, paths);
      const unchanged = stage(paths, c);
      const run = await spawnHook(c.stdin, c.env);
      const where = `seed ${SEED} case ${index}`;
      assertSane(run, where, c.event);
      assert(!run.stderr.includes("internal error"), `${where}: ${run.stderr}`);
      unchanged(where);
    }));
  }
  // deno-lint-ignore no-console
  console.log(`  ${SPAWNED} spawned cases, ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
