/**
 * The commands on a Codex session, found from the project folder as a Claude Code session is;
 * with both agents' sessions for one project, the one written last, and either by its id.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { StatusJsonSchema, WhyJsonSchema } from "../../src/cli/schemas.ts";
import { entries, writeTranscript } from "../_helpers.ts";
import { codexProject } from "../integration/_codex.ts";
import { assertIncludes, cli, cliJson, cliOk, home, sessionsFolder } from "./_cli.ts";

/** A project whose AGENTS.md marks a rule, and a Codex session of it three calls long. */
async function codexSession() {
  const { box, project, env, session } = codexProject("Keep commits small (AGENTS-RULE).", home());
  for (const tokens of [40_000, 61_000, 70_000]) await session.call(tokens, env);
  return { box, project, env, session };
}

/** A Claude Code session for the same project, under `~/.claude/projects/`. */
function claudeSession(home: string, project: string, percent: number): string {
  const dir = sessionsFolder(home, project);
  const path = join(dir, "6c1e2f3a-0000-4000-8000-000000000001.jsonl");
  writeTranscript(path, [entries.assistant(percent * 2_000, ["toolu_1"])]);
  return path;
}

const status = (env: Record<string, string>, project: string, extra: string[] = []) =>
  cliJson(StatusJsonSchema, ["status", "--project", project, ...extra], env);

Deno.test("status finds a project's Codex session and reads it against the rollout's window; preview and doctor run on it; Claude Code's compaction settings do not move its span", async () => {
  const { box, env, project, session } = await codexSession();
  const report = await status(env, project);
  const { transcript, tokens, window, fired } = report;
  assertEquals([transcript, tokens, window, fired], [session.path, 70_000, 190_000, [30]]);
  // The rules of the session's agent: AGENTS.md, not CLAUDE.md.
  ok(report.sources.some((line) => line.startsWith("AGENTS.md")), report.sources.join("\n"));
  ok(!report.sources.some((line) => line.includes("CLAUDE.md")), report.sources.join("\n"));
  // preview renders AGENTS.md's marked rules; doctor runs on the session.
  const preview = await cliOk(["preview", "--project", project], env);
  assertIncludes(preview.stdout, "Keep commits small (AGENTS-RULE).");
  const doctor = await cli(["doctor", "--project", project], env);
  ok(doctor.code === 0 || doctor.code === 1, doctor.stderr);
  assertIncludes(doctor.stdout, "AGENTS.md");
  // `why` reads the rules the session's agent has, as its own next call does (issue 39).
  const due = { ...env, LESSONS_REINJECT_THRESHOLDS: "20" };
  const why = await cliJson(WhyJsonSchema, ["why", "--project", project], due);
  assertIncludes(why.answer, "a refresh is due: the next tool call gives it");
  assertIncludes(why.nextCall, "AGENTS.md: 1 marked section");
  // Without AGENTS.md, status says where it looked, by the agent's name.
  Deno.removeSync(join(project, "AGENTS.md"));
  const without = await status(env, project);
  ok(
    without.sources.some((line) => line.startsWith("AGENTS.md: none found")),
    without.sources.join("\n"),
  );
  // Where Codex compacts by default: 90 % of the configured 200,000 (codex-facts.md).
  const point = [report.compaction?.tokens, report.compaction?.source];
  assertEquals(point, [180_000, "Codex's default"]);
  const text = await cliOk(["status", "--project", project], env);
  assertIncludes(text.stdout, "190,000");
  // Claude Code's auto-compaction settings (an early one) do not move a Codex session's span.
  Deno.mkdirSync(join(box.dir, ".claude"), { recursive: true });
  Deno.writeTextFileSync(
    join(box.dir, ".claude", "settings.json"),
    JSON.stringify({ autoCompactWindow: 100_000 }),
  );
  const withClaude = { ...env, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };
  assertEquals((await status(withClaude, project)).span, 190_000);
  const run = await cliOk(["status", "--timeline", "--json", "--project", project], withClaude);
  const spans = JSON.parse(run.stdout).calls.map((c: { span: number }) => c.span);
  assertEquals(spans, [190_000, 190_000, 190_000]);
});

Deno.test("with both agents, the session written last is shown, and either by its id", async () => {
  const { box, env, project, session } = await codexSession();
  const claude = claudeSession(box.dir, project, 20);
  // The Claude Code session was written after the Codex one.
  const later = new Date(Date.now() + 60_000);
  Deno.utimeSync(claude, later, later);
  assertEquals((await status(env, project)).transcript, claude);
  const id = session.path.match(/([0-9a-f-]{36})\.jsonl$/)![1]!;
  assertEquals((await status(env, project, ["--session", id])).transcript, session.path);
  assertEquals((await status(env, project, ["--session", "6c1e2f3a"])).transcript, claude);
  // Now Codex writes again: its session is the newer.
  const newer = new Date(Date.now() + 120_000);
  Deno.utimeSync(session.path, newer, newer);
  assertEquals((await status(env, project)).transcript, session.path);
});
