/**
 * Step 3, only for a context whose state file is gone and whose reading would fire: the refreshes
 * this hook already made in this context, read back from the transcript to its last compaction;
 * for a fork subagent, the ones its parent made before the fork. Nothing fires twice.
 */
import type { ContextFacts } from "../core/facts.ts";
import { forkReferenceOf } from "../core/transcript_entry.ts";
import { refreshToken } from "../io/state_store.ts";
import { historyOf, withTranscript } from "../io/transcript.ts";
import { parentTranscriptOf, type TranscriptRef } from "../io/session_files.ts";

const decoder = new TextDecoder();

/**
 * What the transcript shows this context already had, in the `seen` bytes the call's reading was
 * taken from (a compaction written since belongs to a later call); `mainPath`: the session's.
 */
export function recoverHistory(
  transcript: TranscriptRef,
  token: string,
  mainPath: string | undefined,
  seen: number,
): ContextFacts {
  const history = withTranscript(
    transcript.path,
    (source, size) => historyOf(source, Math.min(size, seen), token),
  );
  if ("error" in history) return {};
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
 * The thresholds a fork's context already holds refreshes for: the ones its parent's refreshes
 * named since the parent's last compaction, up to the entry the fork started after. Empty for any
 * other subagent, or when the parent or that entry cannot be found (then it refreshes itself).
 */
function inheritedFromParent(agentPath: string, mainPath: string | undefined): number[] {
  const fork = readForkReference(agentPath);
  const parent = fork && parentTranscriptOf(agentPath, mainPath, fork.parentSessionId);
  if (!fork || parent === undefined) return [];
  const token = refreshToken(fork.parentSessionId);
  const history = withTranscript(
    parent,
    (source, size) => historyOf(source, size, token, fork.parentLastUuid),
  );
  return "error" in history ? [] : history.refreshed;
}

/** The parent a fork's transcript names in its first line, or undefined. */
export function readForkReference(path: string) {
  const fork = withTranscript(path, (source) => {
    const head = source.readAt(0, 4096);
    const end = head.indexOf(0x0a);
    return end < 0 ? undefined : forkReferenceOf(JSON.parse(decoder.decode(head.subarray(0, end))));
  });
  return fork && "error" in fork ? undefined : fork; // a line that is not JSON is an error too
}
