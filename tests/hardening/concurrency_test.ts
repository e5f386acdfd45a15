/**
 * Concurrency: parallel tool calls run their hooks at the same instant. 50 separate processes at
 * one threshold crossing, or all finding an earlier refresh owed (its hook killed before it
 * answered), must produce exactly one refresh, 200 times over; a compaction reset racing the
 * crossing must never let one threshold fire twice in a context, nor be lost.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { appendTranscript, entries, payload, recordAnswer, seededRandom } from "../_helpers.ts";
import { statePaths, writeJsonAtomically } from "../../src/io/state_store.ts";
import {
  box as sandbox,
  crossingTranscript,
  envCount,
  headerThresholds,
  HookServers,
  insertLine,
  readJson,
  saneAnswer,
  sessionToken,
  startTogether,
  WINDOW,
} from "./_harden.ts";

const PROCESSES = 50;
const ROUNDS = envCount("HARDEN_ROUNDS", 200);
const SPAWN_ROUNDS = envCount("HARDEN_SPAWN_ROUNDS", 6);
const RESET_ROUNDS = envCount("HARDEN_RESET_ROUNDS", 100);
const SEED = envCount("HARDEN_SEED", 20260601);

interface Scenario {
  name: string;
  before: number;
  now: number;
  /** Thresholds already fired, recorded in the state file. */
  firedInState?: number[];
  /** Thresholds already fired, recorded only in the transcript (state file lost). */
  firedInTranscript?: number[];
  /**
   * Thresholds fired on the previous call whose hook Claude Code killed before it answered: the
   * state claims them, the transcript shows `hook_cancelled` and moves on. Every process finds
   * them owed; exactly one may send them again.
   */
  owed?: number[];
  expect: string;
}

const SCENARIOS: Scenario[] = [
  { name: "25% → 31%", before: 25, now: 31, expect: "30" },
  { name: "45% → 55%, 30 fired (state)", before: 45, now: 55, firedInState: [30], expect: "52" },
  { name: "25% → 75% in one step", before: 25, now: 75, expect: "30,52,70" },
  {
    name: "45% → 55%, 30 fired (state file lost, transcript shows it)",
    before: 45,
    now: 55,
    firedInTranscript: [30],
    expect: "52",
  },
  {
    name: "31% → 33%, 30 owed (its hook was killed)",
    before: 31,
    now: 33,
    owed: [30],
    expect: "30",
  },
  {
    name: "31% → 55%, 30 owed and 52 crossed",
    before: 31,
    now: 55,
    owed: [30],
    expect: "30,52",
  },
];

async function writeState(stateDir: string, sessionId: string, state: Record<string, unknown>) {
  await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
  writeJsonAtomically((await statePaths(stateDir, sessionId)).state, {
    toolCount: 0,
    epoch: 0,
    ...state,
  });
}

async function prepare(
  scenario: Scenario,
  transcript: string,
  stateDir: string,
  sessionId: string,
  ids: string[],
): Promise<void> {
  crossingTranscript(transcript, scenario.before, scenario.now, ids);
  const firedPercent = scenario.before;
  if (scenario.firedInState) {
    await writeState(stateDir, sessionId, {
      fired: scenario.firedInState,
      firedAt: 0,
      firedPercent,
    });
  }
  if (scenario.owed) {
    // The previous call's hook claimed them; Claude Code killed it (hook_cancelled, as 2.1.328
    // writes it) and went on to the response holding this round's parallel calls.
    const first = Deno.readTextFileSync(transcript).split("\n")[0];
    const claimedAt = new TextEncoder().encode(`${first}\n`).length;
    insertLine(transcript, 2, entries.cancelled("toolu_prev"));
    await writeState(stateDir, sessionId, {
      fired: scenario.owed,
      firedAt: claimedAt,
      firedPercent,
      deliveries: scenario.owed.map((t) => ({
        refresh: String(t),
        call: "toolu_prev",
        at: claimedAt,
        sent: 1,
        status: "pending" as const,
      })),
    });
  }
  if (scenario.firedInTranscript) {
    // Written before the crossing, as Claude Code records an earlier refresh.
    const token = await sessionToken(sessionId);
    const text =
      `[lessons-reinject refresh ${scenario.firedInTranscript.join(",")} ref=${token}] ` +
      "Context refresh at 31%: restated.";
    insertLine(transcript, 1, entries.refresh(text, "toolu_prev"));
  }
}

/** A restatement after a compaction (header `[lessons-reinject refresh compact ref=...]`). */
function isRestatement(context: string | undefined): boolean {
  return context?.startsWith("[lessons-reinject refresh compact ref=") ?? false;
}

/** The refreshes among a round's outputs, each one checked sane ({@link saneAnswer}). */
const refreshesOf = (outputs: (string | undefined)[], where = "") =>
  outputs.map((out) => saneAnswer(out || undefined, where)).filter((c) => c !== undefined);

/** A parallel call's payload, PostToolUse of Bash (or of Read for odd `i`). */
const call = (sessionId: string, transcript: string, id: string, i = 0) =>
  payload(i % 2 ? "PostToolUse.Read" : "PostToolUse.Bash", {
    session_id: sessionId,
    transcript_path: transcript,
    tool_use_id: id,
  });

/** Round `round`'s scenario, written to `transcript` and the state folder, and its calls. */
async function setRound(round: number, transcript: string, stateDir: string) {
  const scenario = SCENARIOS[round % SCENARIOS.length]!;
  const sessionId = crypto.randomUUID();
  const ids = Array.from({ length: PROCESSES }, (_, i) => `toolu_${round}_${i}`);
  await prepare(scenario, transcript, stateDir, sessionId, ids);
  const where = `round ${round} (${scenario.name}, seed ${SEED})`;
  return {
    scenario,
    sessionId,
    ids,
    where,
    calls: ids.map((id, i) => call(sessionId, transcript, id, i)),
  };
}

/** The outputs of one round hold exactly one refresh, of the thresholds `expect` names. */
function assertOneRefresh(outputs: (string | undefined)[], expect: string, where: string): void {
  const refreshes = refreshesOf(outputs, where);
  assertEquals(refreshes.length, 1, `${where}: ${refreshes.length} refreshes`);
  assertEquals(headerThresholds(refreshes[0]), expect, where);
}

const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(1);

Deno.test(
  `concurrency: ${ROUNDS} rounds × ${PROCESSES} hook processes at one crossing give exactly one refresh each`,
  async () => {
    using box = sandbox();
    await using servers = new HookServers(PROCESSES);
    const started = performance.now();
    const counts: Record<string, number> = {};
    let lockTimeouts = 0;
    assertEquals(new Set(servers.pids).size, PROCESSES);
    const env = { ...box.env, LESSONS_CONTEXT_WINDOW: String(WINDOW), LESSONS_DEBUG: "1" };
    for (let round = 0; round < ROUNDS; round++) {
      const transcript = join(box.dir, `round-${round}.jsonl`);
      const { scenario, sessionId, ids, where, calls } = await setRound(
        round,
        transcript,
        box.stateDir,
      );
      const startAt = Date.now() + 40;
      const results = await servers.run(
        calls.map((c) => ({ stdin: JSON.stringify(c), env, startAt })),
      );
      assertEquals(
        results.filter((r) => r.threw).map((r) => r.threw),
        [],
        `${where}: runHook threw`,
      );
      lockTimeouts += results.filter((r) => r.stderr.some((l) => l.includes("busy"))).length;
      assertOneRefresh(results.map((r) => r.stdout), scenario.expect, where);
      const state = readJson((await statePaths(box.stateDir, sessionId)).state);
      assert(
        Array.isArray(state?.fired) &&
          scenario.expect.split(",").every((t) => (state.fired as number[]).includes(Number(t))),
        `${where}: state ${JSON.stringify(state)}`,
      );
      if (scenario.owed) {
        // The re-send is claimed once: sent twice, on the one call that answered.
        const deliveries = state?.deliveries as { refresh: string; call: string; sent: number }[];
        const resent = deliveries.filter((d) => scenario.owed!.includes(Number(d.refresh)));
        assertEquals(resent.map((d) => d.sent), scenario.owed.map(() => 2), where);
        const answered = ids.filter((_, i) => results[i]!.stdout);
        assertEquals([...new Set(resent.map((d) => d.call))], answered, where);
      }
      counts[scenario.name] = (counts[scenario.name] ?? 0) + 1;
    }
    // deno-lint-ignore no-console
    console.log(
      `  ${ROUNDS} rounds × ${PROCESSES} processes = ${ROUNDS * PROCESSES} hook runs, ` +
        `${ROUNDS} refreshes, ${lockTimeouts} lock timeouts, ${seconds(started)} s; ` +
        `per scenario ${JSON.stringify(counts)}`,
    );
  },
);

Deno.test(
  `concurrency: ${SPAWN_ROUNDS} rounds × ${PROCESSES} freshly started src/main.ts processes give exactly one refresh each`,
  async () => {
    const started = performance.now();
    for (let round = 0; round < SPAWN_ROUNDS; round++) {
      using box = sandbox();
      const { scenario, where, calls } = await setRound(round, box.transcript, box.stateDir);
      const runs = await startTogether(calls, {
        ...box.env,
        LESSONS_CONTEXT_WINDOW: String(WINDOW),
      });
      assertEquals(runs.filter((r) => r.code !== 0).length, 0, `${where}: exit codes`);
      assertOneRefresh(runs.map((r) => r.stdout), scenario.expect, where);
    }
    // deno-lint-ignore no-console
    console.log(
      `  ${SPAWN_ROUNDS} rounds × ${PROCESSES} spawned processes = ${SPAWN_ROUNDS * PROCESSES} ` +
        `runs, ${SPAWN_ROUNDS} refreshes, ${seconds(started)} s`,
    );
  },
);

Deno.test(
  `concurrency: ${RESET_ROUNDS} rounds of a compaction reset racing ${PROCESSES} processes at a crossing`,
  async () => {
    const random = seededRandom(SEED);
    using box = sandbox();
    await using servers = new HookServers(PROCESSES + 1);
    const started = performance.now();
    const outcomes = { firedBeforeReset: 0, silent: 0 };
    const env = { ...box.env, LESSONS_CONTEXT_WINDOW: String(WINDOW) };
    for (let round = 0; round < RESET_ROUNDS; round++) {
      const sessionId = crypto.randomUUID();
      const transcript = join(box.dir, `reset-${round}.jsonl`);
      const ids = Array.from({ length: PROCESSES }, (_, i) => `toolu_${round}_${i}`);
      crossingTranscript(transcript, 25, 31, ids);
      const resetPayload = payload("SessionStart.compact", {
        session_id: sessionId,
        transcript_path: transcript,
      });
      // Even rounds: the boundary is in the file before the event; odd rounds: after it, the
      // order 2.1.328 uses (SessionStart runs before the marker is written).
      const boundary = { path: transcript, text: JSON.stringify(entries.compactBoundary()) + "\n" };
      const startAt = Date.now() + 40;
      // The reset lands anywhere from before the first hook to after the last one.
      const resetAt = startAt + Math.floor(random() * 60) - 10;
      const results = await servers.run([
        ...ids.map((id) => ({
          stdin: JSON.stringify(call(sessionId, transcript, id, 1)),
          env,
          startAt,
        })),
        {
          stdin: JSON.stringify(resetPayload),
          env,
          startAt: resetAt,
          ...(round % 2 ? {} : { append: boundary }),
        },
      ]);
      if (round % 2) Deno.writeTextFileSync(boundary.path, boundary.text, { append: true });
      assertEquals(results.filter((r) => r.threw).map((r) => r.threw), []);
      const refreshes = refreshesOf(results.map((r) => r.stdout), `round ${round}`);
      // The old context's 30 fires at most once; the rules are restated once for the new
      // context (SessionStart's answer, else a call of the new context).
      const ofThirty = refreshes.filter((r) => headerThresholds(r) === "30");
      const restated = refreshes.filter(isRestatement);
      assertEquals(ofThirty.length + restated.length, refreshes.length);
      assert(ofThirty.length <= 1, `round ${round}: ${ofThirty.length} refreshes of 30`);
      ofThirty.length === 1 ? outcomes.firedBeforeReset++ : outcomes.silent++;
      const state = readJson((await statePaths(box.stateDir, sessionId)).state);
      assertEquals(
        state?.fired,
        [],
        `round ${round}: the reset was lost: ${JSON.stringify(state)}`,
      );

      // Then Claude Code records what was delivered (tests/_helpers.ts recordAnswer): each
      // call's result and answer, and SessionStart's answer.
      results.slice(0, ids.length).forEach((r, i) =>
        recordAnswer(
          { transcript_path: transcript, tool_use_id: ids[i] },
          saneAnswer(r.stdout),
        )
      );
      recordAnswer(
        { transcript_path: transcript, hook_event_name: "SessionStart" },
        saneAnswer(results.at(-1)!.stdout),
      );

      const probe = async (id: string) => {
        appendTranscript(transcript, [entries.assistant(31_000, [id])]);
        const stdin = JSON.stringify(call(sessionId, transcript, id));
        const [result] = await servers.run([{ stdin, env }]);
        const refreshes = refreshesOf([result!.stdout]);
        recordAnswer({ transcript_path: transcript, tool_use_id: id }, refreshes[0]);
        return refreshes;
      };
      // The new context reaches 31 %: 30 is covered by the one restatement (made here when
      // nothing made it yet), never by a second refresh back to back.
      const first = await probe(`toolu_after_${round}_a`);
      assert(first.every(isRestatement), `round ${round}: a refresh of 30 after the restatement`);
      assertEquals(
        restated.length + first.length,
        1,
        `round ${round}: ${restated.length + first.length} restatements in the new context; ` +
          `state after the race ${JSON.stringify(state)}`,
      );
      assertEquals(
        (await probe(`toolu_after_${round}_b`)).length,
        0,
        `round ${round}: fired twice`,
      );
    }
    // deno-lint-ignore no-console
    console.log(
      `  ${RESET_ROUNDS} reset races (seed ${SEED}): ${outcomes.firedBeforeReset} fired before ` +
        `the reset, ${outcomes.silent} silent; the new context got exactly one restatement ` +
        `every time; ${seconds(started)} s`,
    );
  },
);
