// A static file server for web/dist on localhost, with the MIME types a
// WebAssembly page needs (application/wasm lets the browser compile the
// module while it downloads), and FILE.gz sent compressed in place of FILE
// to a browser that accepts gzip (what nginx's gzip_static does; `make web`
// writes the .gz files). Node's standard library only.
//
//   node web/serve.mjs [DIR] [PORT]     (defaults: web/dist, 8080)
//
// The browser test imports serve() and listens on a free port.

import { createServer } from "node:http";
import { createReadStream, promises as fs } from "node:fs";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".hoard": "application/octet-stream",
  ".png": "image/png",
  ".json": "application/json",
};

/** Serves `dir` on 127.0.0.1:`port` (0: any free port); resolves to the server. */
export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    let file = resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end("forbidden\n");
      return;
    }
    try {
      let stat = await fs.stat(file);
      if (stat.isDirectory()) {
        file = join(file, "index.html");
        stat = await fs.stat(file);
      }
      const headers = { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-cache" };
      let body = file;
      if (/\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
        const gz = await fs.stat(`${file}.gz`).catch(() => null);
        if (gz?.isFile()) {
          body = `${file}.gz`;
          stat = gz;
          headers["content-encoding"] = "gzip";
        }
      }
      headers["content-length"] = stat.size;
      headers["vary"] = "accept-encoding";
      res.writeHead(200, headers);
      if (req.method === "HEAD") return res.end();
      createReadStream(body).pipe(res);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}\n`);
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const dir = process.argv[2] ?? join(here, "dist");
  const port = Number(process.argv[3] ?? 8080);
  try {
    await fs.access(join(dir, "index.html"));
  } catch {
    console.error(`serve: no ${join(dir, "index.html")}: run 'make web' first`);
    process.exit(1);
  }
  const server = await serve(dir, port).catch((e) => {
    console.error(`serve: cannot listen on port ${port}: ${e.message}`);
    process.exit(1);
  });
  console.log(`Serving ${dir} at http://127.0.0.1:${server.address().port}/  (Ctrl-C stops)`);
}
