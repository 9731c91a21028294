#!/usr/bin/env python3
"""Builds the real node's images from files on this machine and pushes them to the bed's
loopback registry through the registry's HTTP API (testbed/realnode.sh, docs/testing.md).

  image.py REGISTRY busybox BUSYBOX_BINARY REPO:TAG...
  image.py REGISTRY pause PAUSE_BINARY REPO:TAG...

One layer each, built reproducibly (fixed times and owners), an OCI manifest per image and
one PUT per tag, so `busybox`, `busybox:latest` and a pinned tag name the same digest, as
on Docker Hub. Nothing is pulled from anywhere.
"""
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import urllib.request

OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip"


def entry(tar, name, kind, mode=0o755, data=b"", target=""):
    info = tarfile.TarInfo(name)
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "root", "root"
    info.mode = mode
    if kind == "dir":
        info.type = tarfile.DIRTYPE
        tar.addfile(info)
    elif kind == "link":
        info.type, info.linkname = tarfile.SYMTYPE, target
        tar.addfile(info)
    else:
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))


def busybox_layer(binary):
    """/bin/busybox and a link per applet, /tmp, and the files a shell expects."""
    applets = subprocess.run([binary, "--list"], check=True, capture_output=True, text=True).stdout.split()
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for d in ("bin", "etc", "tmp", "root", "var"):
            entry(tar, d, "dir", 0o1777 if d == "tmp" else 0o755)
        entry(tar, "bin/busybox", "file", data=open(binary, "rb").read())
        for a in sorted(set(applets) - {"busybox"}):
            entry(tar, f"bin/{a}", "link", target="busybox")
        entry(tar, "etc/passwd", "file", 0o644, b"root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n")
        entry(tar, "etc/group", "file", 0o644, b"root:x:0:\nnobody:x:65534:\n")
    return raw.getvalue(), {"Env": ["PATH=/bin"], "Cmd": ["sh"]}


def pause_layer(binary):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        entry(tar, "pause", "file", data=open(binary, "rb").read())
    return raw.getvalue(), {"Entrypoint": ["/pause"]}


def request(method, url, data=None, content_type=None):
    req = urllib.request.Request(url, data=data, method=method)
    if content_type:
        req.add_header("Content-Type", content_type)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp


def push_blob(registry, repo, blob):
    digest = "sha256:" + hashlib.sha256(blob).hexdigest()
    start = request("POST", f"http://{registry}/v2/{repo}/blobs/uploads/")
    location = start.headers["Location"]
    if location.startswith("/"):
        location = f"http://{registry}{location}"
    sep = "&" if "?" in location else "?"
    request("PUT", f"{location}{sep}digest={digest}", blob, "application/octet-stream")
    return digest


def main():
    registry, kind, binary, *refs = sys.argv[1:]
    tar, config = {"busybox": busybox_layer, "pause": pause_layer}[kind](binary)
    layer = gzip.compress(tar, mtime=0)
    image_config = json.dumps({
        "architecture": "amd64", "os": "linux", "config": config,
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + hashlib.sha256(tar).hexdigest()]},
    }, sort_keys=True).encode()
    for ref in refs:
        repo, tag = ref.rsplit(":", 1)
        config_digest = push_blob(registry, repo, image_config)
        layer_digest = push_blob(registry, repo, layer)
        manifest = json.dumps({
            "schemaVersion": 2, "mediaType": OCI_MANIFEST,
            "config": {"mediaType": OCI_CONFIG, "digest": config_digest, "size": len(image_config)},
            "layers": [{"mediaType": OCI_LAYER, "digest": layer_digest, "size": len(layer)}],
        }, sort_keys=True).encode()
        request("PUT", f"http://{registry}/v2/{repo}/manifests/{tag}", manifest, OCI_MANIFEST)


if __name__ == "__main__":
    main()
