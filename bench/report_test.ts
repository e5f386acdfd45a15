/**
 * The standalone benchmark's side-by-side lines (`--launchers`): one variant's wall and CPU over
 * another's, paired round by round, held to a limit when one is given.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type CaseResult, renderReport, type ReportInput } from "./report.ts";
import type { Sample } from "./measure.ts";

const sample = (wallMs: number, cpuMs = wallMs / 2): Sample => ({
  wallMs,
  cpuMs,
  rssKiB: 40_000,
  readBytes: 0,
  code: 0,
  stdout: "",
  stderr: "",
});

function result(name: string, walls: number[]): CaseResult {
  return {
    name,
    target: undefined,
    samples: walls.map((w) => sample(w)),
    problems: [],
    failedRuns: 0,
  };
}

function input(sourceWalls: number[]): ReportInput {
  return {
    date: "2026-12-04T00:00:00Z",
    tree: "commit abc",
    command: "deno task bench --launchers",
    machine: ["test"],
    method: "test",
    load: [[1, 1, 1], [1, 1, 1]],
    source: "t.jsonl",
    bundleBytes: 1024,
    runs: 3,
    window: 200_000,
    tokens: 110_000,
    sizes: [{
      label: "1 MiB",
      bytes: 1,
      lines: 1,
      debugLine: "",
      lagLine: "",
      usageBytesRead: 0,
      historyBytesRead: 0,
      cases: [
        result("floor", [10, 10, 10]),
        result("release, non-firing", [20, 40, 30]),
        result("release, firing (100 lessons)", [30, 30, 30]),
        result("source bundle, non-firing", sourceWalls),
        result("source bundle, firing (100 lessons)", [30, 33, 36]),
      ],
    }],
    pairs: [{ name: "source bundle", against: "release", limit: 1.2 }],
    pairNote: "checked",
  };
}

const pairLine = (report: string) =>
  report.split("\n").find((l) => l.startsWith("- **source bundle** ÷ **release**"));

Deno.test("each pair is its ratio per round, not the ratio of the medians", () => {
  // Per round 2.0, 1.1, 1.1: median 1.1, where the medians' ratio would be 40 / 30 = 1.33.
  assertEquals(
    pairLine(renderReport(input([40, 44, 33]))),
    "- **source bundle** ÷ **release**: 1 MiB non-firing 1.10× [1.10–1.55] (40.0 against 30.0 ms; " +
      "CPU 1.10×, 20.0 against 15.0 ms), 1 MiB firing 1.10× [1.05–1.15] (33.0 against 30.0 ms; " +
      "CPU 1.10×, 16.5 against 15.0 ms): met (≤ 1.2×).",
  );
});

Deno.test("a pair over its limit is not met", () => {
  assertEquals(
    pairLine(renderReport(input([30, 60, 30])))?.endsWith(": **not met** (≤ 1.2×)."),
    true,
  );
});
