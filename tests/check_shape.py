#!/usr/bin/env python3
"""tests/check_shape.py -- two rules of src/'s shape (docs/architecture.md).

    check_shape.py sizes   every file of src/ has at most 1000 lines (split
                           by job beyond that)
    check_shape.py games   the command (src/cli/) and the solvers
                           (src/driver, search, solve,
                           retro, cfr, mcts) name no game in their code: what a
                           game offers comes through the engine registry and
                           the game interface.  Comments and messages may
                           give a game as an example.

Prints each file that breaks the rule, then a last line "sizes: N files
above 1000 lines" or "games: N names"; exits 1 if N > 0."""
import glob, os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
MAX_LINES = 1000
# The bundled games and their engines, as code would name them (Go, Dice,
# Pot and Token not: "go", "pot" and "token" are ordinary words of code).
# "Nim heap" is the theory's name of a heap of G (a star, docs/cgt.md), not the game.
GAME_WORDS = r"(?<![A-Za-z0-9])(nim(?![ -]heap)|connect4|connect_four|c4|matchsticks|tictactoe|hexapawn|kuhn|leduc|pig)(?![A-Za-z0-9])"


def files(*patterns):
    for pattern in patterns:
        yield from sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True))


def sizes():
    bad = 0
    for path in files("**/*.c", "**/*.h"):
        with open(path) as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            print("src/%s: %d lines" % (os.path.relpath(path, ROOT), n))
            bad += 1
    print("sizes: %d file%s above %d lines" % (bad, "" if bad == 1 else "s", MAX_LINES))
    return bad


def games():
    bad = 0
    rooms = ("cli", "driver", "search", "solve", "retro", "cfr", "mcts")
    for path in files(*("%s/*.%s" % (room, ext) for room in rooms for ext in "ch")):
        with open(path) as f:
            text = f.read()
        code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        code = re.sub(r"//[^\n]*", "", code)
        code = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', code)
        code = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", code)
        for n, line in enumerate(code.split("\n"), 1):
            for m in re.finditer(GAME_WORDS, line, re.I):
                print("src/%s:%d: names the game '%s'" % (os.path.relpath(path, ROOT), n, m.group(0)))
                bad += 1
    print("games: %d name%s" % (bad, "" if bad == 1 else "s"))
    return bad


if __name__ == "__main__":
    what = sys.argv[1:2]
    if what == ["sizes"]:
        sys.exit(1 if sizes() else 0)
    if what == ["games"]:
        sys.exit(1 if games() else 0)
    sys.exit(__doc__)
