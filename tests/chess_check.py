#!/usr/bin/env python3
"""tests/chess_check.py -- a second method for the chess endgame tables.

An independent forward search, written here from the rules of chess (not
from games/chess-endgame.game): for random legal positions of king and
queen or rook against king on an N x N board, it finds the exact distance
to mate by a depth-bounded search (mate in n: some move after which every
reply is mated within n - 2 plies), memoised on (position, plies), and
compares value and plies with what gsolve reads from a table built by
retrograde analysis (--db FILE --fen FEN --json).  The bound is above the
table's longest win, so draws are checked too (no mate within the bound).

usage: chess_check.py GSOLVE DB SIZE MATERIAL SAMPLES BOUND SEED
prints "agree N" or the first disagreement, and exits 1 on one.
"""
import json
import random
import subprocess
import sys
from functools import lru_cache

GSOLVE, DB, SIZE, MATERIAL, SAMPLES, BOUND, SEED = sys.argv[1:8]
N = int(SIZE)
PIECE = MATERIAL[1]              # 'Q' or 'R'
KING_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
QUEEN_DIRS = ROOK_DIRS + [(1, 1), (1, -1), (-1, 1), (-1, -1)]
DIRS = QUEEN_DIRS if PIECE == 'Q' else ROOK_DIRS


def on(x, y):
    return 0 <= x < N and 0 <= y < N


def near(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1


def piece_attacks(p, target, blockers):
    """Whether the white piece on p attacks target, with blockers in the way."""
    for dx, dy in DIRS:
        x, y = p[0] + dx, p[1] + dy
        while on(x, y):
            if (x, y) == target:
                return True
            if (x, y) in blockers:
                break
            x, y = x + dx, y + dy
    return False


def black_in_check(wk, wp, bk):
    return wp is not None and piece_attacks(wp, bk, {wk})


def white_moves(wk, wp, bk):
    out = []
    for dx, dy in KING_STEPS:
        t = (wk[0] + dx, wk[1] + dy)
        if on(*t) and t != wp and not near(t, bk):
            out.append((t, wp, bk))
    if wp is not None:
        for dx, dy in DIRS:
            x, y = wp[0] + dx, wp[1] + dy
            while on(x, y) and (x, y) != wk and (x, y) != bk:
                out.append((wk, (x, y), bk))
                x, y = x + dx, y + dy
    return out


def black_moves(wk, wp, bk):
    out = []
    for dx, dy in KING_STEPS:
        t = (bk[0] + dx, bk[1] + dy)
        if not on(*t) or t == wk or near(t, wk):
            continue
        np = None if t == wp else wp          # a capture
        if np is not None and piece_attacks(np, t, {wk}):
            continue
        out.append((wk, np, t))
    return out


@lru_cache(maxsize=None)
def wins_within(pos, white, n):
    """The side to move mates within n plies (n odd when that side is White)."""
    wk, wp, bk = pos
    if wp is None or n < 1 or not white:
        return False                          # only White can mate
    return any(loses_within(c, False, n - 1) for c in white_moves(wk, wp, bk))


@lru_cache(maxsize=None)
def loses_within(pos, white, n):
    wk, wp, bk = pos
    if white or wp is None:
        return False
    moves = black_moves(wk, wp, bk)
    if not moves:
        return black_in_check(wk, wp, bk)     # mate; else stalemate
    return n >= 2 and all(wins_within(c, True, n - 1) for c in moves)


def exact(pos, white, bound):
    """('win'|'loss'|'draw', plies or None) by the forward search."""
    for n in range(bound + 1):
        if white and n % 2 == 1 and wins_within(pos, True, n):
            return 'win', n
        if not white and n % 2 == 0 and loses_within(pos, False, n):
            return 'loss', n
    return 'draw', None


def fen(wk, wp, bk, white):
    rows = []
    for y in range(N - 1, -1, -1):
        row, empty = '', 0
        for x in range(N):
            ch = 'K' if (x, y) == wk else PIECE if (x, y) == wp else 'k' if (x, y) == bk else ''
            if ch:
                row += (str(empty) if empty else '') + ch
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ''))
    return '/'.join(rows) + (' w' if white else ' b')


def main():
    rng = random.Random(int(SEED))
    bound = int(BOUND)
    agree = 0
    while agree < int(SAMPLES):
        sq = [(rng.randrange(N), rng.randrange(N)) for _ in range(3)]
        wk, wp, bk = sq
        white = rng.random() < 0.5
        if len(set(sq)) < 3 or near(wk, bk):
            continue
        if white and black_in_check(wk, wp, bk):
            continue                          # Black would be in check with White to move
        want = exact((wk, wp, bk), white, bound)
        f = fen(wk, wp, bk, white)
        out = subprocess.run([GSOLVE, 'games/chess-endgame.game', '-D', 'size=%d' % N,
                              '-D', 'material=' + MATERIAL, '--db', DB, '--fen', f, '--json'],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0:
            print('gsolve failed on %s: %s' % (f, out.stderr.strip()))
            return 1
        got = json.loads(out.stdout)
        have = (got['value'], got['plies'] if got['value'] != 'draw' else None)
        if have != want:
            print('disagree on %s: table %s, forward search %s' % (f, have, want))
            return 1
        agree += 1
    print('agree %d' % agree)
    return 0


if __name__ == '__main__':
    sys.exit(main())
