/**
 * Finds the real Claude Code CLI for the end-to-end suite and the in-session benchmark:
 * `CLAUDE_BIN` when set, else an npm release (`LESSONS_E2E_CLAUDE_VERSION`, the pinned one by
 * default) installed once into a cache folder of its own, outside the repository, and reused.
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
 * the package's postinstall has copied it there), the platform package's own binary, and, for
 * releases before the native binary (2.1.112 and older), `cli.js`, which runs on Node through its
 * shebang (npm makes it executable).
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
    join(scope, "claude-code", "cli.js"),
  ];
}

async function findInstalled(dir: string, version: string): Promise<CliLookup | undefined> {
  for (const bin of candidates(dir)) {
    if (await versionOf(bin) === version) return { bin, version };
  }
  return undefined;
}

/**
 * Release `version` of Claude Code from `<cache>/<version>` (`cache`: `LESSONS_E2E_CACHE`, else
 * {@link defaultCacheDir}), installed there with npm when it is not there yet. The pinned release
 * is also found where earlier copies of this script installed it, in the cache folder itself.
 */
export async function installedClaude(version: string): Promise<CliLookup> {
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    return { problem: `"${version}" is not a Claude Code release number (like ${CLAUDE_VERSION})` };
  }
  const cache = Deno.env.get("LESSONS_E2E_CACHE") ?? defaultCacheDir();
  const dir = join(cache, version);
  const found = await findInstalled(dir, version) ??
    (version === CLAUDE_VERSION ? await findInstalled(cache, version) : undefined);
  if (found) return found;

  await Deno.mkdir(dir, { recursive: true });
  const spec = `${PACKAGE}@${version}`;
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("npm", {
      args: ["install", "--no-audit", "--no-fund", "--prefix", dir, spec],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
  } catch (error) {
    return { problem: `cannot run npm to install ${spec}: ${error}` };
  }
  if (!out.success) {
    const tail = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join(" | ");
    return { problem: `npm install ${spec} into ${dir} failed: ${tail}` };
  }
  return await findInstalled(dir, version) ?? {
    problem: `npm installed ${spec} into ${dir}, but nothing there answers --version with ` +
      `${version} (tried ${candidates(dir).join(", ")})`,
  };
}

/**
 * The CLI to drive: `CLAUDE_BIN` if set (any version, reported), else the release that
 * `LESSONS_E2E_CLAUDE_VERSION` names, else the pinned {@link CLAUDE_VERSION}
 * ({@link installedClaude}).
 */
export async function locateClaude(): Promise<CliLookup> {
  const override = Deno.env.get("CLAUDE_BIN");
  if (override) {
    const version = await versionOf(override);
    return version
      ? { bin: override, version }
      : { problem: `CLAUDE_BIN=${override} does not answer --version` };
  }
  return await installedClaude(Deno.env.get("LESSONS_E2E_CLAUDE_VERSION") || CLAUDE_VERSION);
}
