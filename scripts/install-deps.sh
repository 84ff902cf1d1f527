#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine with only Swift lacks: libpcre2-dev (headers and pkg-config file) and
# zlib1g-dev (headers, for gzip input); for the tests that validate the CI reports against their schemas,
# python3-jsonschema (SARIF) and libxml2-utils (xmllint, JUnit). Each only when it is missing.
set -euo pipefail
missing=()
dpkg -s libpcre2-dev >/dev/null 2>&1 || missing+=(libpcre2-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
python3 -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
echo "installed ${missing[*]}" >&2
