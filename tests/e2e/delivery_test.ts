/**
 * End-to-end delivery receipts: real Claude Code 2.1.328 against the loopback API. A refresh
 * answered on an Agent call reaches the model and its receipt is seen; a hook killed between its
 * claim and its answer is followed by a delivery on the next call; a SessionStart(compact) answer
 * that is dropped is followed by the restatement on the first tool call. Each is checked on both
 * sides: the transcript Claude Code wrote, and the request bodies the model received.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { backedSteps, reportCarrying } from "../../scripts/loopback/backed_steps.ts";
import { cli } from "../cli/_cli.ts";
import {
  attachmentOf,
  claudeForSuite,
  deliveredAfter,
  HEADER_TAG,
  type Json,
  readJsonl,
  refreshesIn,
  ROOT,
  runTurn,
  type Scenario,
  type ScenarioSetup,
  scenarioTest,
  thresholdsOf,
} from "./harness.ts";

const bin = await claudeForSuite();

const COMPACT_TAG = "[lessons-reinject refresh compact ref=";

/** How each event's hook command runs in a test build of the plugin. */
interface Wiring {
  /** The command of PostToolUse and PostToolUseFailure (default: the real hooks/run). */
  toolCall?: string;
  /** The command of SessionStart clear|compact (default: the real hooks/run). */
  sessionStart?: string;
  /** Every hook's timeout, in seconds. */
  timeout?: number;
}

/**
 * A test build of the plugin: this repository's manifest and a hooks.json of its own, whose
 * commands run the real `hooks/run` (through `wiring`'s shell commands where given). Nothing in
 * the product changes; only how Claude Code is told to run it.
 */
async function testPlugin(wiring: Wiring, scripts: Record<string, string> = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "lessons-e2e-plugin-" });
  await Deno.mkdir(join(dir, ".claude-plugin"));
  await Deno.mkdir(join(dir, "hooks"));
  await Deno.copyFile(
    join(ROOT, ".claude-plugin", "plugin.json"),
    join(dir, ".claude-plugin", "plugin.json"),
  );
  for (const [name, text] of Object.entries(scripts)) {
    await Deno.writeTextFile(join(dir, "hooks", name), text);
    await Deno.chmod(join(dir, "hooks", name), 0o755);
  }
  const real = `"${join(ROOT, "hooks", "run")}"`;
  const timeout = wiring.timeout ?? 5;
  const group = (command: string, matcher?: string) => [{
    ...(matcher ? { matcher } : {}),
    hooks: [{ type: "command", command, timeout }],
  }];
  const hooks = {
    hooks: {
      PostToolUse: group(wiring.toolCall ?? real, ".+"),
      PostToolUseFailure: group(wiring.toolCall ?? real, ".+"),
      SessionStart: group(wiring.sessionStart ?? real, "clear|compact"),
      PostCompact: group(real),
    },
  };
  await Deno.writeTextFile(join(dir, "hooks", "hooks.json"), JSON.stringify(hooks, null, 2));
  return dir;
}

/**
 * Runs `body` on a fresh scenario (see {@link scenarioTest}) whose plugin folder `plugin` makes (the
 * repository itself when it makes none), and removes that folder afterwards.
 */
function scenario(
  name: string,
  setup: Omit<ScenarioSetup, "name" | "pluginDirs">,
  plugin: () => Promise<string | undefined>,
  body: (s: Scenario) => Promise<void>,
): void {
  const short = name.replace(/[^a-z0-9]+/gi, "-").slice(0, 24);
  let dir: string | undefined;
  scenarioTest(bin, {
    name: `e2e delivery: ${name}`,
    setup: async () => {
      dir = await plugin();
      return { name: short, ...setup, ...(dir ? { pluginDirs: [dir] } : {}) };
    },
    body: async (s) => {
      await body(s);
      const recording = Deno.env.get("LESSONS_E2E_RECORD_DELIVERY");
      if (recording) {
        await Deno.copyFile(await s.transcriptPath(), join(recording, `${short}.jsonl`));
      }
    },
    cleanup: async () => {
      if (dir) await Deno.remove(dir, { recursive: true });
    },
  });
}

/** The hook's own decision line (LESSONS_DEBUG) for tool call `id`, from its hook_success. */
function decisionFor(lines: Json[], id: string): string {
  return lines.map(attachmentOf)
    .filter((a) => a?.type === "hook_success" && a.toolUseID === id)
    .map((a) => String(a?.stderr ?? "").trim()).join(" | ");
}

/** The refresh reached the model: the request after its call carries it whole. */
function assertReachedModel(s: Scenario, toolUseId: string, content: string): void {
  const delivered = deliveredAfter(s.modelRequests(), toolUseId);
  ok(delivered, `no request carried the result of ${toolUseId}`);
  ok(delivered.text.includes(content), `the refresh on ${toolUseId} did not reach the model whole`);
}

/** Requests (main conversation) that carry any refresh text, by index. */
function requestsWithRefresh(s: Scenario): number[] {
  return s.modelRequests().flatMap((r, i) =>
    JSON.stringify(r.body.messages).includes(HEADER_TAG) ? [i] : []
  );
}

const AGENT_TASK = "E2E-DELIVERY-AGENT-7f3a";
/** What the subagent's report (the Agent call's result) carries to the main session. */
const AGENT_REPORT_TOKENS = 1_000;

scenario(
  "a refresh answered on an Agent call reaches the model, and its receipt is seen",
  {
    script: {
      main: backedSteps([
        { id: "toolu_g01", tokens: 45_000 }, // 22.5 %
        {
          id: "toolu_g02",
          tokens: 62_000, // 31 %: the Agent call's own hook crosses 30
          call: {
            name: "Agent",
            input: {
              description: "scripted sub task",
              prompt: `Do the scripted sub task. ${AGENT_TASK}`,
              subagent_type: "general-purpose",
              run_in_background: false,
            },
          },
        },
        // Carried by the Agent call's result: the subagent's report (and the refresh).
        { id: "toolu_g03", tokens: 62_000 + AGENT_REPORT_TOKENS },
        { id: "toolu_g04", tokens: 65_000 },
      ], 66_000),
      agents: {
        [AGENT_TASK]: backedSteps(
          [{ id: "toolu_ga1", tokens: 10_000 }],
          11_000,
          reportCarrying(AGENT_REPORT_TOKENS),
        ),
      },
    },
  },
  () => Promise.resolve(undefined),
  async (s) => {
    await runTurn(s, "Delegate at the crossing.", {
      model: "claude-sonnet-4-6",
      allowTools: ["Agent"],
    });
    equal(s.stub.served[AGENT_TASK], 2, "the subagent did not run its script");
    const lines = await readJsonl(await s.transcriptPath());
    const refreshes = refreshesIn(lines);
    deepStrictEqual(refreshes.map((r) => [r.toolUseID, r.hookName]), [
      ["toolu_g02", "PostToolUse:Agent"],
    ]);
    deepStrictEqual(thresholdsOf(refreshes[0]!), [30]);
    assertReachedModel(s, "toolu_g02", refreshes[0]!.content);
    // The next call finds Claude Code's record of it: delivered, nothing sent again.
    const next = decisionFor(lines, "toolu_g03");
    ok(next.includes("receipts: 30 delivered on toolu_g02"), next);
    ok(!decisionFor(lines, "toolu_g04").includes("receipts:"), "a receipt still outstanding");
  },
);

/**
 * Runs the real hook; the first time its answer is a refresh, holds the answer back past the
 * hook's timeout, so Claude Code kills this command after the hook's claim and before its answer.
 */
const KILL_ONCE = `#!/bin/sh
out=$("${join(ROOT, "hooks", "run")}")
case $out in
  *'[lessons-reinject refresh '*)
    if mkdir "$0.killed" 2>/dev/null; then sleep 20; exit 0; fi ;;
esac
printf '%s' "$out"
`;

scenario("a hook killed between claim and answer: the next call delivers the refresh", {
  script: {
    main: backedSteps([
      { id: "toolu_k01", tokens: 45_000 }, // 22.5 %
      { id: "toolu_k02", tokens: 62_000 }, // 31 %: claims 30, killed before answering
      { id: "toolu_k03", tokens: 64_000 }, // sends 30 again
      { id: "toolu_k04", tokens: 66_000 },
    ], 67_000),
  },
}, async () => {
  const dir = await testPlugin({ timeout: 8 }, { "kill-once": KILL_ONCE });
  const hooks = JSON.parse(await Deno.readTextFile(join(dir, "hooks", "hooks.json")));
  const command = `"${join(dir, "hooks", "kill-once")}"`;
  for (const event of ["PostToolUse", "PostToolUseFailure"]) {
    hooks.hooks[event][0].hooks[0].command = command;
  }
  await Deno.writeTextFile(join(dir, "hooks", "hooks.json"), JSON.stringify(hooks, null, 2));
  return dir;
}, async (s) => {
  await runTurn(s, "Climb; one hook is killed.", { model: "claude-sonnet-4-6" });
  const lines = await readJsonl(await s.transcriptPath());
  // Claude Code killed the hook of the crossing call: its answer never arrived.
  const cancelled = lines.map(attachmentOf).filter((a) => a?.type === "hook_cancelled");
  deepStrictEqual(cancelled.map((a) => a?.toolUseID), ["toolu_k02"]);
  const refreshes = refreshesIn(lines);
  deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_k03"]);
  deepStrictEqual(thresholdsOf(refreshes[0]!), [30]);
  // The hook had claimed 30 on toolu_k02; the next call found no record of it and sent it again.
  const resend = decisionFor(lines, "toolu_k03");
  ok(
    resend.includes(
      "30 not recorded for toolu_k02 (Claude Code cancelled the hook), and the session moved " +
        "past it: sending it again",
    ),
    resend,
  );
  // It reached the model: in the request after toolu_k03, and in no request before it.
  assertReachedModel(s, "toolu_k03", refreshes[0]!.content);
  const first = deliveredAfter(s.modelRequests(), "toolu_k03")!.request;
  const index = s.modelRequests().indexOf(first);
  deepStrictEqual(requestsWithRefresh(s).filter((i) => i < index), []);
  // Its receipt is seen on the call after; nothing is sent a third time.
  ok(decisionFor(lines, "toolu_k04").includes("30 (re-sent) delivered on toolu_k03"));
  equal(refreshes.length, 1);
});

/** Two turns around a real `/compact`. */
const COMPACT_SCRIPT = {
  main: [
    ...backedSteps([{ id: "toolu_s01", tokens: 62_000 }], 63_000), // 31 %: 30
    // After /compact.
    ...backedSteps([
      { id: "toolu_s02", tokens: 20_000 }, // 10 %: the first tool call of the new context
      { id: "toolu_s03", tokens: 22_000 },
    ], 23_000),
  ],
};

scenario(
  "a dropped SessionStart(compact) answer: the first tool call restates the rules",
  {
    script: COMPACT_SCRIPT,
  },
  () => testPlugin({ sessionStart: `"${join(ROOT, "hooks", "run")}" >/dev/null` }),
  async (s) => {
    await runTurn(s, "Before compaction.", { model: "claude-sonnet-4-6" });
    await runTurn(s, "/compact", { model: "claude-sonnet-4-6", resume: true });
    await runTurn(s, "After compaction.", { model: "claude-sonnet-4-6", resume: true });
    const lines = await readJsonl(await s.transcriptPath());
    // SessionStart(compact) ran and restated, but its stdout was discarded: nothing recorded.
    const start = lines.map(attachmentOf).filter((a) =>
      a?.type === "hook_success" && a.hookName === "SessionStart:compact"
    );
    equal(start.length, 1, "SessionStart(compact) did not run");
    equal(start[0]!.stdout, "");
    ok(String(start[0]!.stderr).includes("restating the rules"), String(start[0]!.stderr));
    const refreshes = refreshesIn(lines);
    deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_s01", "toolu_s02"]);
    ok(refreshes[1]!.content.startsWith(COMPACT_TAG), refreshes[1]!.content.slice(0, 80));
    const first = decisionFor(lines, "toolu_s02");
    ok(
      first.includes("compact not recorded for SessionStart, and the session moved past it"),
      first,
    );
    assertReachedModel(s, "toolu_s02", refreshes[1]!.content);
    // Once in the new context: the later requests repeat it as history, never a second copy.
    const compact = s.modelRequests().findIndex((r) => r.route === "compact");
    const after = s.modelRequests().slice(compact + 1).filter((r) => r.route === "main");
    for (const request of after) {
      ok(JSON.stringify(request.body.messages).split(COMPACT_TAG).length - 1 <= 1);
    }
    ok(decisionFor(lines, "toolu_s03").includes("compact (re-sent) delivered on toolu_s02"));
  },
);

scenario(
  "SessionStart(compact)'s answer recorded: no tool call restates",
  {
    script: COMPACT_SCRIPT,
  },
  () => Promise.resolve(undefined),
  async (s) => {
    await runTurn(s, "Before compaction.", { model: "claude-sonnet-4-6" });
    await runTurn(s, "/compact", { model: "claude-sonnet-4-6", resume: true });
    await runTurn(s, "After compaction.", { model: "claude-sonnet-4-6", resume: true });
    const lines = await readJsonl(await s.transcriptPath());
    const refreshes = refreshesIn(lines);
    deepStrictEqual(refreshes.map((r) => r.toolUseID), ["toolu_s01", "SessionStart"]);
    // The next turn's SessionStart(resume) or its first tool call sees the record.
    const status = await cli(["status", "--json", "--transcript", await s.transcriptPath()], {
      HOME: s.home,
      TMPDIR: s.tmp,
    });
    const report = JSON.parse(status.stdout);
    deepStrictEqual(
      report.deliveries.map((d: Json) => `${d.refresh} ${d.call} ${d.status}`),
      ["compact SessionStart delivered"],
      status.stdout,
    );
  },
);
