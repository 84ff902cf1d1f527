# Builds, tests and installs lctrace. `make install` copies the release build of lctrace to $(DESTDIR)$(PREFIX)/bin
# (building it first if there is none); `make build` makes it again after a change.
#
#     make build
#     sudo make install                  # /usr/local/bin/lctrace
#     make install PREFIX=$HOME/.local   # ~/.local/bin/lctrace
#     make man && make install-man       # the manual page, lctrace.1, to $(PREFIX)/share/man/man1

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BINDIR = $(DESTDIR)$(PREFIX)/bin
# SwiftPM keeps a link to the release products of the host's triple here, on Linux and macOS alike.
RELEASE_BINARY = .build/release/lctrace

# On Linux the Swift runtime and Foundation are linked into the binary: it starts in about two thirds of the time
# (no shared libraries' symbols to bind) and runs where Swift is not installed. macOS has the runtime in the system.
ifeq ($(shell uname -s),Linux)
RELEASE_FLAGS = --static-swift-stdlib
endif

MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
MANPAGE = .build/man/lctrace.1

.PHONY: build install uninstall test update-golden man install-man

build:
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product lctrace

$(RELEASE_BINARY):
	$(MAKE) build

install: $(RELEASE_BINARY)
	install -d "$(BINDIR)"
	install -m 755 "$(RELEASE_BINARY)" "$(BINDIR)/lctrace"

uninstall:
	rm -f "$(BINDIR)/lctrace" "$(MANDIR)/lctrace.1"

# The manual page, from the same help text as --help, by swift-argument-parser's generate-manual plugin.
man:
	mkdir -p .build/man
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --output-directory .build/man

install-man: $(MANPAGE)
	install -d "$(MANDIR)"
	install -m 644 "$(MANPAGE)" "$(MANDIR)/lctrace.1"

$(MANPAGE):
	$(MAKE) man

test:
	$(SWIFT) test

# Rewrites the golden reports that differ from what the code prints now. The run fails whenever it rewrote one:
# read `git diff Tests/LCTraceKitTests/Golden`, then `make test` compares again.
update-golden:
	-LCTRACE_UPDATE_GOLDEN=1 $(SWIFT) test --filter 'RenderingTests|ReportTests|GoldenTests'
	git diff --stat -- Tests/LCTraceKitTests/Golden
