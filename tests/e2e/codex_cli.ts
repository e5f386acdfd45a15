/**
 * Which Codex CLI the Codex e2e runs: `CODEX_BIN` when set, else an npm release
 * (`LESSONS_E2E_CODEX_VERSION`, the pinned one by default) installed once into
 * `$HOME/.cache/lessons-reinject/codex/<version>` (`LESSONS_E2E_CACHE` replaces the parent of
 * `codex/`) and reused, as scripts/loopback/claude_cli.ts does for Claude Code.
 */
import { join } from "node:path";

/** The release the e2e suite pins in CI. */
export const CODEX_VERSION = "0.171.0";

export type CodexLookup = { bin: string; version: string } | { problem: string };

function cacheDir(): string {
  const base = Deno.env.get("LESSONS_E2E_CACHE") ??
    join(Deno.env.get("HOME") ?? ".", ".cache", "lessons-reinject");
  return join(base, "codex");
}

async function versionOf(bin: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(bin, { args: ["--version"], stdout: "piped" }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim().split(" ").at(-1) : undefined;
  } catch {
    return undefined;
  }
}

/** The Codex binary to run, installing the release with npm when it is not cached yet. */
export async function findCodex(): Promise<CodexLookup> {
  const explicit = Deno.env.get("CODEX_BIN");
  if (explicit) {
    const version = await versionOf(explicit);
    return version ? { bin: explicit, version } : { problem: `${explicit} --version failed` };
  }
  const version = Deno.env.get("LESSONS_E2E_CODEX_VERSION") ?? CODEX_VERSION;
  const dir = join(cacheDir(), version);
  const bin = join(dir, "node_modules", ".bin", "codex");
  if (await versionOf(bin) === undefined) {
    Deno.mkdirSync(dir, { recursive: true });
    const spec = `@openai/codex@${version}`;
    try {
      const out = await new Deno.Command("npm", {
        args: ["install", "--prefix", dir, "--no-audit", "--no-fund", spec],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!out.success) {
        return { problem: `npm install ${spec} failed: ${new TextDecoder().decode(out.stderr)}` };
      }
    } catch (error) {
      return { problem: `cannot run npm to install ${spec}: ${error}` };
    }
  }
  const found = await versionOf(bin);
  return found ? { bin, version: found } : { problem: `${bin} does not answer --version` };
}

/** The binary, or a thrown reason. */
export async function locateCodex(): Promise<string> {
  const found = await findCodex();
  if ("problem" in found) throw new Error(found.problem);
  return found.bin;
}
