/**
 * Turns the bench's samples into the Markdown written to docs/maintainers/benchmarks.md: medians
 * and spreads, ratios to the floor paired run by run, and the issue's targets checked against them.
 */
import type { Sample } from "./measure.ts";

export interface CaseResult {
  name: string;
  /** Held to a target: the steady non-firing call, or the firing call; undefined: shown only. */
  target: "steady" | "firing" | undefined;
  /** One per round, in round order (index i of every case ran in the same round). */
  samples: Sample[];
  problems: string[];
  failedRuns: number;
}

export interface SizeResult {
  label: string;
  bytes: number;
  lines: number;
  debugLine: string;
  /** The debug line of the call whose own entry was not written yet. */
  lagLine: string;
  usageBytesRead: number | undefined;
  historyBytesRead: number | undefined;
  cases: CaseResult[];
}

export interface ReportInput {
  date: string;
  /** The source measured: commit, and whether src/ had uncommitted changes. */
  tree: string;
  command: string;
  machine: string[];
  method: string;
  load: [number[], number[]];
  source: string;
  bundleBytes: number;
  runs: number;
  window: number;
  tokens: number;
  sizes: SizeResult[];
  /** Variants compared with each other, paired per round (`--launchers`), with a limit or none. */
  pairs?: { name: string; against: string; limit?: number }[];
  /** What the pairs' variants were checked for. */
  pairNote?: string;
}

/** Wall of a steady non-firing call over the floor's (the project's target). */
const STEADY_RATIO = 1.3;
/** Peak RSS over the floor's. */
const RSS_RATIO = 1.5;
/** Wall of a firing call (100 lessons) over the floor's. */
const FIRING_RATIO = 2;
/** Peak RSS counts as flat when the largest size's median is within this of the smallest's. */
const FLAT_RSS = 1.05;

/** The q-quantile (0..1) of `values`, interpolated; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

const median = (values: readonly number[]) => quantile(values, 0.5);

function spread(values: readonly number[], digits: number): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
  return `${f(median(values))} [${f(quantile(values, 0.25))}–${f(quantile(values, 0.75))}]`;
}

/** Per-round ratios of `pick(case)` to `pick(floor)`: the paired comparison. */
function pairedRatios(c: CaseResult, floor: CaseResult, pick: (s: Sample) => number): number[] {
  return c.samples.map((s, i) => {
    const f = floor.samples[i];
    return f ? pick(s) / pick(f) : NaN;
  });
}

const wall = (s: Sample) => s.wallMs;
const cpu = (s: Sample) => s.cpuMs;
const rss = (s: Sample) => (s.rssKiB ?? NaN) / 1024;
const readMiB = (s: Sample) => (s.readBytes ?? NaN) / 1024 / 1024;

function floorOf(size: SizeResult): CaseResult {
  const floor = size.cases.find((c) => c.name === "floor");
  if (!floor) throw new Error("no floor case");
  return floor;
}

function readText(mib: number): string {
  if (!Number.isFinite(mib)) return "n/a";
  return mib >= 10 ? mib.toFixed(0) : mib.toFixed(2);
}

function ratioText(values: number[]): string {
  const m = median(values);
  return Number.isFinite(m) ? `${m.toFixed(2)}×` : "n/a";
}

function table(input: ReportInput): string[] {
  const lines = [
    "| transcript | case | wall ms, median [IQR] | wall ÷ floor (paired) | CPU ms, median [IQR] | CPU ÷ floor (paired) | peak RSS MiB, median [IQR] | RSS ÷ floor | read MiB, median | runs ok |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const size of input.sizes) {
    const floor = floorOf(size);
    for (const c of size.cases) {
      const isFloor = c === floor;
      const ok = `${c.samples.length - c.failedRuns}/${c.samples.length}`;
      lines.push(
        `| ${size.label} | ${c.target ? `**${c.name}**` : c.name} | ${
          spread(c.samples.map(wall), 1)
        } | ${isFloor ? "1" : ratioText(pairedRatios(c, floor, wall))} | ${
          spread(c.samples.map(cpu), 1)
        } | ${isFloor ? "1" : ratioText(pairedRatios(c, floor, cpu))} | ${
          spread(c.samples.map(rss), 1)
        } | ${
          isFloor
            ? "1"
            : `${(median(c.samples.map(rss)) / median(floor.samples.map(rss))).toFixed(2)}×`
        } | ${readText(median(c.samples.map(readMiB)))} | ${ok} |`,
      );
    }
  }
  return lines;
}

function targets(input: ReportInput): string[] {
  const out: string[] = [];
  const held = input.sizes.flatMap((s) => s.cases.filter((c) => c.target !== undefined));
  const names = [...new Set(held.map((c) => c.name))];
  for (const name of names) {
    const kind = held.find((c) => c.name === name)!.target;
    const limit = kind === "firing" ? FIRING_RATIO : STEADY_RATIO;
    const rows = input.sizes.map((size) => {
      const c = size.cases.find((x) => x.name === name)!;
      const floor = floorOf(size);
      const ratios = pairedRatios(c, floor, wall).filter(Number.isFinite);
      return {
        label: size.label,
        wallRatio: median(ratios),
        low: quantile(ratios, 0.25),
        high: quantile(ratios, 0.75),
        p95Ratio: quantile(c.samples.map(wall), 0.95) / quantile(floor.samples.map(wall), 0.95),
        rssRatio: median(c.samples.map(rss)) / median(floor.samples.map(rss)),
        rss: median(c.samples.map(rss)),
        failed: c.failedRuns,
      };
    });
    const wallOk = rows.every((r) => r.wallRatio <= limit && r.p95Ratio <= limit);
    let line = `- **${name}**: wall ÷ floor (paired, median [IQR]) ${
      rows.map((r) =>
        `${r.label} ${r.wallRatio.toFixed(2)}× [${r.low.toFixed(2)}–${r.high.toFixed(2)}]`
      ).join(", ")
    }; p95 ÷ the floor's p95 ${
      rows.map((r) => `${r.label} ${r.p95Ratio.toFixed(2)}×`).join(", ")
    }: ${wallOk ? "met" : "**not met**"} (both ≤ ${limit}×).`;
    if (kind === "steady") {
      const rssOk = rows.every((r) => r.rssRatio <= RSS_RATIO);
      const rssValues = rows.map((r) => r.rss);
      const flat = Math.max(...rssValues) / Math.min(...rssValues);
      line += ` Peak RSS ÷ floor ${
        rows.map((r) => `${r.label} ${r.rssRatio.toFixed(2)}×`).join(", ")
      }: ${rssOk ? "met" : "**not met**"} (≤ ${RSS_RATIO}×); RSS from the smallest to the ` +
        `largest transcript varies ${((flat - 1) * 100).toFixed(1)} %: ${
          flat <= FLAT_RSS ? "flat" : "**grows**"
        }.`;
    }
    if (rows.some((r) => r.failed > 0)) line += " Some runs failed their check (see the table).";
    out.push(line);
  }
  return out;
}

/** The Markdown for docs/maintainers/benchmarks.md's generated block. */
export function renderReport(input: ReportInput): string {
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
  const lines: string[] = [
    `Run on ${input.date} with \`${input.command}\`, on ${input.tree}.`,
    "",
    `- Machine: ${input.machine.join("; ")}.`,
    `- Load average (1, 5, 15 min) at start ${load(input.load[0])}, at end ${load(input.load[1])}.`,
    `- ${input.runs} timed runs per case and size, after one untimed warm-up run of each; every round runs every case once, in an order rotated each round. ${input.method}; wall = spawn to exit with stdout and stderr drained, measured by the bench.`,
    `- Floor: \`deno run --no-config\` of a script that reads stdin to the end, with the hook's permissions; the bundles run with \`--no-config\` too, as the compiled binary reads no config file.`,
    `- Transcripts: the real \`${input.source}\` repeated with fresh uuids, message ids and tool ids, ending with the assistant entry holding the benchmark's \`tool_use_id\` at ${input.tokens} of ${input.window} tokens (55 %). The hook's own debug line confirms the source: ${
      input.sizes.map((s) =>
        `\`${s.debugLine.replace(/^lessons-reinject: /, "")}\` (${s.label})`
      )[0] ?? ""
    }.`,
    `- The "own entry not written yet" case names a tool_use id the transcript does not hold (as on most real calls, where the entry lands 40-60 ms after the hook starts), at 11 % of a 1,000,000-token window with 70 % the only threshold: ${
      input.sizes.map((s) => `\`${s.lagLine.replace(/^lessons-reinject: /, "")}\``)[0] ?? ""
    }. A hook that waits for the entry polls its full 250 ms there.`,
    `- Bundle: \`deno task bundle\` (scripts/bundle.ts: \`deno bundle --minify\`, then the hook's functions made eager), ${
      (input.bundleBytes / 1024).toFixed(0)
    } KiB, built by the bench.`,
    "",
    ...table(input),
    "",
    "Transcript sizes and the bytes the hook's readers take from them (measured in process with the same scanners):",
    "",
    "| transcript | bytes | lines | bytes read for this call's usage | bytes read by the recovery scan (no state file, no compaction marker) |",
    "|---|---|---|---|---|",
    ...input.sizes.map((s) =>
      `| ${s.label} | ${s.bytes} | ${s.lines} | ${s.usageBytesRead ?? "error"} | ${
        s.historyBytesRead ?? "error"
      } |`
    ),
    "",
    "Failed checks:",
    "",
    ...failures(input),
    "",
    `Targets: the steady non-firing call ≤ ${STEADY_RATIO}× the floor and peak RSS ≤ ${RSS_RATIO}×, flat; a firing call with a 100-lesson manifest ≤ ${FIRING_RATIO}×. The machine is shared (2 cores): ratios are paired per round; see the load averages above.`,
    "",
    ...targets(input),
    ...pairLines(input),
  ];
  return lines.join("\n");
}

/** Each pair's non-firing and firing calls: one variant's wall over the other's, per round. */
function pairLines(input: ReportInput): string[] {
  if (!input.pairs?.length) return [];
  const lines = [
    "",
    "Side by side, paired per round (wall, median [IQR] of the per-round ratios):",
    "",
  ];
  for (const pair of input.pairs) {
    const kinds = [["non-firing", ", non-firing"], ["firing", ", firing ("]] as const;
    const parts: string[] = [];
    let met = true;
    for (const size of input.sizes) {
      for (const [kind, suffix] of kinds) {
        const find = (name: string) => size.cases.find((c) => c.name.startsWith(name + suffix));
        const [a, b] = [find(pair.name), find(pair.against)];
        if (!a || !b) continue;
        const ratios = pairedRatios(a, b, wall).filter(Number.isFinite);
        const m = median(ratios);
        if (pair.limit !== undefined && !(m <= pair.limit)) met = false;
        // CPU too: on a loaded machine it moves far less than wall time does.
        const cpuRatios = pairedRatios(a, b, cpu).filter(Number.isFinite);
        parts.push(
          `${size.label} ${kind} ${m.toFixed(2)}× [${quantile(ratios, 0.25).toFixed(2)}–${
            quantile(ratios, 0.75).toFixed(2)
          }] (${median(a.samples.map(wall)).toFixed(1)} against ${
            median(b.samples.map(wall)).toFixed(1)
          } ms; CPU ${median(cpuRatios).toFixed(2)}×, ${median(a.samples.map(cpu)).toFixed(1)} ` +
            `against ${median(b.samples.map(cpu)).toFixed(1)} ms)`,
        );
      }
    }
    const verdict = pair.limit === undefined
      ? ""
      : `: ${met ? "met" : "**not met**"} (≤ ${pair.limit}×)`;
    lines.push(`- **${pair.name}** ÷ **${pair.against}**: ${parts.join(", ")}${verdict}.`);
  }
  if (input.pairNote) lines.push("", input.pairNote);
  return lines;
}

function failures(input: ReportInput): string[] {
  const out: string[] = [];
  for (const size of input.sizes) {
    for (const c of size.cases) {
      if (c.failedRuns > 0) {
        out.push(
          `- ${size.label}, ${c.name}: ${c.failedRuns} of ${c.samples.length} runs: ${
            c.problems.join("; ")
          }`,
        );
      }
    }
  }
  return out.length > 0 ? out : ["- none"];
}
