/**
 * Rewrites the bundle so that V8 compiles every function when it compiles the file, not on its
 * first call: Deno's code cache (DENO_DIR for `deno run`, the `.cache` file beside a compiled
 * binary) is made right after compiling, so it holds only what was compiled then.
 */
import { parse } from "acorn";

/** An acorn node: its type, its source range, and its fields. */
interface Node {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null &&
    typeof (value as Node).type === "string" && typeof (value as Node).start === "number";
}

/** The nodes directly below `node`, in source order. */
function childrenOf(node: Node): Node[] {
  const children: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || key === "start" || key === "end") continue;
    if (isNode(value)) children.push(value);
    else if (Array.isArray(value)) children.push(...value.filter(isNode));
  }
  return children.sort((a, b) => a.start - b.start);
}

/** Statement lists whose function declarations are hoisted to their start. */
const BODIES = new Set(["Program", "BlockStatement", "StaticBlock"]);

/**
 * `source` with the functions `eager` picks (all by default) made eager, by V8's "parenthesized
 * function" heuristic: a function expression or arrow function written inside parentheses is
 * compiled with the code around it. A function declaration becomes a parenthesized function
 * expression assigned at the start of its scope, where the declaration's binding was created
 * (declarations are hoisted), so it is defined before any code of the scope runs, as before.
 * Methods, getters and setters cannot be written that way, and V8 does not apply the heuristic to
 * async arrow functions (measured with `--log-function-events`): those stay lazy.
 *
 * @example
 * ```ts
 * eagerFunctions("f();function f(a){return a}"); // "var f=(function f(a){return a});f();"
 * ```
 */
export function eagerFunctions(
  source: string,
  eager: (offset: number) => boolean = () => true,
): string {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node;

  const emit = (node: Node, parent: Node | undefined): string => {
    let text = "";
    let at = node.start;
    const hoisted: string[] = [];
    for (const child of childrenOf(node)) {
      // A shorthand property (`{ x }`) has its key and value at the same place: emit it once.
      if (child.start < at) continue;
      text += source.slice(at, child.start);
      at = child.end;
      if (child.type === "FunctionDeclaration" && BODIES.has(node.type) && eager(child.start)) {
        const name = (child.id as Node & { name: string }).name;
        // A block's declarations are block-scoped in a module (strict mode): keep them so.
        const keyword = node.type === "BlockStatement" && !isFunction(parent) ? "let" : "var";
        hoisted.push(`${keyword} ${name}=(${emit(child, node)});`);
        continue;
      }
      text += emit(child, node);
    }
    text += source.slice(at, node.end);
    if (hoisted.length > 0) {
      // After a block's `{`, or at the program's start.
      const open = node.type === "Program" ? 0 : text.indexOf("{") + 1;
      text = text.slice(0, open) + hoisted.join("") + text.slice(open);
    }
    const isMethod = parent !== undefined &&
      (parent.type === "MethodDefinition" ||
        (parent.type === "Property" && (parent.method === true || parent.kind !== "init")));
    const expression = node.type === "FunctionExpression" ||
      node.type === "ArrowFunctionExpression";
    if (expression && !isMethod && eager(node.start)) {
      return `(${text})`;
    }
    return text;
  };
  return emit(program, undefined);
}

function isFunction(node: Node | undefined): boolean {
  return node !== undefined &&
    (node.type === "FunctionDeclaration" || node.type === "FunctionExpression" ||
      node.type === "ArrowFunctionExpression");
}
