/**
 * Backed scripted sessions (scripts/loopback/backed_steps.ts): each step's Bash output carries
 * the next step's growth at the measured rate, no call prints more than Claude Code passes
 * inline, and a request whose scripted growth its own bytes do not carry is found.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { TOKENS_PER_BYTE } from "../../src/core/claude_code.ts";
import type { RecordedRequest } from "./api_stub.ts";
import {
  backedSteps,
  BASH_INLINE_BYTES,
  MAX_BACKED_TOKENS,
  reportCarrying,
  unbackedSteps,
} from "./backed_steps.ts";
import { bytesForTokens, requestTokens } from "./request_size.ts";

const commandOf = (step: ReturnType<typeof backedSteps>[number], i = 0) =>
  String(step.tools?.[i]?.input.command);

Deno.test("backedSteps() prints the bytes that carry each next step's growth", () => {
  const steps = backedSteps([
    { id: "a", tokens: 10_000 },
    { id: "b", tokens: 16_000 },
    { id: ["c1", "c2"], tokens: 16_000 },
  ], 40_000);
  assertEquals(steps.length, 4);
  assertEquals(
    commandOf(steps[0]!).endsWith(`| head -c ${Math.ceil(6_000 / TOKENS_PER_BYTE)}`),
    true,
  );
  assertEquals(commandOf(steps[1]!), "true");
  // 24,000 tokens over two parallel calls: 20,000 bytes each.
  assertEquals(steps[2]!.tools?.map((t) => t.id), ["c1", "c2"]);
  assertEquals(commandOf(steps[2]!, 1).endsWith("| head -c 20000"), true);
  assertEquals(steps[3]!.text, "Finished.");
  assertEquals(MAX_BACKED_TOKENS, Math.floor(BASH_INLINE_BYTES * TOKENS_PER_BYTE));
});

Deno.test("backedSteps() leaves another tool's call as given, its result to carry the growth", () => {
  const agent = { name: "Agent", input: { prompt: "sub task", subagent_type: "general-purpose" } };
  const steps = backedSteps(
    [
      { id: "a", tokens: 10_000 },
      { id: "g", tokens: 20_000, call: agent },
      { id: "b", tokens: 21_000 },
    ],
    22_000,
    "Report.",
  );
  // The Bash call before it still prints what carries the Agent step's growth.
  assertEquals(commandOf(steps[0]!).endsWith(`| head -c ${bytesForTokens(10_000)}`), true);
  assertEquals(steps[1]!.tools, [{ ...agent, id: "g" }]);
  assertEquals(steps[1]!.usage, backedSteps([{ id: "x", tokens: 20_000 }], 0)[0]!.usage);
  assertEquals(steps[3]!.text, "Report.");
  throws(() => backedSteps([{ id: ["g1", "g2"], tokens: 0, call: agent }], 0), /one id/);
});

Deno.test("reportCarrying() is a text of the bytes that carry its tokens", () => {
  for (const tokens of [0, 1, 1_000, 17_000]) {
    const text = reportCarrying(tokens);
    assertEquals(new TextEncoder().encode(text).length, Math.max(1, bytesForTokens(tokens)));
  }
});

Deno.test("backedSteps() refuses a call that would print more than Bash passes inline", () => {
  throws(() => backedSteps([{ id: "a", tokens: 0 }], MAX_BACKED_TOKENS + 100), /split the step/);
});

Deno.test("unbackedSteps() finds a request that grew more than its bytes carry", () => {
  const body = (text: string) => ({ messages: [{ role: "user", content: text }] });
  const request = (text: string, tokens: number, route = "main"): RecordedRequest => ({
    path: "/v1/messages",
    route,
    at: 0,
    body: body(text),
    usage: { tokens, outputTokens: 10 },
  });
  const small = requestTokens(body("x"));
  const grown = requestTokens(body("x".repeat(10_000)));
  const found = unbackedSteps([
    request("x", 1_000),
    request("x".repeat(10_000), 1_000 + grown - small), // exactly what the bytes carry
    request("x", 100, "agent"), // another queue's first request is free
    request("x".repeat(10_000), 1_000 + grown - small + 1),
  ]);
  assertEquals(found, [{ route: "main", index: 2, scripted: 1, physical: 0 }]);
});

Deno.test("unbackedSteps() starts a queue afresh after its compaction, and only that queue", () => {
  const request = (tokens: number, route = "main", text = "x"): RecordedRequest => ({
    path: "/v1/messages",
    route,
    at: 0,
    body: { messages: [{ role: "user", content: text }] },
    usage: { tokens, outputTokens: 10 },
  });
  const compaction = (compacted: string): RecordedRequest => ({
    path: "/v1/messages",
    route: "compact",
    compacted,
    at: 0,
    body: { messages: [{ role: "user", content: "x".repeat(100_000) }] },
  });
  // A summary's new context: far smaller in bytes, less so in its reported usage.
  const big = "x".repeat(100_000);
  const found = unbackedSteps([
    request(60_000, "main", big),
    request(30_000, "agent", big),
    compaction("main"),
    request(9_000), // the new context's first request: free
    request(9_001), // grew one token, no bytes
    request(1_000, "agent"), // shrank by less than its bytes did: the agent did not compact
  ]);
  assertEquals(found.map((f) => [f.route, f.index]), [["main", 2], ["agent", 1]]);
});
