/** Rule source names, in a module of their own so that settings import no rendering code. */

/** The sources a user can turn on or off; every one is on by default. */
export const SOURCE_NAMES = ["manifest", "claude-md", "rules-file"] as const;
export type SourceName = typeof SOURCE_NAMES[number];
