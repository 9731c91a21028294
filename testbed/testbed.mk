# Test-bed targets; the top-level Makefile does `include testbed/testbed.mk`.
# See docs/testing.md.
TESTBED := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: testbed-build cluster-up cluster-down cluster-env cluster-proxy cluster-status testbed-e2e

# Builds (or reuses) Helm, the control plane, etcd, kwok, kubectl and the log helper in $(HOOKS_CACHE)/bin.
testbed-build:
	$(TESTBED)/build.sh

# Starts the bed on 127.0.0.1, or reuses the running one.
cluster-up: testbed-build
	$(TESTBED)/cluster.sh up

# Stops every process of the bed (also after a failed or interrupted run).
cluster-down:
	$(TESTBED)/cluster.sh down

# Prints export lines: eval "$$(make -s cluster-env)"
cluster-env:
	@$(TESTBED)/cluster.sh env

# Starts kubectl proxy on a free loopback port and prints its URL (cluster-down stops it).
cluster-proxy:
	@$(TESTBED)/cluster.sh proxy

cluster-status:
	@$(TESTBED)/cluster.sh status

# The test bed's own end-to-end tests (tests/e2e/testbed.rs) against a running bed.
testbed-e2e: cluster-up
	@eval "$$($(TESTBED)/cluster.sh env)" && cargo test --features e2e --test e2e testbed::
