/**
 * `deno task skeleton make|check <originals folder>`: makes the committed skeletons of public
 * transcripts from their originals, or checks that each skeleton is exactly what its original
 * gives and that the hook decides identically on both, call by call.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { SKELETONS } from "./project.ts";
import { skeletonOf } from "./skeleton/fill.ts";
import { scriptArgs } from "./script_args.ts";

/** Where a skeleton's original comes from (tests/fixtures/transcripts/skeletons/sources.json). */
export interface Source {
  /** The name of the original and of its skeleton. */
  file: string;
  repo: string;
  path: string;
  commit: string;
  bytes: number;
  lines: number;
  version: string;
  /** `git hash-object` of the original: the blob at `commit:path` in `repo`. */
  gitHashObject: string;
}

/** The list of skeletons and their originals. */
export const SOURCES_FILE = join(SKELETONS, "sources.json");

export function readSources(): Source[] {
  return JSON.parse(Deno.readTextFileSync(SOURCES_FILE));
}

/** `git hash-object` of `bytes`: the SHA-1 of a blob header and the bytes. */
export function gitHashObject(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

const USAGE = `usage: deno task skeleton make <originals folder>
       deno task skeleton check <originals folder>

make   writes tests/fixtures/transcripts/skeletons/<file> from <originals folder>/<file> for each
       file listed in sources.json, after checking the original's git hash-object.
check  regenerates each skeleton from its original, compares it byte for byte with the committed
       one, then replays both through the hook (with and without compaction events) and reports
       whether every call was decided the same way.`;

/** Reads an original and checks it is the blob sources.json names. */
function original(folder: string, source: Source): Uint8Array {
  const bytes = Deno.readFileSync(join(folder, source.file));
  const hash = gitHashObject(bytes);
  if (hash !== source.gitHashObject) {
    throw new Error(
      `${source.file}: git hash-object ${hash}, expected ${source.gitHashObject} ` +
        `(${source.repo} ${source.commit}:${source.path})`,
    );
  }
  return bytes;
}

const encoder = new TextEncoder();
const say = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));

function make(folder: string): number {
  for (const source of readSources()) {
    const skeleton = skeletonOf(original(folder, source));
    Deno.writeFileSync(join(SKELETONS, source.file), skeleton);
    say(`wrote ${source.file} (${skeleton.length} bytes)`);
  }
  return 0;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

async function check(folder: string): Promise<number> {
  // Imported here: only `check` runs the hook.
  const { compareReplays } = await import("../tests/replay/_equivalence.ts");
  const sources = readSources();
  let rebuilt = 0;
  let calls = 0;
  let differing = 0;
  let refreshes = 0;
  for (const source of sources) {
    const same = sameBytes(
      skeletonOf(original(folder, source)),
      Deno.readFileSync(join(SKELETONS, source.file)),
    );
    if (same) rebuilt++;
    const result = await compareReplays(source.file, folder, SKELETONS);
    calls += result.calls;
    differing += result.differences.length;
    refreshes += result.refreshes;
    say(
      `${source.file}: ${
        same ? "rebuilt byte for byte" : "DIFFERS from what its original gives"
      }; ` +
        `${result.calls - result.differences.length}/${result.calls} calls decided the same ` +
        `(${result.refreshes} refreshes)`,
    );
    for (const difference of result.differences) say(difference);
  }
  say(
    `${rebuilt}/${sources.length} skeletons rebuilt byte for byte; ` +
      `${calls - differing}/${calls} calls decided the same on original and skeleton ` +
      `(${refreshes} refreshes, with and without compaction events)`,
  );
  return rebuilt === sources.length && differing === 0 ? 0 : 1;
}

if (import.meta.main) {
  const { positionals } = scriptArgs("skeleton", USAGE, {
    args: Deno.args,
    allowPositionals: true,
  });
  const [mode, folder] = positionals;
  if ((mode !== "make" && mode !== "check") || folder === undefined || positionals.length > 2) {
    Deno.stderr.writeSync(encoder.encode(`${USAGE}\n`));
    Deno.exit(2);
  }
  try {
    Deno.exit(mode === "make" ? make(folder) : await check(folder));
  } catch (error) {
    Deno.stderr.writeSync(
      encoder.encode(`skeleton: ${error instanceof Error ? error.message : error}\n`),
    );
    Deno.exit(1);
  }
}
