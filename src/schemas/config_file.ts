/**
 * The config file's shape (src/settings/config_file.ts reads the file). In a module of its own,
 * loaded only when a config file exists: a bundle that imports zod statically anywhere on the
 * hook's path evaluates zod's modules on every call (docs/maintainers/benchmarks.md).
 */
import * as z from "zod/mini";
import { SETTINGS } from "../settings/table.ts";

/**
 * The file's shape, derived from the settings table: every key optional, each checked by its
 * row's own rule (the environment's rule too), unknown keys refused so typos are caught.
 */
export function configFileSchema() {
  const shape: Record<string, z.ZodMiniOptional<z.ZodMiniType>> = {
    $schema: z.optional(z.string()),
  };
  for (const [key, row] of Object.entries(SETTINGS)) {
    shape[key] = z.optional(z.custom((value) => row.parse(value).kind === "valid"));
  }
  return z.strictObject(shape);
}
