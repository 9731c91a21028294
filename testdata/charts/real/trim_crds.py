#!/usr/bin/env python3
"""Shrinks vendored CRD files for the test corpus: every version's
openAPIV3Schema becomes `{type: object, x-kubernetes-preserve-unknown-fields: true}`.

Names, groups, versions, scope, served/storage, subresources and printer
columns stay, so the API server still serves the kinds and readiness
(Established) is unchanged; only validation is lost, which the tests do not
rely on.

Two modes:

  trim_crds.py FILE...             plain YAML (a chart's crds/ folder). The text
                                   before the first document (a comment and `---`,
                                   as prometheus-operator's files have) is kept as
                                   it is, because it is what the plan must
                                   attribute correctly; the rest is re-dumped.
  trim_crds.py --template FILE...  CRDs that are templates (templates/crd-*.yaml,
                                   with `{{ ... }}` around them), which YAML cannot
                                   read: line by line, only the block under each
                                   `openAPIV3Schema:` key is replaced; every other
                                   line, template directives included, is kept
                                   byte for byte. Refuses a schema block holding a
                                   template directive.

Both are idempotent.
"""
import re
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


KEY = re.compile(r"^( *)openAPIV3Schema:\s*$")


def trim_template(path):
    lines = open(path).read().splitlines(keepends=True)
    out, i, n = [], 0, 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        m = KEY.match(line)
        if not m:
            continue
        indent = len(m.group(1))
        # The block: every following line that is blank or indented deeper than the key.
        j = i
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip(" ")) > indent):
            if "{{" in lines[j]:
                sys.exit(f"{path}:{j + 1}: a template directive inside openAPIV3Schema; not trimmed")
            j += 1
        # Trailing blank lines belong to what follows.
        while j > i and not lines[j - 1].strip():
            j -= 1
        pad = " " * (indent + 2)
        out.append(f"{pad}type: object\n")
        out.append(f"{pad}x-kubernetes-preserve-unknown-fields: true\n")
        i, n = j, n + 1
    if n == 0:
        sys.exit(f"{path}: no openAPIV3Schema found")
    open(path, "w").write("".join(out))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--template":
        for p in args[1:]:
            trim_template(p)
    else:
        for p in args:
            trim(p)
