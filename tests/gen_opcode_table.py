#!/usr/bin/env python3
"""tests/gen_opcode_table.py -- the instruction table of docs/language.md,
printed from src/compiler/opcodes.def, the one list of the VM's
instructions.

  gen_opcode_table.py            prints the Markdown table
  gen_opcode_table.py --check F  exit 1 (and a diff) unless the table
                                 between the markers in F is the same
  gen_opcode_table.py --update F rewrites that table in F (make opcode-table)
"""
import difflib, os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DEF = os.path.join(ROOT, "src", "compiler", "opcodes.def")
BEGIN = "<!-- instruction table: generated from src/compiler/opcodes.def by tests/gen_opcode_table.py -->"
END = "<!-- end of the instruction table -->"


def read_def(path):
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    shapes = {m.group(1): m.group(4) for m in
              re.finditer(r'OPSHAPE\((\w+),\s*(\d+),\s*(\d+),\s*"([^"]*)"\)', text)}
    ops = []
    for m in re.finditer(r'OPCODE\((\w+),\s*(\w+),\s*(\w+),\s*(\w+),\s*(?:NEXT|END),\s*((?:"[^"]*"\s*)+)\)', text):
        synopsis = "".join(re.findall(r'"([^"]*)"', m.group(5)))
        if m.group(2) not in shapes:
            sys.exit("opcodes.def: %s has an unknown shape %s" % (m.group(1), m.group(2)))
        ops.append((m.group(1), shapes[m.group(2)], m.group(3), m.group(4), synopsis))
    if not ops:
        sys.exit("opcodes.def: no OPCODE entries found")
    return ops


def cell(s):
    """Text for a table cell: Markdown's table and emphasis characters escaped."""
    return re.sub(r"([|*_])", r"\\\1", s)


def table(ops):
    lines = [BEGIN, "", "| opcode | operands | pops | pushes | effect |", "| --- | --- | --- | --- | --- |"]
    for name, operands, pops, pushes, synopsis in ops:
        lines.append("| `%s` | %s | %s | %s | %s |" % (name, cell(operands), pops, pushes, cell(synopsis)))
    lines += ["", END]
    return lines


def section(path):
    lines = open(path).read().split("\n")
    if BEGIN not in lines or END not in lines:
        sys.exit("%s: the instruction table markers are missing" % path)
    a, b = lines.index(BEGIN), lines.index(END)
    return lines, a, b


def main(argv):
    want = table(read_def(DEF))
    if len(argv) == 1:
        print("\n".join(want))
        return 0
    if len(argv) != 3 or argv[1] not in ("--check", "--update"):
        sys.exit(__doc__)
    lines, a, b = section(argv[2])
    have = lines[a:b + 1]
    if argv[1] == "--update":
        if have != want:
            open(argv[2], "w").write("\n".join(lines[:a] + want + lines[b + 1:]))
        return 0
    if have == want:
        return 0
    sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
        have, want, argv[2] + " (the table)", "src/compiler/opcodes.def", lineterm=""))
    print("the instruction table disagrees with opcodes.def: run make opcode-table")
    return 1


sys.exit(main(sys.argv))
