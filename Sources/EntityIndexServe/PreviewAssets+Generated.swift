// swift-format-ignore-file
// Generated from web/ by scripts/gen-web-assets.sh. Do not edit.

extension PreviewAssets {
    static let files: [String: (type: String, text: String)] = [
        "/index.html": ("text/html; charset=utf-8", ##"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>entityidx preview</title>
<link rel="stylesheet" href="preview.css">
</head>
<body>
<header>
  <h1>entityidx <span>preview</span></h1>
  <p id="stats" class="muted">…</p>
</header>
<main>
  <form id="search-form" role="search" autocomplete="off">
    <input id="query" type="search" placeholder="Search the index" aria-label="Search the index" autofocus>
    <label class="toggle" title="How many of the words must match: every one, or fewer when fewer entities match them all (the rarest words kept, or the first ones)">words
      <select id="matching" aria-label="Words that must match">
        <option value="all" selected>all</option>
        <option value="frequency">drop frequent</option>
        <option value="last">drop last</option>
      </select></label>
    <label class="toggle"><input id="explain" type="checkbox"> ranking tiers</label>
    <label class="toggle" title="Count every match's values of these (comma-separated: type, domain or property names); a chip filters by its value">facets
      <input id="facet-names" type="text" value="type" size="14" aria-label="Facets to count"></label>
  </form>
  <div id="active" aria-label="Active filters"></div>
  <div id="facets" aria-label="Facets"></div>
  <ul id="suggestions" aria-label="Suggestions"></ul>
  <p id="status" class="muted" role="status"></p>
  <ol id="results" aria-label="Results"></ol>
  <section id="pins" hidden>
    <h2>Pinned expectations <span id="pins-count" class="muted"></span></h2>
    <p class="muted">An expectations file: save it as a .json file and run <code>entityidx test FILE</code> in CI.</p>
    <pre id="pins-json"></pre>
    <button id="copy-pins" type="button">Copy</button>
    <button id="clear-pins" type="button">Clear</button>
  </section>
  <section id="lint">
    <h2>Lint of the index <span id="lint-summary" class="muted"></span></h2>
    <button id="check" type="button">Check the index</button>
    <ul id="findings"></ul>
  </section>
</main>
<script src="preview.js"></script>
</body>
</html>

"""##),
        "/preview.css": ("text/css; charset=utf-8", ##"""
/* The preview page of entityidx serve: results drawn as Spotlight lists app entities. No framework. */
:root {
  --bg: #f2f2f7; --card: #fff; --text: #1c1c1e; --muted: #6e6e73; --accent: #0a84ff; --line: #d1d1d6;
  --mark: #ffe066; --error: #d70015; --warning: #b25000;
  font-family: -apple-system, BlinkMacSystemFont, "SF Pro Text", "Segoe UI", Roboto, "Helvetica Neue", sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #000; --card: #1c1c1e; --text: #f2f2f7; --muted: #98989d; --line: #38383a; --mark: #7a5d00; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
header, main { max-width: 44rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1.25rem; }
h1 { font-size: 1.4rem; margin: 0; }
h1 span { color: var(--muted); font-weight: 400; }
h2 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
.muted { color: var(--muted); font-size: .85rem; }
form { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; margin: .75rem 0; }
#query {
  flex: 1 1 16rem; font-size: 1.1rem; padding: .6rem .9rem; border-radius: .7rem;
  border: 1px solid var(--line); background: var(--card); color: var(--text);
}
.toggle { font-size: .9rem; color: var(--muted); white-space: nowrap; }
#suggestions { list-style: none; padding: 0; margin: 0 0 .5rem; display: flex; gap: .4rem; flex-wrap: wrap; }
#suggestions button {
  border: 1px solid var(--line); background: var(--card); color: var(--text); border-radius: 1rem;
  padding: .25rem .7rem; font-size: .9rem; cursor: pointer;
}
#results { list-style: none; padding: 0; margin: 0; background: var(--card); border-radius: .9rem; overflow: hidden; }
#results:empty { display: none; }
.hit { display: flex; gap: .75rem; padding: .65rem .9rem; border-bottom: 1px solid var(--line); align-items: flex-start; }
.hit:last-child { border-bottom: 0; }
.thumb {
  flex: 0 0 2.6rem; height: 2.6rem; border-radius: .6rem; background: var(--accent); color: #fff;
  display: flex; align-items: center; justify-content: center; font-weight: 600; overflow: hidden;
}
.thumb img { width: 100%; height: 100%; object-fit: cover; }
.text { flex: 1; min-width: 0; }
.title { font-weight: 600; overflow-wrap: anywhere; }
.subtitle { color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.meta { font-size: .75rem; color: var(--muted); margin-top: .2rem; }
.meta code { background: var(--bg); border-radius: .3rem; padding: 0 .3rem; }
mark { background: var(--mark); color: inherit; border-radius: .15rem; }
dl.tiers {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(5.2rem, 1fr)); gap: .15rem .5rem;
  margin: .35rem 0 0; padding-top: .3rem; border-top: 1px solid var(--line); font-size: .75rem;
}
dl.tiers dt { color: var(--muted); }
dl.tiers dd { margin: 0; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
#check, #pins button {
  border: 1px solid var(--line); background: var(--card); color: var(--accent); border-radius: .6rem;
  padding: .35rem .8rem; font-size: .9rem; cursor: pointer; margin-bottom: .5rem;
}
.hit .pin {
  flex: 0 0 auto; border: 1px solid var(--line); background: var(--card); color: var(--accent);
  border-radius: .5rem; padding: .1rem .5rem; font-size: .75rem; cursor: pointer;
}
#pins-json {
  background: var(--card); border-radius: .6rem; padding: .6rem .8rem; font-size: .8rem; overflow-x: auto;
  max-height: 20rem; margin: 0 0 .5rem;
}
#check:disabled { color: var(--muted); cursor: progress; }
#findings { list-style: none; padding: 0; margin: 0; }
#findings li { background: var(--card); border-radius: .6rem; padding: .5rem .75rem; margin-bottom: .4rem; font-size: .85rem; }
.severity-error { color: var(--error); font-weight: 600; }
.severity-warning { color: var(--warning); font-weight: 600; }
@media (max-width: 30rem) {
  h1 { font-size: 1.2rem; }
  .hit { padding: .55rem .7rem; }
  dl.tiers { font-size: .7rem; grid-template-columns: repeat(auto-fill, minmax(4.6rem, 1fr)); }
}

.matched-by { font-size: 0.75em; padding: 0 0.4em; border-radius: 0.6em; background: #eef; color: #335; }

#active, #facets { margin: 0.4rem 0; }
.facet { margin: 0.2rem 0; }
.chip { border: 1px solid #ccd; border-radius: 1rem; background: #f4f5fa; padding: 0.1rem 0.6rem; margin: 0 0.2rem 0.2rem 0; cursor: pointer; font: inherit; font-size: 0.85rem; }
.chip:disabled { cursor: default; }
.chip.active { background: #dde4ff; }

"""##),
        "/preview.js": ("text/javascript; charset=utf-8", ##"""
// The preview page of entityidx serve: search as you type over POST /rpc, results drawn as Spotlight lists app
// entities, the ranking tiers on demand, user-query suggestions, a pin on each result that writes the expectation case
// keeping it there (for `entityidx test`) and, on demand, the lint findings of the whole index.
// Plain DOM calls only: record text is always set as text, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
let nextId = 1;
let latest = 0;
/** Typing sends its requests once the keys have been still this long. */
const typingPause = 150;
/** The lint findings listed; the others are counted. */
const listedFindings = 100;

/** Sends one JSON-RPC request or a batch to /rpc; resolves with the results (an error rejects). `signal`: an
 * AbortController's, to give up on an answer nobody will read. */
async function rpc(calls, signal) {
  const batch = calls.map(([method, params]) => ({ jsonrpc: "2.0", id: nextId++, method, params }));
  const response = await fetch("rpc", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(batch),
    signal,
  });
  const answers = await response.json();
  const byId = new Map(answers.map((a) => [a.id, a]));
  return batch.map((request) => {
    const answer = byId.get(request.id);
    if (answer.error) throw new Error(answer.error.message);
    return answer.result;
  });
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `text` with the spans of `ranges` ({start, end} in UTF-16 code units, as JavaScript strings count) marked. */
function highlighted(tag, className, text, ranges) {
  const node = element(tag, className);
  const spans = ranges.map((r) => [r.start, r.end]).sort((a, b) => a[0] - b[0]);
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) node.append(text.slice(at, from));
    node.append(element("mark", "", text.slice(from, end)));
    at = end;
  }
  if (at < text.length) node.append(text.slice(at));
  return node;
}

const tierNames = ["exactId", "insideCode", "typos", "attribute", "bestField", "exactness", "rankingHint", "priority", "score"];

/** The result's ranking tiers, as `search --explain` prints them: each name above its value, in tier order. */
function tiers(explain) {
  const list = element("dl", "tiers");
  // With optional words, how many of the query's words matched comes first; `adjacent` after the exactness it splits.
  const names = tierNames.flatMap((n) => (n === "exactness" && "adjacent" in explain ? [n, "adjacent"] : [n]));
  for (const name of "words" in explain ? ["words", ...names] : names) {
    const cell = element("div");
    cell.append(element("dt", "", name), element("dd", "", String(explain[name])));
    list.append(cell);
  }
  return list;
}

/** The cases pinned so far: an expectations file, as `entityidx test` reads it. */
let pinned = [];

/** The expectation case that keeps `entity` where the request (`[method, params]`, as a case writes it) put it: first
 * (`top`), or at its rank or better (`rankAtMost`). */
function expectationCase([method, params], entity, rank) {
  const key = `${entity.type}/${entity.id}`;
  const asked = method === "search" ? `“${params.query}”` : "suggested";
  const name = `${asked} finds ${key} ${rank === 1 ? "first" : `in the first ${rank}`}`;
  return { name, [method]: params, expect: rank === 1 ? { top: [key] } : { rankAtMost: { [key]: rank } } };
}

/** Adds a case to the pinned ones (a case of the same name is replaced) and shows them as JSON to copy. */
function pin(testCase) {
  pinned = pinned.filter((c) => c.name !== testCase.name).concat([testCase]);
  showPins();
}

/** Cases as an expectations file is written: a case's keys one a line, each value on that line. */
function fileText(cases) {
  const lines = cases.map((c) => "  {\n" + Object.entries(c).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n") + "\n  }");
  return `[\n${lines.join(",\n")}\n]\n`;
}

function showPins() {
  $("pins").hidden = pinned.length === 0;
  $("pins-json").textContent = fileText(pinned);
  $("pins-count").textContent = `${pinned.length} case${pinned.length === 1 ? "" : "s"}`;
}

async function copyPins() {
  const text = $("pins-json").textContent;
  try {
    await navigator.clipboard.writeText(text);
    $("pins-count").textContent = "copied";
  } catch {
    // No clipboard (a page not served from localhost or https): select the text for the keyboard to copy.
    const range = document.createRange();
    range.selectNodeContents($("pins-json"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  }
}

/** One result, as Spotlight draws an app entity: image or initial, title, subtitle, then type, domain and id; and a
 * pin that writes the expectation case for `request` (the case's form of the query) keeping it at `rank`. */
function card(entity, rank, request) {
  const item = element("li", "hit");
  const thumb = element("div", "thumb");
  if (typeof entity.image === "string" && /^(https?:|data:image\/)/.test(entity.image)) {
    const img = element("img");
    img.src = entity.image;
    img.alt = "";
    thumb.append(img);
  } else {
    thumb.textContent = (entity.title || "?").trim().charAt(0).toUpperCase();
  }
  const marks = (field) => (entity.highlights || []).filter((h) => h.field === field);
  const text = element("div", "text");
  text.append(highlighted("div", "title", entity.title, marks("title")));
  if (entity.subtitle) text.append(highlighted("div", "subtitle", entity.subtitle, marks("subtitle")));
  const meta = element("div", "meta");
  meta.append(element("code", "type", entity.type), " ");
  if (entity.domain) meta.append(element("span", "domain", entity.domain), " · ");
  meta.append(element("span", "id", entity.id));
  for (const way of entity.matchedBy || []) meta.append(" ", element("span", "matched-by", way));
  text.append(meta);
  if (entity.explain && $("explain").checked) text.append(tiers(entity.explain));
  const button = element("button", "pin", "pin");
  button.type = "button";
  button.title = "The expectation case that keeps this result here (for entityidx test)";
  button.setAttribute("aria-label", `Pin ${entity.type}/${entity.id} at rank ${rank}`);
  button.addEventListener("click", () => pin(expectationCase(request, entity, rank)));
  item.append(thumb, text, button);
  return item;
}

let timer;
let inFlight;

/** The filters the chips added: a type, and property values (each an `eq` filter, all of which must hold). */
let activeType = null;
let activeFilters = [];

/** The facet names typed in the box, each once. */
function facetNames() {
  return [...new Set($("facet-names").value.split(",").map((s) => s.trim()).filter((s) => s !== ""))];
}

/** Shows the active filters, each a chip that removes itself. */
function showActive() {
  const chips = [];
  const chip = (label, remove) => {
    const button = element("button", "chip active", `${label} ×`);
    button.type = "button";
    button.title = "Remove this filter";
    button.addEventListener("click", () => { remove(); update(); });
    return button;
  };
  if (activeType !== null) chips.push(chip(`type: ${activeType}`, () => { activeType = null; }));
  for (const f of activeFilters) {
    chips.push(chip(`${f.property}: ${f.value}`, () => { activeFilters = activeFilters.filter((g) => g !== f); }));
  }
  $("active").replaceChildren(...chips);
}

/** Shows a search's facets: per facet, a chip per value with its count; clicking one filters by that value. */
function showFacets(found) {
  const rows = [];
  for (const [name, facet] of Object.entries(found?.facets || {})) {
    const row = element("p", "facet");
    row.append(element("span", "muted", `${name}: `));
    for (const { value, count } of facet.values) {
      const bound = found.facetsAreLowerBounds ? "+" : "";
      const button = element("button", "chip", `${String(value)} ${count}${bound}`);
      button.type = "button";
      button.title = `Only the matches whose ${name} is ${JSON.stringify(value)}`;
      // `domain` has no filter: its chips only count.
      if (name === "domain") button.disabled = true;
      button.addEventListener("click", () => {
        if (name === "type") activeType = String(value);
        else activeFilters = activeFilters.concat([{ property: name, value }]);
        update();
      });
      row.append(button, " ");
    }
    const notes = [];
    if (facet.otherValues > 0) notes.push(`${facet.otherValues} more`);
    if (facet.missing > 0) notes.push(`${facet.missing} without`);
    if (notes.length) row.append(element("span", "muted", `(${notes.join("; ")})`));
    rows.push(row);
  }
  $("facets").replaceChildren(...rows);
}

/** Shows the results of the query in the box: one request at a time, the one before given up, and an answer that
 * comes after a newer request was sent is never drawn. */
async function update() {
  clearTimeout(timer);
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const query = $("query").value;
  const ticket = ++latest;
  try {
    let entities;
    let suggestions = [];
    let total = "";
    let facetsFound = null;
    // The request as an expectation case writes it: what the page asks, without what only the page shows.
    let request;
    if (query.trim() === "") {
      request = ["suggest", { limit: 10 }];
      [{ entities }] = await rpc([request], controller.signal);
    } else {
      const explain = $("explain").checked;
      const matching = $("matching").value;
      const narrowed = {};
      if (activeType !== null) narrowed.type = activeType;
      if (activeFilters.length) {
        narrowed.filters = activeFilters.map((f) => ({ property: f.property, op: "eq", value: f.value }));
      }
      request = ["search", matching === "all" ? { query, ...narrowed } : { query, matching, ...narrowed }];
      const facets = facetNames();
      const [found, user] = await rpc([
        ["search", { query, limit: 20, highlight: true, explain, matching, ...narrowed, ...(facets.length ? { facets } : {}) }],
        ["userQuery", { query, maxItems: 0, maxSuggestions: 5 }],
      ], controller.signal);
      entities = found.entities;
      total = `${found.total}${found.totalIsLowerBound ? "+" : ""}`;
      suggestions = user.suggestions;
      facetsFound = found;
    }
    if (ticket !== latest) return;
    showActive();
    showFacets(facetsFound);
    $("results").replaceChildren(...entities.map((entity, i) => card(entity, i + 1, request)));
    $("suggestions").replaceChildren(...suggestions.map((s) => {
      const item = element("li");
      const button = highlighted("button", "suggestion", s.text, s.matchedRanges || []);
      button.type = "button";
      button.addEventListener("click", () => { $("query").value = s.text; update(); });
      item.append(button);
      return item;
    }));
    $("status").textContent = query.trim() === ""
      ? "suggested entities (type to search)"
      : `${entities.length} result${entities.length === 1 ? "" : "s"}` +
        (total !== String(entities.length) ? ` of ${total}` : "");
  } catch (error) {
    if (ticket === latest) $("status").textContent = `error: ${error.message}`;
  } finally {
    if (inFlight === controller) inFlight = undefined;
  }
}

async function loadStats() {
  try {
    const [stats] = await rpc([["stats", {}]]);
    const types = Object.entries(stats.types).map(([t, s]) => `${t} ${s.entities}`).join(", ");
    $("stats").textContent = `${stats.entities} entities (${types || "none"})`;
  } catch (error) {
    $("stats").textContent = `error: ${error.message}`;
  }
}

/** Lints the whole index when asked (it reads every entity): the first findings listed, all of them counted. */
async function checkIndex() {
  const button = $("check");
  button.disabled = true;
  $("lint-summary").textContent = "checking…";
  try {
    const [lint] = await rpc([["lint", { limit: listedFindings }]]);
    const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    $("lint-summary").textContent = `${plural(lint.errors, "error")}, ${plural(lint.warnings, "warning")}`;
    $("findings").replaceChildren(...lint.findings.map((f) => {
      const item = element("li", "finding");
      const who = f.record ? `${f.record.indexed ? "indexed " : ""}${f.record.type}/${f.record.id}` : "";
      item.append(element("span", `severity-${f.severity}`, f.code), " ", element("code", "", who), ": ", f.message);
      return item;
    }));
    const more = lint.errors + lint.warnings - lint.findings.length;
    if (more > 0) $("findings").append(element("li", "muted", `… and ${more} more`));
    if (lint.errors + lint.warnings === 0) $("findings").append(element("li", "muted", "nothing found"));
  } catch (error) {
    $("lint-summary").textContent = `error: ${error.message}`;
  } finally {
    button.disabled = false;
    button.textContent = "Check again";
  }
}

$("query").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(update, typingPause); });
$("explain").addEventListener("change", update);
$("matching").addEventListener("change", update);
$("facet-names").addEventListener("change", update);
$("search-form").addEventListener("submit", (event) => { event.preventDefault(); update(); });
$("check").addEventListener("click", checkIndex);
$("copy-pins").addEventListener("click", copyPins);
$("clear-pins").addEventListener("click", () => { pinned = []; showPins(); });
loadStats();
update();

"""##),
    ]
}
