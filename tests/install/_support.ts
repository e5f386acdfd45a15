/**
 * Test support for the launcher and the installers: a throwaway plugin root, a PATH holding only
 * the tools a test allows (plus fakes such as `uname`), and a fake release served on loopback.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  onPath,
  pathOf,
  payload,
  type ProcessRun,
  ROOT,
  SAMPLE_MANIFEST,
  spawnWithStdin,
} from "../_helpers.ts";

/** SessionStart at startup, as Claude Code sends it. */
export const STARTUP = Deno.readFileSync(
  join(ROOT, "tests", "fixtures", "payloads", "SessionStart.startup.json"),
);
/** Release URL of nothing: a download tried here fails at once, without network. */
export const NOWHERE = "http://127.0.0.1:9/rel";

/** A firing call: no transcript, so the every-N-calls fallback fires at call 1. */
export const FIRING = new TextEncoder().encode(
  JSON.stringify(payload("PostToolUse.Bash", { transcript_path: "/nonexistent/transcript.jsonl" })),
);

/**
 * What a firing call ({@link FIRING}) from source needs, for a plugin in `dir`: Deno's cache at
 * `denoDir`, no background download, the sample manifest, state in `dir`, and no wait.
 */
export function firingEnv(dir: string, denoDir: string): Record<string, string> {
  return {
    HOME: dir,
    DENO_DIR: denoDir,
    LESSONS_REINJECT_NO_AUTO_INSTALL: "1",
    LESSONS_REINJECT_TOOL_COUNT: "1",
    LESSONS_STATE_DIR: join(dir, "state"),
    LESSONS_MANIFEST_PATH: SAMPLE_MANIFEST,
    // The payload's transcript does not exist: a context's first call would wait for it.
    LESSONS_REINJECT_WAIT_MS: "1",
  };
}

/** A folder of one test's own, removed when the scope holding it (`using`) ends. */
export function tempDir(prefix: string): { dir: string } & Disposable {
  const dir = Deno.makeTempDirSync({ prefix });
  return { dir, [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }) };
}

/** Tools hooks/run and hooks/install use, besides the downloader and the hasher. */
export const BASE_TOOLS =
  "sh dirname cat sed head mkdir rm rmdir awk cut tr chmod mv find tail mktemp"
    .split(" ");

/** The launcher tests need a POSIX system: symlinked tool folders, fake `uname`, exec bits. */
export const POSIX = Deno.build.os !== "windows";

/**
 * `Deno.test` for tests that need a POSIX system with {@link BASE_TOOLS} and `tools`: ignored
 * elsewhere, and a test naming `more` tools is ignored without them too.
 */
export function posixTest(...tools: string[]) {
  const ignore = !POSIX || !has(...BASE_TOOLS, ...tools);
  return (name: string, fn: (t: Deno.TestContext) => Promise<void>, ...more: string[]) =>
    Deno.test({ name, ignore: ignore || !has(...more) }, fn);
}

/** Every request to the network fails at once: a proxy on a closed port, for every host. */
export const OFFLINE = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  https_proxy: "http://127.0.0.1:9",
  http_proxy: "http://127.0.0.1:9",
  NO_PROXY: "",
  no_proxy: "",
};

/**
 * CI on Linux installs every tool these tests use (.ci/run): there a missing one fails the test
 * that needs it instead of leaving it ignored.
 */
const TOOLS_REQUIRED = Deno.env.get("CI") === "true" && Deno.build.os === "linux";

/**
 * True when every tool is on PATH (macOS runners may lack wget or sha256sum), and always under
 * CI on Linux, where the test then fails naming the missing tool.
 */
export function has(...tools: string[]): boolean {
  return TOOLS_REQUIRED || tools.every(onPath);
}

/** Absolute path of a tool on this machine's PATH. */
export function which(tool: string): string {
  const path = pathOf(tool);
  if (path === undefined) throw new Error(`${tool} is not on PATH`);
  return path;
}

/**
 * A folder to use as the whole PATH: symlinks to the named real tools and executable scripts
 * for the fakes (name → script text).
 */
export function toolbox(dir: string, tools: string[], fakes: Record<string, string> = {}): string {
  const bin = join(dir, "bin");
  Deno.mkdirSync(bin, { recursive: true });
  for (const tool of tools) Deno.symlinkSync(which(tool), join(bin, tool));
  for (const [name, script] of Object.entries(fakes)) {
    Deno.writeTextFileSync(join(bin, name), script, { mode: 0o755 });
    Deno.chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/**
 * A plugin root under {@link tempDir} holding copies of hooks/run (`launcher`), hooks/install and
 * `extra`, dist/ made, on a system whose `uname` says `system` `machine`, whose PATH holds only
 * {@link BASE_TOOLS}, `tools` and the `fakes`; with `source`, the real src/, deno.json and
 * deno.lock (symlinked) beside its hooks/. Also the environment to run it in.
 */
export function plugin(options: {
  uname?: [system: string, machine: string];
  tools?: string[];
  fakes?: Record<string, string>;
  env?: Record<string, string>;
  source?: boolean;
  extra?: string[];
} = {}) {
  const temp = tempDir("lessons-plugin-");
  const root = join(temp.dir, "plugin");
  const dist = join(root, "dist");
  Deno.mkdirSync(join(root, ".claude-plugin"), { recursive: true });
  Deno.mkdirSync(join(root, "hooks"));
  Deno.mkdirSync(dist);
  for (const name of ["hooks/run", "hooks/install", ...options.extra ?? []]) {
    Deno.copyFileSync(join(ROOT, name), join(root, name));
  }
  Deno.chmodSync(join(root, "hooks", "run"), 0o755);
  Deno.chmodSync(join(root, "hooks", "install"), 0o755);
  for (const name of options.source ? ["src", "deno.json", "deno.lock"] : []) {
    Deno.symlinkSync(join(ROOT, name), join(root, name));
  }
  const [system, machine] = options.uname ?? ["Linux", "x86_64"];
  // What `uname -s` and `uname -m` print on that system.
  const uname =
    `#!/bin/sh\ncase "$1" in\n  -m) echo '${machine}' ;;\n  *) echo '${system}' ;;\nesac\n`;
  const bin = toolbox(temp.dir, [...BASE_TOOLS, ...options.tools ?? []], {
    uname,
    ...options.fakes,
  });
  const env: Record<string, string> = { PATH: bin, ...options.env };
  return { ...temp, root, dist, launcher: join(root, "hooks", "run"), env };
}

/** Result of a subprocess. */
export interface Ran extends ProcessRun {
  /** False when the child exited before reading all of stdin. */
  stdinTaken: boolean;
}

/**
 * Runs `args[0]` with `env` over this machine's network variables, DENO_DIR, PATH and HOME
 * ({@link baseEnv}), feeding `stdin`.
 */
export async function run(
  args: string[],
  env: Record<string, string>,
  stdin: Uint8Array = new Uint8Array(),
): Promise<Ran> {
  const [program, ...rest] = args;
  if (!program) throw new TypeError("empty command");
  const ran = await spawnWithStdin(program, rest, stdin, env);
  return { ...ran, stdinTaken: ran.stdinTaken ?? true };
}

/** Lowercase hex SHA-256 of bytes. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** How the fake release answers one asset. */
export type AssetMode = "good" | "missing" | "truncated-stream" | "short-content-length";

/**
 * A fake release on 127.0.0.1 (`base`: `/rel/SHA256SUMS` and `/rel/<asset>`; `requests`: the
 * paths asked for, in order), serving `files` (name → bytes) and a SHA256SUMS listing `sums`
 * (name → hex; defaults to the real digests). `modes` makes an asset misbehave: 404, a chunked
 * body that breaks off mid-way, or a Content-Length longer than the body (both from a raw socket
 * the release redirects to).
 */
export function fakeRelease(
  files: Record<string, Uint8Array>,
  options: { sums?: Record<string, string>; modes?: Record<string, AssetMode> } = {},
) {
  const requests: string[] = [];
  const sums = options.sums ??
    Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, sha256(bytes)]));
  const sumsText = Object.entries(sums).map(([name, hex]) => `${hex}  ${name}\n`).join("");
  const modes = options.modes ?? {};

  // Raw listener for the broken bodies (Deno.serve would fix the framing): a Content-Length
  // longer than what is sent, or a chunked body cut before its last chunk; then it hangs up.
  const raw = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const handlers = new Set<Promise<void>>();
  const rawDone = (async () => {
    for await (const conn of raw) {
      const handler = (async () => {
        try {
          const buf = new Uint8Array(8192);
          await conn.read(buf);
          const request = new TextDecoder().decode(buf);
          const [, style = "", name = ""] = /GET \/(short|chunked)\/(\S+)/.exec(request) ?? [];
          const body = files[name] ?? new Uint8Array();
          const half = body.subarray(0, Math.floor(body.length / 2));
          const framing = style === "short"
            ? `Content-Length: ${body.length}`
            : "Transfer-Encoding: chunked";
          const head = `HTTP/1.1 200 OK\r\n${framing}\r\n` +
            `Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n`;
          await conn.write(new TextEncoder().encode(head));
          if (style === "short") {
            await conn.write(half);
          } else {
            // One chunk, then the connection drops before the terminating zero-size chunk.
            await conn.write(new TextEncoder().encode(`${half.length.toString(16)}\r\n`));
            await conn.write(half);
            await conn.write(new TextEncoder().encode("\r\n"));
          }
        } catch {
          // the client gave up first
        } finally {
          try {
            conn.close();
          } catch {
            // already closed
          }
        }
      })();
      handlers.add(handler);
      handler.finally(() => handlers.delete(handler));
    }
  })();
  const rawPort = (raw.addr as Deno.NetAddr).port;

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    const name = path.replace(/^\/rel\//, "");
    if (name === "SHA256SUMS") return new Response(sumsText);
    const body = files[name];
    const mode = modes[name] ?? "good";
    if (!body || mode === "missing") return new Response("Not Found", { status: 404 });
    if (mode === "short-content-length") {
      return Response.redirect(`http://127.0.0.1:${rawPort}/short/${name}`, 302);
    }
    if (mode === "truncated-stream") {
      return Response.redirect(`http://127.0.0.1:${rawPort}/chunked/${name}`, 302);
    }
    return new Response(new Uint8Array(body), {
      headers: { "content-type": "application/octet-stream" },
    });
  });
  const close = async () => {
    await server.shutdown();
    raw.close();
    await rawDone.catch(() => {});
    await Promise.all([...handlers]);
  };
  return {
    base: `http://127.0.0.1:${server.addr.port}/rel`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * hooks/run --startup-notice at SessionStart startup: exit 0, stdin drained, nothing on stderr;
 * returns its systemMessage (one line of JSON holding only that), or "" when it said nothing.
 */
export async function notice(launcher: string, env: Record<string, string>): Promise<string> {
  const ran = await run(["sh", launcher, "--startup-notice"], env, STARTUP);
  assert.deepEqual([ran.code, ran.stderr, ran.stdinTaken], [0, "", true], "stdin drained");
  if (ran.stdout === "") return "";
  const parsed = JSON.parse(ran.stdout);
  assert.deepEqual(Object.keys(parsed), ["systemMessage"], ran.stdout);
  assert.equal(ran.stdout.trim().split("\n").length, 1, "one line");
  return parsed.systemMessage;
}

/** Files in `dir`, sorted (hidden ones too): what an install left behind. */
export function listing(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** The text of a file, or "" while there is none. */
export function textOf(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** Waits until `check()` is true, polling; throws after `ms`, naming `what` it waited for. */
export async function waitFor(check: () => boolean, what: string, ms = 10_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until dist/install.log says the background download failed. */
export const downloadFailed = (dist: string, what = "the background download to fail") =>
  waitFor(() => /nothing installed/.test(textOf(join(dist, "install.log"))), what);

/**
 * Runs `args` under strace (with `options`, such as `-f`), tracing process creation: the run, and
 * its trace's fork/clone and execve lines.
 */
export async function traceProcesses(
  options: string[],
  args: string[],
  env: Record<string, string>,
  stdin: Uint8Array,
): Promise<{ ran: Ran; forks: string[]; execs: string[] }> {
  using temp = tempDir("lessons-strace-");
  const trace = join(temp.dir, "trace");
  const syscalls = "trace=fork,vfork,clone,clone3,execve";
  const ran = await run(
    [which("strace"), ...options, "-qq", "-o", trace, "-e", syscalls, ...args],
    env,
    stdin,
  );
  const calls = Deno.readTextFileSync(trace).trim().split("\n");
  const forks = calls.filter((l) => /\b(v?fork|clone3?)\(/.test(l));
  return { ran, forks, execs: calls.filter((l) => /\bexecve\(/.test(l)) };
}
