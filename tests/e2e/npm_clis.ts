/**
 * Which Codex CLI and Gemini CLI the e2e runs: `CODEX_BIN` (`GEMINI_BIN`) when set, else an npm
 * release (`LESSONS_E2E_CODEX_VERSION`, `LESSONS_E2E_GEMINI_VERSION`, the pinned one by default)
 * installed once into `$HOME/.cache/lessons-reinject/codex/<version>` (`gemini/<version>`;
 * `LESSONS_E2E_CACHE` replaces their parent) and reused, as scripts/loopback/claude_cli.ts does
 * for Claude Code.
 */
import { join } from "node:path";
import type { CliLookup } from "../../scripts/loopback/claude_cli.ts";

/** The releases the e2e suite pins in CI. */
export const CODEX_VERSION = "0.171.0";
export const GEMINI_VERSION = "0.61.0";

async function versionOf(bin: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(bin, { args: ["--version"], stdout: "piped" }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim().split(" ").at(-1) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The CLI `bin` of npm package `spec` to run: `<BIN>_BIN` when set, else release
 * `LESSONS_E2E_<BIN>_VERSION` (`version` by default) installed once into the cache with npm.
 */
export async function findNpmCli(spec: string, bin: string, version: string): Promise<CliLookup> {
  const name = bin.toUpperCase();
  const explicit = Deno.env.get(`${name}_BIN`);
  if (explicit) {
    const found = await versionOf(explicit);
    return found ? { bin: explicit, version: found } : { problem: `${explicit} --version failed` };
  }
  const release = Deno.env.get(`LESSONS_E2E_${name}_VERSION`) ?? version;
  const base = Deno.env.get("LESSONS_E2E_CACHE") ??
    join(Deno.env.get("HOME") ?? ".", ".cache", "lessons-reinject");
  const dir = join(base, bin, release);
  const path = join(dir, "node_modules", ".bin", bin);
  if (await versionOf(path) === undefined) {
    Deno.mkdirSync(dir, { recursive: true });
    const at = `${spec}@${release}`;
    try {
      const out = await new Deno.Command("npm", {
        args: ["install", "--prefix", dir, "--no-audit", "--no-fund", at],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!out.success) {
        return { problem: `npm install ${at} failed: ${new TextDecoder().decode(out.stderr)}` };
      }
    } catch (error) {
      return { problem: `cannot run npm to install ${at}: ${error}` };
    }
  }
  const found = await versionOf(path);
  return found ? { bin: path, version: found } : { problem: `${path} does not answer --version` };
}

/** The Codex binary to run, installing the release with npm when it is not cached yet. */
export const findCodex = () => findNpmCli("@openai/codex", "codex", CODEX_VERSION);

/** The Gemini CLI to run, installing the release with npm when it is not cached yet. */
export const findGemini = () => findNpmCli("@google/gemini-cli", "gemini", GEMINI_VERSION);

/** The Codex binary, or a thrown reason. */
export async function locateCodex(): Promise<string> {
  const found = await findCodex();
  if ("problem" in found) throw new Error(found.problem);
  return found.bin;
}
