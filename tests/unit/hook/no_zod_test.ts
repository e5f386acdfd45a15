/**
 * The hook's every-call path builds no zod schema: run with `zod/mini` mapped to a stand-in whose
 * every export (each schema constructor and check) throws when called, a non-firing call still
 * ends normally; a firing call (the manifest keeps zod) is the control that the stand-in is used.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  entries,
  HOOK_PERMISSIONS,
  MAIN,
  payload,
  ROOT,
  sandbox,
  spawnWithStdin,
  writeTranscript,
} from "../../_helpers.ts";

const STUB_MESSAGE = "a zod schema was built";

/** A deno.json like the project's, with `zod/mini` pointing at the throwing stand-in. */
async function configWithoutZod(dir: string): Promise<string> {
  const names = Object.keys(await import("zod/mini")).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
  const stub = join(dir, "zod_stub.ts");
  Deno.writeTextFileSync(
    stub,
    names.map((name, i) =>
      // `export { f as catch }`: zod exports names that are reserved words.
      `function f${i}() { throw new Error(${JSON.stringify(`${STUB_MESSAGE}: ${name}`)}); }\n` +
      `export { f${i} as ${name} };\n`
    ).join(""),
  );
  const config = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")));
  config.imports["zod/mini"] = pathToFileURL(stub).href;
  const path = join(dir, "deno.json");
  Deno.writeTextFileSync(path, JSON.stringify(config));
  return path;
}

Deno.test("a call that does not fire builds no zod schema; a firing call does", async () => {
  const box = sandbox();
  const config = await configWithoutZod(box.dir);
  const args = ["run", "--quiet", "--no-prompt", "--no-lock", "--config", config];
  const run = (stdin: unknown, env: Record<string, string> = {}) =>
    spawnWithStdin(Deno.execPath(), [...args, ...HOOK_PERMISSIONS, MAIN], stdin, {
      ...box.env,
      LESSONS_DEBUG: "1",
      LESSONS_CONTEXT_WINDOW: "200000",
      ...env,
    });
  writeTranscript(box.transcript, [entries.assistant(50_000, ["toolu_1"])]);
  const call = payload("PostToolUse.Bash", {
    transcript_path: box.transcript,
    tool_use_id: "toolu_1",
  });

  // First call (no state file yet: written), second call (state file read and validated).
  for (const label of ["first call", "second call"]) {
    const quiet = await run(call);
    assertEquals(quiet.code, 0, `${label}: ${quiet.stderr}`);
    assertEquals(quiet.stdout, "", label);
    assert(quiet.stderr.includes("below the next threshold, 30%"), `${label}: ${quiet.stderr}`);
    assert(!quiet.stderr.includes(STUB_MESSAGE), `${label}: ${quiet.stderr}`);
  }
  // A fresh statusline record is read and validated too (the bridge).
  const record = {
    sessionId: call.session_id,
    recordedAt: Date.now(),
    percent: 26,
    tokens: 52_000,
    window: 200_000,
    transcriptSize: Deno.statSync(box.transcript).size,
  };
  const { saveStatusline } = await import("../../../src/io/statusline_store.ts");
  saveStatusline(box.stateDir, { ...record, sessionId: String(call.session_id) });
  const bridged = await run(call);
  assertEquals(bridged.code, 0, bridged.stderr);
  assert(bridged.stderr.includes("from statusline"), bridged.stderr);
  assert(!bridged.stderr.includes(STUB_MESSAGE), bridged.stderr);

  // Not a payload, and an event needing no action: answered without zod as well.
  for (const stdin of ["{}", payload("SessionStart.startup")]) {
    const other = await run(stdin);
    assertEquals(other.code, 0, other.stderr);
    assert(!other.stderr.includes(STUB_MESSAGE), other.stderr);
  }

  // Control: the same call crossing a threshold loads the manifest code, which is stopped.
  const crossing = await run(call, { LESSONS_REINJECT_THRESHOLDS: "20" });
  assertEquals(crossing.code, 0);
  assertEquals(crossing.stdout, "");
  assert(crossing.stderr.includes(STUB_MESSAGE), crossing.stderr);
});
