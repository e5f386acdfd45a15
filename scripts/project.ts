/**
 * What the tests, the benchmark and the scripts share about this checkout: where it is, the
 * files they run and read, the hook's permissions, and the environment a Deno subprocess needs.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BINARY_PERMISSIONS } from "./release_files.ts";

/** The checkout's root folder. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const MAIN = join(ROOT, "src", "main.ts");
export const SAMPLE_MANIFEST = join(ROOT, "src", "data", "sample_manifest.json");
/** Hook payloads captured from real Claude Code 2.1.328, committed whole. */
export const PAYLOADS = join(ROOT, "tests", "fixtures", "payloads");
/** Transcripts real Claude Code 2.1.328 wrote for this project, committed whole. */
export const RECORDINGS = join(ROOT, "tests", "fixtures", "transcripts");
/**
 * Skeletons of strangers' public transcripts (Claude Code 1.0.90 to 2.1.212): every entry, id,
 * usage figure and marker of the original, its free text replaced by filler of the same length
 * (scripts/skeleton.ts; sources and expected figures in the README there).
 */
export const SKELETONS = join(RECORDINGS, "skeletons");
/** A real Claude Code 2.1.328 session recorded for this project. */
export const RECORDED = join(RECORDINGS, "recorded-2.1.328-sonnet-climb.jsonl");

/** The permissions the compiled binary gets; deno.json, hooks/run and compile use the same. */
export const HOOK_PERMISSIONS = BINARY_PERMISSIONS;

/**
 * What a subprocess needs to reach the network the way this machine does: a TLS-inspecting
 * proxy's CA bundle (for Deno, Node and npm, curl and wget) and the proxy itself. `deno bundle`
 * fetches esbuild on a first run; a fresh DENO_DIR fetches zod and jsonc-parser.
 */
export const NETWORK_ENV = [
  "NODE_EXTRA_CA_CERTS",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CURL_CA_BUNDLE",
  "NPM_CONFIG_CAFILE",
  "npm_config_cafile",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "ALL_PROXY",
  "all_proxy",
  "NO_PROXY",
  "no_proxy",
] as const;

/** Proxy variables: when one is set, loopback must bypass the proxy (see baseEnv). */
const PROXY_ENV = [
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "ALL_PROXY",
  "all_proxy",
];

/** The tests' own servers (fake releases, the API stand-in) listen here; no proxy can reach them. */
const LOOPBACK = ["127.0.0.1", "localhost", "::1"];

/**
 * The environment of every child process the tests, the benchmark and the scripts start with
 * `clearEnv` (and of any child given an `env` at all): this machine's proxy and CA variables,
 * `DENO_DIR` (so a test that gives the child its own HOME does not make Deno look for its npm
 * packages, and the network, elsewhere), PATH and HOME, then whatever the test sets (`env`
 * wins). When a proxy is set, loopback is added to NO_PROXY and no_proxy. The one way to build
 * a child's environment: `deno lint` reports any other at its line and column (the rule
 * `lessons/child-env`, scripts/lint/plugin.ts).
 *
 * @example
 * ```ts
 * new Deno.Command("sh", { args: ["-c", "env"], env: baseEnv({ HOME: "/tmp/h" }), clearEnv: true });
 * ```
 */
export function baseEnv(
  env: Record<string, string>,
  parent: (name: string) => string | undefined = (name) => Deno.env.get(name),
): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "SYSTEMROOT", "USERPROFILE", ...NETWORK_ENV]) {
    const value = parent(name);
    if (value !== undefined) keep[name] = value;
  }
  if (PROXY_ENV.some((name) => (parent(name) ?? "") !== "")) {
    for (const name of ["NO_PROXY", "no_proxy"]) {
      const listed = (keep[name] ?? "").split(",").map((h) => h.trim()).filter((h) => h !== "");
      keep[name] = [...listed, ...LOOPBACK.filter((h) => !listed.includes(h))].join(",");
    }
  }
  keep.DENO_DIR = parent("DENO_DIR") || denoDir();
  keep.DENO_NO_UPDATE_CHECK = "1";
  return { ...keep, ...env };
}

let cachedDenoDir: string | undefined;

/**
 * Deno's cache folder as this Deno reports it (`deno info --json`), or DENO_DIR when set. Asked
 * once, not guessed: the default differs by OS and by XDG settings.
 */
export function denoDir(): string {
  if (cachedDenoDir) return cachedDenoDir;
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return cachedDenoDir = fromEnv;
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  if (typeof info.denoDir !== "string") throw new Error("deno info --json gave no denoDir");
  return cachedDenoDir = info.denoDir;
}
