# Builds contacts-ledger and installs it with its man page and shell completions:
#   make install PREFIX=$HOME/.local        (default PREFIX /usr/local; DESTDIR for packaging)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
DATADIR ?= $(PREFIX)/share
CONFIGURATION ?= release
TOOL = $(DESTDIR)$(BINDIR)/contacts-ledger

.PHONY: build install uninstall

build:
	swift build -c $(CONFIGURATION) --product contacts-ledger

install: build
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" \
		"$(DESTDIR)$(DATADIR)/bash-completion/completions" "$(DESTDIR)$(DATADIR)/zsh/site-functions" \
		"$(DESTDIR)$(DATADIR)/fish/vendor_completions.d"
	install -m 0755 "$$(swift build -c $(CONFIGURATION) --show-bin-path)/contacts-ledger" "$(TOOL)"
	"$(TOOL)" manpage > "$(DESTDIR)$(MANDIR)/contacts-ledger.1"
	"$(TOOL)" completion bash > "$(DESTDIR)$(DATADIR)/bash-completion/completions/contacts-ledger"
	"$(TOOL)" completion zsh > "$(DESTDIR)$(DATADIR)/zsh/site-functions/_contacts-ledger"
	"$(TOOL)" completion fish > "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/contacts-ledger.fish"

uninstall:
	rm -f "$(TOOL)" "$(DESTDIR)$(MANDIR)/contacts-ledger.1" \
		"$(DESTDIR)$(DATADIR)/bash-completion/completions/contacts-ledger" \
		"$(DESTDIR)$(DATADIR)/zsh/site-functions/_contacts-ledger" \
		"$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/contacts-ledger.fish"
