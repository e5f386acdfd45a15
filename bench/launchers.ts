/**
 * `deno task bench --launchers`: the hook as users run it today, through hooks/run, paired in the
 * same rounds with the release's path. Three plugin folders, none a checkout:
 *
 * - **release**: hooks/run with a stand-in binary in dist/ (it execs `deno run --no-config` of the
 *   release bundle with the binary's permissions), named in dist/.entry by the first call;
 * - **no binary, source bundle**: hooks/run with the source and no binary, its bundle built (as the
 *   launcher builds it, scripts/source_bundle.ts) into the variant's cache folder;
 * - **no binary, source**: the same without the bundle's two files, so hooks/run runs the source as
 *   it did before there was a bundle.
 *
 * The source variants set LESSONS_REINJECT_NO_AUTO_INSTALL (no background download to time).
 */
import { join } from "node:path";
import { ROOT } from "../scripts/project.ts";
import { assetName, BINARY_PERMISSIONS, targetFor } from "../scripts/release_files.ts";
import { buildSourceBundle, currentBuild } from "../scripts/source_bundle.ts";

/** A way to run the hook, timed like the bundles. */
export interface LauncherVariant {
  label: string;
  cmd: string[];
  env: Record<string, string>;
}

/** The release's path: hooks/run → dist/.entry → the stand-in binary. */
export const RELEASE = "hooks/run → binary (the release)";
/** No binary: hooks/run → the source's bundle. */
export const SOURCE_BUNDLE = "hooks/run, no binary: source bundle";
/** No binary and no bundle: hooks/run → the source. */
export const SOURCE = "hooks/run, no binary: source";

/** The source bundle variant's cache folder, where it must still be unchanged at the end. */
export interface Launchers {
  variants: LauncherVariant[];
  /** Why the source bundle variant did not run its bundle throughout, or undefined. */
  check(): string | undefined;
}

async function copyTree(from: string, to: string): Promise<void> {
  const copied = await new Deno.Command("cp", { args: ["-R", from, to] }).output();
  if (!copied.success) throw new Error(`cannot copy ${from}`);
}

/**
 * A plugin folder at `root` as an install leaves it before any binary (not a checkout): hooks/,
 * .claude-plugin/, the source and its builder; without the bundle's two files when `bundled` is
 * false (hooks/run then runs the source, as before there was a bundle). With `source` false, only
 * hooks/ and .claude-plugin/.
 */
export async function pluginCopy(root: string, source: boolean, bundled = true): Promise<string> {
  await Deno.mkdir(join(root, "dist"), { recursive: true });
  for (const path of ["hooks", ".claude-plugin"]) {
    await copyTree(join(ROOT, path), join(root, path));
  }
  if (source) {
    for (const path of ["src", "scripts", "deno.json", "deno.lock"]) {
      await copyTree(join(ROOT, path), join(root, path));
    }
  }
  if (!bundled) {
    await Deno.remove(join(root, "hooks", "source_bundle.js"));
    await Deno.remove(join(root, "scripts", "source_bundle.ts"));
  }
  return root;
}

/** Where hooks/run keeps the bundle of the plugin at `root`, for a cache folder `cache`. */
export function bundleFolder(cache: string, root: string): string {
  return join(cache, "lessons-reinject", "source-bundles", root);
}

/** The three plugin folders under `tmp`, the release's running `bundle`. */
export async function launchers(tmp: string, bundle: string): Promise<Launchers> {
  const target = targetFor(Deno.build.os, Deno.build.arch);
  if (!target || Deno.build.os === "windows") {
    throw new Error("--launchers runs on Linux and macOS (hooks/run with a shell stand-in)");
  }
  const release = await pluginCopy(join(tmp, "release"), false);
  await Deno.writeTextFile(
    join(release, "dist", assetName(target)),
    `#!/bin/sh\nexec '${Deno.execPath()}' run --no-config --quiet --no-prompt ` +
      `${BINARY_PERMISSIONS.join(" ")} '${bundle}' "$@"\n`,
    { mode: 0o755 },
  );
  const bundled = await pluginCopy(join(tmp, "source-bundle"), true);
  const cache = join(tmp, "cache");
  const folder = bundleFolder(cache, bundled);
  await Deno.mkdir(folder, { recursive: true });
  await buildSourceBundle(bundled, folder);
  const built = currentBuild(folder);
  const plain = await pluginCopy(join(tmp, "source"), true, false);
  const noInstall = { LESSONS_REINJECT_NO_AUTO_INSTALL: "1", XDG_CACHE_HOME: cache };
  return {
    variants: [
      { label: RELEASE, cmd: [join(release, "hooks", "run")], env: {} },
      { label: SOURCE_BUNDLE, cmd: [join(bundled, "hooks", "run")], env: noInstall },
      { label: SOURCE, cmd: [join(plain, "hooks", "run")], env: noInstall },
    ],
    check() {
      if (currentBuild(folder) !== built) return "the source bundle was rebuilt during the bench";
      try {
        Deno.statSync(join(folder, "build.log"));
        return "hooks/run started a build of the source bundle during the bench";
      } catch {
        return undefined;
      }
    },
  };
}
