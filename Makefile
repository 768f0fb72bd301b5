# entityidx: `make run` and `make test` are all a fresh Debian machine with Swift needs.
SWIFT ?= swift
BIN := .build/release/entityidx
DEBUG_BIN := .build/debug/entityidx
CONTRACT_CHECK := ../shared/tools/contract-check
# The client tests' Python environment: the official MCP SDK, python-lsp-jsonrpc, an OpenRPC document model, jsonschema,
# xmlschema (the JUnit XML schema) and tap.py with its YAML extra (a TAP consumer that reads the YAML blocks).
VENV := .build/venv
PY_TEST_PACKAGES := mcp==2.3.0 python-lsp-jsonrpc==1.1.2 openrpc==11.1.1 jsonschema==4.26.0 xmlschema==4.3.2 tap.py[yaml]==3.2.1
# make bench's own: tantivy, the peer on the real corpus (scripts/tantivy-peer.py).
BENCH_VENV := .build/bench-venv
PY_BENCH_PACKAGES := tantivy==0.27.0
# make phone-codes's own: libphonenumber's metadata (scripts/phone-codes.py).
PHONE_VENV := .build/phone-venv
PY_PHONE_PACKAGES := phonenumbers==9.0.43

.PHONY: all deps build release run test shells test-clients test-ts ts-build test-browser venv bench-venv phone-codes lint schema web man golden install bench bench-spotlight fuzz soak sanitize clean

all: release

# System libraries: SQLite (FTS5), ICU, zstd and zlib, installed when pkg-config cannot find them; MeCab and its UTF-8
# IPA dictionary (the readings of Japanese words), which have no pkg-config file, when their header or dictionary is
# missing.
deps:
	@if ! pkg-config --exists sqlite3 icu-uc icu-i18n libzstd zlib 2>/dev/null; then \
		echo "installing libsqlite3-dev libicu-dev libzstd-dev zlib1g-dev pkg-config"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libsqlite3-dev libicu-dev libzstd-dev zlib1g-dev pkg-config >/dev/null; \
	fi
	@if [ ! -f /usr/include/mecab.h ] || [ ! -f /var/lib/mecab/dic/ipadic-utf8/sys.dic ]; then \
		echo "installing libmecab-dev mecab-ipadic-utf8"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libmecab-dev mecab-ipadic-utf8 >/dev/null; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Ingest the sample shop data into the default database and show what Siri/Spotlight would find.
run: release
	@echo "== ingest data/ into $${ENTITYIDX_DB:-entityidx.sqlite}"
	@$(BIN) ingest data/customers.ndjson
	@$(BIN) ingest data/products.json
	@$(BIN) ingest data/orders.json
	@echo; echo "== entityidx search 1042"; $(BIN) search 1042 --limit 5
	@echo; echo "== entityidx search cafe"; $(BIN) search cafe --limit 5
	@echo; echo "== entityidx search 东京"; $(BIN) search 东京 --limit 5
	@echo; echo "== entityidx search strasse"; $(BIN) search strasse --limit 3
	@echo; echo "== entityidx search 'widgte' (a typo)"; $(BIN) search widgte --limit 3
	@echo; echo "== entityidx search tea --type product --filter 'price lt 50'"; $(BIN) search tea --type product --filter 'price lt 50'
	@echo; echo "== entityidx get --type order 1042 missing 7"; $(BIN) get --type order 1042 missing 7
	@echo; echo "== entityidx query --type order --filter 'status eq shipped' --sort total:desc --limit 5"; \
		$(BIN) query --type order --filter 'status eq shipped' --sort total:desc --limit 5
	@echo; echo "== entityidx related --type order 1042"; $(BIN) related --type order 1042
	@echo; echo "== entityidx suggest --limit 5"; $(BIN) suggest --limit 5
	@echo; echo "== entityidx stats"; $(BIN) stats
	@echo; echo "== entityidx test data/expectations.json (what Siri and Spotlight must find, as CI runs it)"; \
		$(BIN) test data/expectations.json

# The completion tests run bash, zsh and fish: zsh and fish are installed when missing.
test: build shells
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@if [ -f $(CONTRACT_CHECK) ]; then python3 $(CONTRACT_CHECK) $(DEBUG_BIN) && \
		echo "== the contract check against serve's POST /rpc" && \
		ENTITYIDX_BIN=$(CURDIR)/$(DEBUG_BIN) python3 $(CONTRACT_CHECK) scripts/rpc-over-http.py; fi
	@$(MAKE) --no-print-directory test-clients
	@$(MAKE) --no-print-directory test-ts
	@$(MAKE) --no-print-directory test-browser

shells:
	@command -v zsh >/dev/null 2>&1 && command -v fish >/dev/null 2>&1 || { echo "installing zsh fish"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq zsh fish >/dev/null; }

# The clients against the built binary: LSP framing (python-lsp-jsonrpc), OpenRPC, MCP (the official Python SDK), and
# what reads `entityidx test`'s formats (xmlschema, tap.py, the workflow command syntax, jsonschema).
test-clients: build venv
	ENTITYIDX_BIN=$(DEBUG_BIN) $(VENV)/bin/python -m unittest discover -s Tests/Clients

# The TypeScript client: Debian's tsc (node-typescript) in strict mode builds its ES module and CommonJS forms, then
# Node's test runner runs them against the binary, with the README's example as printed compiled in throwaway
# projects (ES module with lib dom, CommonJS, NodeNext, Node16). The tests use the compiler's API, so NODE_PATH is
# the folder that holds tsc's own package.
test-ts: build ts-build
	NODE_PATH="$$(dirname "$$(dirname "$$(dirname "$$(readlink -f "$$(command -v tsc)")")")")" \
		ENTITYIDX_BIN="$(CURDIR)/$(DEBUG_BIN)" node --test clients/typescript/test/*.test.js

# The TypeScript client's two builds (dist/esm, dist/cjs), with Debian's tsc.
ts-build:
	@command -v node >/dev/null 2>&1 && command -v tsc >/dev/null 2>&1 || { echo "installing nodejs node-typescript"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nodejs node-typescript >/dev/null; }
	rm -rf clients/typescript/dist
	tsc -p clients/typescript
	tsc -p clients/typescript/tsconfig.cjs.json
	node clients/typescript/scripts/dist-formats.js

# The preview page of `entityidx serve` and the browser build of the TypeScript client in Debian's chromium, driven by
# Selenium through chromedriver (chromium, chromium-driver and python3-selenium are installed with apt-get when
# missing; Debian's own python3 runs it, as Debian's selenium is its package); screenshots in .build/.
SYSTEM_PYTHON := /usr/bin/python3
test-browser: build
	@{ command -v chromium && command -v chromedriver && $(SYSTEM_PYTHON) -c "import selenium"; } >/dev/null 2>&1 || { \
		echo "installing chromium chromium-driver python3-selenium"; SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium chromium-driver python3-selenium >/dev/null; }
	@[ -f clients/typescript/dist/esm/browser.js ] || $(MAKE) --no-print-directory ts-build
	ENTITYIDX_BIN=$(DEBUG_BIN) $(SYSTEM_PYTHON) Tests/Browser/test_preview.py

# python3-venv is installed when the interpreter cannot make a virtual environment (Debian ships it apart).
# $(call python-env,DIR,PACKAGES): the recipe of one environment.
define python-env
@python3 -m venv $(1) 2>/dev/null || { rm -rf $(1); echo "installing python3-venv"; \
	SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq python3-venv >/dev/null && python3 -m venv $(1); }
$(1)/bin/pip install -q --disable-pip-version-check $(2)
@touch $(1)/.ready
endef
venv: $(VENV)/.ready
$(VENV)/.ready: Makefile
	$(call python-env,$(VENV),$(PY_TEST_PACKAGES))
bench-venv: $(BENCH_VENV)/.ready
$(BENCH_VENV)/.ready: Makefile
	$(call python-env,$(BENCH_VENV),$(PY_BENCH_PACKAGES))
$(PHONE_VENV)/.ready: Makefile
	$(call python-env,$(PHONE_VENV),$(PY_PHONE_PACKAGES))

# The country calling codes and trunk prefixes of phone numbers, regenerated from libphonenumber's metadata.
phone-codes: $(PHONE_VENV)/.ready
	$(PHONE_VENV)/bin/python scripts/phone-codes.py --out Sources/EntityIndex/Text/CallingCodes+Generated.swift

# Speed against plain FTS5 on Debian's package list (built here from Debian's package indexes by
# scripts/debian-corpus.py), with two peers built as their users build them beside both: FTS5 by hand (records as
# JSON, the same texts in one FTS5 table) and tantivy (scripts/tantivy-peer.py in $(BENCH_VENV)); what serve's
# preview page asks of it (a load, the lint button, a pause in typing) and reads beside writes through serve; and on
# a synthetic corpus of 10k, 100k and 1M entities; writes docs/benchmarks.md.
# QUICK=1: fewer queries and synthetic 10k and 100k only. BENCH_CORPUS=real or synthetic runs one of the two and
# keeps the other's sections of docs/benchmarks.md as they were.
# DEBIAN_VARIANTS: the package list with long descriptions (long), without them (short), or both, in that order.
# DEBIAN_MAX_ITEMS=N cuts longer lists (keywords, array properties, related) and names each cut record (0: none).
BENCH_CORPUS ?= both
DEBIAN_CORPUS := .build/debian-corpus/packages.ndjson
DEBIAN_SHORT_CORPUS := .build/debian-corpus/packages-short.ndjson
DEBIAN_VARIANTS ?= long short
DEBIAN_MAX_ITEMS ?= 0
bench: release bench-venv
	@command -v gnuplot >/dev/null 2>&1 || { SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get install -y -qq gnuplot-nox >/dev/null 2>&1 || \
		{ $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq gnuplot-nox >/dev/null 2>&1; } || echo "gnuplot unavailable: no chart"; }
	@if [ "$(BENCH_CORPUS)" != synthetic ]; then mkdir -p $(dir $(DEBIAN_CORPUS)); \
		python3 scripts/debian-corpus.py --cache .build/debian-corpus --out $(DEBIAN_CORPUS) \
			--max-items $(DEBIAN_MAX_ITEMS) 2>$(DEBIAN_CORPUS).log; status=$$?; cat $(DEBIAN_CORPUS).log; \
		[ $$status = 0 ] || exit $$status; \
		if [ -n "$(filter short,$(DEBIAN_VARIANTS))" ]; then \
			python3 scripts/debian-corpus.py --cache .build/debian-corpus --out $(DEBIAN_SHORT_CORPUS) --no-update \
				--no-long-descriptions --max-items $(DEBIAN_MAX_ITEMS) 2>$(DEBIAN_SHORT_CORPUS).log; status=$$?; \
			cat $(DEBIAN_SHORT_CORPUS).log; [ $$status = 0 ] || exit $$status; fi; fi
	.build/release/entityidx-bench $(if $(QUICK),--quick) --corpus $(BENCH_CORPUS) \
		$(if $(filter long,$(DEBIAN_VARIANTS)),--real $(DEBIAN_CORPUS)) \
		$(if $(filter short,$(DEBIAN_VARIANTS)),--real $(DEBIAN_SHORT_CORPUS)) \
		--tantivy scripts/tantivy-peer.py --python $(BENCH_VENV)/bin/python --binary $(BIN) --out docs
	@if [ "$(BENCH_CORPUS)" != synthetic ]; then \
		python3 scripts/debian-expectations.py --records $(DEBIAN_SHORT_CORPUS) --out .build/debian-corpus/expectations.json && \
		$(BIN) test .build/debian-corpus/expectations.json --records $(DEBIAN_SHORT_CORPUS) --format json \
			> .build/debian-corpus/expectations-report.json; \
		python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); \
print("entityidx test: %d cases on Debian'"'"'s package list in %.1f s (%.1f ms a case): %d passed, %d failed, %d wrong" % \
(len(r["cases"]), sum(c["seconds"] for c in r["cases"]), 1000 * sum(c["seconds"] for c in r["cases"]) / len(r["cases"]), \
r["passed"], r["failed"], r["wrong"]))' .build/debian-corpus/expectations-report.json; fi

# The Core Spotlight query forms (`spotlight`) on Debian's package list, p50/p99 per form; writes its own section of
# docs/benchmarks.md (make bench keeps it). Builds the corpus as make bench does when it is missing.
bench-spotlight: release
	@if [ ! -f $(DEBIAN_CORPUS) ]; then mkdir -p $(dir $(DEBIAN_CORPUS)); \
		python3 scripts/debian-corpus.py --cache .build/debian-corpus --out $(DEBIAN_CORPUS) --max-items $(DEBIAN_MAX_ITEMS) \
			2>$(DEBIAN_CORPUS).log || { cat $(DEBIAN_CORPUS).log; exit 1; }; fi
	.build/release/entityidx-bench spotlight $(DEBIAN_CORPUS) --binary $(BIN) --out docs

# libFuzzer on record decoding and validation, the text pipeline, the query builder, the Core Spotlight query
# parser, the JSON-RPC framing, lines and LSP headers mixed, and serve's HTTP/1.1 request parser (FUZZ_SECONDS each).
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SWIFT) build -c release --product entityidx-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -parse-as-library \
		--build-path .build/fuzz
	@for t in records text queries spotlight framing http; do \
		mkdir -p .build/fuzz/corpus-$$t; \
		echo "== fuzz $$t ($(FUZZ_SECONDS) s)"; \
		FUZZ_TARGET=$$t .build/fuzz/release/entityidx-fuzz -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			.build/fuzz/corpus-$$t Tests/Fuzz/$$t 2>&1 | grep -E "stat::number_of_executed_units|ERROR|Done" || exit 1; \
	done

# Long versions of the crash and concurrency tests: 60 kill rounds, a minute of 2 writers and 4 readers; the hostile
# requests and lock waits at the sizes they were found at, through the pipe and MCP, on the release build (each
# prints its figures).
soak: build release
	$(SWIFT) build --build-tests
	ENTITYIDX_CRASH_ROUNDS=60 ENTITYIDX_SOAK_SECONDS=60 ENTITYIDX_SERVE_SOAK_SECONDS=180 ENTITYIDX_HOSTILE_SOAK=1 \
		ENTITYIDX_TEST_BINARY=$(BIN) $(SWIFT) test --skip-build \
		--filter "CrashTests|ConcurrencyTests|HostileSoakTests|ServeSoakTests"

# The test suite under the address and thread sanitizers. (Leak reports are off: the test runners themselves leak
# a few objects at exit; ICU objects are kept per thread for its lifetime on purpose.)
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --build-path .build/asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --build-path .build/asan
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build/tsan
	$(SWIFT) test --skip-build --sanitize=thread --build-path .build/tsan

# Regenerate the embedded schemas after editing schema/ (SQL, pipe and record JSON Schemas), then schema/openrpc.json.
schema: deps
	sh scripts/gen-schema.sh
	$(SWIFT) build --product entityidx
	sh scripts/gen-openrpc.sh $(DEBUG_BIN)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

# Regenerate the embedded preview page of `entityidx serve` after editing web/.
web:
	sh scripts/gen-web-assets.sh

# Regenerate the man page and the golden help, completion and man page files after changing a command's help.
man: build
	$(DEBUG_BIN) help --man > man/entityidx.1

golden: man
	$(SWIFT) build --build-tests
	ENTITYIDX_UPDATE_GOLDEN=1 $(SWIFT) test --skip-build --filter GoldenTests

# Installs the release binary, its man page and its bash, zsh and fish completions under PREFIX (DESTDIR for staging).
PREFIX ?= /usr/local
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/entityidx
	install -m 644 man/entityidx.1 $(DESTDIR)$(PREFIX)/share/man/man1/entityidx.1
	$(BIN) completions bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/entityidx
	$(BIN) completions zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_entityidx
	$(BIN) completions fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/entityidx.fish

clean:
	rm -rf .build
