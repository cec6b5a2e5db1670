#!/usr/bin/env python3
"""tests/check_layers.py -- the include graph of src/ against its folders.

Each folder of src/ is a room; EDGES says which rooms a room may use
directly, and a file may include headers of its own room and of every
room reachable from it, never of another (docs/architecture.md).  Rooms
side by side (solve/, cfr/) do not see each other unless an edge says so.
The graph itself must have no cycle.  src/gsolve.h, the public API
gathering the rooms, counts as cli.  Prints each violation and exits 1 if
there is any.  An argument names another src/ to check (the test's own)."""
import os, re, sys

EDGES = {
    "util": [],
    "game": ["util"],
    "lang": ["util"],
    "compiler": ["game", "lang"],
    "vm": ["compiler"],
    "engines": ["vm"],                      # native engines, the compiled tier
    "search": ["game"],                     # the frame, walks, tables, values
    "solve": ["search"],                    # exact solvers on the frame
    "cfr": ["search"],                      # game trees, CFR, strategy files
    "mcts": ["cfr"],                        # playouts (of strategies too), ISMCTS
    "retro": ["solve", "mcts"],             # retrograde, databases, value iteration
    "driver": ["solve", "retro", "cfr", "mcts"],  # the solver registry and job
    "cli": ["driver", "engines"],
}
ROOT = sys.argv[1] if len(sys.argv) > 1 else \
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")

def reach(room, seen=None):
    seen = set() if seen is None else seen
    for nxt in EDGES[room]:
        if nxt not in seen:
            seen.add(nxt)
            reach(nxt, seen)
    return seen

bad = 0
for room in EDGES:
    if room in reach(room):
        print("the room graph has a cycle through %s" % room)
        bad += 1
ALLOWED = {room: reach(room) | {room} for room in EDGES}

def room_of(rel):
    top = rel.split("/")[0]
    return "cli" if top == "gsolve.h" else top

for d, _, files in os.walk(ROOT):
    for f in files:
        if not f.endswith((".c", ".h")):
            continue
        rel = os.path.relpath(os.path.join(d, f), ROOT)
        here = room_of(rel)
        if here not in EDGES:
            print("%s: not in a room folder (%s)" % (rel, ", ".join(EDGES)))
            bad += 1
            continue
        for n, line in enumerate(open(os.path.join(d, f)), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m or m.group(1) in ("parser.h", "lexer.h"):
                continue
            inc = m.group(1)
            there = room_of(inc)
            if there not in EDGES:
                print("src/%s:%d: includes \"%s\", which names no room" % (rel, n, inc))
                bad += 1
            elif there not in ALLOWED[here]:
                print("src/%s:%d: the %s room includes \"%s\" from %s, which it may not reach"
                      % (rel, n, here, inc, there))
                bad += 1
print("layers: %d violation%s" % (bad, "" if bad == 1 else "s"))
sys.exit(1 if bad else 0)
