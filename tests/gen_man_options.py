#!/usr/bin/env python3
"""gen_man_options.py -- keeps the man page's options equal to the options
table (src/cli/options.c), as `gsolve --help-options` prints it.

    gen_man_options.py GSOLVE MANPAGE            check; exit 1 and say what differs
    gen_man_options.py --update GSOLVE MANPAGE   make the man page agree

The list of options the man page documents comes from the table: each
option of the table heads exactly one `.TP` entry (in MODES, OPTIONS, PLAY
or GTP, wherever it reads best), with the table's argument (`--tt-size MB`),
and no entry heads an option the table lacks.  The entries' text is the
hand-written part: it says more than the table's help line.

--update (`make man`) adds an entry for each missing option to the end of
the OPTIONS section, made from the table (its argument, help line and the
modes that take it), rewrites the head of a one-option entry whose
argument differs from the table's, and drops the entries of options the
table no longer has.  Options that head more than one entry, or a
combined entry with a wrong argument, it leaves to be fixed by hand.
tests/t_help.sh runs the check, and shows each kind of disagreement found.
"""
import re
import subprocess
import sys


def table(gsolve):
    """[(name, argument, help, modes)] in the table's order."""
    out = subprocess.run([gsolve, "--help-options"], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"^(-[-\w]+)(?: (\S+))?\s{2,}(.*?)(?: \[([^\]]*)\])?$", line)
        if m:
            rows.append((m.group(1), m.group(2) or "", m.group(3), m.group(4) or ""))
    return rows


def man_escape(text):
    return text.replace("\\", "\\e").replace("-", "\\-")


def head_items(head):
    """[(option, argument)] that an entry's head line (.B/.BI/.BR ...) names:
    the macro's arguments joined as troff prints them, font changes dropped,
    split at the commas between options."""
    words = re.findall(r'"[^"]*"|\S+', head)[1:]
    text = "".join(w[1:-1] if w.startswith('"') else w for w in words)
    text = re.sub(r"\\f[RBIP]", "", text).replace("\\-", "-").replace("\\~", " ")
    items = []
    for part in re.split(r",\s*(?=-)", text):
        m = re.match(r"^\s*(--?[a-zA-Z][\w-]*)(?:\s+(\S+))?\s*$", part)
        if m:
            items.append((m.group(1), m.group(2) or ""))
    return items


def entries(lines):
    """[(index of the .TP line, [(option, argument)] of its head)]."""
    found = []
    for i, line in enumerate(lines[:-1]):
        if line.strip() == ".TP" and lines[i + 1].startswith((".B", ".I")):
            found.append((i, head_items(lines[i + 1])))
    return found


def generated_head(name, arg):
    """.B --flag; .BI --name " ARG" for a placeholder, .BR for literal words
    (--engine " auto|vm|native")."""
    if not arg:
        return ".B " + man_escape(name)
    return '.%s %s " %s"' % ("BR" if arg == arg.lower() else "BI", man_escape(name),
                             man_escape(arg))


def generated(name, arg, help_text, modes):
    text = help_text[:1].upper() + help_text[1:]
    if not text.endswith("."):
        text += "."
    if modes:
        text += " With " + modes.replace("gsolve ", "gsolve\\~") + "."
    return [".TP", generated_head(name, arg), man_escape(text).replace("\\e~", "\\~")]


def compare(rows, lines):
    """The disagreements: (kind, option, detail), in the table's order."""
    arg_of = {r[0]: r[1] for r in rows}
    heads = {}
    for i, items in entries(lines):
        for opt, arg in items:
            heads.setdefault(opt, []).append((i, arg))
    found = []
    for name, arg, _, _ in rows:
        places = heads.get(name, [])
        if not places:
            found.append(("missing", name, arg))
        elif len(places) > 1:
            found.append(("twice", name, len(places)))
        elif places[0][1] != arg:
            found.append(("argument", name, (places[0][1], arg)))
    for opt in sorted(heads):
        if opt.startswith("--") and opt not in arg_of:
            found.append(("stale", opt, None))
    return found


def message(kind, opt, detail):
    if kind == "missing":
        return ("docs/gsolve.1 has no entry for %s, which `gsolve --help-options` lists: "
                "run `make man` to add one from the options table (then reword it "
                "if need be)" % opt)
    if kind == "twice":
        return "docs/gsolve.1 heads %d entries with %s: keep one" % (detail, opt)
    if kind == "argument":
        return ("docs/gsolve.1 gives %s the argument '%s', the options table '%s': run "
                "`make man` to take the table's" % (opt, detail[0], detail[1]))
    return ("docs/gsolve.1 has an entry for %s, which the options table no longer "
            "has: run `make man` to drop it" % opt)


def update(rows, lines, found):
    by_name = {r[0]: r for r in rows}
    stale = {opt for kind, opt, _ in found if kind == "stale"}
    wrong = {opt for kind, opt, _ in found if kind == "argument"}
    spans = dict(entries(lines))
    out, i, done = [], 0, []
    while i < len(lines):
        items = spans.get(i)
        names = [o for o, _ in items] if items else []
        if names and all(o in stale for o in names):
            i += 2          # the entry of options the table no longer has
            while i < len(lines) and not lines[i].startswith((".TP", ".SH")):
                i += 1
            done += ["dropped %s" % o for o in names]
            continue
        if len(names) == 1 and names[0] in wrong:
            out += [lines[i], generated_head(names[0], by_name[names[0]][1])]
            done.append("took the table's argument for %s" % names[0])
            i += 2
            continue
        out.append(lines[i])
        i += 1
    missing = [by_name[opt] for kind, opt, _ in found if kind == "missing"]
    if missing:
        start = out.index(".SH OPTIONS")
        end = next(k for k in range(start + 1, len(out)) if out[k].startswith(".SH "))
        added = []
        for r in missing:
            added += generated(*r)
            done.append("added %s to the OPTIONS" % r[0])
        out[end:end] = added
    return out, done


def main(argv):
    do_update = argv[1:2] == ["--update"]
    args = argv[2:] if do_update else argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    gsolve, path = args
    rows = table(gsolve)
    with open(path) as f:
        lines = f.read().split("\n")
    found = compare(rows, lines)
    if not do_update:
        for kind, opt, detail in found:
            print(message(kind, opt, detail))
        return 1 if found else 0
    lines, done = update(rows, lines, found)
    with open(path, "w") as f:
        f.write("\n".join(lines))
    for d in done:
        print("%s: %s" % (path, d))
    left = compare(rows, lines)
    for kind, opt, detail in left:
        print(message(kind, opt, detail) + " (by hand)")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
