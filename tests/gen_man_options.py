#!/usr/bin/env python3
"""gen_man_options.py -- keeps the man page's options in step with the
options table (src/cli/options.c), as `gsolve --help-options` prints it.

    gen_man_options.py GSOLVE MANPAGE            check; exit 1 and say what differs
    gen_man_options.py --update GSOLVE MANPAGE   write the missing entries

Every option of the table must head a `.TP` entry of the man page (in
MODES, OPTIONS, PLAY or GTP, wherever it reads best), and every option
that heads one must be in the table.  --update adds an entry for each
missing option to the end of the OPTIONS section, made from the table
(its argument, help line and the modes that take it), and drops the
entries of options the table no longer has; the hand-written entries
are kept as they are.  `make man` runs --update (tests/t_docs.sh checks).
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


def entry_options(head):
    """The options an entry's head line names (.B/.BI/.BR \\-\\-name ...)."""
    plain = re.sub(r"\\f[RBIP]", " ", head).replace("\\-", "-").replace('"', " ")
    return set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", plain))


def entries(lines):
    """[(index of the .TP line, options its head names)]."""
    found = []
    for i, line in enumerate(lines[:-1]):
        if line.strip() == ".TP" and lines[i + 1].startswith((".B", ".I")):
            found.append((i, entry_options(lines[i + 1])))
    return found


def generated(name, arg, help_text, modes):
    head = ".B " + man_escape(name) if not arg else \
        '.BI %s " %s"' % (man_escape(name), man_escape(arg))
    text = help_text[:1].upper() + help_text[1:]
    if not text.endswith("."):
        text += "."
    if modes:
        text += " With " + modes.replace("gsolve ", "gsolve\\~") + "."
    return [".TP", head, man_escape(text).replace("\\e~", "\\~")]


def main(argv):
    update = argv[1:2] == ["--update"]
    args = argv[2:] if update else argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    gsolve, path = args
    rows = table(gsolve)
    names = [r[0] for r in rows]
    with open(path) as f:
        lines = f.read().split("\n")
    documented = set().union(*(opts for _, opts in entries(lines)))
    # -D and the like are in the synopsis and GTP text; the check is
    # about the table's options.
    missing = [r for r in rows if r[0] not in documented]
    stale = sorted(o for o in documented if o.startswith("--") and o not in names)
    if not update:
        for r in missing:
            print("docs/gsolve.1 has no entry for %s, which `gsolve --help-options` lists: "
                  "run `make man` to add one from the options table (then reword it "
                  "if need be)" % r[0])
        for o in stale:
            print("docs/gsolve.1 has an entry for %s, which the options table no longer "
                  "has: run `make man` to drop it" % o)
        return 1 if missing or stale else 0
    # Drop the entries that name only options the table no longer has.
    keep, i = [], 0
    spans = dict(entries(lines))
    while i < len(lines):
        opts = spans.get(i)
        if opts and all(o.startswith("--") and o not in names for o in opts):
            i += 2
            while i < len(lines) and not lines[i].startswith((".TP", ".SH")):
                i += 1
            continue
        keep.append(lines[i])
        i += 1
    lines = keep
    if missing:
        start = lines.index(".SH OPTIONS")
        end = next(k for k in range(start + 1, len(lines)) if lines[k].startswith(".SH "))
        added = []
        for r in missing:
            added += generated(*r)
        lines[end:end] = added
    with open(path, "w") as f:
        f.write("\n".join(lines))
    for r in missing:
        print("added %s to the OPTIONS of %s" % (r[0], path))
    for o in stale:
        print("dropped %s from %s" % (o, path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
