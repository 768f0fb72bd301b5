// The Node client against the built binary: both builds, every method, pipelining, errors, closing.
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { binary, readJSON, temporaryDirectory, compiled } = require("./support");
const { EntityIndex, EntityIndexError } = require(compiled("index.js"));

const NOW = "2026-03-02T09:00:00Z";
const open = () => EntityIndex.open({ db: path.join(temporaryDirectory(), "index.sqlite"), binary, now: NOW });
const camel = (method) => method.replace(/\.(\w)/g, (_, c) => c.toUpperCase()).replace(/^rpcDiscover$/, "discover");

test("the ES module build and the CommonJS build export the same names", async () => {
  const esm = await import(pathToFileURL(compiled("index.js", "esm")).href);
  const cjs = require(compiled("index.js"));
  assert.deepEqual(Object.keys(esm).sort(), Object.keys(cjs).filter((name) => name !== "__esModule").sort());
  assert.deepEqual(Object.keys(esm).sort(), ["EntityIndex", "EntityIndexError", "EntityIndexWeb", "pluginName", "registerEntityIndex"]);
});

test("search pages: total and nextCursor, the pages concatenated equal one request", async () => {
  const index = await open();
  try {
    await index.ingest(Array.from({ length: 25 }, (_, i) => ({ type: "note", id: `n${i}`, title: `Kettle note ${i}` })));
    const all = await index.search({ query: "kettle", limit: 25 });
    assert.equal(all.total, 25);
    assert.equal(all.nextCursor, undefined);
    const pages = [];
    let cursor;
    do {
      const page = await index.search({ query: "kettle", limit: 10, cursor });
      assert.equal(page.total, 25);
      pages.push(...page.entities.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(pages, all.entities.map((e) => e.id));
    await assert.rejects(index.search({ query: "note", cursor: (await index.search({ query: "kettle", limit: 1 })).nextCursor }),
      (e) => e.data.code === "invalid_params" && /another search/.test(e.message));
  } finally {
    assert.equal(await index.close(), 0);
  }
});

test("matching: a spoken query leaves its words out one at a time, explained as words matched of the query's", async () => {
  const index = await open();
  try {
    await index.ingest([
      { type: "customer", id: "c1", title: "Ada Lovelace" },
      { type: "order", id: "1047", title: "Order #1047", subtitle: "Ada Lovelace" },
      { type: "note", id: "n1", title: "The order of things" },
    ]);
    assert.deepEqual((await index.search({ query: "show me Ada" })).entities, []);
    const found = await index.search({ query: "show me Ada", matching: "frequency", explain: true });
    assert.deepEqual(found.entities.map((e) => e.id), ["c1", "1047"]);
    assert.deepEqual(found.entities.map((e) => e.explain.words), ["1/3", "1/3"]);
    assert.equal(found.total, 2);
    assert.equal((await index.userQuery({ query: "show me Ada" })).items[0].id, "c1");
    assert.deepEqual((await index.userQuery({ query: "show me Ada", matching: "all" })).items, []);
    await assert.rejects(index.search({ query: "x", matching: "most" }),
      (e) => e.data.code === "invalid_params" && /parameter "matching" must be one of all, frequency, last/.test(e.message));
  } finally {
    assert.equal(await index.close(), 0);
  }
});

test("every pipe method has a client method that answers", async () => {
  const index = await open();
  try {
    const methods = Object.keys(readJSON("schema/pipe.schema.json").methods);
    for (const method of methods) assert.equal(typeof index[camel(method)], "function", `${method} → ${camel(method)}`);
    const records = [
      { type: "order", id: 1042, title: "Order #1042-A", properties: { status: "shipped", total: 42.5 }, related: [{ type: "customer", id: "c1" }] },
      { type: "customer", id: "c1", title: "Ada Lovelace", domain: "shop.customers" },
    ];
    assert.deepEqual(await index.ingest(records), { inserted: 2, updated: 0, unchanged: 0 });
    assert.equal((await index.get({ type: "order", ids: ["1042", "nope"] })).entities[0].id, "1042");
    assert.equal((await index.search({ query: "ada" })).entities[0].id, "c1");
    assert.equal((await index.complete({ prefix: "lov" })).completions[0].term, "Lovelace");
    assert.equal((await index.suggest()).entities.length, 2);
    assert.equal((await index.all({ type: "order" })).entities.length, 1);
    assert.equal((await index.query({ type: "order", filters: [{ property: "total", op: "gt", value: 40 }] })).entities.length, 1);
    assert.equal((await index.related({ type: "order", id: 1042 })).entities[0].id, "c1");
    assert.deepEqual(await index.donate({ type: "order", id: "1042" }), { counted: true });
    assert.deepEqual(await index.batchBegin(), {});
    await index.ingest([{ type: "note", id: "n1", title: "In a batch" }]);
    assert.deepEqual(await index.batchEnd({ clientState: "v1" }), {});
    assert.deepEqual(await index.state(), { clientState: "v1" });
    const { requestId } = await index.reindexRequest({ type: "customer" });
    assert.deepEqual((await index.reindexPending()).requests[0].outstanding, ["c1"]);
    assert.deepEqual(await index.reindexAck({ requestId }), {});
    assert.deepEqual(await index.declare({ type: "order", properties: [{ name: "total", kind: "number" }] }), { declared: 1 });
    assert.equal((await index.declarations()).types.order[0].name, "total");
    assert.equal((await index.stats()).entities, 3);
    assert.equal((await index.discover()).openrpc, "1.3.2");
    assert.deepEqual((await index.spotlight({ query: "total > 40", fetchAttributes: ["total"] })).entities, [{ type: "order", id: "1042", total: 42.5 }]);
    assert.equal((await index.userQuery({ query: "ada", maxItems: 3 })).items[0].id, "c1");
    const lint = await index.lint({ records: [{ type: "order", id: "1042", title: "Order #1042-A" }, { type: "order", id: "x" }] });
    assert.equal(lint.counts["invalid-record"], 1);
    assert.equal(lint.findings.find((f) => f.code === "invalid-record").record.position, 2);
    const drill = await index.drill({ records: [records[0]], type: "order" });
    assert.equal(drill.indexed, 1);
    assert.equal(drill.restored, 1);
    assert.equal((await index.test([{ name: "ada", search: { query: "ada" }, expect: { top: ["customer/c1"] } }])).passed, 1);
    assert.deepEqual(await index.delete({ domains: ["shop.customers"] }), { deleted: 1 });
  } finally {
    assert.equal(await index.close(), 0);
  }
});

test("test: expectations checked as entityidx test checks a file, the report typed; a wrong case rejects", async () => {
  const index = await open();
  try {
    await index.ingest([
      { type: "order", id: 1042, title: "Order #1042-A", subtitle: "Ada Lovelace" },
      { type: "customer", id: "c1", title: "Ada Lovelace", expiresAt: "2026-04-01T00:00:00Z" },
    ]);
    const report = await index.test([
      { name: "an order by its number", search: { query: "1042" }, expect: { top: ["order/1042"], count: 1 } },
      { name: "the order first", search: { query: "ada" }, expect: { top: ["order/1042"] } },
      { name: "words", complete: { prefix: "lov" }, expect: { top: ["Lovelace"] } },
      { name: "a broken Spotlight query", spotlight: { query: "title == \"open" }, expect: { empty: true } },
    ]);
    assert.deepEqual([report.passed, report.failed, report.wrong], [2, 1, 1]);
    assert.deepEqual(report.cases.map((c) => c.status), ["passed", "failed", "passed", "wrong"]);
    const failed = report.cases[1];
    assert.deepEqual(failed.got, ["customer/c1", "order/1042"]);
    assert.equal(failed.failures[0].expectation, "top");
    assert.ok(failed.tiers && failed.tiers["customer/c1"].score, "a failed search has its ranking tiers");
    assert.equal(report.cases[3].error.data.code, "invalid_query");
    assert.ok(report.cases.every((c) => !("file" in c) && !("line" in c)));
    // now: the customer has expired by May, unless a case has its own clock (a Date is sent as its ISO string).
    const later = await index.test([
      { name: "expired", get: { type: "customer", ids: ["c1"] }, expect: { empty: true } },
      { name: "before", now: new Date("2026-03-10T00:00:00Z"), get: { type: "customer", ids: ["c1"] }, expect: { count: 1 } },
    ], { now: new Date("2026-05-01T00:00:00Z") });
    assert.equal(later.passed, 2, JSON.stringify(later));
    await assert.rejects(
      index.test([{ name: "ok", get: { type: "order", ids: [1042] }, expect: { count: 1 } },
        { name: "typo", search: { query: "x" }, expect: { top: ["order"] } }]),
      (e) => e instanceof EntityIndexError && e.code === -32602 && e.data.code === "invalid_params"
        && e.message.includes('cases[1] ("typo"): expect.top[0]'));
  } finally {
    assert.equal(await index.close(), 0);
  }
});

test("a union of types and fields, as the pipe takes them", async () => {
  const index = await open();
  try {
    await index.ingest([
      { type: "order", id: 1, title: "Blue mug order", subtitle: "Ada", properties: { total: 12, status: "open" } },
      { type: "product", id: "p1", title: "Blue mug", properties: { price: 9 } },
      { type: "note", id: "n1", title: "Blue mug note" },
    ]);
    const { entities } = await index.search({ query: "blue mug", type: ["order", "product"], fields: ["title", "properties.total"] });
    assert.deepEqual(entities.map((e) => `${e.type}/${e.id}`).sort(), ["order/1", "product/p1"]);
    for (const e of entities) assert.deepEqual(Object.keys(e).filter((k) => k !== "score").sort(), e.type === "order" ? ["id", "properties", "title", "type"] : ["id", "title", "type"]);
    assert.deepEqual(entities.find((e) => e.type === "order").properties, { total: 12 });
    const page = await index.all({ type: ["product", "note"], limit: 1 });
    assert.equal(page.nextCursor, "note/n1");
    await assert.rejects(index.get({ type: "order", ids: [1], fields: ["titel"] }), (e) => e instanceof EntityIndexError && e.data.code === "invalid_params" && /did you mean "title"/.test(e.message));
  } finally {
    await index.close();
  }
});

// The timeout only catches a hang: how long 200 requests take is the machine's; each answer being its own is the test's.
test("requests are pipelined and each promise gets its own answer", { timeout: 120_000 }, async () => {
  const index = await open();
  const records = Array.from({ length: 200 }, (_, i) => ({ type: "task", id: i, title: `Task ${i} of the day` }));
  await index.ingest(records);
  const answers = await Promise.all(records.map((r) => index.get({ type: "task", ids: [r.id] })));
  answers.forEach((answer, i) => assert.equal(answer.entities[0].title, `Task ${i} of the day`));
  const mixed = await Promise.allSettled([index.stats(), index.related({ type: "task", id: "none" }), index.state()]);
  assert.deepEqual(mixed.map((m) => m.status), ["fulfilled", "rejected", "fulfilled"]);
  await index.close();
});

test("answers longer than a read keep characters that a chunk boundary splits", async () => {
  const index = await open();
  try {
    const title = (i) => `東京の店 ${i} café Straße 🍵 ${"ü".repeat(i % 7)}`;
    const records = Array.from({ length: 400 }, (_, i) => ({ type: "shop", id: i, title: title(i), description: "説明".repeat(40) }));
    await index.ingest(records);
    const { entities } = await index.all({ type: "shop", limit: 400 });
    assert.equal(entities.length, 400);
    for (const entity of entities) {
      assert.equal(entity.title, title(Number(entity.id)));
      assert.equal(entity.description, "説明".repeat(40));
    }
  } finally {
    await index.close();
  }
});

test("a Date is sent as its ISO-8601 string: record dates, date properties, filters, the clock", async () => {
  const index = await EntityIndex.open({ db: path.join(temporaryDirectory(), "index.sqlite"), binary, now: new Date(NOW) });
  try {
    const placedAt = new Date("2026-03-01T10:30:00+02:00");
    await index.ingest([
      { type: "order", id: 1, title: "Early order", lastUsedAt: new Date("2026-03-01T08:00:00Z"),
        expiresAt: new Date("2026-03-02T09:00:01Z"), properties: { placedAt, total: 10 } },
      { type: "order", id: 2, title: "Late order", properties: { placedAt: "2026-03-02T08:00:00Z", total: 20 } },
      { type: "order", id: 3, title: "Gone order", expiresAt: new Date("2026-03-02T08:59:59Z") },
    ]);
    // Order 1 expires a second after the clock given as a Date, order 3 a second before it.
    const [early] = (await index.get({ type: "order", ids: [1] })).entities;
    assert.equal(early.lastUsedAt, "2026-03-01T08:00:00.000Z");
    assert.equal(early.expiresAt, "2026-03-02T09:00:01.000Z");
    assert.equal(early.properties.placedAt, "2026-03-01T08:30:00.000Z");
    assert.deepEqual((await index.get({ type: "order", ids: [3] })).entities, []);
    const before = await index.query({ type: "order", filters: [{ property: "placedAt", op: "lt", value: new Date("2026-03-02T00:00:00Z") }] });
    assert.deepEqual(before.entities.map((e) => e.id), ["1"]);
    const between = await index.search({ query: "order", filters: [{ property: "placedAt", op: "between",
      value: [new Date("2026-03-01T00:00:00Z"), new Date("2026-03-03T00:00:00Z")] }] });
    assert.deepEqual(between.entities.map((e) => e.id).sort(), ["1", "2"]);
    await assert.rejects(index.ingest([{ type: "order", id: 4, title: "Bad date", lastUsedAt: new Date("not a date") }]), (e) =>
      e instanceof EntityIndexError && e.code === -32602 && e.data.code === "invalid_params" && /"lastUsedAt" is an invalid Date/.test(e.message));
    await assert.rejects(index.query({ type: "order", filters: [{ property: "placedAt", op: "between", value: [new Date(0), new Date(NaN)] }] }),
      (e) => e.data.code === "invalid_params" && /element 1 is an invalid Date/.test(e.message));
    assert.deepEqual((await index.get({ type: "order", ids: [4] })).entities, [], "nothing was sent");
    assert.equal((await index.stats()).entities, 2, "the pipe still answers in order after a refused call");
  } finally {
    await index.close();
  }
  await assert.rejects(EntityIndex.open({ binary, now: new Date(NaN) }), (e) => e.data.code === "invalid_params" && /"now"/.test(e.message));
});

test("errors carry the JSON-RPC code and data.code", async () => {
  const index = await open();
  try {
    await assert.rejects(index.related({ type: "order", id: "none" }), (e) =>
      e instanceof EntityIndexError && e.code === -32000 && e.data.code === "not_found" && e.method === "related");
    await assert.rejects(index.ingest([{ type: "order", id: "1", title: "ok" }, { type: "order", id: "2" }]), (e) =>
      e instanceof EntityIndexError && e.code === -32602 && e.data.code === "invalid_record" &&
      e.data.records[0].position === 2 && e.data.records[0].field === "title");
    await assert.rejects(index.search({ query: "x", limt: 3 }), (e) => e.data.code === "invalid_params" && /limt/.test(e.message));
    await assert.rejects(index.batchEnd({ clientState: "s" }), (e) => e.data.code === "batch_state");
    assert.deepEqual((await index.get({ type: "order", ids: ["1"] })).entities, [], "the rejected ingest wrote nothing");
  } finally {
    await index.close();
  }
});

test("close ends the pipe cleanly; later calls fail with data.code closed", async () => {
  const index = await open();
  const pending = index.stats();
  const status = await index.close();
  assert.equal(status, 0);
  assert.equal((await pending).entities, 0, "a request made before close is still answered");
  await assert.rejects(index.stats(), (e) => e instanceof EntityIndexError && e.data.code === "closed");
  assert.equal(await index.close(), 0, "closing twice is harmless");
});

test("a missing binary is an error at open", async () => {
  await assert.rejects(EntityIndex.open({ binary: path.join(temporaryDirectory(), "no-such-entityidx") }), /ENOENT/);
});
