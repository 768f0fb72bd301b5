#!/bin/sh
# Writes schema/openrpc.json: the answer of `rpc.discover` from the built binary ($1), indented.
# PipeSchemaTests fails when it is stale: run `make schema` after editing schema/ or the method list.
set -eu
bin=${1:-.build/debug/entityidx}
# An index in a folder of its own, removed afterwards (--db :memory: is refused: it would keep nothing).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}' | "$bin" --db "$tmp/index.sqlite" pipe |
  python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["result"], indent=2, ensure_ascii=False))' \
  > schema/openrpc.json
