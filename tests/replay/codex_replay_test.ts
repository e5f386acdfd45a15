/**
 * Codex rollouts replayed call by call through the hook (tests/replay/_adapter.ts): the file grows
 * as Codex wrote it, each call's hook runs where Codex runs it (once its response's usage is
 * written), each compaction sends SessionStart(compact), and each answer is recorded as Codex
 * 0.171.0 records one. An oracle written from codex-facts.md, not from src/, says what each call
 * should refresh. The rollouts: skeletons of public ones (tests/fixtures/codex/public/
 * sources.json) and ones recorded for this project (tests/fixtures/codex/rollouts).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { SAMPLE_MANIFEST } from "../_helpers.ts";
import { codexAnswer, codexPayload, FIXTURES } from "../integration/_codex.ts";
import { tempDir } from "../install/_support.ts";
import { callHook } from "./_adapter.ts";

const PUBLIC = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "public", "sources.json")))
  .map((s: { file: string }) => join(FIXTURES, "public", s.file));
const RECORDED = ["0.171.0-basic", "0.171.0-compact", "0.171.0-late", "0.150.0-basic"]
  .map((name) => join(FIXTURES, "rollouts", `recorded-${name}.jsonl`));

/**
 * Where 30/52/70 % land, in tokens: on a window of 200k or less, percentages of it; on a larger
 * one, where a 200k session has them, then every 40k up to the compaction point
 * (docs/thresholds.md), which Codex puts at 90 % of the configured window, 95 % of which it
 * states (codex-facts.md): 244,800 of a stated 258,400.
 */
function scheduleOf(window: number): number[] {
  if (window <= 200_000) return [30, 52, 70].map((p) => (p * window) / 100);
  const points = [60_000, 104_000, 140_000];
  for (let at = 180_000; at < (window * 0.9) / 0.95; at += 40_000) points.push(at);
  return points;
}

type Step =
  | { kind: "lines"; text: string }
  | { kind: "call"; id: string; tokens: number; window: number }
  | { kind: "compaction" };

/** The rollout as Codex wrote it, with the hooks' places: the oracle's reading of it. */
function stepsOf(text: string): Step[] {
  const steps: Step[] = [];
  let pending: string[] = [];
  let window = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    steps.push({ kind: "lines", text: line + "\n" });
    const { type, payload } = JSON.parse(line);
    const info = payload?.info;
    if (typeof payload?.model_context_window === "number") window = payload.model_context_window;
    if (typeof info?.model_context_window === "number") window = info.model_context_window;
    if (type === "compacted") {
      pending = [];
      steps.push({ kind: "compaction" });
      continue;
    }
    if (type === "response_item" && /_call$/.test(payload?.type) && payload.call_id) {
      pending.push(payload.call_id);
    }
    const tokens = type === "token_usage_record"
      ? payload?.usage?.input_tokens
      : payload?.type === "token_count"
      ? info?.last_token_usage?.input_tokens
      : undefined;
    if (typeof tokens === "number" && tokens > 0 && pending.length > 0) {
      for (const id of pending) steps.push({ kind: "call", id, tokens, window });
      pending = [];
    }
  }
  return steps;
}

/** What the oracle expects each hook call to say: a label list, "compact", or "". */
function expected(steps: Step[]): string[] {
  const out: string[] = [];
  let fired = new Set<number>();
  let restated = false;
  for (const step of steps) {
    if (step.kind === "compaction") {
      fired = new Set();
      restated = true;
      out.push("compact");
    } else if (step.kind === "call") {
      const crossed = scheduleOf(step.window).flatMap((at, i) =>
        at <= step.tokens && !fired.has(at) ? [{ at, label: i < 3 ? [30, 52, 70][i]! : at }] : []
      );
      for (const { at } of crossed) fired.add(at);
      // The first reading after a restatement takes what it reached as restated, silently.
      out.push(restated ? "" : crossed.map((c) => c.label).join(","));
      restated = false;
    }
  }
  return out;
}

async function replay(original: string): Promise<{ got: string[]; want: string[] }> {
  using temp = tempDir("lessons-codex-replay-");
  const dir = temp.dir;
  const path = join(dir, "sessions", "rollout-2026-02-23T12-54-34-0000.jsonl");
  Deno.mkdirSync(join(dir, "sessions"));
  const env = {
    HOME: dir,
    CODEX_HOME: join(dir, "codex"),
    LESSONS_STATE_DIR: join(dir, "state"),
    LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
    LESSONS_REINJECT_WAIT_MS: "1",
  };
  const steps = stepsOf(Deno.readTextFileSync(original));
  const file = Deno.openSync(path, { create: true, append: true });
  const encoder = new TextEncoder();
  const base = { transcript_path: path, cwd: dir };
  const got: string[] = [];
  for (const step of steps) {
    if (step.kind === "lines") {
      file.writeSync(encoder.encode(step.text));
      continue;
    }
    const payload = step.kind === "call"
      ? codexPayload("PostToolUse", { ...base, tool_use_id: step.id })
      : codexPayload("SessionStart.compact", base);
    const decision = await callHook(payload, env);
    if (decision.text !== "") {
      file.writeSync(encoder.encode(JSON.stringify(codexAnswer(decision.text)) + "\n"));
    }
    const { kind, thresholds } = decision;
    got.push(kind === "thresholds" ? thresholds.join(",") : kind === "none" ? "" : kind);
  }
  file.close();
  return { got, want: expected(steps) };
}

for (const original of [...PUBLIC, ...RECORDED]) {
  Deno.test(`Codex replay: ${original.split("/").pop()} refreshes where the oracle says`, async () => {
    const { got, want } = await replay(original);
    const differ = got.flatMap((g, i) =>
      g === want[i] ? [] : [`hook call ${i + 1}: ${g} vs ${want[i]}`]
    );
    assertEquals(differ, [], `${got.length} hook calls`);
    assertEquals(got.length, want.length);
  });
}
