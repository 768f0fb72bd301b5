#!/bin/sh
# Embeds schema/*.sql, schema/pipe.schema.json and schema/record.schema.json as Swift string literals (a binary
# copied alone has no resource bundle). SchemaTests and PipeSchemaTests fail when a generated file is stale: run
# `make schema` after editing schema/.
set -eu
out=Sources/EntityIndex/Store/Schema+Generated.swift
{
  echo "// swift-format-ignore-file"
  echo "// Generated from schema/*.sql by scripts/gen-schema.sh. Do not edit."
  echo "import SQLite"
  echo ""
  echo "extension Schema {"
  echo "    static let migrations: [Migrator.Migration] = ["
  for f in schema/[0-9]*.sql; do
    base=$(basename "$f" .sql)
    version=$(echo "$base" | sed 's/_.*//' | sed 's/^0*//')
    name=$(echo "$base" | sed 's/^[0-9]*_//')
    echo "        .init(version: $version, name: \"$name\", sql: #\"\"\""
    cat "$f"
    echo "\"\"\"#),"
  done
  echo "    ]"
  echo "}"
} > "$out"
out=Sources/EntityIndexPipe/PipeSchema+Generated.swift
{
  echo "// swift-format-ignore-file"
  echo "// Generated from schema/pipe.schema.json and schema/record.schema.json by scripts/gen-schema.sh. Do not edit."
  echo ""
  echo "extension PipeSchema {"
  echo "    static let pipeText = #\"\"\""
  cat schema/pipe.schema.json
  echo "\"\"\"#"
  echo ""
  echo "    static let recordText = #\"\"\""
  cat schema/record.schema.json
  echo "\"\"\"#"
  echo "}"
} > "$out"
