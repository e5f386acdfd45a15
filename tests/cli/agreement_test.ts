/**
 * `status` and `preview` are dry runs of the hook's own steps: on every real transcript
 * they must name exactly what the hook then does on its next call at that reading, with no state
 * file (the hook recovers its earlier refreshes from the transcript) and with one.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync } from "node:fs";
import { PreviewJsonSchema, StatusJsonSchema } from "../../src/cli/schemas.ts";
import { payload, RECORDED, runHook, SKELETONS } from "../_helpers.ts";
import { cli, parsedAs, ROOT, sandbox } from "./_cli.ts";

function transcripts(): string[] {
  const skeletons = readdirSync(SKELETONS).filter((f) => f.endsWith(".jsonl")).sort()
    .map((f) => `${SKELETONS}/${f}`);
  if (skeletons.length !== 9) throw new Error(`${skeletons.length} skeletons in ${SKELETONS}`);
  return [RECORDED, ...skeletons];
}

/** The thresholds a refresh's header names, or [] for a periodic one. */
function namedIn(context: string): number[] {
  const match = /^\[lessons-reinject refresh ([0-9,]+) /.exec(context);
  return match?.[1] ? match[1].split(",").map(Number) : [];
}

Deno.test("status and preview agree with the hook's next call on every real transcript", async (t) => {
  for (const path of transcripts()) {
    await t.step(path.split("/").pop()!, async () => {
      const box = sandbox();
      const env = { ...box.env, HOME: box.dir, LESSONS_DEBUG: "1" };
      for (const round of ["without a state file", "with the state file the hook wrote"]) {
        const status = parsedAs(
          StatusJsonSchema,
          (await cli(["status", "--json", "--transcript", path], env)).stdout,
        );
        const preview = parsedAs(
          PreviewJsonSchema,
          (await cli(["preview", "--json", "--transcript", path], env)).stdout,
        );
        const call = payload("PostToolUse.Bash", {
          session_id: status.sessionId,
          transcript_path: path,
          cwd: ROOT, // the commands run here: the same project, so the same lessons
          tool_use_id: undefined,
          ...(status.agentId ? { agent_id: status.agentId, agent_transcript_path: path } : {}),
        });
        const hook = await runHook(call, env);
        const where = `${round}: status ${JSON.stringify(status.decision)}, hook ${hook.stderr}`;
        assertEquals(status.action, hook.context === undefined ? "nothing" : "refresh", where);
        assertEquals(preview.due, hook.context !== undefined, where);
        assert(hook.stderr.includes(status.decision), where);
        if (hook.context !== undefined) {
          assertEquals(status.pending, namedIn(hook.context), where);
          assertEquals(preview.text, hook.context, where);
        } else {
          assertEquals(preview.text, null, where);
        }
      }
      await Deno.remove(box.dir, { recursive: true });
    });
  }
});
