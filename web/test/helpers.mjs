// What the Node tests share: the checkout, the Python that runs the dnlint command, and
// the page's Python (Pyodide with the built wheel) started as the worker starts it.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const WEB = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT = dirname(WEB);
export const DIST = join(WEB, "dist");
// the CPython that runs the command for the expected answers: PYTHON, else python3
export const PYTHON = process.env.PYTHON || "python3";
export const FACE_KEYS = ["name", "from", "to"];

export function cpython(args, input) {
  return execFileSync(PYTHON, args, {
    input, maxBuffer: 1 << 30, encoding: "utf8",
    env: { ...process.env, PYTHONPATH: join(ROOT, "src") },
  });
}

// the CLI's JSON diagnostics of `data` linted as `path` with `flags`
export function cliFindings(data, path, flags = []) {
  const out = cpython(["-m", "dnlint", "--no-config", "--format", "json", "--exit-zero",
    "--stdin-filename", path, ...flags, "-"], data);
  return JSON.parse(out).files.flatMap((f) => f.diagnostics);
}

export function builtWheels() {
  const dir = join(DIST, "wheels");
  if (!existsSync(dir)) throw new Error("web/dist is not built: npm --prefix web run build");
  return readdirSync(dir).filter((n) => n.endsWith(".whl")).map((n) => readFileSync(join(dir, n)));
}

export function withoutFaceKeys(findings) {
  return findings.map((f) => Object.fromEntries(Object.entries(f)
    .filter(([k]) => !FACE_KEYS.includes(k))));
}
