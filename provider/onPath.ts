/** Finding a program as a shell (and the Pulumi engine's `exec.LookPath`) does: on `PATH`. */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** Whether `file` is a regular file this process may execute. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable of `names` in the directories of `pathVar`, directory by directory and each name in order; undefined when none is. */
export function findOnPath(names: readonly string[], pathVar: string): string | undefined {
  for (const dir of pathVar.split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}
