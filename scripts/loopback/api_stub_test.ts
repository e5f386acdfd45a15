/**
 * The loopback Messages API stand-in (scripts/loopback/api_stub.ts): a compaction request is
 * answered with a summary and records which queue's conversation it summarises, so the "every
 * step is backed" check can start that queue afresh.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startApiStub } from "./api_stub.ts";

const COMPACTION = "Your task is to create a detailed summary of the conversation so far.";

Deno.test("a compaction request records the queue whose conversation it summarises", async () => {
  const stub = startApiStub({ main: [], agents: { "AGENT-MARK": [] } });
  try {
    const post = async (first: string) => {
      const response = await fetch(`${stub.url}/v1/messages`, {
        method: "POST",
        body: JSON.stringify({
          model: "claude-sonnet-4-6",
          messages: [
            { role: "user", content: first },
            { role: "assistant", content: "Done." },
            { role: "user", content: COMPACTION },
          ],
        }),
      });
      await response.body?.cancel();
    };
    await post("Climb the context.");
    await post("Do the sub task. AGENT-MARK");
    assertEquals(
      stub.requests.map((r) => [r.route, r.compacted]),
      [["compact", "main"], ["compact", "AGENT-MARK"]],
    );
  } finally {
    await stub.close();
  }
});
