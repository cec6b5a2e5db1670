#!/usr/bin/env python3
"""tests/check_layers.py -- the include graph of src/ against its layers.

Each folder of src/ is a layer; a file may include headers of its own
layer and of the layers below it, never above (docs/architecture.md).
src/gsolve.h, the public API gathering the layers, counts as the top one.
Prints each violation and exits 1 if there is any."""
import os, re, sys

LAYERS = ["util", "game", "lang", "compiler", "vm", "search", "engines", "cli"]
RANK = {name: i for i, name in enumerate(LAYERS)}
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")

def layer_of(rel):
    top = rel.split("/")[0]
    if top == "gsolve.h":
        return "cli"
    return top

bad = 0
for d, _, files in os.walk(ROOT):
    for f in files:
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.join(d, f)
        rel = os.path.relpath(path, ROOT)
        here = layer_of(rel)
        if here not in RANK:
            print("%s: not in a layer folder (%s)" % (rel, ", ".join(LAYERS)))
            bad += 1
            continue
        for n, line in enumerate(open(path), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m or m.group(1) in ("parser.h", "lexer.h"):
                continue
            inc = m.group(1)
            there = layer_of(inc)
            if there not in RANK:
                print("src/%s:%d: includes \"%s\", which names no layer" % (rel, n, inc))
                bad += 1
            elif RANK[there] > RANK[here]:
                print("src/%s:%d: the %s layer includes \"%s\" from the higher %s layer"
                      % (rel, n, here, inc, there))
                bad += 1
print("layers: %d violation%s" % (bad, "" if bad == 1 else "s"))
sys.exit(1 if bad else 0)
