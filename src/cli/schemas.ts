/**
 * The `--json` output of every command: the contract for scripts, each field documented in
 * docs/commands.md. Commands build their output to these types; tests validate what they print.
 */
import * as z from "zod/mini";
import { LEFT_OUT_WHY } from "../core/lessons.ts";

const num = z.nullable(z.number());
const str = z.nullable(z.string());
const numbers = z.array(z.number());
const strings = z.array(z.string());
const reading = { percent: num, tokens: num, window: num };
/** The config file and how it was found, or where none was, as the reports say it. */
const configFileText = z.string();

/** `lessons-reinject status --json`. */
export const StatusJsonSchema = z.object({
  transcript: str,
  sessionId: str,
  agentId: str,
  ...reading,
  windowSource: str,
  source: z.nullable(z.enum([
    "stdin",
    "statusline",
    "transcript tool_use match",
    "transcript latest",
    "transcript Token usage",
    "tool count",
  ])),
  reason: str,
  model: str,
  thresholds: numbers,
  cadence: num,
  span: num,
  thresholdTokens: numbers,
  compaction: z.nullable(
    z.object({ tokens: num, window: num, source: z.string(), evidence: z.string() }),
  ),
  autocompactPct: num,
  fired: numbers,
  recovered: numbers,
  inherited: numbers,
  pending: numbers,
  next: num,
  nextTokens: num,
  toolCount: z.number(),
  toolCountInterval: z.number(),
  statePath: z.string(),
  stateFile: z.enum(["found", "missing", "corrupt"]),
  action: z.enum(["refresh", "nothing"]),
  decision: z.string(),
  beforeCompaction: z.nullable(
    z.object({ tokens: z.number(), window: z.number(), percent: z.number(), model: str }),
  ),
  sources: strings,
  afterCompact: z.nullable(z.enum(["pending", "delivered"])),
  deliveries: z.array(z.object({
    refresh: z.string(),
    status: z.enum(["delivered", "pending", "owed", "re-sent", "given up", "unrecorded"]),
    call: z.string(),
    sent: z.number(),
    reason: str,
  })),
  leftOut: strings,
  configFile: str,
  configFileText,
  problems: strings,
});
export type StatusJson = z.infer<typeof StatusJsonSchema>;

/** `lessons-reinject why --json`. */
export const WhyJsonSchema = z.object({
  transcript: z.string(),
  /** Why no refresh, or what the next tool call does, in one line. */
  answer: z.string(),
  /** The hook's own debug line for its next call. */
  nextCall: z.string(),
  /** What Claude Code recorded of the hook's stderr and cancelled runs, oldest first. */
  recorded: strings,
  problems: strings,
  configFile: configFileText,
});
export type WhyJson = z.infer<typeof WhyJsonSchema>;

/** `lessons-reinject preview --json`. */
export const PreviewJsonSchema = z.object({
  text: str,
  due: z.boolean(),
  reason: z.string(),
  chars: z.number(),
  budget: z.number(),
  thresholds: numbers,
  manifest: str,
  whole: strings,
  summarized: strings,
  omitted: strings,
  excluded: z.array(z.object({ id: z.string(), why: z.enum(LEFT_OUT_WHY) })),
  invalid: strings,
  sources: strings,
  configFile: configFileText,
});
export type PreviewJson = z.infer<typeof PreviewJsonSchema>;

/** One replay of `demo --json`. */
const DemoReplaySchema = z.object({
  model: z.string(),
  window: z.number(),
  thresholds: numbers,
  steps: z.array(z.object({
    step: z.number(),
    event: z.string(),
    tool: z.string(),
    toolUseId: z.string(),
    percent: z.number(),
    tokens: z.number(),
    window: z.number(),
    gauge: z.string(),
    decision: z.string(),
    injected: z.boolean(),
    header: str,
    chars: z.number(),
    text: str,
  })),
  injections: z.number(),
});

/** `lessons-reinject demo --json`: the 200k replay, and the same on Claude Code's default model. */
export const DemoJsonSchema = z.object({
  ...DemoReplaySchema.shape,
  defaultModel: DemoReplaySchema,
});
export type DemoJson = z.infer<typeof DemoJsonSchema>;

/** One check of `doctor --json`: "ok"; "warn": works, could be better; "fail": it cannot work. */
const CheckSchema = z.object({
  name: z.string(),
  status: z.enum(["ok", "warn", "fail"]),
  detail: z.string(),
  fix: str,
});
export type Check = z.infer<typeof CheckSchema>;

/** `lessons-reinject doctor --json`. */
export const DoctorJsonSchema = z.object({ ok: z.boolean(), checks: z.array(CheckSchema) });
export type DoctorJson = z.infer<typeof DoctorJsonSchema>;

/** `lessons-reinject statusline --json`: what was recorded, or why nothing was. */
export const StatuslineJsonSchema = z.object({
  recorded: z.boolean(),
  path: str,
  ...reading,
  line: z.string(),
  error: str,
  configFile: configFileText,
});
export type StatuslineJson = z.infer<typeof StatuslineJsonSchema>;

/** What `status --json` and `preview --json` print instead when they have nothing to report. */
export const ErrorJsonSchema = z.object({ error: z.string() });

/** `lessons-reinject --version --json`. */
export const VersionJsonSchema = z.object({ name: z.string(), version: z.string() });
