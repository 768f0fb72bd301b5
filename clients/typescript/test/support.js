// Shared by the tests: the binary under test, the repository's schemas, a temporary directory, the two builds.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repository = path.resolve(__dirname, "..", "..", "..");
const packageRoot = path.resolve(__dirname, "..");
const binary = path.resolve(process.env.ENTITYIDX_BIN || path.join(repository, ".build", "debug", "entityidx"));
const readJSON = (relative) => JSON.parse(fs.readFileSync(path.join(repository, relative), "utf8"));
const temporaryDirectory = () => fs.mkdtempSync(path.join(os.tmpdir(), "entityidx-ts-"));
/** A file of the CommonJS build (`dist/cjs`), or with `format` "esm" of the ES module build. */
const compiled = (relative, format = "cjs") => path.join(packageRoot, "dist", format, relative);

module.exports = { repository, packageRoot, binary, readJSON, temporaryDirectory, compiled };
