/**
 * What a release is made of: the five compile targets, the asset name of each, the permission
 * list the binaries get, and the SHA256SUMS file. Shared by compile.ts, install.ts and smoke.ts
 * so the build, the installer and the checks can never disagree on a name.
 */
import { createHash } from "node:crypto";
import denoJson from "../deno.json" with { type: "json" };
import marketplace from "../.claude-plugin/marketplace.json" with { type: "json" };

/** The permissions of the compiled binary; `hook` task, hooks/run and tests/_helpers.ts match. */
export const BINARY_PERMISSIONS = ["--allow-read", "--allow-write", "--allow-env"] as const;

/** Every target a release ships, in the order the release lists them. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

export type Target = typeof TARGETS[number];

/** The name `deno.json` gives the version; the release tag is `v<version>`. */
export const VERSION: string = denoJson.version;

/** Prefix of every binary: `dist/lessons-reinject-<target>[.exe]`. */
export const BINARY_PREFIX = "lessons-reinject-";

/** The checksum file published beside the binaries. */
export const SUMS_FILE = "SHA256SUMS";

/** Environment variable that replaces the release download URL (tests, mirrors). */
export const RELEASE_URL_ENV = "LESSONS_REINJECT_RELEASE_URL";

/** True when `name` is one of the five targets. */
export function isTarget(name: string): name is Target {
  return (TARGETS as readonly string[]).includes(name);
}

/**
 * The file name of a target's binary.
 *
 * @example
 * ```ts
 * assetName("x86_64-pc-windows-msvc"); // "lessons-reinject-x86_64-pc-windows-msvc.exe"
 * ```
 */
export function assetName(target: Target): string {
  return `${BINARY_PREFIX}${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * The target for an operating system and CPU as Deno names them (`Deno.build.os`,
 * `Deno.build.arch`), or undefined when no binary is built for it.
 */
export function targetFor(os: string, arch: string): Target | undefined {
  const cpu = arch === "x86_64" ? "x86_64" : arch === "aarch64" ? "aarch64" : undefined;
  if (!cpu) return undefined;
  if (os === "linux") return `${cpu}-unknown-linux-gnu`;
  if (os === "darwin") return `${cpu}-apple-darwin`;
  if (os === "windows" && cpu === "x86_64") return "x86_64-pc-windows-msvc";
  return undefined;
}

/** The GitHub repository URL the marketplace entry names (one place: marketplace.json). */
export function repositoryUrl(): string {
  const entry = marketplace.plugins.find((p) => p.name === "lessons-reinject");
  if (!entry) throw new Error("marketplace.json has no lessons-reinject entry");
  return entry.repository.replace(/\/+$/, "");
}

/**
 * Where the release assets of this version live: `$LESSONS_REINJECT_RELEASE_URL` when set, else
 * the GitHub release `v<version>` of the repository in marketplace.json.
 */
export function releaseBaseUrl(env: (name: string) => string | undefined): string {
  const override = env(RELEASE_URL_ENV);
  if (override) return override.replace(/\/+$/, "");
  return `${repositoryUrl()}/releases/download/v${VERSION}`;
}

/** Lowercase hex SHA-256 of a file, streamed (binaries are ~100 MB). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path, { read: true });
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * A SHA256SUMS text in `sha256sum`'s format (`<hex>  <name>`), sorted by name.
 *
 * @example
 * ```ts
 * formatSums(new Map([["a", "00ff"]])); // "00ff  a\n"
 * ```
 */
export function formatSums(sums: ReadonlyMap<string, string>): string {
  return [...sums.keys()].sort().map((name) => `${sums.get(name)}  ${name}\n`).join("");
}

/**
 * Parses a SHA256SUMS text (`<hex>  <name>` or `<hex> *<name>` lines). Throws `SyntaxError` on
 * a line that is neither blank nor a checksum line.
 */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const match = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (!match || !match[1] || !match[2]) {
      throw new SyntaxError(`Cannot parse ${SUMS_FILE} line ${index + 1}: ${line.slice(0, 80)}`);
    }
    sums.set(match[2], match[1].toLowerCase());
  }
  return sums;
}

/**
 * Writes `<dir>/SHA256SUMS` for every release binary present in `dir` and returns the sums.
 * Throws when there is none: an empty checksum file would only hide a failed build.
 */
export async function writeSums(dir: string): Promise<Map<string, string>> {
  const names = new Set<string>(TARGETS.map(assetName));
  const sums = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && names.has(entry.name)) {
      sums.set(entry.name, await sha256File(`${dir}/${entry.name}`));
    }
  }
  if (sums.size === 0) throw new Error(`no lessons-reinject binaries in ${dir}`);
  await Deno.writeTextFile(`${dir}/${SUMS_FILE}`, formatSums(sums));
  return sums;
}

/**
 * Why a release tag may not be published: the tag must be `v<version of deno.json>` (the
 * installers download that tag) and the repository must be the one marketplace.json names.
 */
export function releaseProblems(tag: string, repository: string): string[] {
  const problems: string[] = [];
  if (tag !== `v${VERSION}`) {
    problems.push(`tag ${tag} is not v${VERSION}, the version in deno.json`);
  }
  const named = repositoryUrl().replace(/^https:\/\/github\.com\//, "");
  if (named !== repository) {
    problems.push(
      `.claude-plugin/marketplace.json names the repository ${named}, but this is ${repository}: ` +
        `the installers would download from the wrong place`,
    );
  }
  return problems;
}
