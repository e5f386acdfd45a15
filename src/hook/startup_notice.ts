/**
 * SessionStart `startup`: the one moment the hook may speak to the user (a `systemMessage` under
 * the banner). It speaks only when every refresh of the session would be lost without a word:
 * a state folder it cannot use (too open, not a folder, another user's, not writable).
 */
import { preparePrivateDir } from "../io/state_store.ts";

/**
 * What to do about a state folder the hook will not use, for `reason` (`untrustedDirReason`'s
 * or `preparePrivateDir`'s words).
 *
 * @example
 * ```ts
 * stateDirFix("/tmp/s", "state folder /tmp/s is writable by others (mode 777)");
 * // "chmod 700 /tmp/s if it is yours, or point LESSONS_STATE_DIR (or stateDir in the config file) at a private folder"
 * ```
 */
export function stateDirFix(dir: string, reason: string): string {
  const elsewhere = "point LESSONS_STATE_DIR (or stateDir in the config file) at a private folder";
  // chmod only mends a folder that is too open; anything else needs another folder.
  return reason.includes("writable by others")
    ? `chmod 700 ${dir} if it is yours, or ${elsewhere}`
    : elsewhere;
}

/**
 * The line to show the user at session start, or undefined when all is well. Creates the folder
 * when it is missing, as the first refresh would.
 */
export async function startupNotice(stateDir: string): Promise<string | undefined> {
  const problem = await preparePrivateDir(stateDir);
  if (problem === undefined) return undefined;
  return `lessons-reinject: ${problem}: it will not use it, so no context refresh is given; ` +
    stateDirFix(stateDir, problem);
}
