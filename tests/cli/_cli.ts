/**
 * Helpers for the command tests: the executable as a subprocess (exactly the binary's
 * permissions, via tests/_helpers.ts), and its `--json` output checked against its schema.
 */
import { join } from "node:path";
import type * as z from "zod/mini";
import { baseEnv, HOOK_PERMISSIONS, MAIN, ROOT, sandbox } from "../_helpers.ts";

export { ROOT, sandbox };

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `lessons-reinject <args>` as the binary would run: `src/main.ts` with exactly its
 * permissions, `env` only (plus Deno's essentials), `stdin` piped in.
 */
export async function cli(
  args: string[],
  env: Record<string, string> = {},
  stdin: unknown = "",
  cwd = ROOT,
): Promise<CliRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...HOOK_PERMISSIONS, MAIN, ...args],
    env: baseEnv({ DENO_DIR: denoDir(), ...env }),
    clearEnv: true,
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const bytes = stdin instanceof Uint8Array
    ? stdin
    : new TextEncoder().encode(typeof stdin === "string" ? stdin : JSON.stringify(stdin));
  await writer.write(bytes).catch(() => {});
  await writer.close().catch(() => {});
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/**
 * Deno's cache folder, so that a test giving the subprocess its own HOME does not make Deno look
 * for its npm packages (and the network) elsewhere.
 */
export function denoDir(): string {
  const set = Deno.env.get("DENO_DIR");
  if (set) return set;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "";
  if (Deno.build.os === "darwin") return join(home, "Library", "Caches", "deno");
  if (Deno.build.os === "windows") return join(Deno.env.get("LOCALAPPDATA") ?? home, "deno");
  return join(Deno.env.get("XDG_CACHE_HOME") ?? join(home, ".cache"), "deno");
}

/** Parses stdout as JSON and validates it; throws naming the first mismatch. */
export function parsedAs<T>(schema: z.ZodMiniType<T>, stdout: string): T {
  const result = schema.safeParse(JSON.parse(stdout));
  if (!result.success) {
    throw new Error(`output does not match its schema: ${JSON.stringify(result.error.issues)}`);
  }
  return result.data;
}

/** The documented statusLine stdin (see tests/cli/fixtures/README.md), with overrides. */
export function statuslineInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const text = Deno.readTextFileSync(
    join(ROOT, "tests", "cli", "fixtures", "statusline.documented-2.1.328.json"),
  );
  return { ...JSON.parse(text), ...overrides };
}

/** Fails unless `text` contains `part`, showing the text. */
export function assertIncludes(text: string, part: string): void {
  if (!text.includes(part)) {
    throw new Error(`expected to find ${JSON.stringify(part)} in:\n${text}`);
  }
}
