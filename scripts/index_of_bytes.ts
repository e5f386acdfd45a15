/** A byte search for the measurement scripts, which cut transcripts at an entry's line. */

/** Where `needle` first occurs in `haystack`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (
    let i = haystack.indexOf(needle[0]!);
    i >= 0;
    i = haystack.indexOf(needle[0]!, i + 1)
  ) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
