/**
 * `deno task install`: hooks/install for people who have Deno. Downloads this platform's release
 * binary into dist/, checks its SHA-256 against the release's SHA256SUMS and renames it into
 * place; a bad checksum, a missing asset or a broken download leaves nothing behind.
 *
 *   deno task install [--target <target>] [--dist <dir>]
 *   LESSONS_REINJECT_RELEASE_URL=<base URL> deno task install    a mirror (or a test server)
 */
import { ROOT } from "./project.ts";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  assetName,
  isTarget,
  parseSums,
  releaseBaseUrl,
  SUMS_FILE,
  type Target,
  targetFor,
  TARGETS,
} from "./release_files.ts";

/** Why an install failed, in one line for the user. */
export class InstallError extends Error {
  override name = "InstallError";
}

export interface InstallOptions {
  target: Target;
  /** Base URL of the release: `<base>/SHA256SUMS`, `<base>/<asset>`. */
  base: string;
  /** Folder the binary lands in. */
  dist: string;
}

async function get(url: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new InstallError(`cannot download ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new InstallError(`cannot download ${url}: HTTP ${response.status}`);
  }
  return response;
}

/** Streams `response` into `path` (created new), returning its SHA-256; checks the length. */
async function saveHashed(response: Response, path: string, url: string): Promise<string> {
  const hash = createHash("sha256");
  let received = 0;
  const file = await Deno.open(path, { write: true, createNew: true, mode: 0o755 });
  try {
    if (!response.body) throw new InstallError(`cannot download ${url}: empty response`);
    for await (const chunk of response.body) {
      hash.update(chunk);
      received += chunk.byteLength;
      let written = 0;
      while (written < chunk.byteLength) written += await file.write(chunk.subarray(written));
    }
  } catch (error) {
    if (error instanceof InstallError) throw error;
    throw new InstallError(
      `download of ${url} broke off after ${received} bytes: ${(error as Error).message}`,
    );
  } finally {
    file.close();
  }
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) !== received) {
    throw new InstallError(
      `download of ${url} broke off: ${received} of ${declared} bytes received`,
    );
  }
  return hash.digest("hex");
}

/**
 * Installs the release binary for `target` into `dist`, verified; returns its path. Throws
 * `InstallError` after removing every partial file.
 */
export async function install(options: InstallOptions): Promise<string> {
  const asset = assetName(options.target);
  const sumsUrl = `${options.base}/${SUMS_FILE}`;
  const sumsResponse = await get(sumsUrl);
  let sums: Map<string, string>;
  try {
    sums = parseSums(await sumsResponse.text());
  } catch (error) {
    throw new InstallError(`${sumsUrl}: ${(error as Error).message}`);
  }
  const expected = sums.get(asset);
  if (!expected) throw new InstallError(`${sumsUrl} lists no ${asset}`);

  await Deno.mkdir(options.dist, { recursive: true });
  const dest = join(options.dist, asset);
  const temp = join(options.dist, `.${asset}.download.${Deno.pid}.${crypto.randomUUID()}`);
  const url = `${options.base}/${asset}`;
  try {
    const actual = await saveHashed(await get(url), temp, url);
    if (actual !== expected) {
      throw new InstallError(
        `checksum mismatch for ${asset}: expected ${expected}, got ${actual}; ` +
          `deleted the download`,
      );
    }
    if (Deno.build.os !== "windows") await Deno.chmod(temp, 0o755);
    await Deno.rename(temp, dest);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  return dest;
}

function write(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  stream.writeSync(new TextEncoder().encode(text));
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { target: { type: "string" }, dist: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    write(Deno.stderr, `lessons-reinject install: ${(error as Error).message}\n`);
    return 2;
  }
  const target = values.target ?? targetFor(Deno.build.os, Deno.build.arch);
  if (!target || !isTarget(target)) {
    write(
      Deno.stderr,
      `lessons-reinject install: no release binary for ${
        values.target ?? `${Deno.build.os}/${Deno.build.arch}`
      } (targets: ${TARGETS.join(", ")}); build from source with deno task compile\n`,
    );
    return 1;
  }
  const base = releaseBaseUrl((name) => Deno.env.get(name));
  try {
    const dest = await install({ target, base, dist: values.dist ?? join(ROOT, "dist") });
    write(Deno.stdout, `lessons-reinject install: installed ${dest} (${base})\n`);
    return 0;
  } catch (error) {
    const message = error instanceof InstallError ? error.message : String(error);
    write(Deno.stderr, `lessons-reinject install: ${message}; nothing installed\n`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
