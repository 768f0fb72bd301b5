// The client's types as a project sees them: typing.ts, compiled against the emitted declarations in strict mode,
// must have no error (each `@ts-expect-error` in it must be one), both without lib "dom" and with it.
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const ts = require("typescript");

const file = path.join(__dirname, "typing.ts");

for (const lib of [["lib.es2022.d.ts"], ["lib.dom.d.ts", "lib.es2022.d.ts"]]) {
  test(`typing.ts compiles with lib ${lib.join(", ")}`, () => {
    const program = ts.createProgram([file], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.NodeJs, lib, types: [], skipDefaultLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
      return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
    });
    assert.deepEqual(problems, []);
  });
}
