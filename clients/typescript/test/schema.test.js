// The TypeScript types and the JSON Schemas name the same fields with the same JSON types: EntityRecord against
// schema/record.schema.json, and the params and result of every method in `Methods` against schema/pipe.schema.json.
// Read with the TypeScript compiler's own API, so what is compared is what tsc sees.
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const ts = require("typescript");
const { readJSON } = require("./support");

const recordSchema = readJSON("schema/record.schema.json");
const pipeSchema = readJSON("schema/pipe.schema.json");
const file = path.join(__dirname, "..", "src", "types.ts");
const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2020, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(file);

function declaration(name) {
  const found = source.statements.find((s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name);
  assert.ok(found, `types.ts declares ${name}`);
  return checker.getTypeAtLocation(found.name);
}

function resolve(schema) {
  while (schema && schema.$ref) {
    const name = schema.$ref.split("/").pop();
    schema = name === "record" ? recordSchema : pipeSchema.$defs[name];
  }
  return schema || {};
}

/** The JSON types a schema allows (integer counts as number), or null when it does not say. */
function schemaKinds(schema) {
  schema = resolve(schema);
  const kinds = new Set();
  const add = (t) => kinds.add(t === "integer" ? "number" : t);
  if (schema.type) [].concat(schema.type).forEach(add);
  else if (schema.oneOf || schema.anyOf) for (const s of schema.oneOf || schema.anyOf) (schemaKinds(s) || []).forEach(add);
  else if (schema.enum) schema.enum.forEach((v) => add(v === null ? "null" : Array.isArray(v) ? "array" : typeof v));
  else if (schema.properties) add("object");
  return kinds.size ? kinds : null;
}

/** A type parameter stands for its default: `EntityRecord` is read as `EntityRecord<Properties>`. */
const concrete = (type) =>
  type.flags & ts.TypeFlags.TypeParameter ? checker.getDefaultFromTypeParameter(type) || checker.getBaseConstraintOfType(type) || type : type;
const members = (type) => (type.isUnion() ? type.types : [type]).map(concrete);
const isDate = (type) => type.symbol?.name === "Date" && checker.typeToString(type) === "Date";
const isArray = (type) => type.symbol?.name === "Array" || checker.typeToString(type).endsWith("[]");

/** The JSON types a TypeScript type allows (undefined, for an optional property, is not one; a Date is sent as a string). */
function tsKinds(type) {
  const kinds = new Set();
  for (const t of members(type)) {
    const f = t.flags;
    if (f & ts.TypeFlags.Undefined) continue;
    if (f & ts.TypeFlags.StringLike) kinds.add("string");
    else if (f & ts.TypeFlags.NumberLike) kinds.add("number");
    else if (f & ts.TypeFlags.BooleanLike) kinds.add("boolean");
    else if (f & ts.TypeFlags.Null) kinds.add("null");
    else if (isDate(t)) kinds.add("string");
    else if (isArray(t)) kinds.add("array");
    else if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) kinds.add("object");
    else kinds.add(checker.typeToString(t));
  }
  return kinds;
}

const same = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const show = (s) => [...s].sort().join("|");

/**
 * Problems comparing a TypeScript type with a schema, recursively through objects and arrays. Where the schema is a
 * choice of objects and the type is one object (a result entity: whole, or with fields a SelectedEntity, which the
 * client's overloads type apart), the type is compared with the first choice.
 */
function compare(type, schema, where, problems, depth = 0) {
  schema = resolve(schema);
  const choices = schema.anyOf || schema.oneOf;
  if (choices && members(type).length === 1 && choices.every((c) => schemaKinds(c)?.has("object"))) schema = resolve(choices[0]);
  const expected = schemaKinds(schema);
  const actual = tsKinds(type);
  if (expected && !same(expected, actual)) problems.push(`${where}: the schema allows ${show(expected)}, TypeScript ${show(actual)}`);
  if (depth > 8) return;
  const object = members(type).find((t) => (t.flags & ts.TypeFlags.Object) && !isArray(t) && !isDate(t));
  if (object && (schema.properties || schema.required)) {
    const props = new Map(checker.getPropertiesOfType(object).map((p) => [p.name, p]));
    const declared = Object.keys(schema.properties || {});
    const required = new Set(schema.required || []);
    for (const name of declared.concat([...required])) {
      if (!props.has(name)) problems.push(`${where}.${name}: in the schema, not in TypeScript`);
    }
    if (schema.additionalProperties === false) {
      for (const name of props.keys()) if (!declared.includes(name)) problems.push(`${where}.${name}: in TypeScript, not in the schema`);
    }
    for (const [name, prop] of props) {
      if (!declared.includes(name) && !required.has(name)) continue;
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      if (optional === required.has(name)) problems.push(`${where}.${name}: ${required.has(name) ? "required" : "optional"} in the schema, not in TypeScript`);
      if (schema.properties?.[name]) {
        compare(checker.getTypeOfSymbolAtLocation(prop, prop.valueDeclaration || source), schema.properties[name], `${where}.${name}`, problems, depth + 1);
      }
    }
  }
  const values = object && object.getStringIndexType();
  if (values && schema.additionalProperties && typeof schema.additionalProperties === "object") {
    compare(values, schema.additionalProperties, `${where}[name]`, problems, depth + 1);
  }
  const array = members(type).find(isArray);
  if (array && schema.items) {
    const [element] = checker.getTypeArguments(array);
    if (element) compare(element, schema.items, `${where}[]`, problems, depth + 1);
  }
}

test("EntityRecord names every field of record.schema.json with its JSON type, required or optional", () => {
  const record = declaration("EntityRecord");
  const problems = [];
  compare(record, recordSchema, "EntityRecord", problems);
  assert.deepEqual(problems, []);
  assert.deepEqual(checker.getPropertiesOfType(record).map((p) => p.name), Object.keys(recordSchema.properties));
});

test("every EntityRecord field has its JSDoc", () => {
  for (const prop of checker.getPropertiesOfType(declaration("EntityRecord"))) {
    const doc = ts.displayPartsToString(prop.getDocumentationComment(checker));
    assert.ok(doc.length > 10, `EntityRecord.${prop.name} has no JSDoc`);
  }
});

test("Methods lists every pipe method with params and result matching pipe.schema.json", () => {
  const methods = declaration("Methods");
  const names = checker.getPropertiesOfType(methods).map((p) => p.name);
  assert.deepEqual([...names].sort(), Object.keys(pipeSchema.methods).sort());
  const problems = [];
  for (const member of checker.getPropertiesOfType(methods)) {
    const entry = checker.getTypeOfSymbolAtLocation(member, member.valueDeclaration);
    for (const part of ["params", "result"]) {
      const prop = checker.getPropertyOfType(entry, part);
      const type = checker.getTypeOfSymbolAtLocation(prop, prop.valueDeclaration);
      compare(type, pipeSchema.methods[member.name][part], `${member.name}.${part}`, problems);
    }
  }
  assert.deepEqual(problems, []);
});

test("the comparison finds a wrong type, a missing field and a wrong optionality", () => {
  const problems = [];
  const schema = { type: "object", required: ["a"], additionalProperties: false,
    properties: { a: { type: "integer" }, b: { type: "string" }, c: { type: ["string", "null"] } } };
  // EntityIdentifier is {type: string; id: string | number}: against this schema every kind of problem shows.
  compare(declaration("EntityIdentifier"), schema, "probe", problems);
  assert.ok(problems.some((p) => p.includes("probe.a: in the schema, not in TypeScript")), problems.join("\n"));
  assert.ok(problems.some((p) => p.includes("probe.type: in TypeScript, not in the schema")), problems.join("\n"));
  const wrong = [];
  compare(declaration("EntityIdentifier"), { type: "object", required: ["type"], properties: { type: { type: "integer" }, id: { type: "string" } } }, "w", wrong);
  assert.ok(wrong.some((p) => p.startsWith("w.type: the schema allows number, TypeScript string")), wrong.join("\n"));
  assert.ok(wrong.some((p) => p.startsWith("w.id: required in the schema") || p.startsWith("w.id: the schema allows string, TypeScript number|string")), wrong.join("\n"));
});

test("SelectedEntity is the schema's selectedEntity, and Field names every record field", () => {
  const problems = [];
  compare(declaration("SelectedEntity"), pipeSchema.$defs.selectedEntity, "SelectedEntity", problems);
  assert.deepEqual(problems, []);
  const literals = members(declaration("Field")).filter((t) => t.isStringLiteral()).map((t) => t.value);
  assert.deepEqual(literals.filter((n) => !["score", "engagement", "explain", "highlights", "matchedBy"].includes(n)), Object.keys(recordSchema.properties));
  assert.ok(members(declaration("Field")).some((t) => t.flags & ts.TypeFlags.TemplateLiteral), "properties.${string}");
});
