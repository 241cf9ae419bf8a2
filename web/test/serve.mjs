// A static server for web/dist on 127.0.0.1 only (the tests' and `npm run serve`'s), with
// the MIME types the page needs (.mjs as JavaScript, .wasm as application/wasm).
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
  ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm",
  ".zip": "application/zip", ".whl": "application/zip", ".txt": "text/plain; charset=utf-8",
  ".png": "image/png", ".svg": "image/svg+xml",
};

export function serve(root, port = 0) {
  const base = resolve(root);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) { response.writeHead(403).end(); return; }
    try {
      if (statSync(file).isDirectory()) file = join(file, "index.html");
      const size = statSync(file).size;
      response.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream",
        "content-length": size, "cache-control": "no-cache" });
      createReadStream(file).pipe(response);
    } catch {
      response.writeHead(404).end("not found");
    }
  });
  return new Promise((done) => server.listen(port, "127.0.0.1", () => done(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL("../dist", import.meta.url));
  const server = await serve(here, Number(process.env.PORT || 8000));
  console.log(`serving ${here} on http://127.0.0.1:${server.address().port}/`);
}
