/**
 * Which Gemini CLI the Gemini e2e runs: `GEMINI_BIN` when set, else an npm release
 * (`LESSONS_E2E_GEMINI_VERSION`, the pinned one by default) installed once into
 * `$HOME/.cache/lessons-reinject/gemini/<version>`, as tests/e2e/codex_cli.ts does for Codex.
 */
import { type CodexLookup, findNpmCli } from "./codex_cli.ts";

/** The release the e2e suite pins in CI. */
export const GEMINI_VERSION = "0.61.0";

/** The Gemini CLI to run, installing the release with npm when it is not cached yet. */
export function findGemini(): Promise<CodexLookup> {
  return findNpmCli({
    spec: "@google/gemini-cli",
    bin: "gemini",
    folder: "gemini",
    version: GEMINI_VERSION,
    binEnv: "GEMINI_BIN",
    versionEnv: "LESSONS_E2E_GEMINI_VERSION",
  });
}
