/**
 * The `--json` output of every command, as zod schemas: the documented contract for scripts.
 * Commands build their output to these types; tests validate what the subprocess printed.
 */
import * as z from "zod/mini";

const nullableNumber = z.nullable(z.number());
const nullableString = z.nullable(z.string());

/** Where a reading came from; "tool count" when none could be taken and calls are counted. */
export const SourceSchema = z.nullable(z.enum([
  "stdin",
  "statusline",
  "transcript tool_use match",
  "transcript latest",
  "transcript Token usage",
  "tool count",
]));

/**
 * One delivery of `status --json` and `doctor`: a threshold (`"30"`) or the restatement after a
 * compaction (`"compact"`), and what the transcript shows of it (src/core/receipts.ts).
 */
const DeliveryJsonSchema = z.object({
  /** A threshold as the refresh header names it, or "compact". */
  refresh: z.string(),
  /**
   * "delivered": Claude Code recorded it (a `hook_additional_context` attachment); "pending":
   * not recorded yet, the session has not moved past its call; "owed": not delivered, the next
   * tool call sends it again; "re-sent": sent again, not recorded yet; "given up": not delivered
   * after the re-send (or not checkable), see `reason`; "unrecorded": sent once, on a Claude
   * Code that records no delivery (before 2.1.97), so not checked.
   */
  status: z.enum(["delivered", "pending", "owed", "re-sent", "given up", "unrecorded"]),
  /** The tool call (`tool_use_id`) whose answer carried it last, or "SessionStart". */
  call: z.string(),
  /** Times sent: 1, or 2 once re-sent. */
  sent: z.number(),
  /** Why it was re-sent or given up; null otherwise. */
  reason: nullableString,
});

/** `lessons-reinject status --json`. */
export const StatusJsonSchema = z.object({
  transcript: nullableString,
  sessionId: nullableString,
  agentId: nullableString,
  percent: nullableNumber,
  tokens: nullableNumber,
  window: nullableNumber,
  windowSource: nullableString,
  source: SourceSchema,
  /** Why there is no reading (null when there is one). */
  reason: nullableString,
  model: nullableString,
  /** The thresholds: percentages (below 100) and token counts (1,000 or more). */
  thresholds: z.array(z.number()),
  /**
   * Tokens the percentages are measured against for this reading: the window, or less when
   * Claude Code compacts before the window's usual point (null without a reading).
   */
  span: nullableNumber,
  /** Where each threshold falls for this reading, in tokens (empty without a reading). */
  thresholdTokens: z.array(z.number()),
  /** Where Claude Code auto-compacts this context, and from what (null without a reading). */
  compaction: z.nullable(z.object({
    /** Tokens at which it compacts; null when auto-compaction is off. */
    tokens: nullableNumber,
    /** The auto-compact window the point comes from. */
    window: nullableNumber,
    /** What decided it ("off" when auto-compaction is off). */
    source: z.string(),
    evidence: z.string(),
  })),
  /** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` as Claude Code reads it, when usable. */
  autocompactPct: nullableNumber,
  /** Fired in this context: the state file's, or what the hook recovers without one. */
  fired: z.array(z.number()),
  /** Fired thresholds recovered from the hook's own refreshes in the transcript (no state file). */
  recovered: z.array(z.number()),
  /** A fork subagent's first call: fired thresholds its parent's refreshes left in its context. */
  inherited: z.array(z.number()),
  /** Reached by this reading but not fired yet: the next tool call would refresh for these. */
  pending: z.array(z.number()),
  /** The lowest threshold still ahead: neither fired nor pending. */
  next: nullableNumber,
  toolCount: z.number(),
  toolCountInterval: z.number(),
  statePath: z.string(),
  /** "found", "missing" or "corrupt". */
  stateFile: z.enum(["found", "missing", "corrupt"]),
  /** What the hook's next tool call would do at this reading. */
  action: z.enum(["refresh", "nothing"]),
  /** The hook's own reason for it, as its decision words it ("90% crossed 30, 52, 70"). */
  decision: z.string(),
  /** The last usage before a compaction with no reading since (the pre-compaction figure). */
  beforeCompaction: z.nullable(z.object({
    tokens: z.number(),
    window: z.number(),
    percent: z.number(),
    model: nullableString,
  })),
  /** Each source of rules: what it gave (size, sections) or why nothing (docs/own-rules.md). */
  sources: z.array(z.string()),
  /** After a compaction: the rules still to restate ("pending") or restated ("delivered"). */
  afterCompact: z.nullable(z.enum(["pending", "delivered"])),
  /** Each refresh of this context and whether Claude Code recorded its delivery. */
  deliveries: z.array(DeliveryJsonSchema),
  /** What a refresh of every source would leave out of the budget (rule ids, lesson slugs). */
  leftOut: z.array(z.string()),
  configFile: nullableString,
  /** Config-file problems and invalid environment values, one line each. */
  problems: z.array(z.string()),
});
export type StatusJson = z.infer<typeof StatusJsonSchema>;

/** `lessons-reinject preview --json`. */
export const PreviewJsonSchema = z.object({
  /** The text, or null when nothing is due and no --threshold was given. */
  text: nullableString,
  /** The hook's next tool call in this session would inject this text. */
  due: z.boolean(),
  /** The hook's own reason (its decision), or why no session was read. */
  reason: z.string(),
  chars: z.number(),
  budget: z.number(),
  /** The thresholds the text names (none for a periodic refresh). */
  thresholds: z.array(z.number()),
  manifest: nullableString,
  whole: z.array(z.string()),
  summarized: z.array(z.string()),
  omitted: z.array(z.string()),
  invalid: z.array(z.string()),
  /** Each source of rules: what it gave (size, sections) or why nothing (docs/own-rules.md). */
  sources: z.array(z.string()),
});
export type PreviewJson = z.infer<typeof PreviewJsonSchema>;

/** One replayed tool call of `lessons-reinject demo --json`. */
export const DemoStepSchema = z.object({
  step: z.number(),
  event: z.string(),
  tool: z.string(),
  toolUseId: z.string(),
  percent: z.number(),
  tokens: z.number(),
  window: z.number(),
  gauge: z.string(),
  /** The hook's own account of its decision (its debug line). */
  decision: z.string(),
  injected: z.boolean(),
  /** The injected text's first line names the thresholds it answers. */
  header: nullableString,
  chars: z.number(),
  text: nullableString,
});

/** `lessons-reinject demo --json`. */
export const DemoJsonSchema = z.object({
  model: z.string(),
  window: z.number(),
  thresholds: z.array(z.number()),
  steps: z.array(DemoStepSchema),
  injections: z.number(),
});
export type DemoJson = z.infer<typeof DemoJsonSchema>;

/** One check of `lessons-reinject doctor --json`. */
export const CheckSchema = z.object({
  name: z.string(),
  /** "ok"; "warn": works, could be better; "fail": the hook cannot do its job. */
  status: z.enum(["ok", "warn", "fail"]),
  detail: z.string(),
  /** What to do about it (null when ok). */
  fix: nullableString,
});
export type Check = z.infer<typeof CheckSchema>;

/** `lessons-reinject doctor --json`. */
export const DoctorJsonSchema = z.object({
  ok: z.boolean(),
  checks: z.array(CheckSchema),
});
export type DoctorJson = z.infer<typeof DoctorJsonSchema>;

/** `lessons-reinject statusline --json`: what was recorded, or why nothing was. */
export const StatuslineJsonSchema = z.object({
  recorded: z.boolean(),
  path: nullableString,
  percent: nullableNumber,
  tokens: nullableNumber,
  window: nullableNumber,
  line: z.string(),
  error: nullableString,
});
export type StatuslineJson = z.infer<typeof StatuslineJsonSchema>;

/** What `status --json` prints instead of a report when it has no transcript to read. */
export const ErrorJsonSchema = z.object({ error: z.string() });

/** `lessons-reinject --version --json`. */
export const VersionJsonSchema = z.object({ name: z.string(), version: z.string() });
