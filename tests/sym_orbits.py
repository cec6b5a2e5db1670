#!/usr/bin/env python3
"""Counts reachable positions up to symmetry without gsolve: a second
method for the canonical counts of tests/t_symmetry_groups.sh.

    sym_orbits.py dots W H     Dots and Boxes, W x H boxes
    sym_orbits.py sim          Sim on K6

Prints "POSITIONS ORBITS".  The positions are enumerated by the rules as
the example games state them (docs/examples/dots-*.game, sim.game), and
the orbits are counted by Burnside's lemma: the average over the group of
the number of positions each element leaves unchanged.  The group is the
symmetry group of the grid of dots (4 or 8 elements) or all 720
relabellings of K6's nodes, acting on the edges; for Sim the fixed points
are counted once per conjugacy class (its size as the weight)."""
import itertools
import sys


def edge_perm(edges, node_perm):
    index = {frozenset(e): i for i, e in enumerate(edges)}
    return tuple(index[frozenset((node_perm[a], node_perm[b]))] for a, b in edges)


def dots(w, h):
    W = w + 1
    edges = [(y * W + x, y * W + x + 1) for y in range(h + 1) for x in range(w)]
    edges += [(y * W + x, y * W + x + W) for y in range(h) for x in range(W)]
    index = {frozenset(e): i for i, e in enumerate(edges)}
    boxes = [[index[frozenset(p)] for p in ((d, d + 1), (d + W, d + W + 1), (d, d + W), (d + 1, d + W + 1))]
             for d in (y * W + x for y in range(h) for x in range(w))]
    seen = set()
    stack = [((0,) * len(edges), 0, 0, 0)]   # drawn, boxes of A, of B, mover
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        drawn, a, b, mover = s
        for e in range(len(edges)):
            if drawn[e]:
                continue
            nd = drawn[:e] + (1,) + drawn[e + 1:]
            taken = sum(1 for box in boxes if e in box and all(nd[i] for i in box))
            na, nb, nm = a, b, 1 - mover
            if taken:
                nm = mover
                if mover == 0:
                    na += taken
                else:
                    nb += taken
            stack.append((nd, na, nb, nm))
    def xy(f):
        return [f(d % W, d // W) for d in range(W * (h + 1))]
    gens = [xy(lambda x, y: y * W + (w - x)), xy(lambda x, y: (h - y) * W + x)]
    if w == h:
        gens.append(xy(lambda x, y: x * W + y))
    group = closure([edge_perm(edges, g) for g in gens])
    fixed = sum(sum(1 for s in seen if all(s[0][p[i]] == s[0][i] for i in range(len(p)))) for p in group)
    return len(seen), fixed // len(group)


def closure(gens):
    n = len(gens[0])
    group = {tuple(range(n))}
    frontier = list(group)
    while frontier:
        e = frontier.pop()
        for g in gens:
            c = tuple(e[g[i]] for i in range(n))
            if c not in group:
                group.add(c)
                frontier.append(c)
    return group


def sim():
    edges = [(a, b) for a in range(6) for b in range(a + 1, 6)]
    index = {frozenset(e): i for i, e in enumerate(edges)}
    tri = [[[index[frozenset((a, b))], index[frozenset((a, c))]] for c in range(6) if c not in (a, b)]
           for a, b in edges]
    seen = set()
    stack = [((0,) * 15, 0)]     # colours (0 none, 1 Red, 2 Blue), loser
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        colour, loser = s
        if loser:
            continue
        mover = 1 + sum(1 for c in colour if c) % 2
        for e in range(15):
            if colour[e]:
                continue
            nc = colour[:e] + (mover,) + colour[e + 1:]
            a, b = edges[e]
            lost = any(nc[index[frozenset((a, c))]] == mover and nc[index[frozenset((b, c))]] == mover
                       for c in range(6) if c not in (a, b))
            stack.append((nc, mover if lost else 0))
    # One permutation of each cycle type, weighted by how many share it.
    classes = {}
    for p in itertools.permutations(range(6)):
        seen_n, cycle = set(), []
        for i in range(6):
            k = 0
            while i not in seen_n:
                seen_n.add(i)
                i = p[i]
                k += 1
            if k:
                cycle.append(k)
        key = tuple(sorted(cycle))
        if key not in classes:
            classes[key] = [edge_perm(edges, p), 0]
        classes[key][1] += 1
    total = 0
    for perm, weight in classes.values():
        total += weight * sum(1 for s in seen if all(s[0][perm[i]] == s[0][i] for i in range(15)))
    return len(seen), total // 720


if __name__ == "__main__":
    if sys.argv[1] == "dots":
        n, orbits = dots(int(sys.argv[2]), int(sys.argv[3]))
    else:
        n, orbits = sim()
    print(n, orbits)
