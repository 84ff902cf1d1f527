#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine with only Swift lacks: libpcre2-dev (headers and pkg-config file) and
# zlib1g-dev (headers, for gzip input); for the tests that validate the CI reports against their schemas,
# python3-jsonschema (SARIF) and libxml2-utils (xmllint, JUnit); for the test that opens the HTML timeline in a
# real browser, chromium. Each only when it is missing.
set -euo pipefail
missing=()
dpkg -s libpcre2-dev >/dev/null 2>&1 || missing+=(libpcre2-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
python3 -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
browser=()
if [ -z "${LCTRACE_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then browser=(chromium fonts-liberation); fi
if [ "${#missing[@]}" -eq 0 ] && [ "${#browser[@]}" -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
if [ "${#missing[@]}" -gt 0 ]; then
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  echo "installed ${missing[*]}" >&2
fi
if [ "${#browser[@]}" -gt 0 ]; then
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${browser[@]}" >/dev/null
  echo "installed ${browser[*]}" >&2
fi
