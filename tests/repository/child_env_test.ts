/**
 * Every child process the tests, the benchmark and the scripts start gets this machine's proxy
 * and CA variables and DENO_DIR, through one helper, `baseEnv()` (scripts/project.ts): behind a
 * TLS-inspecting proxy, with a fresh DENO_DIR, a child built by hand fetches its npm packages
 * without the proxy's CA and fails. This scans the sources for an environment built any other way.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { baseEnv, ROOT } from "../_helpers.ts";

/** Where children are started: the tests, the benchmark (some of it run by tests), the scripts. */
const SCANNED = ["tests", "bench", "scripts"];

/**
 * `source` with its comments, strings and template literals blanked (same length, newlines kept),
 * so that what remains is code. A `/` that starts an expression is taken for a regular
 * expression literal.
 */
export function codeOnly(source: string): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n") out[i] = " ";
  };
  let i = 0;
  let previous = ""; // the last code character that is not white space
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    let end = i;
    if (c === "/" && next === "/") {
      end = source.indexOf("\n", i);
      if (end < 0) end = source.length;
    } else if (c === "/" && next === "*") {
      end = source.indexOf("*/", i + 2);
      end = end < 0 ? source.length : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      end = i + 1;
      let depth = 0; // `${` nesting inside a template literal
      while (end < source.length) {
        const d = source[end]!;
        if (d === "\\") end += 2;
        else if (c === "`" && d === "$" && source[end + 1] === "{") {
          depth++;
          end += 2;
        } else if (c === "`" && depth > 0 && d === "}") {
          depth--;
          end++;
        } else if (d === c && depth === 0) {
          end++;
          break;
        } else end++;
      }
    } else if (c === "/" && (previous === "" || "(,=:[!&|?{};+-*%<>~^".includes(previous))) {
      end = i + 1;
      let inClass = false;
      while (end < source.length && source[end] !== "\n") {
        const d = source[end]!;
        if (d === "\\") end += 2;
        else if (d === "[") (inClass = true, end++);
        else if (d === "]") (inClass = false, end++);
        else if (d === "/" && !inClass) {
          end++;
          break;
        } else end++;
      }
    }
    if (end > i) {
      blank(i, end);
      previous = c === "/" && (next === "/" || next === "*") ? previous : '"';
      i = end;
      continue;
    }
    if (!/\s/.test(c)) previous = c;
    i++;
  }
  return out.join("");
}

/**
 * The pieces of `text` between the commas that are not nested in brackets, with their offsets;
 * a blank piece is kept (an argument that was a string is blank in {@link codeOnly}'s text).
 */
function topLevel(text: string): { text: string; at: number }[] {
  const parts: { text: string; at: number }[] = [];
  let depth = 0;
  let from = 0;
  const push = (to: number) => {
    const piece = text.slice(from, to);
    const lead = piece.length - piece.trimStart().length;
    parts.push({ text: piece.trim(), at: from + lead });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "," && depth === 0) {
      push(i);
      from = i + 1;
    }
  }
  push(text.length);
  return parts;
}

/** The offset of the bracket that closes the one at `open`, or -1 when it never closes. */
function closing(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c) && --depth === 0) return i;
  }
  return -1;
}

/**
 * What is wrong with the child environments built in `source` (named `file` in the messages):
 * a `Deno.Command` whose options give `env` as anything but a `baseEnv(...)` call, or set
 * `clearEnv` without one; options the scan cannot see (a variable, a spread); any other way to
 * start a process.
 */
export function childEnvProblems(source: string, file: string): string[] {
  const code = codeOnly(source);
  const lineOf = (at: number) => source.slice(0, at).split("\n").length;
  const problems: string[] = [];
  for (const m of code.matchAll(/\bDeno\s*\.\s*Command\b/g)) {
    const at = m.index;
    const where = `${file}:${lineOf(at)}`;
    const call = /^\s*\(/.exec(code.slice(at + m[0].length));
    const before = code.slice(Math.max(0, at - 12), at);
    if (!call || !/\bnew\s+$/.test(before)) {
      // An alias or a wrapper would start children this scan cannot see.
      if (!/\b(?:typeof|instanceof)\s+$/.test(before)) {
        problems.push(`${where}: Deno.Command used other than as \`new Deno.Command(...)\``);
      }
      continue;
    }
    const open = at + m[0].length + call[0].length - 1;
    const close = closing(code, open);
    if (close < 0) {
      problems.push(`${where}: cannot find the end of this Deno.Command call`);
      continue;
    }
    const options = topLevel(code.slice(open + 1, close))[1];
    // No options: the child inherits everything.
    if (options === undefined || options.text === "") continue;
    if (!options.text.startsWith("{")) {
      problems.push(`${where}: write the options inline, so that this check can see its env`);
      continue;
    }
    const start = open + 1 + options.at;
    let env: { text: string; at: number } | undefined;
    let clearEnv = false;
    for (const property of topLevel(code.slice(start + 1, closing(code, start)))) {
      const at = start + 1 + property.at;
      const text = source.slice(at, at + property.text.length);
      if (property.text === "") continue; // after a trailing comma
      if (property.text.startsWith("...")) {
        // `...(cwd ? { cwd } : {})` is fine; a spread that may carry an env is not.
        if (/\b(?:env|clearEnv)\b/.test(property.text) || /^\.\.\.\s*[\w.]+$/.test(property.text)) {
          problems.push(
            `${file}:${lineOf(at)}: a spread in the options may hide an env (\`${text}\`)`,
          );
        }
        continue;
      }
      const [, key = "", value] = /^(\w+)\s*(?::\s*([\s\S]*))?$/.exec(property.text) ?? [];
      if (key === "env") {
        env = { text: value === undefined ? "env" : text.replace(/^env\s*:\s*/, ""), at };
      }
      if (key === "clearEnv" && value !== "false") clearEnv = true;
    }
    if (env !== undefined && !/^baseEnv\s*\(/.test(env.text)) {
      const shown = env.text.replace(/\s+/g, " ");
      problems.push(`${file}:${lineOf(env.at)}: env built by hand (\`${shown}\`); use baseEnv()`);
    } else if (env === undefined && clearEnv) {
      problems.push(`${where}: clearEnv without an env from baseEnv()`);
    }
  }
  for (const m of code.matchAll(/\bDeno\s*\.\s*run\s*\(/g)) {
    problems.push(`${file}:${lineOf(m.index)}: Deno.run starts a process this check cannot see`);
  }
  const imports = /\b(?:from|import)\s*\(?\s*["']node:child_process["']/g;
  for (const m of source.matchAll(imports)) {
    // The keyword is code, not text inside a string or a comment.
    if (code[m.index] !== " ") {
      problems.push(
        `${file}:${lineOf(m.index)}: node:child_process starts processes this ` +
          "check cannot see",
      );
    }
  }
  return problems;
}

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...sources(path));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found;
}

Deno.test("every child process gets its environment from baseEnv()", () => {
  const files = SCANNED.flatMap((dir) => sources(join(ROOT, dir)));
  const problems = files.flatMap((path) =>
    childEnvProblems(Deno.readTextFileSync(path), relative(ROOT, path))
  );
  assertEquals(problems, []);
  // The scan saw the children it is about: a scan that finds no call proves nothing.
  const calls = files.map((path) => codeOnly(Deno.readTextFileSync(path)))
    .reduce((n, code) => n + [...code.matchAll(/\bnew Deno\.Command\(/g)].length, 0);
  ok(calls >= 25, `only ${calls} Deno.Command calls found`);
});

Deno.test("childEnvProblems() names each environment built by hand", async (t) => {
  const cases: [name: string, source: string, problem: RegExp | undefined][] = [
    [
      "env from the helper, with clearEnv",
      `new Deno.Command("sh", { args: [], env: baseEnv({ HOME: "/h" }), clearEnv: true });`,
      undefined,
    ],
    [
      "no env at all: the child inherits everything",
      `new Deno.Command("git", { args });`,
      undefined,
    ],
    ["no options", `await new Deno.Command(bin).output();`, undefined],
    ["no options, a string program", `await new Deno.Command("git").output();`, undefined],
    [
      "a string program, then an object literal",
      `const archive = await new Deno.Command("sh", {\n  env: { PATH: "/usr/bin" },\n});`,
      /^x\.ts:2: env built by hand \(`\{ PATH: "\/usr\/bin" \}`\)/,
    ],
    [
      "a template-literal program and a clearEnv alone",
      "new Deno.Command(`${dir}/sh`, { args, clearEnv: true, });",
      /clearEnv without an env from baseEnv/,
    ],
    [
      "an object literal",
      `new Deno.Command(Deno.execPath(), {\n  args,\n  env: { PATH: "/bin", NO_COLOR: "1" },\n});`,
      /^x\.ts:3: env built by hand \(`\{ PATH: "\/bin", NO_COLOR: "1" \}`\)/,
    ],
    [
      "a variable passed on",
      `new Deno.Command(program, { args: rest, env, clearEnv: true, stdin: "piped" });`,
      /env built by hand \(`env`\)/,
    ],
    [
      "a property passed on",
      `new Deno.Command(bin, { env: spec.env, clearEnv: true });`,
      /env built by hand \(`spec\.env`\)/,
    ],
    [
      "clearEnv alone",
      `new Deno.Command(bin, { args, clearEnv: true });`,
      /clearEnv without an env from baseEnv/,
    ],
    [
      "options in a variable",
      `const o = { env: {} };\nnew Deno.Command(bin, o);`,
      /^x\.ts:2: write the options inline/,
    ],
    [
      "a spread in the options",
      `new Deno.Command(bin, { ...options, args });`,
      /a spread in the options may hide an env \(`\.\.\.options`\)/,
    ],
    ["an alias", `const Command = Deno.Command;`, /other than as `new Deno.Command/],
    [
      "child_process",
      `import { spawn } from "node:child_process";`,
      /^x\.ts:1: node:child_process starts processes/,
    ],
    [
      "a call inside a comment or a string is no call",
      `// new Deno.Command(bin, { env: {} })\nconst s = "new Deno.Command(bin, { env: {} })";`,
      undefined,
    ],
    [
      "a regular expression with brackets before the call",
      `const r = /[(]{/;\nnew Deno.Command(bin, { env: {}, clearEnv: true });`,
      /^x\.ts:2: env built by hand/,
    ],
    [
      "a template literal with an expression before the call",
      "const t = `${a({ b: ')' })}`;\nnew Deno.Command(bin, { env: {} });",
      /^x\.ts:2: env built by hand/,
    ],
  ];
  for (const [name, source, problem] of cases) {
    await t.step(name, () => {
      const problems = childEnvProblems(source, "x.ts");
      if (problem === undefined) assertEquals(problems, []);
      else ok(problems.length === 1 && problem.test(problems[0]!), problems.join("\n"));
    });
  }
});

Deno.test("baseEnv() passes on the proxy, the CA bundles and DENO_DIR; the test's values win", () => {
  const parent: Record<string, string> = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    DENO_DIR: "/cache/deno",
    HTTPS_PROXY: "http://proxy:3128",
    http_proxy: "http://proxy:3128",
    NO_PROXY: "internal.example,localhost",
    NODE_EXTRA_CA_CERTS: "/etc/proxy-ca.pem",
    DENO_CERT: "/etc/proxy-ca.pem",
    SSL_CERT_FILE: "/etc/ssl/bundle.pem",
    CURL_CA_BUNDLE: "/etc/ssl/bundle.pem",
    SECRET_TOKEN: "never passed on",
    LESSONS_DEBUG: "1",
  };
  const env = baseEnv({ HOME: "/tmp/h", PATH: "/tmp/bin" }, (name) => parent[name]);
  assertEquals(env, {
    PATH: "/tmp/bin",
    HOME: "/tmp/h",
    DENO_DIR: "/cache/deno",
    DENO_NO_UPDATE_CHECK: "1",
    HTTPS_PROXY: "http://proxy:3128",
    http_proxy: "http://proxy:3128",
    // The tests' servers listen on loopback, where no proxy can reach them.
    NO_PROXY: "internal.example,localhost,127.0.0.1,::1",
    no_proxy: "127.0.0.1,localhost,::1",
    NODE_EXTRA_CA_CERTS: "/etc/proxy-ca.pem",
    DENO_CERT: "/etc/proxy-ca.pem",
    SSL_CERT_FILE: "/etc/ssl/bundle.pem",
    CURL_CA_BUNDLE: "/etc/ssl/bundle.pem",
  });
  // No proxy: NO_PROXY is left as it was (here, absent).
  const direct = baseEnv({}, (name) => ({ DENO_DIR: "/d", PATH: "/bin" })[name]);
  assertEquals(direct, { PATH: "/bin", DENO_DIR: "/d", DENO_NO_UPDATE_CHECK: "1" });
  // A test that sets its own DENO_DIR (an empty cache) gets it.
  assertEquals(baseEnv({ DENO_DIR: "/empty" }, (name) => parent[name]).DENO_DIR, "/empty");
});
