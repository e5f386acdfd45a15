/**
 * The repository's own lint rules (`lint.plugins` in deno.json), run by `deno lint`, each problem
 * at its line and column:
 *
 * - `lessons/child-env`: every child process the tests, the benchmark and the scripts start gets
 *   this machine's proxy and CA variables and DENO_DIR through one helper, `baseEnv()`
 *   (scripts/project.ts): behind a TLS-inspecting proxy, with a fresh DENO_DIR, a child built by
 *   hand fetches its npm packages without the proxy's CA and fails.
 * - `lessons/no-self-location`: nothing in src/ locates files beside itself or the executable: a
 *   compiled binary has no src/ or data/ folder beside it, so data must be imported modules.
 * - `lessons/no-error-wording`: nothing in src/ searches or splits the words of an error or a
 *   reason (`why.includes(...)`, `failure.error.split(...)`): code branches on a failure's kind
 *   (core/result.ts), so that rewording a message cannot change what the program does.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `filename` from the repository's root, with `/` (a relative name is taken as it is). */
function fromRoot(filename: string): string {
  const path = filename.startsWith("/") || /^[A-Za-z]:[\\/]/.test(filename)
    ? relative(ROOT, filename)
    : filename;
  return path.replaceAll("\\", "/");
}

type Node = Deno.lint.Node;

/** `object.property` written with a plain name on each side. */
function isMember(node: Node, object: string, property: string): boolean {
  return node.type === "MemberExpression" && !node.computed &&
    node.object.type === "Identifier" && node.object.name === object &&
    node.property.type === "Identifier" && node.property.name === property;
}

/** The name of a property's key written as a name or a string, or undefined. */
function keyName(property: Deno.lint.Property): string | undefined {
  if (property.computed) return undefined;
  const key = property.key;
  if (key.type === "Identifier") return key.name;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  return undefined;
}

const CHILD_ENV_FOLDERS = ["tests/", "bench/", "scripts/"];

const childEnv: Deno.lint.Rule = {
  create(context) {
    if (!CHILD_ENV_FOLDERS.some((dir) => fromRoot(context.filename).startsWith(dir))) return {};
    const report = (node: Node, message: string) => context.report({ node, message });
    const text = (node: Node) => context.sourceCode.getText(node).replace(/\s+/g, " ");
    return {
      MemberExpression(node) {
        if (isMember(node, "Deno", "run") && node.parent.type === "CallExpression") {
          report(node, "Deno.run starts a process this rule cannot see");
        }
        if (!isMember(node, "Deno", "Command")) return;
        const parent = node.parent;
        if (parent.type === "NewExpression" && parent.callee === node) return;
        if (parent.type === "BinaryExpression" && parent.operator === "instanceof") return;
        // An alias or a wrapper would start children this rule cannot see.
        report(node, "Deno.Command used other than as `new Deno.Command(...)`");
      },
      NewExpression(node) {
        if (!isMember(node.callee, "Deno", "Command")) return;
        // No options: the child inherits everything.
        const options = node.arguments[1];
        if (options === undefined) return;
        if (options.type !== "ObjectExpression") {
          report(options, "write the options inline, so that this rule can see its env");
          return;
        }
        let env: Deno.lint.Property | undefined;
        let clearEnv = false;
        for (const property of options.properties) {
          if (property.type === "SpreadElement") {
            // `...(cwd ? { cwd } : {})` is fine; a spread that may carry an env is not.
            const argument = property.argument;
            if (
              argument.type === "Identifier" || argument.type === "MemberExpression" ||
              /\b(?:env|clearEnv)\b/.test(text(argument))
            ) {
              report(
                property,
                `a spread in the options may hide an env (\`...${text(argument)}\`)`,
              );
            }
            continue;
          }
          const name = keyName(property);
          if (name === "env") env = property;
          if (
            name === "clearEnv" &&
            !(property.value.type === "Literal" && property.value.value === false)
          ) {
            clearEnv = true;
          }
        }
        if (env !== undefined) {
          const value = env.value;
          const fromHelper = value.type === "CallExpression" &&
            value.callee.type === "Identifier" &&
            value.callee.name === "baseEnv";
          if (!fromHelper) report(value, `env built by hand (\`${text(value)}\`); use baseEnv()`);
        } else if (clearEnv) {
          report(node, "clearEnv without an env from baseEnv()");
        }
      },
      ImportDeclaration(node) {
        if (node.source.value === "node:child_process") {
          report(node.source, "node:child_process starts processes this rule cannot see");
        }
      },
      ImportExpression(node) {
        if (node.source.type === "Literal" && node.source.value === "node:child_process") {
          report(node.source, "node:child_process starts processes this rule cannot see");
        }
      },
    };
  },
};

/** Where src/ may name the program's own location, and why. */
const SELF_LOCATION_ALLOWED = new Set([
  // Names the command that runs the program, for hints; it reads nothing from where it is.
  "src/cli/dispatch.ts",
  // Loads the commands' bundle, which the binary embeds beside it (scripts/compile.ts --include);
  // the release smoke test runs a command from it on every OS.
  "src/main.ts",
]);

const noSelfLocation: Deno.lint.Rule = {
  create(context) {
    const file = fromRoot(context.filename);
    if (!file.startsWith("src/")) return {};
    const allowed = SELF_LOCATION_ALLOWED.has(file);
    const report = (node: Node, what: string) =>
      context.report({
        node,
        message: `${what} locates files beside the program, which a compiled binary does not ` +
          "have: import the data as a module",
      });
    return {
      MemberExpression(node) {
        const object = node.object;
        const property = node.property.type === "Identifier" ? node.property.name : "";
        if (allowed) {
          // What names the program reads nothing from where it is.
          if (
            object.type === "Identifier" && object.name === "Deno" &&
            /^(read|open)/.test(property) && file === "src/cli/dispatch.ts"
          ) {
            context.report({
              node,
              message: `Deno.${property}: dispatch.ts only names the program`,
            });
          }
          return;
        }
        if (
          object.type === "MetaProperty" && object.meta.name === "import" &&
          ["url", "dirname", "filename", "resolve"].includes(property)
        ) {
          report(node, `import.meta.${property}`);
        }
        if (isMember(node, "Deno", "execPath") || isMember(node, "Deno", "mainModule")) {
          report(node, `Deno.${property}`);
        }
      },
    };
  },
};

/** Names that hold an error's or a reason's words in src/. */
const WORDS = /^(?:error|reason|refused|problem|why|untrusted)$/;
const SEARCHES = "includes split startsWith endsWith indexOf match test exec".split(" ");

const noErrorWording: Deno.lint.Rule = {
  create(context) {
    if (!fromRoot(context.filename).startsWith("src/")) return {};
    const wordsIn = (node: Node): string | undefined =>
      node.type === "Identifier" && WORDS.test(node.name)
        ? node.name
        : node.type === "MemberExpression" && !node.computed &&
            node.property.type === "Identifier" && WORDS.test(node.property.name)
        ? node.property.name
        : undefined;
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.property.type !== "Identifier") return;
        const method = callee.property.name;
        if (!SEARCHES.includes(method)) return;
        // `regex.test(why)` reads the words as much as `why.includes(...)` does.
        const words = method === "test" || method === "exec"
          ? node.arguments.map(wordsIn).find(Boolean)
          : wordsIn(callee.object);
        if (words === undefined) return;
        context.report({
          node,
          message: `${method}() on \`${words}\`, an error's words: branch on its kind ` +
            "(core/result.ts failed(x, kind)), so that rewording it changes nothing",
        });
      },
    };
  },
};

const plugin: Deno.lint.Plugin = {
  name: "lessons",
  rules: {
    "child-env": childEnv,
    "no-self-location": noSelfLocation,
    "no-error-wording": noErrorWording,
  },
};

export default plugin;
