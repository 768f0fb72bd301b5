"""The preview page of `entityidx serve` in a real browser (Debian's chromium, driven by Selenium and
chromedriver): typing `ada lo` shows Ada Lovelace first with the match highlighted, the tiers toggle, suggestions,
a lint finding once "Check the index" is pressed (never on load), an image, phone and desktop widths; keys typed
in a burst send one search, and an answer that comes after a newer request is never drawn; and the browser build
of the TypeScript client ingests and searches from a page of another loopback origin. The page's requests are
logged (and, when a test asks, their answers held back) by a wrapper of `fetch` installed before its script runs.
Screenshots go to .build/preview.png, .build/preview-lint.png and .build/preview-phone.png."""
import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("ENTITYIDX_BIN", os.path.join(REPO, ".build", "debug", "entityidx")))
NOW = "2026-03-02T09:00:00Z"
SHOTS = os.path.join(REPO, ".build")
# Seconds after which a wait (for the page, the server) is taken for a hang: a loaded machine is slow, not this slow,
# and no test passes or fails on a time.
HANG = 120


def run(*args):
    subprocess.run([BINARY, *args], check=True, stdout=subprocess.DEVNULL)


# Logs each JSON-RPC request the page sends as [method, params], and holds back the answer to a request whose
# query is in `rpcDelays` for that many milliseconds.
RPC_LOG = """
window.rpcLog = [];
window.rpcDelays = {};
const pageFetch = window.fetch;
window.fetch = async (url, init) => {
  let calls = [];
  try {
    const body = JSON.parse(init.body);
    calls = Array.isArray(body) ? body : [body];
  } catch (error) {}
  window.rpcLog.push(...calls.map((c) => [c.method, c.params || {}]));
  const response = await pageFetch(url, init);
  const delay = Math.max(0, ...calls.map((c) => window.rpcDelays[(c.params || {}).query] || 0));
  if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
  return response;
};
"""


class PreviewTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.started = time.monotonic()
        folder = tempfile.mkdtemp(prefix="entityidx-browser-")
        db = os.path.join(folder, "index.sqlite")
        for name in ("data/customers.ndjson", "data/products.json", "data/orders.json", "Tests/Fixtures/preview.ndjson"):
            run("--db", db, "--now", NOW, "ingest", os.path.join(REPO, name))
        cls.serve = subprocess.Popen([BINARY, "--db", db, "--now", NOW, "serve", "--port", "0", "--allow-writes"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cls.url = cls.serve.stdout.readline().split()[-1]
        cls.token = cls.serve.stdout.readline().split()[-1]
        # The page of the TypeScript client comes from another loopback origin, as from a dev server.
        site = os.path.join(folder, "site")
        os.mkdir(site)
        os.symlink(os.path.join(REPO, "clients", "typescript", "dist"), os.path.join(site, "dist"))
        os.symlink(os.path.join(REPO, "Tests", "Browser", "client.html"), os.path.join(site, "client.html"))
        handler = functools.partial(QuietHandler, directory=site)
        cls.site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=cls.site.serve_forever, daemon=True).start()
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,1000"):
            options.add_argument(flag)
        cls.browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        cls.browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RPC_LOG})
        cls.wait = WebDriverWait(cls.browser, HANG)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.site.shutdown()
        cls.serve.terminate()
        status = cls.serve.wait(timeout=HANG)
        cls.serve.stdout.close()
        print(f"browser tests: {time.monotonic() - cls.started:.1f} s, serve exited with {status}", file=sys.stderr)

    def type_query(self, text):
        box = self.browser.find_element(By.ID, "query")
        box.clear()
        box.send_keys(text)

    def first_title(self):
        titles = self.browser.find_elements(By.CSS_SELECTOR, "#results .hit .title")
        return titles[0].text if titles else None

    def requests(self, method):
        return [params for name, params in self.browser.execute_script("return window.rpcLog") if name == method]

    def open_page(self):
        self.browser.get(self.url + "/")
        self.wait.until(lambda b: b.find_element(By.ID, "status").text == "suggested entities (type to search)")
        self.wait.until(lambda b: "entities" in b.find_element(By.ID, "stats").text)

    def input(self, *texts):
        """Sets the box to each text in turn, with an input event each, in one go (faster than any typist)."""
        self.browser.execute_script(
            "const box = document.getElementById('query');"
            "for (const text of arguments[0]) { box.value = text; box.dispatchEvent(new Event('input')); }",
            list(texts))

    def test_1_search_as_you_type(self):
        self.browser.set_window_size(1200, 1000)
        self.open_page()
        # A load asks for the stats and the suggested entities, never for the lint of the whole index.
        self.assertEqual(self.requests("lint"), [])
        self.assertEqual(len(self.requests("stats")), 1)
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "#findings li"), [])
        self.type_query("ada lo")
        self.wait.until(lambda b: self.first_title() == "Ada Lovelace")
        first = self.browser.find_element(By.CSS_SELECTOR, "#results .hit")
        marks = [m.text for m in first.find_elements(By.CSS_SELECTOR, ".title mark")]
        self.assertEqual(marks, ["Ada", "Lovelace"])
        self.assertEqual(first.find_element(By.CSS_SELECTOR, ".type").text, "customer")
        self.assertEqual(first.find_element(By.CSS_SELECTOR, ".domain").text, "shop.customers.en")
        suggestions = [s.text for s in self.browser.find_elements(By.CSS_SELECTOR, "#suggestions button")]
        self.assertIn("Ada Lovelace", suggestions)
        # The poster has an image; the card draws it.
        poster = [h for h in self.browser.find_elements(By.CSS_SELECTOR, "#results .hit")
                  if "poster" in h.find_element(By.CSS_SELECTOR, ".title").text]
        self.assertTrue(poster and poster[0].find_elements(By.CSS_SELECTOR, ".thumb img"))
        self.browser.find_element(By.ID, "check").click()
        self.wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#findings li.finding"))
        finding = self.browser.find_elements(By.CSS_SELECTOR, "#findings li.finding")[0].text
        self.assertIn("broken-link", finding)
        self.assertIn("product/p404", finding)
        self.assertEqual(self.requests("lint"), [{"limit": 100}])
        self.assertIn("warning", self.browser.find_element(By.ID, "lint-summary").text)

        self.browser.find_element(By.ID, "explain").click()
        self.wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#results .hit dl.tiers"))
        tiers = self.browser.find_element(By.CSS_SELECTOR, "#results .hit dl.tiers")
        heads = [dt.text for dt in tiers.find_elements(By.TAG_NAME, "dt")]
        cells = [dd.text for dd in tiers.find_elements(By.TAG_NAME, "dd")]
        self.assertEqual(heads[:6], ["exactId", "insideCode", "typos", "attribute", "bestField", "exactness"])
        self.assertEqual(dict(zip(heads, cells))["exactness"], "startsTyping")
        self.browser.save_screenshot(os.path.join(SHOTS, "preview.png"))
        # Every word must match by default; with "drop frequent" a word nothing has is left out, and the tiers
        # say how many words matched.
        self.type_query("ada lovelace zzzq ")
        self.wait.until(lambda b: b.find_element(By.ID, "status").text == "0 results")
        Select(self.browser.find_element(By.ID, "matching")).select_by_value("frequency")
        self.wait.until(lambda b: self.first_title() == "Ada Lovelace")
        tiers = self.browser.find_element(By.CSS_SELECTOR, "#results .hit dl.tiers")
        heads = [dt.text for dt in tiers.find_elements(By.TAG_NAME, "dt")]
        cells = [dd.text for dd in tiers.find_elements(By.TAG_NAME, "dd")]
        self.assertEqual(dict(zip(heads, cells))["words"], "2/3")
        Select(self.browser.find_element(By.ID, "matching")).select_by_value("all")
        self.type_query("ada lo")
        self.wait.until(lambda b: self.first_title() == "Ada Lovelace")
        self.browser.execute_script("document.getElementById('lint').scrollIntoView()")
        self.browser.save_screenshot(os.path.join(SHOTS, "preview-lint.png"))
        self.browser.execute_script("window.scrollTo(0, 0)")

        self.browser.set_window_size(390, 844)
        self.wait.until(lambda b: b.execute_script("return window.innerWidth") <= 400)
        overflow = self.browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        self.assertLessEqual(overflow, 0, "no horizontal scrolling at phone width")
        # Every tier of the first result is within its card (nothing cut off at the right).
        cut = self.browser.execute_script(
            "const card = document.querySelector('#results .hit').getBoundingClientRect();"
            "return [...document.querySelectorAll('#results .hit:first-child dl.tiers dd')]"
            ".filter((dd) => dd.getBoundingClientRect().right > card.right + 0.5).length")
        self.assertEqual(cut, 0, "the tiers fit the card at phone width")
        self.browser.save_screenshot(os.path.join(SHOTS, "preview-phone.png"))

    def test_2_keys_typed_in_a_burst_send_one_search(self):
        self.open_page()
        self.input("a", "ad", "ada", "ada ", "ada l", "ada lo")
        self.wait.until(lambda b: self.first_title() == "Ada Lovelace" and self.requests("search"))
        self.wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#suggestions button"))
        self.assertEqual([p["query"] for p in self.requests("search")], ["ada lo"])
        self.assertEqual([p["query"] for p in self.requests("userQuery")], ["ada lo"])

    def test_3_an_older_answer_never_replaces_a_newer_one(self):
        self.open_page()
        self.browser.execute_script("window.rpcDelays = {tea: 1500}")
        self.input("tea")
        self.wait.until(lambda b: self.requests("search"))
        self.input("ada lo")
        self.wait.until(lambda b: self.first_title() == "Ada Lovelace")
        # The answer about tea was held back: it comes now, after the newer one, and is not drawn.
        time.sleep(2)
        self.assertEqual([p["query"] for p in self.requests("search")], ["tea", "ada lo"])
        self.assertEqual(self.first_title(), "Ada Lovelace")
        self.assertNotIn("error", self.browser.find_element(By.ID, "status").text)

    def test_4_the_browser_client_ingests_and_searches(self):
        port = self.site.server_address[1]
        self.browser.get(f"http://127.0.0.1:{port}/client.html?server={self.url}&token={self.token}")
        self.wait.until(lambda b: b.find_element(By.ID, "out").text != "running")
        out = json.loads(self.browser.find_element(By.ID, "out").text)
        self.assertEqual(out, {"inserted": 1, "first": "Grace Hopper", "marks": ["Grace", "Hopper"],
                               "lastUsedAt": "2026-03-01T09:00:00.000Z", "refused": "unauthorized"})
        # The preview sees what the page pushed.
        self.browser.set_window_size(1200, 1000)
        self.browser.get(self.url + "/")
        self.type_query("grace")
        self.wait.until(lambda b: self.first_title() == "Grace Hopper")

    def test_5_a_pin_writes_the_case_entityidx_test_passes(self):
        self.open_page()
        self.assertTrue(self.browser.find_element(By.ID, "pins").get_attribute("hidden"))
        self.type_query("ada lo")
        self.wait.until(lambda b: self.first_title() == "Ada Lovelace")
        hits = self.browser.find_elements(By.CSS_SELECTOR, "#results .hit")
        hits[0].find_element(By.CSS_SELECTOR, "button.pin").click()
        if len(hits) > 1:
            hits[1].find_element(By.CSS_SELECTOR, "button.pin").click()
        cases = json.loads(self.browser.find_element(By.ID, "pins-json").text)
        self.assertEqual(cases[0]["search"], {"query": "ada lo"})
        self.assertEqual(len(cases[0]["expect"]["top"]), 1)
        self.assertTrue(all(len(c["expect"]) == 1 for c in cases))
        if len(hits) > 1:
            self.assertEqual(list(cases[1]["expect"]["rankAtMost"].values()), [2])
        # What the page wrote is a valid case that holds: the pipe's test runs it on the index the page shows.
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "test", "params": {"cases": cases}}).encode()
        request = urllib.request.Request(self.url + "/rpc", body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=HANG) as response:
            report = json.loads(response.read())["result"]
        self.assertEqual((report["passed"], report["failed"], report["wrong"]), (len(cases), 0, 0), report)
        self.browser.find_element(By.ID, "clear-pins").click()
        self.assertTrue(self.browser.find_element(By.ID, "pins").get_attribute("hidden"))

    def test_6_a_facet_chip_filters_by_its_value(self):
        self.open_page()
        self.type_query("o")
        self.wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#facets .chip"))
        chips = self.browser.find_elements(By.CSS_SELECTOR, "#facets .chip")
        product = [c for c in chips if c.text.startswith("product ")]
        self.assertTrue(product, [c.text for c in chips])
        product[0].click()
        self.wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#active .chip"))
        self.wait.until(lambda b: {t.text for t in b.find_elements(By.CSS_SELECTOR, "#results .hit .type")} == {"product"})
        self.assertEqual(self.requests("search")[-1].get("type"), "product")
        # The facet box takes property names: a value's chip adds an eq filter.
        box = self.browser.find_element(By.ID, "facet-names")
        box.clear()
        box.send_keys("type, tags\n")
        self.wait.until(lambda b: any(c.text.startswith("office ") for c in b.find_elements(By.CSS_SELECTOR, "#facets .chip")))
        [c for c in self.browser.find_elements(By.CSS_SELECTOR, "#facets .chip") if c.text.startswith("office ")][0].click()
        self.wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#active .chip")) == 2)
        self.assertEqual(self.requests("search")[-1].get("filters"), [{"property": "tags", "op": "eq", "value": "office"}])
        for chip in self.browser.find_elements(By.CSS_SELECTOR, "#active .chip")[:1]:
            chip.click()
        self.wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#active .chip")) == 1)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


if __name__ == "__main__":
    unittest.main()
