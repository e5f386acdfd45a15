/**
 * The state store's every-call costs: one digest per id gives the file names and the refresh
 * token, and a lock nobody holds is taken without creating a timer.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { refreshToken, statePaths, withLock } from "../../../src/io/state_store.ts";
import { saveStatusline } from "../../../src/io/statusline_store.ts";
import { sandbox } from "../../_helpers.ts";

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("statePaths() names files and the token from one digest per context", async (t) => {
  const cases: [string, string, string | undefined][] = [
    ["main thread", "session-1", undefined],
    ["subagent", "session-1", "a40a044a563825531"],
  ];
  const tokens = new Set<string>();
  for (const [label, session, agent] of cases) {
    await t.step(label, async () => {
      const paths = await statePaths("/s", session, agent);
      // The token refresh headers carry must never change: refreshes already in a transcript
      // are recognised by it when a state file is lost.
      const digest = await sha256Hex(
        `lessons-reinject refresh\0${agent ? `${session}\0${agent}` : session}`,
      );
      assertEquals(paths.token, digest.slice(0, 8));
      assertEquals(await refreshToken(session, agent), paths.token);
      const base = agent
        ? `lessons-${digest.slice(8, 24)}-${digest.slice(24, 40)}-reinject`
        : `lessons-${digest.slice(8, 24)}-reinject`;
      assertEquals(paths.state, join("/s", `${base}.json`));
      assertEquals(paths.lock, join("/s", `${base}.lock`));
      // The token is not a part of any file name.
      ok(!paths.state.includes(paths.token), paths.token);
      tokens.add(paths.token);
    });
  }
  assertEquals(tokens.size, 2, "a subagent's token differs from its session's");
  // The statusline record is named with the session's key too.
  const { dir } = sandbox();
  const record = { sessionId: "session-1", recordedAt: 0, percent: 1 };
  const key = (await sha256Hex("lessons-reinject refresh\0session-1")).slice(8, 24);
  assertEquals(saveStatusline(dir, record), join(dir, `lessons-${key}-statusline.json`));
});

Deno.test("withLock() takes a free lock without a timer, and waits for a held one", async () => {
  const lock = join(sandbox().dir, "x.lock");
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  try {
    // Not even clearTimeout: touching the timers loads Deno's Node timers on first use.
    globalThis.setTimeout = (() => {
      throw new Error("a timer was created");
    }) as unknown as typeof setTimeout;
    globalThis.clearTimeout = () => {
      throw new Error("a timer was cleared");
    };
    assertEquals(await withLock(lock, () => Promise.resolve("free")), "free");
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;

    // Held through another open file (flock locks belong to the open file): withLock waits.
    const holder = await Deno.open(lock, { read: true, write: true });
    await holder.lock(true);
    let released = false;
    const release = new Promise<void>((resolve) =>
      realSetTimeout(() => {
        released = true;
        holder.unlockSync();
        resolve();
      }, 100)
    );
    assertEquals(await withLock(lock, () => Promise.resolve(released)), true);
    await release;
    holder.close();
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
  }
});
