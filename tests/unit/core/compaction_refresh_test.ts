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

Deno.test("compactionEvent() decides what SessionStart(compact) does", async (t) => {
  const cases: {
    name: string;
    current: State;
    prompt: string | undefined;
    enabled: boolean;
    want: { next: Partial<State>; restateNow: boolean };
  }[] = [
    {
      name: "SessionStart(compact) resets and restates now",
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
      current: fired([], { afterCompact: "delivered", compactPrompt: "p0" }),
      prompt: "p1",
      enabled: true,
      want: { next: { afterCompact: "delivered", compactPrompt: "p1" }, restateNow: true },
    },
    {
      name: "turned off: SessionStart only resets",
      current: fired([30]),
      prompt: "p1",
      enabled: false,
      want: { next: { fired: [], afterCompact: undefined }, restateNow: false },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const step = compactionEvent(c.current, resetState(c.current), c.prompt, c.enabled);
      equal(step.restateNow, c.want.restateNow);
      for (const [key, value] of Object.entries(c.want.next)) {
        assertEquals(step.next[key as keyof State], value, key);
      }
      if (c.want.next.epoch === undefined) {
        equal(step.next.epoch, (c.current.epoch ?? 0) + 1, "a new epoch");
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
