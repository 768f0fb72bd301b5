// The README's TypeScript example, exactly as printed: the first `ts` block of its TypeScript client section is
// compiled by tsc in throwaway projects that import the package by its name (an ES module project with lib "dom",
// as a Capacitor web project has; a CommonJS Node project; NodeNext and Node16 ones, which read the `exports` map's
// types), then run by node against the binary, in a temporary folder that holds the example's database.
// The package's declarations are checked in each (skipLibCheck false); TypeScript's own lib files are not.
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { execFile } = require("node:child_process");
const { promisify } = require("node:util");
const ts = require("typescript");
const { repository, packageRoot, binary, temporaryDirectory } = require("./support");

const run = promisify(execFile);
const SECTION = "## For the web layer: the TypeScript client";

/** The code of the section's first `ts` block. */
function readmeExample() {
  const readme = fs.readFileSync(path.join(repository, "README.md"), "utf8");
  const start = readme.indexOf(SECTION);
  assert.ok(start >= 0, `README.md has the section "${SECTION}"`);
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(start));
  assert.ok(block, "the section has a ts block");
  return block[1];
}

// What @types/node would declare for the example in a Node project (there is no lib "dom" there to declare it).
const NODE_GLOBALS = "declare var console: { log(...data: unknown[]): void; error(...data: unknown[]): void };\n";

const projects = [
  { name: "an ES module project with lib dom and es2022, module es2022", type: "module",
    compilerOptions: { module: "es2022", moduleResolution: "node", lib: ["dom", "es2022"] } },
  { name: "a CommonJS project for Node", type: "commonjs", nodeGlobals: true,
    compilerOptions: { module: "commonjs", moduleResolution: "node", lib: ["es2022"], types: [] } },
  { name: "an ES module project with module nodenext", type: "module", nodeGlobals: true,
    compilerOptions: { module: "nodenext", moduleResolution: "nodenext", lib: ["es2022"], types: [] } },
  { name: "a CommonJS project with module node16", type: "commonjs", nodeGlobals: true,
    compilerOptions: { module: "node16", moduleResolution: "node16", lib: ["es2022"], types: [] } },
];

/** A project folder with the example, its tsconfig and package.json, and the client linked in node_modules. */
function project({ type, compilerOptions, nodeGlobals }, example) {
  const dir = temporaryDirectory();
  const files = ["example.ts"];
  fs.writeFileSync(path.join(dir, "example.ts"), example);
  if (nodeGlobals) {
    fs.writeFileSync(path.join(dir, "node-globals.d.ts"), NODE_GLOBALS);
    files.push("node-globals.d.ts");
  }
  const options = { target: "es2022", strict: true, skipLibCheck: false, skipDefaultLibCheck: true, rootDir: ".", outDir: "out", ...compilerOptions };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files }, null, 2));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "readme-example", private: true, type }));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(packageRoot, path.join(dir, "node_modules", "entityidx-client"), "dir");
  return dir;
}

// TypeScript's lib files, parsed once for all the projects (the rest is each project's own).
const libFolder = path.dirname(ts.getDefaultLibFilePath({}));
const libFiles = new Map();

/** What `tsc -p dir` does, in this process: read dir/tsconfig.json, compile, write; the diagnostics as text. */
function compile(dir) {
  const problems = [];
  const report = (d) => problems.push(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  const config = ts.getParsedCommandLineOfConfigFile(path.join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: report });
  if (!config) return problems;
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile;
  host.getSourceFile = (fileName, version, ...rest) => {
    if (path.dirname(fileName) !== libFolder) return read(fileName, version, ...rest);
    const key = `${fileName} ${JSON.stringify(version)}`;
    if (!libFiles.has(key)) libFiles.set(key, read(fileName, version, ...rest));
    return libFiles.get(key);
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  for (const d of diagnostics) {
    const where = d.file ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
    problems.push(where + ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  }
  return problems;
}

test("the README example compiles and runs as printed", { concurrency: true }, async (t) => {
  const example = readmeExample();
  assert.match(example, /from "entityidx-client"/, "the example imports the package by its name");
  const env = { ...process.env, PATH: path.dirname(binary) + path.delimiter + process.env.PATH };
  await Promise.all(projects.map((setup) =>
    t.test(setup.name, async () => {
      const dir = project(setup, example);
      assert.deepEqual(compile(dir), [], "tsc -p reports nothing");
      const { stdout } = await run(process.execPath, [path.join(dir, "out", "example.js")], { cwd: dir, env });
      assert.equal(stdout, "1042 Order #1042-A: 42.5, placed 2026-03-01T10:30:00.000Z\n");
      assert.ok(fs.existsSync(path.join(dir, "shop.sqlite")), "the database is the example's, in its folder");
    })));
});
