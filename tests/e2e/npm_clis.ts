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

/** An npm-installed CLI: its package, its binary's name, the variables naming a binary or release. */
export interface NpmCli {
  spec: string;
  bin: string;
  folder: string;
  version: string;
  binEnv: string;
  versionEnv: string;
}

async function versionOf(bin: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(bin, { args: ["--version"], stdout: "piped" }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim().split(" ").at(-1) : undefined;
  } catch {
    return undefined;
  }
}

/** The CLI to run (`binEnv`, else the release installed once into the cache with npm). */
export async function findNpmCli(cli: NpmCli): Promise<CliLookup> {
  const explicit = Deno.env.get(cli.binEnv);
  if (explicit) {
    const version = await versionOf(explicit);
    return version ? { bin: explicit, version } : { problem: `${explicit} --version failed` };
  }
  const version = Deno.env.get(cli.versionEnv) ?? cli.version;
  const base = Deno.env.get("LESSONS_E2E_CACHE") ??
    join(Deno.env.get("HOME") ?? ".", ".cache", "lessons-reinject");
  const dir = join(base, cli.folder, version);
  const bin = join(dir, "node_modules", ".bin", cli.bin);
  if (await versionOf(bin) === undefined) {
    Deno.mkdirSync(dir, { recursive: true });
    const spec = `${cli.spec}@${version}`;
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

/** The Codex binary to run, installing the release with npm when it is not cached yet. */
export function findCodex(): Promise<CliLookup> {
  return findNpmCli({
    spec: "@openai/codex",
    bin: "codex",
    folder: "codex",
    version: CODEX_VERSION,
    binEnv: "CODEX_BIN",
    versionEnv: "LESSONS_E2E_CODEX_VERSION",
  });
}

/** The Gemini CLI to run, installing the release with npm when it is not cached yet. */
export function findGemini(): Promise<CliLookup> {
  return findNpmCli({
    spec: "@google/gemini-cli",
    bin: "gemini",
    folder: "gemini",
    version: GEMINI_VERSION,
    binEnv: "GEMINI_BIN",
    versionEnv: "LESSONS_E2E_GEMINI_VERSION",
  });
}

/** The Codex binary, or a thrown reason. */
export async function locateCodex(): Promise<string> {
  const found = await findCodex();
  if ("problem" in found) throw new Error(found.problem);
  return found.bin;
}
