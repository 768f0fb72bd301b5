// Shared by the tests: the binary under test, the repository's schemas, a temporary directory.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repository = path.resolve(__dirname, "..", "..", "..");
const binary = path.resolve(process.env.ENTITYIDX_BIN || path.join(repository, ".build", "debug", "entityidx"));
const readJSON = (relative) => JSON.parse(fs.readFileSync(path.join(repository, relative), "utf8"));
const temporaryDirectory = () => fs.mkdtempSync(path.join(os.tmpdir(), "entityidx-ts-"));
const compiled = (relative) => path.join(__dirname, "..", "dist", relative);

module.exports = { repository, binary, readJSON, temporaryDirectory, compiled };
