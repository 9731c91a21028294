# helm-hooks — build, install and test. `make help` lists the targets.
#
# Fresh machine, two commands:
#   make tools   # wasm32-wasip1 target, Debian's containerd and friends, pinned Helm 4 and
#                # Kubernetes (cached in ~/.cache/helm-hooks)
#   make test    # unit, property and vector tests, then end to end on a local cluster

SHELL := bash
.DEFAULT_GOAL := build
# One cache per user, outside any checkout (testbed/versions.sh says the same): the pinned
# Go builds and Cargo's target folder, so that a fresh clone — CI's too — builds warm.
HOOKS_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/helm-hooks
export HOOKS_CACHE
CARGO_TARGET_DIR ?= $(HOOKS_CACHE)/target
export CARGO_TARGET_DIR
WASM := $(CARGO_TARGET_DIR)/wasm32-wasip1/release/helm_hooks.wasm
# The Helm that `make install` and the tests use: the pinned build when present.
HELM ?= $(if $(wildcard $(HOOKS_CACHE)/bin/helm),$(HOOKS_CACHE)/bin/helm,helm)
VERSION := $(shell sed -n 's/^version: *//p' plugin.yaml)

include testbed/testbed.mk

.PHONY: help build build-host install package release e2e-dist tools check-helm-host test unit e2e e2e-compat e2e-helm lint fmt bench bench-plan bench-run bench-deploy bench-load bench-host bench-real bench-hooks bench-text bench-ready corpus fuzz clean check-mermaid

help:
	@echo "build      plugin.wasm (wasm32-wasip1, release, size-optimised) beside plugin.yaml: what"
	@echo "           install installs"
	@echo "build-host plugin-host.wasm (--features host-functions, for a Helm with testbed/helm-patches)"
	@echo "install    helm plugin install the built plugin into \$$(HELM) ($(HELM))"
	@echo "package    dist/hooks-$(VERSION).tgz for helm plugin install (SIGN=1 KEY=... to sign), and"
	@echo "           dist/host/hooks-$(VERSION).tgz, the host-functions build"
	@echo "release    VERSION=x.y.z KEY=<gpg key> [OCI=host/path/hooks]: signed reproducible"
	@echo "           tarball, .prov, SHA256SUMS in dist/release/; OCI push when OCI is set"
	@echo "e2e-dist   distribution end to end: signed installs by URL and OCI, no cluster"
	@echo "tools      the Wasm target and the pinned Helm, Kubernetes, etcd and kwok builds"
	@echo "test       everything: unit + property + vectors, then end to end on the test bed"
	@echo "e2e-compat the run, deploy and public-chart suites on the previous Helm and Kubernetes"
	@echo "lint       cargo fmt --check, the layer check (tests/layers.rs) and clippy -D warnings"
	@echo "bench      benchmarks: bench-plan (plan under Helm, criterion) and bench-run"
	@echo "           (helm test vs helm hooks run on the bed), bench-deploy (helm install --wait"
	@echo "           vs helm hooks deploy on the bed), bench-load (500 hooks, 1,000 resources),"
	@echo "           bench-host (stock Helm against the host-functions Helm, side by side),"
	@echo "           bench-real (the public charts: helm install --wait vs the README's pipe),"
	@echo "           bench-hooks (hook-heavy charts: their hooks under stock Helm and the pipe at"
	@echo "           --parallel 8, plans, outcomes compared; advice copies with hook-parallel),"
	@echo "           corpus (every chart of testdata/charts/real through install, test, upgrade,"
	@echo "           rollback and uninstall: stock vs the pipe, step by step, a table),"
	@echo "           bench-text (plan and lint of 10k hooks + 10k resources through Helm),"
	@echo "           bench-ready (each readiness seen within 0.3 s of the cluster's write);"
	@echo "           figures in docs/benchmarks.md"
	@echo "fuzz       cargo +nightly fuzz on every parser, FUZZ_SECONDS each"
	@echo "check-mermaid  -o markdown's charts rendered by the real Mermaid (opt-in: installs"
	@echo "           Debian's chromium and npm's mermaid-cli); OUT=dir keeps the PNGs, REPORTS=dir"
	@echo "           adds the reports e2e tests kept (HOOKS_REPORT_DIR)"
	@echo "cluster-up | cluster-down | cluster-env | cluster-proxy   the local test bed"

$(WASM): Cargo.toml Cargo.lock .cargo/config.toml $(shell find src -name '*.rs')
	cargo build --release --target wasm32-wasip1 --lib

plugin.wasm: $(WASM)
	cp $(WASM) plugin.wasm

# `install` needs plugin.wasm only; the host-functions build is a second release build
# (about as long again), made by `build-host` or by what needs it (dist/hooks-host).
build: plugin.wasm

build-host: plugin-host.wasm

# The plugin directory Helm installs: plugin.yaml, plugin.wasm, the shell completion and the licence.
dist/hooks: plugin.wasm plugin.yaml completion.yaml LICENSE
	rm -rf dist/hooks && mkdir -p dist/hooks
	cp plugin.yaml plugin.wasm completion.yaml LICENSE dist/hooks/

# -- The host-functions build (issue 11, docs/hip-host-functions.md) ----------------------
# plugin.wasm for a Helm with testbed/helm-patches: Kubernetes through Helm's kube_request
# (kubeconfig, contexts, exec credentials; event-driven watches). Its own target dir, so
# that the two builds never overwrite each other's helm_hooks.wasm.
HOST_TARGET := $(CARGO_TARGET_DIR)/host-functions
HOST_WASM := $(HOST_TARGET)/wasm32-wasip1/release/helm_hooks.wasm

$(HOST_WASM): Cargo.toml Cargo.lock .cargo/config.toml $(shell find src -name '*.rs')
	cargo build --release --target wasm32-wasip1 --lib --features host-functions --target-dir $(HOST_TARGET)

plugin-host.wasm: $(HOST_WASM)
	cp $(HOST_WASM) plugin-host.wasm

dist/hooks-host: plugin-host.wasm plugin-host.yaml completion.yaml LICENSE
	rm -rf dist/hooks-host && mkdir -p dist/hooks-host
	cp plugin-host.yaml dist/hooks-host/plugin.yaml
	cp plugin-host.wasm dist/hooks-host/plugin.wasm
	cp completion.yaml LICENSE dist/hooks-host/

# `make e2e` runs the run, deploy, fault and SQL suites again with the patched Helm and
# dist/hooks-host, the bed's client-certificate kubeconfig and --kube-context only
# (tests/e2e/common kube_args; scripts/e2e.sh).
# ------------------------------------------------------------------------------------------

# A fresh Helm home has no plugin to uninstall: not an error, and make says nothing of it.
install: dist/hooks
	@$(HELM) plugin uninstall hooks >/dev/null 2>&1 || true
	$(HELM) plugin install dist/hooks

package: dist/hooks dist/hooks-host
	$(HELM) plugin package dist/hooks -d dist $(if $(SIGN),--sign --key '$(KEY)' $(if $(KEYRING),--keyring '$(KEYRING)'),--sign=false)
	mkdir -p dist/host && $(HELM) plugin package dist/hooks-host -d dist/host $(if $(SIGN),--sign --key '$(KEY)' $(if $(KEYRING),--keyring '$(KEYRING)'),--sign=false)

# Both plugin builds side by side (-j2): each is one LTO codegen unit on one core, and one
# after the other they took 93 s of every run of a fresh clone (`make test` needs both).
tools:
	rustup target add wasm32-wasip1
	testbed/packages.sh
	testbed/build.sh
	$(MAKE) --no-print-directory -j2 plugin.wasm check-helm-host

# The patched Helm really offers the host functions: it loads dist/hooks-host, whose imports
# an unpatched Helm cannot satisfy ('plugin requested host function "kube_request" not found').
check-helm-host: dist/hooks-host
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	export HELM_DATA_HOME=$$d/data HELM_CONFIG_HOME=$$d/config HELM_CACHE_HOME=$$d/cache && \
	$(HOOKS_CACHE)/bin/helm-host plugin install dist/hooks-host >/dev/null && \
	out=$$($(HOOKS_CACHE)/bin/helm-host hooks version 2>&1) || { \
	  echo "$$out" >&2; echo "$(HOOKS_CACHE)/bin/helm-host does not load dist/hooks-host: are testbed/helm-patches applied?" >&2; exit 1; } && \
	echo "check-helm-host: $$out"

unit:
	cargo test
	cargo test --lib --features host-functions kube::host

# The tests install exactly what `make install` would: dist/hooks.
E2E_ENV := HELM_BIN=$(HOOKS_CACHE)/bin/helm HOOKS_PLUGIN_DIR=$(CURDIR)/dist/hooks

# Through the real Helm, no cluster needed.
e2e-helm: dist/hooks
	$(E2E_ENV) cargo test --features e2e --test e2e helm::

# End to end: the bed is started here and stopped whatever happens. The suites run in two
# lanes side by side, the fault suites alone after them (scripts/e2e.sh says what may not
# overlap).
# The bed is stopped at the end by a stop that must succeed: it checks that the real node
# left nothing behind (processes, mounts, the bridge, cgroups, sysctls; testbed/realnode.sh).
e2e: dist/hooks dist/hooks-host testbed-build
	@trap 'testbed/cluster.sh down >/dev/null 2>&1; testbed/postgres.sh down' EXIT; \
	testbed/cluster.sh up && eval "$$(testbed/cluster.sh env)" && \
	HELM_STOCK=$(HOOKS_CACHE)/bin/helm PLUGIN_STOCK=$(CURDIR)/dist/hooks \
	HELM_HOST=$(HOOKS_CACHE)/bin/helm-host PLUGIN_HOST=$(CURDIR)/dist/hooks-host scripts/e2e.sh; \
	rc=$$?; testbed/cluster.sh down || rc=1; exit $$rc

test: unit e2e e2e-dist

# The previous Helm and Kubernetes (HOOKS_PAIR=compat in testbed/versions.sh: Helm v4.2.4,
# Kubernetes v1.36.1), opt-in, not part of `make test`: the stock run, deploy and public-chart
# suites on a bed of their own, built and kept in $(HOOKS_CACHE)/compat.
E2E_COMPAT_TESTS := run:: deploy:: real::
e2e-compat: dist/hooks
	HOOKS_PAIR=compat testbed/build.sh helm etcd kwok kube podlogs provisioner
	@export HOOKS_PAIR=compat; trap 'testbed/cluster.sh down' EXIT; \
	testbed/cluster.sh up && eval "$$(testbed/cluster.sh env)" && \
	HELM_BIN=$$HOOKS_CACHE/bin/helm HOOKS_PLUGIN_DIR=$(CURDIR)/dist/hooks \
	  cargo test --no-fail-fast --features e2e --test e2e -- $(E2E_COMPAT_TESTS)

# --- Distribution (issue 12) ---------------------------------------------------------------
# make release VERSION=x.y.z KEY=<gpg key> [OCI=host/path/hooks PLAIN_HTTP=1]: the signed,
# reproducible tarball, its .prov and SHA256SUMS in dist/release/, pushed to OCI when set.
release: dist/hooks
	KEY='$(KEY)' OCI='$(OCI)' PLAIN_HTTP='$(PLAIN_HTTP)' SOURCE_URL='$(SOURCE_URL)' scripts/release.sh '$(VERSION)'

# Through the real Helm, a loopback HTTP server and a loopback OCI registry (no cluster):
# signed installs by URL, tag and digest, refusals, upgrade, reproducibility, completion.
e2e-dist: dist/hooks
	testbed/build.sh helm registry oras
	HELM=$(HOOKS_CACHE)/bin/helm scripts/e2e-dist.sh
# ------------------------------------------------------------------------------------------

lint:
	cargo fmt --all -- --check
	cargo test --quiet --test layers
	cargo clippy --all-targets --features e2e -- -D warnings
	cargo clippy --all-targets --features e2e,host-functions -- -D warnings
	cargo clippy --lib --target wasm32-wasip1 --features host-functions -- -D warnings

fmt:
	cargo fmt --all

# Benchmarks (not tests): figures go to docs/benchmarks.md.
bench: bench-plan bench-run bench-deploy

bench-plan:
	HELM=$(HOOKS_CACHE)/bin/helm scripts/bench-plan.sh

# helm test against helm hooks run --parallel 8 on the bed (started and stopped here).
bench-text: dist/hooks
	HELM=$(HOOKS_CACHE)/bin/helm scripts/bench-text.sh

bench-run: dist/hooks testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && \
	HELM=$(HOOKS_CACHE)/bin/helm HOOKS_PLUGIN_DIR=$(CURDIR)/dist/hooks scripts/bench-run.sh

# helm install --wait against the sequenced deploy on the bed (started and stopped here).
bench-deploy: dist/hooks testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && \
	HELM=$(HOOKS_CACHE)/bin/helm HOOKS_PLUGIN_DIR=$(CURDIR)/dist/hooks scripts/bench-deploy.sh

# How soon each readiness of a five-batch deploy is seen after the cluster wrote it, on both
# builds (issue 48: within 0.3 s).
bench-ready: dist/hooks dist/hooks-host testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && scripts/bench-ready.sh

# 500 hooks and 1,000 resources: accounting, API requests per object, Helm's peak memory.
bench-load: dist/hooks testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && \
	HELM=$(HOOKS_CACHE)/bin/helm scripts/bench-load.sh

# Stock Helm + dist/hooks against helm-host + dist/hooks-host, side by side (issue 11).
bench-host: dist/hooks dist/hooks-host testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && scripts/bench-host.sh

# -o markdown's Mermaid charts rendered by the real Mermaid library in a headless Chromium
# (docs/report.md). Opt-in, not part of `make test`: it installs Debian's chromium and npm's
# mermaid-cli. The goldens, and with REPORTS=dir the Markdown the e2e tests kept there
# (HOOKS_REPORT_DIR=dir); OUT=dir keeps the PNGs (docs/report's pictures).
check-mermaid:
	$(if $(OUT),OUT='$(OUT)') scripts/check-mermaid.sh tests/golden/report/*.md $(if $(REPORTS),$(wildcard $(REPORTS)/*.md))

# The public charts of testdata/charts/real: stock helm install --wait against the README's
# pipe, alternating, with API requests and the plugin's own share (started and stopped here).
bench-real: dist/hooks testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && \
	HELM=$(HOOKS_CACHE)/bin/helm HOOKS_PLUGIN_DIR=$(CURDIR)/dist/hooks scripts/bench-real.sh

# The public-chart corpus, chart by chart, through its life cycle (install, test, upgrade,
# rollback, uninstall), stock Helm against the README's pipe: records compared after each
# step, times (issue 47; started and stopped here).
corpus: dist/hooks testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && \
	HELM=$(HOOKS_CACHE)/bin/helm HOOKS_PLUGIN_DIR=$(CURDIR)/dist/hooks scripts/corpus.sh

# Hooks at work (issue 47): the hook-heavy charts' hooks under stock Helm and the pipe at
# --parallel 8, their plans, outcomes compared, and the advice copies (started and stopped here).
bench-hooks: dist/hooks testbed-build
	@trap 'testbed/cluster.sh down' EXIT; testbed/cluster.sh up && \
	HELM=$(HOOKS_CACHE)/bin/helm HOOKS_PLUGIN_DIR=$(CURDIR)/dist/hooks scripts/bench-hooks.sh

# Coverage-guided fuzzing of every parser (nightly Rust and cargo-fuzz).
FUZZ_SECONDS ?= 90
fuzz:
	fuzz/run-all.sh $(FUZZ_SECONDS)

clean:
	rm -rf target dist plugin.wasm plugin-host.wasm
