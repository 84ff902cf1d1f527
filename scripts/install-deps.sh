#!/usr/bin/env bash
# Installs what a fresh machine with only Swift lacks, each only when it is missing.
#
# Debian/Ubuntu: libpcre2-dev (headers and pkg-config file) and zlib1g-dev (headers, for gzip input); for the tests
# that validate the CI reports against their schemas, python3-jsonschema (SARIF) and libxml2-utils (xmllint, JUnit);
# for the tests of the HTML page's script, nodejs (Node: its syntax check and test runner); for the fleet pipeline's
# tests (scripts/fleet.py), Java 17 (openjdk-17-jre-headless, for Spark) and the duckdb and pyspark packages from PyPI;
# for the test that opens the HTML timeline in a real browser, chromium. A chromium that cannot be installed (Ubuntu's
# is a snap, which does not install in a container) is warned about, not fatal.
#
# macOS: pcre2 and pkgconf from Homebrew (zlib and xmllint come with the system). jsonschema and a browser are not
# installed: it says how to get them.
#
# Anywhere else: it installs nothing, names what is needed, and fails if the build's own needs are missing.
#
# LCTRACE_CHROMIUM (a browser to run) or LCTRACE_BROWSER_TESTS=0 (no browser tests) leaves the browser alone.
set -euo pipefail

browser_wanted() {
  [ -z "${LCTRACE_CHROMIUM:-}" ] && [ "${LCTRACE_BROWSER_TESTS:-}" != 0 ]
}

# macOS: Homebrew's pcre2 and pkgconf, when pkg-config does not find libpcre2-8 already.
install_darwin() {
  local brew missing=() path app
  brew=$(command -v brew 2>/dev/null || true)
  for path in /opt/homebrew/bin/brew /usr/local/bin/brew; do
    if [ -z "$brew" ] && [ -x "$path" ]; then brew=$path; fi
  done
  if ! { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libpcre2-8 2>/dev/null; }; then
    if [ -z "$brew" ]; then
      echo "install-deps.sh: Homebrew (brew) not found: install it from https://brew.sh and run this again, or install" \
        "pcre2 and pkg-config by other means (pkg-config must find libpcre2-8)" >&2
      exit 1
    fi
    "$brew" list --versions pcre2 >/dev/null 2>&1 || missing+=(pcre2)
    if ! command -v pkg-config >/dev/null 2>&1 && ! "$brew" list --versions pkgconf >/dev/null 2>&1; then
      missing+=(pkgconf)
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
      "$brew" install "${missing[@]}" >&2
      echo "installed ${missing[*]}" >&2
    fi
    if ! command -v pkg-config >/dev/null 2>&1; then
      if command -v brew >/dev/null 2>&1; then
        echo "install-deps.sh: pkg-config is still not on PATH; SwiftPM runs it to find where PCRE2 is" >&2
      else
        echo "install-deps.sh: Homebrew's bin is not on PATH, so SwiftPM will not find pkg-config: run" \
          "eval \"\$($brew shellenv)\" (and add it to your shell's profile)" >&2
      fi
    fi
  fi
  if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
    echo "install-deps.sh: python3 has no jsonschema, which the SARIF schema test needs:" \
      "python3 -m pip install --user jsonschema" >&2
  fi
  if ! command -v xmllint >/dev/null 2>&1; then
    echo "install-deps.sh: no xmllint, which the JUnit schema test needs: brew install libxml2" >&2
  fi
  if ! command -v node >/dev/null 2>&1; then
    echo "install-deps.sh: no node, which the tests of the HTML page's script need: brew install node" >&2
  fi
  if ! python3 -c 'import duckdb, pyspark' >/dev/null 2>&1 || ! java -version >/dev/null 2>&1; then
    echo "install-deps.sh: the fleet pipeline's tests need python3 -m pip install duckdb pyspark, and Java 17:" \
      "brew install openjdk@17" >&2
  fi
  # The browser tests look for a browser the way scripts/chromium-check.py does: $LCTRACE_CHROMIUM, a name on the
  # PATH, then the app bundles.
  if browser_wanted; then
    for app in chromium chromium-browser google-chrome google-chrome-stable; do
      if command -v "$app" >/dev/null 2>&1; then return 0; fi
    done
    for path in /Applications "$HOME/Applications"; do
      for app in "Google Chrome.app/Contents/MacOS/Google Chrome" "Chromium.app/Contents/MacOS/Chromium" \
        "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"; do
        if [ -x "$path/$app" ]; then return 0; fi
      done
    done
    echo "install-deps.sh: note: no browser installed for the browser tests, which look for Google Chrome or" \
      "Chromium in /Applications (or ~/Applications), on PATH, or at \$LCTRACE_CHROMIUM; without one they are skipped," \
      "except under CI, where they fail (LCTRACE_BROWSER_TESTS=0 opts them out)" >&2
  fi
}

# Neither macOS nor Debian/Ubuntu: nothing is installed; fails when pkg-config does not find PCRE2 and zlib.
install_elsewhere() {
  local lacking=() list
  python3 -c 'import jsonschema' >/dev/null 2>&1 || lacking+=("python3 with jsonschema")
  command -v xmllint >/dev/null 2>&1 || lacking+=("xmllint (libxml2)")
  command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1 || lacking+=("Node (nodejs)")
  python3 -c 'import duckdb, pyspark' >/dev/null 2>&1 || lacking+=("python3 with duckdb and pyspark")
  java -version >/dev/null 2>&1 || lacking+=("Java 17")
  if browser_wanted && [ -n "$(chromium_problem)" ]; then lacking+=("Chromium (or LCTRACE_CHROMIUM)"); fi
  if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libpcre2-8 zlib 2>/dev/null; then
    if [ "${#lacking[@]}" -gt 0 ]; then
      list=$(printf '%s, ' "${lacking[@]}")
      echo "install-deps.sh: no apt-get here, so nothing is installed; the build has what it needs, but some tests," \
        "skipped without them (failed under CI), also use ${list%, }" >&2
    fi
    return 0
  fi
  echo "install-deps.sh: no apt-get or dpkg here ($(uname -s)), so nothing is installed. Install the PCRE2 and zlib" \
    "development files and pkg-config (Fedora: pcre2-devel zlib-devel pkgconf-pkg-config; Alpine: pcre2-dev zlib-dev" \
    "pkgconf; Arch: pcre2 zlib pkgconf), and for the tests python3 with jsonschema, xmllint (libxml2), Node and" \
    "Chromium" >&2
  exit 1
}

# True when `chromium` on the PATH at $1 only starts the snap of that name (/snap/bin/chromium, or a script such as
# the one of Ubuntu's chromium-browser transitional package), which does not run where snapd does not, as in a
# container.
snap_launcher() {
  local target
  target=$(readlink -f "$1" 2>/dev/null || echo "$1")
  case "$1" in /snap/*) return 0 ;; esac
  case "$target" in /snap/* | */bin/snap) return 0 ;; esac
  [ "$(head -c 2 "$1" 2>/dev/null)" = '#!' ] && grep -qw snap "$1" 2>/dev/null
}

# Why there is no usable `chromium` on the PATH, or nothing when there is one.
chromium_problem() {
  local path
  if ! path=$(command -v chromium 2>/dev/null); then
    echo "no chromium on PATH"
  elif snap_launcher "$path"; then
    echo "chromium on PATH ($path) only starts the snap"
  fi
}

browser_warning() {
  echo "install-deps.sh: warning: $1; the browser tests will fail under CI unless LCTRACE_CHROMIUM points at a" \
    "Chromium or Chrome (or LCTRACE_BROWSER_TESTS=0 opts them out)" >&2
}

# From PyPI, for the fleet pipeline's tests, once pip is there (a Python that refuses pip's installs into its own
# packages is told it may: these are test tools).
pypi_install() {
  if python3 -c 'import duckdb, pyspark' >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then return 0; fi
  python3 -m pip install --quiet duckdb pyspark 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages duckdb pyspark
  echo "installed duckdb and pyspark (PyPI)" >&2
}

case "$(uname -s)" in
  Darwin)
    install_darwin
    exit 0
    ;;
esac
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
  install_elsewhere
  exit 0
fi

missing=()
dpkg -s libpcre2-dev >/dev/null 2>&1 || missing+=(libpcre2-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
python3 -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1 || missing+=(nodejs)
java -version >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
browser=()
if browser_wanted && [ -n "$(chromium_problem)" ]; then browser=(chromium fonts-liberation); fi
pypi_install
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
pypi_install
if [ "${#browser[@]}" -gt 0 ]; then
  if $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${browser[@]}" >/dev/null; then
    echo "installed ${browser[*]}" >&2
    problem=$(chromium_problem)
    if [ -n "$problem" ]; then browser_warning "$problem"; fi
  else
    browser_warning "could not install ${browser[*]} ($(chromium_problem))"
  fi
fi
