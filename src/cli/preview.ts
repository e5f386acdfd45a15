/**
 * `lessons-reinject preview`: the exact text the hook's next tool call would inject (from its dry
 * run), its size against the budget, and which rules went in whole, as a summary, or were left out.
 */
import * as numbers from "../core/numbers.ts";
import * as cli from "./common.ts";
import { locateTranscript } from "./locate.ts";
import { accountOf, shownRefresh } from "./account.ts";
import { leftOutList } from "./rules.ts";
import type { PreviewJson } from "./schemas.ts";
import { failed } from "../core/result.ts";

const HELP = `Usage: lessons-reinject preview [--threshold N] [--transcript PATH | --session ID]
                                [--project DIR] [--json]

The exact text the hook's next tool call would inject in this session, at its reading; when
nothing is due, the next threshold's. Then its size against the budget and which rules went in
whole, as a summary line, or were left out. With no session, a refresh at the first threshold.

Options:
  --threshold N      the text of a refresh for N, due or not: a percentage (30) or tokens (60k)
${cli.SESSION_OPTIONS}
  --json             print the text and the accounting as JSON
  -h, --help         this help
`;

const OPTIONS = { ...cli.TARGET, threshold: "string" } as const;

/** The human report: the text, a rule, then the accounting; or why nothing is due. Pure. */
function render(p: PreviewJson, program: string, width: number): string {
  if (p.text === null) {
    const note = `nothing is due in this context: ${p.reason}\n` +
      `(\`${program} preview --threshold N\` shows the text a refresh for N would inject)`;
    return note.split("\n").flatMap((line) => cli.wrap(line, width)).join("\n") + "\n";
  }
  const list = (items: string[]) => (items.length > 0 ? items.join(", ") : "none");
  const size = `${cli.groupDigits(p.chars)} of ${cli.groupDigits(p.budget)} characters`;
  const rows: [string, string][] = [
    ["due", `${p.due ? "yes" : "no"}: ${p.reason}`],
    ["size", `${size} (${p.chars <= p.budget ? "within" : "OVER"} the budget)`],
    ["manifest", p.manifest ?? "none"],
    ["whole", list(p.whole)],
    ["summarized", list(p.summarized)],
    ["left out", list(leftOutList(p.excluded))],
    ["sources", p.sources.join("\n")],
    ...(p.invalid.length > 0 ? [["invalid", p.invalid.join(" | ")] as [string, string]] : []),
    ["config file", p.configFile],
  ];
  return `${p.text.trimEnd()}\n\n${"-".repeat(Math.min(72, width))}\n${cli.table(rows, 13, width)}`;
}

/**
 * Runs `preview`. Exit 0 with the text or "nothing is due"; 1 when nothing can be restated or the
 * named session is missing; 2 on bad flags.
 */
export async function runPreview(args: string[], ctx: cli.Ctx): Promise<number> {
  const flags = await cli.readFlags(args, OPTIONS, HELP, ctx);
  if ("exit" in flags) return flags.exit;
  const { threshold: asked, transcript, session, json } = flags.values;
  const { settings } = ctx;
  const threshold = asked === undefined ? undefined : numbers.thresholdOf(asked);
  if (threshold !== undefined && failed(threshold)) {
    const why = `${numbers.shownValue(asked)}: ${threshold.error}`;
    const expected = `expected ${numbers.THRESHOLD_EXPECTED} (${why})`;
    return await cli.usageError(`--threshold ${asked}: ${expected}`, HELP);
  }
  for (const problem of settings.problems) await cli.err(problem);
  const target = locateTranscript({ transcript, session }, flags.cwd, settings);
  if (failed(target) && (transcript || session)) return await cli.fail(target.error, json);
  const account = await accountOf(settings, flags.cwd, target);
  const next = await shownRefresh(account, flags.cwd, target, { threshold });
  const { cause, built, due } = next;
  if (built?.kind === "error") return await cli.fail(account.nothing ?? built.error, json);
  const reason = built?.kind === "reloaded"
    ? `${next.reason}; nothing restated: ${built.why}`
    : next.reason;
  const a = built?.kind === "text" ? built.account : undefined;
  const preview: PreviewJson = {
    text: null,
    due,
    reason,
    chars: 0,
    budget: account.host.maxChars,
    thresholds: a && cause?.kind === "thresholds" ? [...cause.thresholds] : [],
    manifest: null,
    whole: [],
    summarized: [],
    omitted: [],
    excluded: [],
    invalid: [],
    sources: [],
    ...(a && { ...a, manifest: a.manifest ?? null }),
    configFile: cli.configFileText(settings.configFile),
  };
  if (json) await cli.printJson(preview);
  else await cli.out(render(preview, ctx.program().command, ctx.width));
  return cli.EXIT_OK;
}
