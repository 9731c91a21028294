#!/usr/bin/env python3
"""Shrinks vendored CRD files for the test corpus: every version's
openAPIV3Schema becomes `{type: object, x-kubernetes-preserve-unknown-fields: true}`.

Names, groups, versions, scope, served/storage and subresources stay, so the
API server still serves the kinds and readiness (Established) is unchanged;
only validation is lost, which the tests do not rely on. The text before the
first document (a comment and `---`, as prometheus-operator's files have) is
kept as it is, because it is what the plan must attribute correctly.

Usage: trim_crds.py FILE...
"""
import sys

import yaml

OPEN = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}

# YAML 1.1 reads a bare `=` (an enum value in these schemas) as the `value` tag.
yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", lambda loader, node: loader.construct_scalar(node))


def trim(path):
    text = open(path).read()
    # Keep the leading comment lines and the first `---` verbatim.
    head, body = "", text
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("#") or not line.strip():
            continue
        if line.rstrip() == "---":
            head, body = "".join(lines[: i + 1]), "".join(lines[i + 1 :])
        break
    docs = [d for d in yaml.safe_load_all(body) if d]
    for d in docs:
        for v in d.get("spec", {}).get("versions", []):
            if "schema" in v:
                v["schema"] = {"openAPIV3Schema": dict(OPEN)}
    out = yaml.safe_dump_all(docs, sort_keys=False, default_flow_style=False)
    open(path, "w").write(head + out)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        trim(p)
