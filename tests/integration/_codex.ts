/**
 * A Codex session simulated line by line in the order real Codex 0.171.0 writes its rollout
 * (docs/maintainers/codex-facts.md), each line a real one (tests/fixtures/codex/rollouts) with
 * its figures, ids and text set: the call, its response's `token_usage_record`, the hook, the
 * hook's answer record, the call's output, the response's `token_count`.
 */
import { join } from "node:path";
import { contextOf, jsonLines, ROOT, runHook, runPausing, sandbox } from "../_helpers.ts";

/** The captured Codex rollouts and payloads. */
export const FIXTURES = join(ROOT, "tests", "fixtures", "codex");
const lines = (name: string) =>
  jsonLines(join(FIXTURES, "rollouts", `recorded-0.171.0-${name}.jsonl`));
const basic = lines("basic");
const template = (type: string, inner?: string) =>
  structuredClone(
    basic.find((e) => e.type === type && (inner === undefined || e.payload?.type === inner)) ??
      lines("compact").find((e) => e.type === type),
  );

/** Codex 0.171.0's record of a delivered answer: a developer message of the hook-context kind. */
export function codexAnswer(text: string) {
  const entry = basic.find((e) =>
    JSON.stringify(e.payload?.internal_chat_message_metadata_passthrough ?? "").includes(
      "hooks.additional_context",
    )
  );
  const copy = structuredClone(entry);
  copy.payload.content[0].text = text;
  return copy;
}

/** A captured Codex 0.171.0 payload (tests/fixtures/codex/payloads). */
export function codexPayload(name: string, overrides: Record<string, unknown>) {
  const text = Deno.readTextFileSync(join(FIXTURES, "payloads", `codex-0.171.0.${name}.json`));
  return { ...JSON.parse(text), ...overrides };
}

export class CodexSession {
  readonly path: string;
  readonly id = "01a24332-43c1-7c10-b6aa-c7c52b770a52";
  #calls = 0;
  /** `hook`: how the hook runs (default: the real entry point, as a process). */
  constructor(
    readonly dir: string,
    readonly cwd: string,
    readonly window = 190_000,
    readonly hook: typeof runHook = runHook,
  ) {
    const id = this.id;
    const day = join(dir, "sessions", "2026", "12", "04");
    this.path = join(day, `rollout-2026-12-04T22-34-57-${id}.jsonl`);
    Deno.mkdirSync(day, { recursive: true });
    const meta = template("session_meta");
    Object.assign(meta.payload, { cwd, session_id: id, id });
    const started = template("event_msg", "task_started");
    started.payload.model_context_window = window;
    this.append(meta, started);
  }

  append(...entries: unknown[]) {
    Deno.writeTextFileSync(this.path, entries.map((e) => JSON.stringify(e) + "\n").join(""), {
      append: true,
    });
  }

  /**
   * A response of `tokens` input tokens calling one command; its hook run; what Codex writes.
   * `drop`: Codex records no answer; `late`: the response completes after the command, so its
   * `token_usage_record` lands while the hook waits for it (measured: `late` rollout).
   */
  async call(
    tokens: number,
    env: Record<string, string>,
    options: { drop?: boolean; late?: boolean } = {},
  ) {
    const callId = `call_${++this.#calls}`;
    const call = template("response_item", "function_call");
    call.payload.call_id = callId;
    const record = template("token_usage_record");
    record.payload.usage.input_tokens = tokens;
    this.append(call);
    if (!options.late) this.append(record);
    const stdin = codexPayload("PostToolUse", {
      session_id: this.id,
      transcript_path: this.path,
      cwd: this.cwd,
      tool_use_id: callId,
    });
    const run = options.late
      ? await runPausing(stdin, env, this.dir, () => this.append(record))
      : await this.hook(stdin, env);
    if (run.context !== undefined && !options.drop) this.append(codexAnswer(run.context));
    const output = template("response_item", "function_call_output");
    output.payload.call_id = callId;
    const count = template("event_msg", "token_count");
    count.payload.info.last_token_usage.input_tokens = tokens;
    count.payload.info.model_context_window = this.window;
    this.append(output, count);
    return run;
  }

  /** An automatic compaction as Codex writes it, then SessionStart(compact) and its answer. */
  async compact(env: Record<string, string>) {
    const count = template("event_msg", "token_count");
    count.payload.info.last_token_usage.input_tokens = 0;
    count.payload.info.model_context_window = this.window;
    this.append(template("compacted"), count);
    const stdin = codexPayload("SessionStart.compact", {
      session_id: this.id,
      transcript_path: this.path,
      cwd: this.cwd,
    });
    const run = await this.hook(stdin, env);
    const context = contextOf(run.stdout);
    if (context !== undefined) this.append(codexAnswer(context));
    return run;
  }
}

/**
 * A project in `box` (a fresh sandbox, also the home folder) whose AGENTS.md marks `rule` after
 * an unmarked line, and a Codex session of it under CODEX_HOME `box/.codex`: the environment to
 * run the hook in, and the session.
 */
export function codexProject(rule: string, box = sandbox(), window?: number) {
  const project = join(box.dir, "project");
  Deno.mkdirSync(project);
  const rules = `# Project\n\nNot restated.\n\n<!-- reinject -->\n${rule}\n<!-- /reinject -->\n`;
  Deno.writeTextFileSync(join(project, "AGENTS.md"), rules);
  const codexHome = join(box.dir, ".codex");
  const env: Record<string, string> = { ...box.env, CODEX_HOME: codexHome, HOME: box.dir };
  return { box, project, env, session: new CodexSession(codexHome, project, window) };
}
