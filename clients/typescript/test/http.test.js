// The fetch client of `entityidx serve` (EntityIndex.connect) in Node, both builds and the browser entry: every
// method, the token, HTTP refusals and closing; and the Capacitor plugin's web implementation.
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { spawn } = require("node:child_process");
const { pathToFileURL } = require("node:url");
const { binary, readJSON, temporaryDirectory, compiled } = require("./support");

const NOW = "2026-03-02T09:00:00Z";
const camel = (method) => method.replace(/\.(\w)/g, (_, c) => c.toUpperCase()).replace(/^rpcDiscover$/, "discover");

/** `entityidx serve --port 0 --allow-writes` on a new index; resolves with its url, token and a stop function. */
function serve(...extra) {
  const db = path.join(temporaryDirectory(), "index.sqlite");
  const child = spawn(binary, ["--db", db, "--now", NOW, "serve", "--port", "0", "--allow-writes", ...extra], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise((resolve, reject) => {
    let text = "";
    child.once("error", reject);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const url = /^listening on (\S+)$/m.exec(text);
      const token = /^token: (\S+)$/m.exec(text);
      if (url && token) {
        const stop = () => new Promise((done) => { child.once("exit", (code) => done(code)); child.kill("SIGTERM"); });
        resolve({ url: url[1], token: token[1], stop });
      }
    });
  });
}

test("the browser entry exports connect and the plugin, and nothing of Node", async () => {
  const browser = await import(pathToFileURL(compiled("browser.js", "esm")).href);
  assert.deepEqual(Object.keys(browser).sort(), ["EntityIndex", "EntityIndexError", "EntityIndexWeb", "pluginName", "registerEntityIndex"]);
  assert.equal(typeof browser.EntityIndex.connect, "function");
  assert.equal(browser.EntityIndex.open, undefined);
  const fs = require("node:fs");
  for (const file of ["browser.js", "web.js", "http.js", "client.js", "capacitor.js", "errors.js", "types.js"]) {
    assert.doesNotMatch(fs.readFileSync(compiled(file, "esm"), "utf8"), /node:/, `${file} imports nothing of Node`);
  }
});

test("every pipe method answers over HTTP, as through the pipe", async () => {
  const server = await serve();
  try {
    for (const format of ["cjs", "esm"]) {
      const { EntityIndex } = format === "cjs" ? require(compiled("browser.js")) : await import(pathToFileURL(compiled("browser.js", "esm")).href);
      const index = await EntityIndex.connect({ url: server.url, token: server.token });
      for (const method of Object.keys(readJSON("schema/pipe.schema.json").methods)) {
        assert.equal(typeof index[camel(method)], "function", `${method} → ${camel(method)}`);
      }
      await index.delete({ all: true });
      const records = [
        { type: "order", id: 1042, title: "Order #1042-A", lastUsedAt: new Date("2026-03-01T10:00:00Z"), related: [{ type: "customer", id: "c1" }] },
        { type: "customer", id: "c1", title: "Ada Lovelace", domain: "shop.customers" },
      ];
      assert.deepEqual(await index.ingest(records), { inserted: 2, updated: 0, unchanged: 0 });
      assert.equal((await index.search({ query: "ada lo", highlight: true })).entities[0].highlights[0].text, "Ada");
      assert.equal((await index.get({ type: "order", ids: [1042] })).entities[0].lastUsedAt, "2026-03-01T10:00:00.000Z");
      assert.equal((await index.related({ type: "order", id: 1042 })).entities[0].id, "c1");
      assert.match((await index.batchBegin()).batch, /^b-[0-9a-f]{32}$/);
      await index.ingest([{ type: "note", id: "n1", title: "In a batch" }]);
      assert.deepEqual(await index.batchEnd({ clientState: `v-${format}` }), {});
      assert.deepEqual(await index.state(), { clientState: `v-${format}` });
      assert.equal((await index.userQuery({ query: "ada" })).items[0].id, "c1");
      const report = await index.test([{ name: "ada", search: { query: "ada" }, expect: { top: ["order/1042"] } }]);
      assert.deepEqual([report.failed, report.cases[0].got[0]], [1, "customer/c1"]);
      assert.equal((await index.stats()).entities, 3);
      assert.equal((await index.discover()).openrpc, "1.3.2");
      const many = await Promise.all(Array.from({ length: 50 }, () => index.get({ type: "customer", ids: ["c1"] })));
      assert.ok(many.every((r) => r.entities[0].title === "Ada Lovelace"));
      await assert.rejects(index.related({ type: "order", id: "none" }), (e) => e.code === -32000 && e.data.code === "not_found");
      assert.equal(await index.close(), null);
      await assert.rejects(index.stats(), (e) => e.data.code === "closed");
    }
  } finally {
    assert.equal(await server.stop(), 143);
  }
});

test("a batch belongs to its client: another client's writes are not in it, close() rolls it back", async () => {
  const server = await serve();
  const { EntityIndex } = require(compiled("index.js"));
  try {
    const a = await EntityIndex.connect({ url: server.url, token: server.token });
    const b = await EntityIndex.connect({ url: server.url, token: server.token });
    await a.batchBegin();
    await a.ingest([{ type: "note", id: "a1", title: "In A's batch" }]);
    // B reads beside A's open batch and does not see it; B's write waits for A's batch to end.
    assert.deepEqual((await b.get({ type: "note", ids: ["a1"] })).entities, []);
    const written = b.ingest([{ type: "note", id: "b1", title: "B's own" }]);
    await assert.rejects(a.batchEnd({ clientState: "v2", expectedClientState: "v1" }), (e) => e.data.code === "mismatched_client_state");
    assert.deepEqual(await written, { inserted: 1, updated: 0, unchanged: 0 });
    assert.deepEqual((await b.get({ type: "note", ids: ["a1", "b1"] })).entities.map((e) => e.id), ["b1"]);
    // close() with a batch open rolls it back and frees the lock for the next writer.
    await a.batchBegin();
    await a.ingest([{ type: "note", id: "a2", title: "Never applied" }]);
    assert.equal(await a.close(), null);
    assert.deepEqual(await b.ingest([{ type: "note", id: "b2", title: "After A closed" }]), { inserted: 1, updated: 0, unchanged: 0 });
    assert.deepEqual((await b.get({ type: "note", ids: ["a2", "b2"] })).entities.map((e) => e.id), ["b2"]);
  } finally {
    assert.equal(await server.stop(), 143);
  }
});

test("writes need the token; refusals and an unreachable server are EntityIndexErrors", async () => {
  const server = await serve();
  const { EntityIndex, EntityIndexError } = require(compiled("index.js"));
  try {
    const reader = await EntityIndex.connect({ url: server.url + "/" });
    assert.equal((await reader.stats()).entities, 0);
    await assert.rejects(reader.ingest([{ type: "note", id: "n", title: "No token" }]), (e) =>
      e instanceof EntityIndexError && e.data.code === "unauthorized" && /Authorization: Bearer/.test(e.message));
    const foreign = await EntityIndex.connect({
      url: server.url, fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, Origin: "http://evil.example" } }) });
    await assert.rejects(foreign.stats(), (e) => e.data.code === "http_error" && e.data.status === 403 && /origin/.test(e.message));
    await assert.rejects(EntityIndex.connect({ url: "localhost:1" }), (e) => e.data.code === "invalid_params");
  } finally {
    await server.stop();
  }
  const gone = await EntityIndex.connect({ url: server.url });
  await assert.rejects(gone.stats(), (e) => e instanceof EntityIndexError && e.data.code === "unreachable");
});

test("the Capacitor plugin's web implementation, registered as registerPlugin would", async () => {
  const server = await serve();
  const { registerEntityIndex, pluginName } = require(compiled("browser.js"));
  try {
    const registered = [];
    // What @capacitor/core's registerPlugin does in a browser: the web implementation, loaded on first use.
    const registerPlugin = (name, implementations) => {
      registered.push(name);
      let plugin;
      return new Proxy({}, { get: (_, method) => async (...args) => {
        plugin ??= await implementations.web();
        return plugin[method](...args);
      } });
    };
    const Entities = registerEntityIndex(registerPlugin, { url: server.url, token: server.token });
    assert.deepEqual(registered, [pluginName]);
    assert.equal((await Entities.ingest({ records: [{ type: "customer", id: "c1", title: "Ada Lovelace" }] })).inserted, 1);
    assert.equal((await Entities.search({ query: "lovel" })).entities[0].id, "c1");
    assert.equal((await Entities.donate({ type: "customer", id: "c1" })).counted, true);
    assert.equal((await Entities.suggest()).entities[0].id, "c1");
    assert.deepEqual(await Entities.delete({ type: "customer" }), { deleted: 1 });
  } finally {
    await server.stop();
  }
});
