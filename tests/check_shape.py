#!/usr/bin/env python3
"""tests/check_shape.py -- rules of src/'s shape (docs/architecture.md).

    check_shape.py sizes   every file of src/ has at most 1000 lines (split
                           by job beyond that)
    check_shape.py games   the command (src/cli/) and the solvers
                           (src/driver, search, solve,
                           retro, cfr, mcts) name no game in their code: what a
                           game offers comes through the engine registry and
                           the game interface.  Comments and messages may
                           give a game as an example.
    check_shape.py headers [DIR]
                           every file of src/ (or DIR) opens with a comment
                           whose first word is its own name ("nim.c --
                           ..."), and every file that comment names (a
                           bare "vm.c", "vm/vm.c", "docs/cli.md",
                           "games/nim.game" ...) exists: a name with a
                           folder from the repository, src/ or the file's
                           own folder; a bare name anywhere.  Names in <>
                           (system headers), under build/ (generated) and
                           in capitals ("NAME.c": a pattern) are not looked
                           up.

    check_shape.py solvers [SRC]
                           the command (src/cli/) names no solver in its
                           code: what a solver is and takes comes from its
                           row of the registry (src/driver/solvers.c).  A
                           string that is a row's name (or alias), one that
                           says "--solver NAME", or a comparison with a
                           solver's name is refused outside the option
                           table's help text of options.c (and its --engine
                           list: "native" is an engine's name too).
                           Comments and prose (a method named in output
                           text) may name one.  SRC: another src/ to check
                           (the test's own).


Prints each file that breaks the rule, then a last line "sizes: N files
above 1000 lines", "games: N names", "headers: N stale" or "solvers: N
names"; exits 1 if
N > 0."""
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


# A file name as a header comment would write it.
FILE_NAME = re.compile(r"(?<![\w./<-])((?:[\w-]+/)*[\w-]+\.(?:c|h|def|y|l|md|game|py|sh))(?![\w/])")


def tree_files(top):
    """Every file below top, as paths relative to it (build/ and hidden
    folders left out)."""
    out = set()
    for d, subdirs, names in os.walk(top):
        subdirs[:] = [s for s in subdirs if not s.startswith(".") and not s.startswith("build")]
        out.update(os.path.relpath(os.path.join(d, n), top) for n in names)
    return out


def headers(src=ROOT):
    repo = os.path.normpath(os.path.join(ROOT, ".."))
    mine = tree_files(src)
    known = mine | {"src/" + f for f in mine} | {f for f in tree_files(repo) if not f.startswith("src/")}
    bases = {os.path.basename(f) for f in known}
    bad = 0
    for rel in sorted(mine):
        if not re.search(r"\.(c|h|def)$", rel):
            continue
        with open(os.path.join(src, rel)) as f:
            text = f.read()
        m = re.match(r"/\*[\s*]*(.*?)\*/", text, re.S)
        own = os.path.basename(rel)
        if m is None or not m.group(1).startswith(own + " -- "):
            print("src/%s:1: the header comment does not open with \"%s -- \"" % (rel, own))
            bad += 1
        if m is None:
            continue
        folder = os.path.dirname(rel)
        for n in FILE_NAME.findall(m.group(1)):
            stem = os.path.splitext(os.path.basename(n))[0]
            if n.startswith("build/") or stem.isupper():
                continue
            if "/" in n:
                ok = n in known or "src/" + n in known or os.path.normpath(os.path.join(folder, n)) in mine
            else:
                ok = n in bases
            if not ok:
                print("src/%s: the header comment names %s, which does not exist" % (rel, n))
                bad += 1
    print("headers: %d stale" % bad)
    return bad


def strip_comments(text):
    """The text with its comments blanked (lines kept), strings kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def solver_names(root):
    """The names of the registry's rows, and their aliases."""
    with open(os.path.join(root, "driver", "solvers.c")) as f:
        text = strip_comments(f.read())
    table = text[text.index("solver_table[] = {"):]
    table = table[:table.index("\n};")]
    names = set(re.findall(r'^\s*\{\s*"([^"]+)"', table, re.M))
    m = re.search(r"solver_alias\[\]\[2\] = \{(.*?)\};", text, re.S)
    if m:
        names |= set(re.findall(r'\{\s*"([^"]+)"', m.group(1)))
    return names


def solvers(root=ROOT):
    names = solver_names(root)
    said = re.compile(r"--solver (%s)(?![A-Za-z0-9-])" % "|".join(map(re.escape, sorted(names))))
    bad = 0
    for path in sorted(glob.glob(os.path.join(root, "cli", "*.[ch]"))):
        with open(path) as f:
            code = strip_comments(f.read())
        lines = code.split("\n")
        help_table = (0, 0)
        if os.path.basename(path) == "options.c" and "option_table[] = {" in code:
            first = code[:code.index("option_table[] = {")].count("\n") + 1
            rest = code[code.index("option_table[] = {"):]
            help_table = (first, first + rest[:rest.index("\n};")].count("\n") + 1)
        for n, line in enumerate(lines, 1):
            if line.lstrip().startswith("#include") or help_table[0] <= n <= help_table[1]:
                continue
            what = None
            if re.search(r"solver->name\s*[,)]", line) and "strcmp" in line:
                what = "compares a solver's name"
            for m in re.finditer(r'"((?:\\.|[^"\\\n])*)"', line):
                lit = m.group(1)
                engine_list = lit == "native" and "ENGINE_NATIVE" in line
                if (lit in names and not engine_list) or said.search(lit):
                    what = "names the solver '%s'" % (lit if lit in names else said.search(lit).group(1))
            if what:
                print("src/%s:%d: %s" % (os.path.relpath(path, root), n, what))
                bad += 1
    print("solvers: %d name%s" % (bad, "" if bad == 1 else "s"))
    return bad


if __name__ == "__main__":
    what = sys.argv[1:2]
    if what == ["sizes"]:
        sys.exit(1 if sizes() else 0)
    if what == ["games"]:
        sys.exit(1 if games() else 0)
    if what == ["headers"]:
        sys.exit(1 if headers(*sys.argv[2:3]) else 0)
    if what == ["solvers"]:
        sys.exit(1 if solvers(*sys.argv[2:3]) else 0)
    sys.exit(__doc__)
