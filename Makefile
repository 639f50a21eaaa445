# Asktray build entry points. Run `make help` for the list.
#
# Every build, test, vet and bench uses the same tags and never -trimpath, so
# they share the Go build cache: a cold Fyne build (go-gl cgo) takes 4-9
# minutes, a warm one seconds.

GO ?= go
GOFLAGS_TAGS := -tags migrated_fynedo

BIN := bin/asktray
# The hook-only binary (cmd/asktray-hook): what agents' hooks run, once per
# tool call for Claude Code's PreToolUse. Static, without cgo, so that it
# starts about as fast as any Go program (docs/hooks.md).
HOOK_BIN := bin/asktray-hook
HOOK_BUILD = CGO_ENABLED=0 $(GO) build $(GOFLAGS_TAGS)
TOOLS_DIR := $(CURDIR)/bin/tools

# The Linux package (make package): a stripped build of the same packages
# (-ldflags only changes the link, so the build cache is shared), wrapped by
# packaging/package-linux.sh with the pinned fyne CLI.
PACKAGE_DIR := bin/package
# FyneApp.toml's Version, read with a TOML library (packaging/appmeta); "="
# so that only the targets that use it pay for the go run.
VERSION = $(shell $(GO) run ./packaging/appmeta -f FyneApp.toml version)
PACKAGE_LDFLAGS = -s -w -X github.com/asktray/asktray/app/cli.Version=$(VERSION)

# The Windows build (make windows): cgo through Debian's mingw-w64, the GUI
# subsystem (no console window) and the resources packaging/winres.sh makes
# (icon, version, manifest). The same tags and no -trimpath, so make
# crosscheck's Windows vet reuses its build cache.
WINDOWS_EXE := bin/windows/asktray.exe
WINDOWS_ENV := GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc

GOLANGCI_LINT_VERSION := v2.15.0
GOLANGCI_LINT := $(TOOLS_DIR)/golangci-lint

# Fyne logs "Error parsing user locale C" under LANG=C.
export LANG := C.UTF-8
export LANGUAGE := en
# Find the toolchain at its usual place even when it is not on PATH (it is
# appended, so a go already on PATH wins).
export PATH := $(PATH):/usr/local/go/bin

.DEFAULT_GOAL := help

.PHONY: help deps deps-run build run test realagents bench measure-desktop lint fmt vet clean package install uninstall windows crosscheck deb

help: ## Show this help
	@echo "Usage: make <target> [ARGS=...]"
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

deps: ## Install what building, running and testing need: Debian packages, Go, Go modules, the real-client npm packages (fast no-op when all present)
	@echo "==> [deps] checking Debian packages, Go, Go modules and npm packages"
	@GO="$(GO)" bash .ci/deps.sh all

deps-run: ## Install only what building and running need: Debian's build headers, Go (from Debian's backports and the Go module proxy when missing), Go modules
	@echo "==> [deps-run] checking the build's Debian packages, Go and Go modules"
	@GO="$(GO)" bash .ci/deps.sh run

build: deps-run ## Build bin/asktray and the hook-only bin/asktray-hook beside it
	@echo "==> [build] $(GO) build $(GOFLAGS_TAGS) -o $(BIN) ./cmd/asktray"
	$(GO) build $(GOFLAGS_TAGS) -o $(BIN) ./cmd/asktray
	$(HOOK_BUILD) -o $(HOOK_BIN) ./cmd/asktray-hook

run: build ## Build and run bin/asktray (pass flags with ARGS="...")
	./$(BIN) $(ARGS)

test: deps build ## Install what the tests need, build bin/asktray, then run all tests with the race detector
	@echo "==> [test] $$($(GO) version); $$(nproc) CPUs; LANG=$(LANG)"
	@echo "==> [test] $(GO) test -race $(GOFLAGS_TAGS) -count=1 -timeout 20m ./..."
	@echo "==> [test] (a cold cache first compiles Fyne/go-gl with cgo: several minutes)"
	@start=$$(date +%s); \
	$(GO) test -race $(GOFLAGS_TAGS) -count=1 -timeout 20m ./...; rc=$$?; \
	echo "==> [test] finished in $$(( $$(date +%s) - start ))s, exit code $$rc"; \
	exit $$rc

realagents: deps ## Run Claude Code, Codex, Copilot CLI, Gemini CLI, opencode and Kilo for real against their hooks (.ci/realagents.sh; installs them once, about 1.2 GB)
	@GO="$(GO)" bash .ci/realagents.sh

package: deps ## Build the Linux package bin/package/Asktray.tar.xz (fyne package), with asktray-hook beside asktray
	@echo "==> [package] $(GO) build $(GOFLAGS_TAGS) -ldflags \"$(PACKAGE_LDFLAGS)\" -o $(PACKAGE_DIR)/asktray ./cmd/asktray"
	$(GO) build $(GOFLAGS_TAGS) -ldflags "$(PACKAGE_LDFLAGS)" -o $(PACKAGE_DIR)/asktray ./cmd/asktray
	$(HOOK_BUILD) -ldflags "-s -w" -o $(PACKAGE_DIR)/asktray-hook ./cmd/asktray-hook
	TOOLS_DIR="$(TOOLS_DIR)" GO="$(GO)" bash packaging/package-linux.sh $(PACKAGE_DIR)/asktray $(PACKAGE_DIR)

windows: deps ## Cross-compile bin/windows/asktray.exe with mingw-w64 (cold: about 7 minutes)
	@echo "==> [windows] $(WINDOWS_ENV) $(GO) build -o $(WINDOWS_EXE) ./cmd/asktray"
	TOOLS_DIR="$(TOOLS_DIR)" GO="$(GO)" bash packaging/winres.sh cmd/asktray
	$(WINDOWS_ENV) $(GO) build $(GOFLAGS_TAGS) -ldflags "-H=windowsgui $(PACKAGE_LDFLAGS)" -o $(WINDOWS_EXE) ./cmd/asktray
	@echo "==> [windows] $(WINDOWS_EXE): $$(file -b $(WINDOWS_EXE))"

crosscheck: deps ## go vet for Windows and macOS, tests included (fast after make windows)
	@GO="$(GO)" bash .ci/crosscheck.sh

deb: deps ## Build the Debian package bin/package/asktray_<version>_amd64.deb (lintian-checked)
	@echo "==> [deb] $(GO) build $(GOFLAGS_TAGS) -ldflags \"$(PACKAGE_LDFLAGS)\" -o $(PACKAGE_DIR)/asktray ./cmd/asktray"
	$(GO) build $(GOFLAGS_TAGS) -ldflags "$(PACKAGE_LDFLAGS)" -o $(PACKAGE_DIR)/asktray ./cmd/asktray
	$(HOOK_BUILD) -ldflags "-s -w" -o $(PACKAGE_DIR)/asktray-hook ./cmd/asktray-hook
	TOOLS_DIR="$(TOOLS_DIR)" GO="$(GO)" bash packaging/package-deb.sh $(PACKAGE_DIR)/asktray $(PACKAGE_DIR)

install: package ## Install the package for this user (~/.local), with its own Makefile
	rm -rf $(PACKAGE_DIR)/tree && mkdir -p $(PACKAGE_DIR)/tree
	tar -xJf $(PACKAGE_DIR)/Asktray.tar.xz -C $(PACKAGE_DIR)/tree
	$(MAKE) -C $(PACKAGE_DIR)/tree/asktray user-install
	@echo "==> [install] installed $(HOME)/.local/bin/asktray; start it from your applications menu or run: asktray --background &"

uninstall: ## Remove what make install put in ~/.local, and the start-at-login entry
	rm -f "$(HOME)/.local/bin/asktray" "$(HOME)/.local/bin/asktray-hook" \
		"$(HOME)/.local/share/applications/app.asktray.desktop.desktop" \
		"$(HOME)/.local/share/icons/app.asktray.desktop.png" \
		"$${XDG_CONFIG_HOME:-$(HOME)/.config}/autostart/asktray.desktop"

bench: build ## Print the benchmark report and write it to docs/benchmarks.md (about 5 minutes)
	@ASKTRAY_BIN="$(CURDIR)/$(BIN)" GO="$(GO)" bash .ci/bench.sh

measure-desktop: build ## Measure dialog latency and idle RSS/CPU under Xvfb (about 2.5 minutes)
	$(GO) test $(GOFLAGS_TAGS) -run '^$$' -bench Desktop -benchtime 1x -timeout 15m ./ui/xvfbtest/

lint: deps ## Run golangci-lint (pinned version, installed into bin/tools)
	@if ! "$(GOLANGCI_LINT)" version 2>/dev/null | grep -q "version $(GOLANGCI_LINT_VERSION:v%=%) "; then \
		echo "==> [lint] installing golangci-lint $(GOLANGCI_LINT_VERSION) into bin/tools (a few minutes)"; \
		GOBIN="$(TOOLS_DIR)" $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION); \
	fi
	@echo "==> [lint] golangci-lint config verify"
	"$(GOLANGCI_LINT)" config verify
	@echo "==> [lint] golangci-lint run ./..."
	"$(GOLANGCI_LINT)" run ./...
	@echo "==> [lint] golangci-lint run (realagents tag) ./app/hook/realagents/"
	"$(GOLANGCI_LINT)" run --build-tags migrated_fynedo,realagents ./app/hook/realagents/

fmt: ## gofmt -w all tracked and new (non-ignored) .go files
	@files=$$(git ls-files --cached --others --exclude-standard -- '*.go'); \
	if [ -n "$$files" ]; then gofmt -l -w $$files; fi

vet: deps ## go vet with the project build tags
	$(GO) vet $(GOFLAGS_TAGS) ./...

clean: ## Remove bin/ (including bin/tools)
	rm -rf bin
