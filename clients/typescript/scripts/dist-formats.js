// Marks the two builds for Node and TypeScript: dist/esm holds ES modules, dist/cjs CommonJS modules (each folder's
// package.json "type" decides how its .js and .d.ts files are read). Run after both tsc builds.
const fs = require("node:fs");
const path = require("node:path");

const dist = path.join(__dirname, "..", "dist");
for (const [folder, type] of [["esm", "module"], ["cjs", "commonjs"]]) {
  fs.writeFileSync(path.join(dist, folder, "package.json"), JSON.stringify({ type }) + "\n");
}
