/**
 * Finds the real Claude Code CLI for the end-to-end suite and the in-session benchmark:
 * `CLAUDE_BIN` when set, else the pinned npm release installed once into a cache folder outside
 * the repository and reused afterwards.
 */
import { join } from "node:path";

/** The Claude Code release every measured fact in this repository was taken from. */
export const CLAUDE_VERSION = "2.1.328";
const PACKAGE = "@anthropic-ai/claude-code";

/** The CLI to drive, or why there is none. */
export type CliLookup = { bin: string; version: string } | { problem: string };

/** The default cache folder: `$HOME/.cache/lessons-reinject/claude-code`. */
export function defaultCacheDir(): string {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? ".";
  return join(home, ".cache", "lessons-reinject", "claude-code");
}

async function versionOf(bin: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(bin, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).output();
    if (!out.success) return undefined;
    return /^(\d+\.\d+\.\d+)/.exec(new TextDecoder().decode(out.stdout).trim())?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The binaries an npm install may leave: the wrapper's `bin/claude.exe` (the native binary once
 * the package's postinstall has copied it there) and the platform package's own binary.
 */
function candidates(dir: string): string[] {
  const scope = join(dir, "node_modules", "@anthropic-ai");
  const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
  const exe = Deno.build.os === "windows" ? "claude.exe" : "claude";
  return [
    join(scope, "claude-code", "bin", "claude.exe"),
    join(scope, `claude-code-${os}-${arch}`, exe),
    join(scope, `claude-code-${os}-${arch}-musl`, exe),
  ];
}

async function findInstalled(dir: string): Promise<CliLookup | undefined> {
  for (const bin of candidates(dir)) {
    const version = await versionOf(bin);
    if (version === CLAUDE_VERSION) return { bin, version };
  }
  return undefined;
}

/**
 * The CLI to drive: `CLAUDE_BIN` if set (any version, reported), else the pinned release in the
 * cache folder (`LESSONS_E2E_CACHE` overrides it), installed with npm when it is not there yet.
 */
export async function locateClaude(): Promise<CliLookup> {
  const override = Deno.env.get("CLAUDE_BIN");
  if (override) {
    const version = await versionOf(override);
    return version
      ? { bin: override, version }
      : { problem: `CLAUDE_BIN=${override} does not answer --version` };
  }
  const dir = Deno.env.get("LESSONS_E2E_CACHE") ?? defaultCacheDir();
  const found = await findInstalled(dir);
  if (found) return found;

  await Deno.mkdir(dir, { recursive: true });
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("npm", {
      args: [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefix",
        dir,
        `${PACKAGE}@${CLAUDE_VERSION}`,
      ],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
  } catch (error) {
    return { problem: `cannot run npm to install ${PACKAGE}@${CLAUDE_VERSION}: ${error}` };
  }
  if (!out.success) {
    const tail = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join(" | ");
    return { problem: `npm install ${PACKAGE}@${CLAUDE_VERSION} into ${dir} failed: ${tail}` };
  }
  return await findInstalled(dir) ?? {
    problem: `npm installed ${PACKAGE}@${CLAUDE_VERSION} into ${dir}, but no binary there ` +
      `answers --version with ${CLAUDE_VERSION} (tried ${candidates(dir).join(", ")})`,
  };
}
