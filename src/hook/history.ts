/**
 * Step 3, only when the state file is gone and the reading would fire: the refreshes already
 * made in this context (a fork's: its parent's before the fork), so that nothing fires twice.
 */
import { failed } from "../core/result.ts";
import type { ContextFacts } from "../core/facts.ts";
import { forkReferenceOf } from "../core/transcript_entry.ts";
import { refreshToken } from "../io/state_store.ts";
import { readerFor } from "../io/hosts.ts";
import { historyUpTo, withTranscript } from "../io/transcript.ts";
import { parentTranscriptOf, type TranscriptRef } from "../io/session_files.ts";

const decoder = new TextDecoder();

/** Within the `seen` bytes the reading came from (a later compaction is a later call's). */
export function recoverHistory(
  transcript: TranscriptRef,
  token: string,
  mainPath: string | undefined,
  seen: number,
): ContextFacts {
  const history = withTranscript(
    transcript.path,
    (source, size) => readerFor(transcript.path).historyOf(source, Math.min(size, seen), token),
  );
  if (failed(history)) return {};
  const facts: ContextFacts = { recovered: history.refreshed };
  if (history.marker !== undefined) facts.marker = history.marker;
  // A fork's context starts with its parent's, unless the fork has been compacted since.
  if (transcript.sidechainFile && history.marker === undefined && !history.truncated) {
    const inherited = inheritedFromParent(transcript.path, mainPath);
    if (inherited.length > 0) facts.inherited = inherited;
  }
  return facts;
}

/**
 * The thresholds the parent's refreshes named, since its last compaction, up to the fork point.
 * Empty for other subagents, or when the parent or that entry cannot be found.
 */
function inheritedFromParent(agentPath: string, mainPath: string | undefined): number[] {
  const fork = readForkReference(agentPath);
  const parent = fork && parentTranscriptOf(agentPath, mainPath, fork.parentSessionId);
  if (!fork || parent === undefined) return [];
  const token = refreshToken(fork.parentSessionId);
  const history = withTranscript(
    parent,
    (source, size) => historyUpTo(source, size, token, fork.parentLastUuid),
  );
  return failed(history) ? [] : history?.refreshed ?? [];
}

/** The parent a fork's transcript names in its first line, or undefined. */
export function readForkReference(path: string) {
  const fork = withTranscript(path, (source) => {
    const head = source.readAt(0, 4096);
    const end = head.indexOf(0x0a);
    return end < 0 ? undefined : forkReferenceOf(JSON.parse(decoder.decode(head.subarray(0, end))));
  });
  return fork && failed(fork) ? undefined : fork; // a line that is not JSON is an error too
}
