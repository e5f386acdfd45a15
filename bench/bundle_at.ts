/** The release bundle of an earlier commit, built from its own tree, for side-by-side timing. */
import { join } from "node:path";
import { ROOT } from "../scripts/project.ts";

/**
 * The bundle of an earlier commit, built the way that commit builds its release bundle (its own
 * `deno task bundle`), so a comparison is of what each commit ships: `git archive` into `tmp`.
 */
export async function buildBundleAt(ref: string, tmp: string): Promise<string> {
  const tree = join(tmp, `tree-${ref.replace(/[^A-Za-z0-9._-]/g, "_")}`);
  await Deno.mkdir(tree, { recursive: true });
  const archive = await new Deno.Command("sh", {
    args: ["-c", 'git -C "$1" archive "$2" | tar -x -C "$3"', "sh", ROOT, ref, tree],
    stderr: "inherit",
  }).output();
  if (!archive.success) throw new Error(`cannot export ${ref}`);
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "bundle"],
    cwd: tree,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!built.success) throw new Error(`deno task bundle failed at ${ref}`);
  const out = join(tmp, `bundle-${ref.replace(/[^A-Za-z0-9._-]/g, "_")}.js`);
  await Deno.rename(join(tree, "dist", "lessons-reinject.js"), out);
  return out;
}
