# Builds, tests and installs lctrace. `make install` copies the release build of lctrace to $(DESTDIR)$(PREFIX)/bin
# (building it first if there is none); `make build` makes it again after a change.
#
#     make build
#     sudo make install                  # /usr/local/bin/lctrace
#     make install PREFIX=$HOME/.local   # ~/.local/bin/lctrace

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BINDIR = $(DESTDIR)$(PREFIX)/bin
# SwiftPM keeps a link to the release products of the host's triple here, on Linux and macOS alike.
RELEASE_BINARY = .build/release/lctrace

.PHONY: build install uninstall test

build:
	$(SWIFT) build -c release --product lctrace

$(RELEASE_BINARY):
	$(MAKE) build

install: $(RELEASE_BINARY)
	install -d "$(BINDIR)"
	install -m 755 "$(RELEASE_BINARY)" "$(BINDIR)/lctrace"

uninstall:
	rm -f "$(BINDIR)/lctrace"

test:
	$(SWIFT) test
