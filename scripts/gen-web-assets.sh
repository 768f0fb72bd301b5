#!/bin/sh
# Embeds the preview page of `entityidx serve` (web/index.html, web/preview.css, web/preview.js) as Swift string
# literals, so that the binary serves it alone. PreviewAssetTests fails when the generated file is stale: run
# `make web` after editing web/.
set -eu
out=Sources/EntityIndexServe/PreviewAssets+Generated.swift
{
  echo "// swift-format-ignore-file"
  echo "// Generated from web/ by scripts/gen-web-assets.sh. Do not edit."
  echo ""
  echo "extension PreviewAssets {"
  echo "    static let files: [String: (type: String, text: String)] = ["
  for f in web/index.html web/preview.css web/preview.js; do
    if grep -q '"""##' "$f"; then echo "$f holds \"\"\"##, which would end its literal" >&2; exit 1; fi
    case "$f" in
      *.html) type="text/html; charset=utf-8" ;;
      *.css) type="text/css; charset=utf-8" ;;
      *.js) type="text/javascript; charset=utf-8" ;;
    esac
    echo "        \"/$(basename "$f")\": (\"$type\", ##\"\"\""
    # The line end before the closing delimiter is not part of a literal: one more keeps the file's last one.
    cat "$f"
    echo ""
    echo "\"\"\"##),"
  done
  echo "    ]"
  echo "}"
} > "$out"
