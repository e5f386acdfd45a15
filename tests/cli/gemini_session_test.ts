/**
 * The commands on a Gemini CLI session, found from the project folder through Gemini's
 * projects.json, or by its session id, as a Claude Code session is.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { StatusJsonSchema } from "../../src/cli/schemas.ts";
import { session } from "../integration/_gemini.ts";
import { cli, cliJson, cliOk, home } from "./_cli.ts";

Deno.test("status finds a project's Gemini session and reads it against its model's window; --session finds it; the timeline, preview and doctor run on it", async () => {
  const s = session({}, home());
  for (const tokens of [40_000, 61_000, 70_000]) await s.call(tokens);
  const report = await cliJson(StatusJsonSchema, ["status", "--project", s.project], s.env);
  const { transcript, tokens, window, fired } = report;
  assertEquals([transcript, tokens, window, fired], [s.path, 70_000, 1_048_576, [30]]);
  ok(report.sources.some((line) => line.startsWith("GEMINI.md")), report.sources.join("\n"));
  const byId = await cliJson(StatusJsonSchema, ["status", "--session", "3e961710"], s.env);
  assertEquals(byId.transcript, s.path);
  const preview = await cliOk(["preview", "--project", s.project], s.env);
  ok(preview.stdout.includes("GEMINI-MD-RULE"), preview.stdout);
  // The timeline replays each call at its hook's point; the answer in the call's result, delivered;
  // past a 200k span its reading in tokens only (issue 39: no share of 200k).
  const timeline = await cliOk(["status", "--timeline", "--project", s.project], s.env);
  ok(
    /2 +\S+ +run_shell_comma… +61,000 +refresh 30%: delivered/.test(timeline.stdout),
    timeline.stdout,
  );
  const doctor = await cli(["doctor", "--project", s.project], s.env);
  ok(doctor.code === 0 || doctor.code === 1, doctor.stderr);
  ok(doctor.stdout.includes("on this session's 1049k window"), doctor.stdout);
});
