/**
 * A checkout with a cold Deno cache and no npm registry: `hooks/run <command>` runs the source,
 * whose first npm import Deno cannot fetch. The command says so in one line naming what to do,
 * never with Deno's `Failed caching npm package` trace.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT, sandbox, spawnWithStdin } from "../_helpers.ts";

/** A loopback port nothing listens on: one the system gave out, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

Deno.test({
  name: "hooks/run in a checkout, cold Deno cache, no registry: one line naming what to do",
  ignore: Deno.build.os === "windows",
}, async () => {
  assert.ok(Deno.statSync(join(ROOT, ".git")), "runs in a checkout");
  const box = sandbox();
  const registry = `http://127.0.0.1:${await closedPort()}/`;
  const env = {
    ...box.env,
    HOME: box.dir,
    DENO_DIR: join(box.dir, "deno-dir"),
    NPM_CONFIG_REGISTRY: registry,
    // A config file: its parser is the package every command then needs (zod loads only later).
    LESSONS_CONFIG: join(box.dir, "config.jsonc"),
  };
  Deno.writeTextFileSync(env.LESSONS_CONFIG, "{}\n");
  for (const args of [["status", "--project", box.dir], ["doctor"]]) {
    const run = await spawnWithStdin("sh", [join(ROOT, "hooks", "run"), ...args], "", env, box.dir);
    const what = `hooks/run ${args.join(" ")}`;
    assert.equal(run.code, 1, `${what}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /Uncaught|\n {4}at |file:\/\/|backtrace/i, what);
    const lines = run.stderr.split("\n").filter((line) => line !== "");
    assert.equal(lines.length, 1, `${what}: ${run.stderr}`);
    assert.match(
      lines[0]!,
      new RegExp(
        `^lessons-reinject: ${args[0]}: its package \\S+@\\S+ is not in Deno's cache and could ` +
          "not be fetched from the npm registry \\(connection refused\\): reach the npm registry " +
          "\\(or a mirror named by NPM_CONFIG_REGISTRY\\) and run it again",
      ),
    );
  }
});
