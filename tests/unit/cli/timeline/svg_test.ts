/**
 * The timeline as SVG (src/cli/timeline/svg.ts) and as JSON (model.ts): the SVG parses as XML,
 * stands alone, and its marks are exactly the events `--json` gives.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { type Timeline, timelineJson } from "../../../../src/cli/timeline/model.ts";
import { timelineSvg } from "../../../../src/cli/timeline/svg.ts";
import { call, longSession, refresh, threeCompactions } from "./_session.ts";
import { eventOf, parse } from "./_svg.ts";

const awkward: Timeline = {
  ...threeCompactions(),
  sessionId: `a<b>&"c'`,
  calls: [call(1, 50_000, 200_000), { ...call(2, undefined, undefined), tool: "<&>" }],
  events: [
    { kind: "compaction", beforeCall: 2, trigger: undefined, preTokens: undefined, restated: true },
    { kind: "restatement", call: "SessionStart", delivery: "unchecked" },
    { kind: "window", call: 2, from: 200_000, to: 400_000, evidence: `"quoted" & <tagged>` },
    { kind: "resend", call: 2, refreshes: ["30", "60k", "compact"], delivery: "pending" },
  ],
};

Deno.test("timelineSvg(): its marks are the events --json gives, field for field", async (t) => {
  for (
    const [name, timeline] of [
      ["three compactions, 1M proven part-way, a re-send", threeCompactions()],
      ["markup in every text, unknown values", awkward],
      ["2,000 calls", longSession(2_000)],
    ] as const
  ) {
    await t.step(name, () => {
      const marks = parse(timelineSvg(timeline)).filter((e) => e.hasAttribute("data-kind"));
      const json = JSON.parse(timelineJson(timeline));
      assertEquals(marks.map(eventOf), json.events);
      ok(marks.length > 0);
    });
  }
});

Deno.test("timelineSvg() stands alone: no scripts, no links, generic fonts only", () => {
  for (const timeline of [threeCompactions(), awkward]) {
    const elements = parse(timelineSvg(timeline));
    const names = new Set(elements.map((e) => e.tagName));
    for (const banned of ["script", "image", "use", "a", "foreignObject", "style"]) {
      ok(!names.has(banned), banned);
    }
    for (const element of elements) {
      for (const { name, value } of Array.from(element.attributes)) {
        ok(!/^on|href$/.test(name), `${element.tagName} ${name}`);
        if (name === "font-family") ok(["sans-serif", "serif", "monospace"].includes(value), value);
      }
    }
  }
});

Deno.test("timelineSvg() draws the window and each threshold as lines", () => {
  const elements = parse(timelineSvg(threeCompactions()));
  const line = (kind: string) => elements.filter((e) => e.getAttribute("data-line") === kind);
  assertEquals(line("window").length, 1);
  assertEquals(line("threshold").map((e) => e.getAttribute("data-threshold")), [
    "30",
    "52",
    "70",
    "60000",
  ]);
  // The window's step: 200k (a run per call) until call 320, then 1M.
  const d = line("window")[0]?.getAttribute("d") ?? "";
  const heights = new Set([...d.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => m[1]));
  assertEquals(heights.size, 2);
  ok(line("threshold").every((e) => (e.getAttribute("d") ?? "").startsWith("M")));
});

Deno.test("the strict parse above refuses what is not well-formed XML", () => {
  const svg = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg">${inner}</svg>`;
  parse(svg(`<g data-a="1">a &amp; b</g>`));
  for (
    const bad of [`<g data-a="1></g>`, `<g>a & b</g>`, `<g><text></g></text>`, `<g a="1" a="2"/>`]
  ) {
    throws(() => parse(svg(bad)), Error, bad);
  }
});

Deno.test("timelineJson() writes every key, null where unknown", () => {
  const json = JSON.parse(timelineJson(awkward));
  assertEquals(json.calls[1], {
    call: 2,
    time: "2025-06-03T09:00:20.000Z",
    tool: "<&>",
    tokens: null,
    window: null,
    span: null,
    large: false,
  });
  assertEquals(json.events[0], {
    kind: "compaction",
    beforeCall: 2,
    trigger: null,
    preTokens: null,
    restated: true,
  });
  assertEquals(Object.keys(json), [
    "transcript",
    "sessionId",
    "thresholds",
    "cadence",
    "calls",
    "events",
    "subagents",
  ]);
});

Deno.test("timelineSvg(): each x-axis label sits under the middle of its call, where its marks are", () => {
  for (const n of [1, 2, 4, 7, 600]) {
    const calls = Array.from({ length: n }, (_, i) => call(i + 1, 20_000 + i * 100, 200_000));
    // A refresh on every call: each mark's x is that call's middle.
    const events = calls.map((c) => refresh(c.call));
    const elements = parse(timelineSvg({ ...threeCompactions(), calls, events }));
    const middle = new Map(
      elements.filter((e) => e.getAttribute("data-kind") === "refresh").map((e) => [
        e.getAttribute("data-call"),
        e.getElementsByTagName("circle")[0]!.getAttribute("cx"),
      ]),
    );
    // The axis labels: the texts just under the plot (the call numbers), not "tool call".
    const axis = elements.filter((e) =>
      e.tagName === "text" && /^\d+$/.test(e.textContent ?? "") &&
      e.getAttribute("text-anchor") === "middle" && e.getAttribute("y") === "356"
    );
    ok(axis.length >= Math.min(n, 3), `${n} calls: ${axis.length} labels`);
    const labels = axis.map((e) => e.textContent!);
    assertEquals(new Set(labels).size, labels.length, `${n} calls: ${labels} (each once)`);
    assertEquals(labels.at(0), "1");
    assertEquals(labels.at(-1), String(n));
    for (const e of axis) {
      assertEquals(e.getAttribute("x"), middle.get(e.textContent), `${n} calls: ${e.textContent}`);
    }
  }
});
