#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine with only Swift lacks: libpcre2-dev (headers and pkg-config file) and
# zlib1g-dev (headers, for gzip input).
set -euo pipefail
if dpkg -s libpcre2-dev zlib1g-dev >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libpcre2-dev zlib1g-dev pkg-config >/dev/null
echo "installed libpcre2-dev and zlib1g-dev" >&2
