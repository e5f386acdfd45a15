/**
 * Release gate, run by the release workflow before anything is built:
 *   deno run --allow-read scripts/release_check.ts <tag> <owner/repo>
 * Fails when the tag is not `v<version of deno.json>` or the repository is not the one
 * .claude-plugin/marketplace.json names, since the installers download from exactly there.
 */
import { releaseProblems } from "./release_files.ts";

if (import.meta.main) {
  const [tag = "", repository = ""] = Deno.args;
  const problems = releaseProblems(tag, repository);
  const encoder = new TextEncoder();
  for (const p of problems) Deno.stderr.writeSync(encoder.encode(`release check: ${p}\n`));
  if (problems.length === 0) {
    Deno.stdout.writeSync(encoder.encode(`release check: ${tag} of ${repository} ok\n`));
  }
  Deno.exit(problems.length === 0 ? 0 : 1);
}
