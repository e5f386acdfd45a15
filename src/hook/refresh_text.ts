/**
 * Step 6 (firing calls only): the refresh text. Finds and reads the manifest, selects the
 * lessons for this project and lays them out within the budget. Its code and schemas are
 * loaded here, on first use, so a call that does not fire never pays for them.
 */
import type { RefreshCause } from "../core/header.ts";
import { refreshHeader } from "../core/header.ts";
import type { Settings } from "../settings/resolve.ts";
import type { RefreshAccount } from "./trace.ts";

/** What rendering needs from the settings. */
export type RefreshSettings = Pick<
  Settings,
  "manifestPath" | "pluginRoot" | "claudeDir" | "projectDir" | "maxChars"
>;

/** The text, or why there is none. */
export type BuiltRefresh =
  | { kind: "text"; account: RefreshAccount }
  | { kind: "error"; error: string };

/** Builds the refresh for `cause`, for the project at `cwd`, headed with `token`. */
export async function buildRefresh(
  cause: RefreshCause,
  token: string,
  cwd: string | undefined,
  settings: RefreshSettings,
): Promise<BuiltRefresh> {
  const [{ findManifest }, { renderRefresh }] = await Promise.all([
    import("../io/manifest_load.ts"),
    import("../core/render.ts"),
  ]);
  const found = await findManifest(settings, cwd);
  if (found.kind === "none") {
    return { kind: "error", error: "no manifest found (set LESSONS_MANIFEST_PATH)" };
  }
  if (found.kind === "invalid") return { kind: "error", error: found.error };
  const { location, selection } = found;
  if (selection.lessons.length === 0) {
    return { kind: "error", error: `${location.path} has no active directives or protocols` };
  }
  const rendered = renderRefresh(refreshHeader(cause, token), selection.lessons, settings.maxChars);
  return {
    kind: "text",
    account: {
      text: rendered.text,
      chars: rendered.text.length,
      budget: settings.maxChars,
      source: location.path,
      whole: rendered.whole,
      summarized: rendered.summarized,
      omitted: rendered.omitted,
      invalid: selection.invalid,
    },
  };
}
