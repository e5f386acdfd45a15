/**
 * Never-throw file access, in one place: each helper gives the value, or undefined (or the
 * reason) when there is none. Sync: on the hook's path an async op's thread hop costs more.
 */
import { fileReason, writeReason } from "../core/errors.ts";
import { fail, failed, type Result } from "../core/result.ts";

/** The file's information (symlinks followed), or undefined when it cannot be had. */
export function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** The file's information, or why it cannot be had, in {@link fileReason}'s words. */
export function statOrWhy(path: string): Result<Deno.FileInfo> {
  try {
    return Deno.statSync(path);
  } catch (error) {
    return fail(fileReason(error), error instanceof Deno.errors.NotFound ? "missing" : "invalid");
  }
}

/** The file's text, or undefined when it cannot be read. */
export function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * A small file's bytes, refused unread when over `maxBytes` or not a file; else why it cannot be
 * read, in {@link fileReason}'s words: kind `missing` when there is none (or a file stands where
 * a folder on its path should).
 */
export function readSmallFile(path: string, maxBytes: number): Result<Uint8Array> {
  try {
    const info = Deno.statSync(path);
    if (info.isDirectory) return fail("it is a folder, not a file");
    if (!info.isFile) return fail("it is not a regular file");
    if (info.size > maxBytes) {
      return fail(`it is ${info.size} bytes, over the ${maxBytes}-byte limit`);
    }
    return Deno.readFileSync(path);
  } catch (error) {
    const none = error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory;
    return fail(fileReason(error), none ? "missing" : "invalid");
  }
}

/** The file's JSON value, or undefined when it cannot be read or is not JSON. */
export function readJson(path: string): unknown {
  try {
    return JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return undefined;
  }
}

/** The entries of the folder `dir`; none when it cannot be read (an absent folder holds none). */
export function entriesOf(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
}

/** The file's first `bytes` bytes (or fewer), as text; empty when it cannot be read. */
export function readHead(path: string, bytes: number): string {
  try {
    using file = Deno.openSync(path);
    const buffer = new Uint8Array(bytes);
    return new TextDecoder().decode(buffer.subarray(0, file.readSync(buffer) ?? 0));
  } catch {
    return "";
  }
}

/**
 * A new folder under the temp folder, or why none could be made there, in one line naming the
 * temp folder (and the variable that named it) and the reason.
 */
export function makeTempFolder(
  prefix: string,
  tmp: { path: string; via: string | undefined },
): Result<string> {
  try {
    return Deno.makeTempDirSync({ prefix });
  } catch (error) {
    const info = statOrWhy(tmp.path);
    const why = failed(info, "missing")
      ? "there is no such folder"
      : failed(info)
      ? info.error
      : info.isDirectory
      ? writeReason(error)
      : "it is not a folder";
    const where = tmp.via ? `${tmp.via} ${tmp.path}` : tmp.path;
    return fail(`cannot make its temporary folder in ${where}: ${why}`);
  }
}
