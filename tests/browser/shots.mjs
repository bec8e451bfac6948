// Where the screenshot scripts and MIDPOINT_SHOTS=1 save their pictures: review screenshots go to
// tests/browser/artifacts/shots/ (not committed). A picture a document shows is copied into docs/
// by hand after looking at it; docs/ holds only images some document shows (tests/references.rs).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const shotsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "artifacts", "shots");

/** The path to save the screenshot `name` at, its directory made. */
export function shot(name) {
  mkdirSync(shotsDir, { recursive: true });
  return path.join(shotsDir, name);
}
