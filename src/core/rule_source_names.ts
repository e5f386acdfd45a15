/**
 * The names of the sources of standing rules, for settings and reports. A module of its own, with
 * no imports, so that settings (read on every call) need none of the rendering code.
 */

/** The sources a user can turn on or off; every one is on by default. */
export const SOURCE_NAMES = ["manifest", "claude-md", "rules-file"] as const;
export type SourceName = typeof SOURCE_NAMES[number];
