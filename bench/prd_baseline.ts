/**
 * The approach PRD 005 sketched, as a baseline for the benchmark (written here, not copied):
 * read the whole transcript into one string, split it into lines, JSON-parse from the end until
 * the newest main-chain assistant usage. It stops at the first usage it finds, the kindest
 * version of the approach; its cost is the whole-file read and split, which grow with the file.
 * It answers as a non-firing hook (prints nothing); the bench only times it.
 */

interface Usage {
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

function newestUsage(path: string): number | undefined {
  const lines = Deno.readTextFileSync(path).split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof entry !== "object" || entry === null) continue;
    const record = entry as { type?: unknown; isSidechain?: unknown; message?: { usage?: Usage } };
    if (record.type !== "assistant" || record.isSidechain === true) continue;
    const usage = record.message?.usage;
    if (!usage) continue;
    return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) +
      (usage.cache_read_input_tokens ?? 0);
  }
  return undefined;
}

if (import.meta.main) {
  const payload = JSON.parse(await new Response(Deno.stdin.readable).text());
  const tokens = newestUsage(String(payload.transcript_path));
  // stderr only: the bench checks the baseline found the usage, the way a hook would.
  Deno.stderr.writeSync(new TextEncoder().encode(`baseline tokens=${tokens}\n`));
}
