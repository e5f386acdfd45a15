import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { compactionEvent, compactionFound } from "../../../src/core/compaction_refresh.ts";
import { resetState } from "../../../src/core/facts.ts";
import { parseRefreshHeader, refreshHeader } from "../../../src/core/header.ts";
import type { State } from "../../../src/schemas/state.ts";

const fired = (fired: number[], extra: Partial<State> = {}): State => ({
  fired,
  toolCount: 0,
  epoch: 1,
  ...extra,
});

Deno.test("compactionEvent() decides what each compaction event does", async (t) => {
  const cases: {
    name: string;
    event: "SessionStart" | "PostCompact";
    current: State;
    prompt: string | undefined;
    enabled: boolean;
    want: { next: Partial<State> | "unchanged"; restateNow: boolean };
  }[] = [
    {
      name: "SessionStart(compact) resets and restates now",
      event: "SessionStart",
      current: fired([30]),
      prompt: "p1",
      enabled: true,
      want: {
        next: { afterCompact: "delivered", compactPrompt: "p1", fired: [] },
        restateNow: true,
      },
    },
    {
      name: "SessionStart after a tool call found the marker and restated: no second restatement",
      event: "SessionStart",
      current: fired([], { epoch: 2, afterCompact: "delivered" }),
      prompt: "p1",
      enabled: true,
      want: {
        next: { afterCompact: "delivered", compactPrompt: "p1", epoch: 2 },
        restateNow: false,
      },
    },
    {
      name: "SessionStart after an earlier SessionStart's restatement lingers: a new compaction",
      event: "SessionStart",
      current: fired([], { afterCompact: "delivered", compactPrompt: "p0" }),
      prompt: "p1",
      enabled: true,
      want: { next: { afterCompact: "delivered", compactPrompt: "p1" }, restateNow: true },
    },
    {
      name: "PostCompact after SessionStart of the same compaction leaves the state alone",
      event: "PostCompact",
      current: fired([], { afterCompact: "delivered", compactPrompt: "p1" }),
      prompt: "p1",
      enabled: true,
      want: { next: "unchanged", restateNow: false },
    },
    {
      name:
        "PostCompact without SessionStart (some Windows builds drop it) leaves it to the next call",
      event: "PostCompact",
      current: fired([30, 52]),
      prompt: "p1",
      enabled: true,
      want: {
        next: { afterCompact: "pending", compactPrompt: "p1", fired: [] },
        restateNow: false,
      },
    },
    {
      name: "PostCompact of another compaction than SessionStart's is a new compaction",
      event: "PostCompact",
      current: fired([], { afterCompact: "delivered", compactPrompt: "p0" }),
      prompt: "p1",
      enabled: true,
      want: { next: { afterCompact: "pending", fired: [] }, restateNow: false },
    },
    {
      name: "PostCompact after a delivered SessionStart that has since fired again is new",
      event: "PostCompact",
      current: fired([30], { afterCompact: "delivered" }),
      prompt: undefined,
      enabled: true,
      want: { next: { afterCompact: "pending", fired: [] }, restateNow: false },
    },
    {
      name: "turned off: SessionStart only resets",
      event: "SessionStart",
      current: fired([30]),
      prompt: "p1",
      enabled: false,
      want: { next: { fired: [], afterCompact: undefined }, restateNow: false },
    },
    {
      name: "turned off: PostCompact only resets",
      event: "PostCompact",
      current: fired([30]),
      prompt: "p1",
      enabled: false,
      want: { next: { fired: [], afterCompact: undefined }, restateNow: false },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const step = compactionEvent(c.event, c.current, resetState(c.current), c.prompt, c.enabled);
      equal(step.restateNow, c.want.restateNow);
      if (c.want.next === "unchanged") equal(step.next, undefined);
      else {
        ok(step.next, "a state to write");
        for (const [key, value] of Object.entries(c.want.next)) {
          assertEquals(step.next[key as keyof State], value, key);
        }
        if (c.want.next.epoch === undefined) {
          equal(step.next.epoch, (c.current.epoch ?? 0) + 1, "a new epoch");
        }
      }
    });
  }
});

Deno.test("compactionFound() marks a reset the transcript caused, only when on", () => {
  const before = fired([30], { epoch: 3 });
  const after = resetState(before, 500);
  equal(compactionFound(before, after, true).afterCompact, "pending");
  equal(compactionFound(before, after, false).afterCompact, undefined);
  equal(compactionFound(before, before, true).afterCompact, undefined);
});

Deno.test("refreshHeader() has its own compaction header that no threshold parser believes", () => {
  const header = refreshHeader({ kind: "compaction", thresholds: [] }, "0a1b2c3d");
  ok(
    header.startsWith(
      "[lessons-reinject refresh compact ref=0a1b2c3d] The context was just compacted",
    ),
  );
  equal(parseRefreshHeader(header, "0a1b2c3d"), undefined);
  const plain = refreshHeader({ kind: "thresholds", thresholds: [30], percent: 31 }, "0a1b2c3d");
  assertEquals(parseRefreshHeader(plain, "0a1b2c3d"), [30]);
});
