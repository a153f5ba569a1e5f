#!/usr/bin/env python3
"""Copies etcd's protocol definitions (rpc.proto, kv.proto, auth.proto) from an etcd checkout into
src/main/protobuf, keeping the wire protocol (packages, messages, fields, services) and removing
what only steers etcd's Go and REST code generation: gogoproto, grpc-gateway, openapiv2 and
versionpb options and their imports. Adds Java package options.

Usage: tools/import-etcd-protos.py <etcd checkout> [<ref>]   (run from the server module)
"""
import re
import subprocess
import sys
from pathlib import Path

FILES = {
    "api/etcdserverpb/rpc.proto": ("etcd/api/etcdserverpb/rpc.proto", "io.ringwatch.server.api.etcdserverpb"),
    "api/mvccpb/kv.proto": ("etcd/api/mvccpb/kv.proto", "io.ringwatch.server.api.mvccpb"),
    "api/authpb/auth.proto": ("etcd/api/authpb/auth.proto", "io.ringwatch.server.api.authpb"),
}
DROPPED_IMPORTS = ("gogoproto/", "etcd/api/versionpb/", "google/api/", "protoc-gen-openapiv2/")


def strip_custom_options(text):
    out = []
    i = 0
    while i < len(text):
        # option (custom.name) = value;   value: scalar or a {...} block
        m = re.compile(r"option\s*\([^)]*\)[^=;]*=\s*").match(text, i)
        if m:
            j = m.end()
            if text[j] == "{":
                depth = 0
                while True:
                    if text[j] == "{":
                        depth += 1
                    elif text[j] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                j += 1
            j = text.index(";", j) + 1
            i = j
            continue
        # [ (custom) = value, ... ] on a field or enum value
        m = re.compile(r"\s*\[\s*\(").match(text, i)
        if m and text[i:].lstrip().startswith("[("):
            j = text.index("]", i) + 1
            i = j
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def main():
    checkout = Path(sys.argv[1])
    ref = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    commit = subprocess.check_output(["git", "-C", str(checkout), "rev-parse", ref + "^{commit}"], text=True).strip()
    for source, (target, java_package) in FILES.items():
        text = subprocess.check_output(["git", "-C", str(checkout), "show", ref + ":" + source], text=True)
        lines = [l for l in text.splitlines() if not any(l.startswith('import "' + d) for d in DROPPED_IMPORTS)]
        text = strip_custom_options("\n".join(lines) + "\n")
        text = re.sub(r"\n{3,}", "\n\n", text)
        header = ("// etcd's %s at %s (%s), Apache License 2.0, imported by tools/import-etcd-protos.py:\n"
                  "// only the options that steer Go and REST code generation were removed.\n" % (source, ref, commit))
        text = text.replace('option go_package', 'option java_multiple_files = true;\noption java_package = "%s";\noption go_package' % java_package, 1)
        path = Path("src/main/protobuf") / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(header + text)
        print("wrote", path)


if __name__ == "__main__":
    main()
