/*
** builtins.c -- the table of built-in functions (builtins.h).
*/
#include "compiler/builtins.h"

#include <stdio.h>
#include <string.h>

/* Rows of one name are tried by arity: max(list) folds, max(a, b) is
** an instruction. */
static const Builtin builtins[] = {
  { .name = "len", .nargs = 1, .arg = { BARG_LIST }, .result = TY_INT,
    .kind = BUILTIN_FOLD, .fold = FOLD_LEN },
  { .name = "sum", .nargs = 1, .arg = { BARG_LIST }, .result = TY_INT,
    .kind = BUILTIN_FOLD, .fold = FOLD_SUM },
  { .name = "max", .nargs = 1, .arg = { BARG_LIST }, .result = TY_INT,
    .kind = BUILTIN_FOLD, .fold = FOLD_MAX },
  { .name = "min", .nargs = 1, .arg = { BARG_LIST }, .result = TY_INT,
    .kind = BUILTIN_FOLD, .fold = FOLD_MIN },
  { .name = "max", .nargs = 2, .arg = { BARG_INT, BARG_INT },
    .what = { "an argument of max/min", "an argument of max/min" }, .result = TY_INT,
    .kind = BUILTIN_OP, .op = OP_MAX, .fold = FOLD_MAX },
  { .name = "min", .nargs = 2, .arg = { BARG_INT, BARG_INT },
    .what = { "an argument of max/min", "an argument of max/min" }, .result = TY_INT,
    .kind = BUILTIN_OP, .op = OP_MIN, .fold = FOLD_MIN },
  { .name = "abs", .nargs = 1, .arg = { BARG_INT }, .what = { "the argument of abs" },
    .result = TY_INT, .kind = BUILTIN_OP, .op = OP_ABS, .fold = FOLD_ABS },
  { .name = "at", .nargs = 2, .arg = { BARG_INT, BARG_INT }, .what = { "a column", "a row" },
    .result = TY_CELL, .kind = BUILTIN_OP, .op = OP_AT, .fold = FOLD_AT, .rect = 1 },
  { .name = "col", .nargs = 1, .arg = { BARG_CELL }, .what = { "a cell" },
    .result = TY_INT, .kind = BUILTIN_OP, .op = OP_COLOF, .rect = 1 },
  { .name = "row", .nargs = 1, .arg = { BARG_CELL }, .what = { "a cell" },
    .result = TY_INT, .kind = BUILTIN_OP, .op = OP_ROWOF, .rect = 1 },
  { .name = "step", .nargs = 3, .arg = { BARG_CELL, BARG_DIR, BARG_INT },
    .what = { "a cell", "a direction", "a number of steps" },
    .result = TY_CELL, .kind = BUILTIN_OP, .op = OP_STEPN, .rect = 1 },
  { .name = "step", .nargs = 2, .arg = { BARG_CELL, BARG_DIR }, .what = { "a cell", "a direction" },
    .result = TY_CELL, .kind = BUILTIN_OP, .op = OP_STEP, .rect = 1 },
  { .name = "clockwise", .nargs = 2, .arg = { BARG_DIR, BARG_INT }, .what = { "a direction", "eighths of a turn" },
    .result = TY_DIR, .kind = BUILTIN_OP, .op = OP_TURN },
  { .name = "line", .nargs = 3, .arg = { BARG_BOARD_ARRAY, BARG_CELL, BARG_DIR },
    .what = { "", "a cell", "a direction" }, .result = TY_INT, .kind = BUILTIN_OP, .op = OP_LINE,
    .rect = 1 },
  { .name = "span", .nargs = 4, .arg = { BARG_BOARD_ARRAY, BARG_CELL, BARG_DIR, BARG_ELEMENT },
    .what = { "", "a cell", "a direction", "" }, .result = TY_INT, .kind = BUILTIN_OP, .op = OP_SPAN,
    .rect = 1 },
  { .name = "leap", .nargs = 3, .arg = { BARG_CELL, BARG_INT, BARG_INT },
    .what = { "a cell", "the columns to go (dx)", "the rows to go (dy)" }, .result = TY_CELL, .kind = BUILTIN_OP,
    .op = OP_LEAP, .rect = 1 },
  { .name = "sees", .nargs = 4, .arg = { BARG_BOARD_ARRAY, BARG_CELL, BARG_CELL, BARG_ELEMENT },
    .what = { "", "a cell", "a cell", "" }, .result = TY_BOOL, .kind = BUILTIN_OP, .op = OP_SEES,
    .rect = 1, .pad_nowhere = 1 },
  { .name = "sees", .nargs = 5, .arg = { BARG_BOARD_ARRAY, BARG_CELL, BARG_CELL, BARG_ELEMENT, BARG_CELL },
    .what = { "", "a cell", "a cell", "", "a cell" }, .result = TY_BOOL, .kind = BUILTIN_OP, .op = OP_SEES,
    .rect = 1 },
  { .name = "count", .nargs = 2, .arg = { BARG_ARRAY, BARG_ELEMENT }, .result = TY_INT,
    .kind = BUILTIN_OP, .op = OP_COUNTS },
  { .name = "find", .nargs = 3, .arg = { BARG_BOARD_ARRAY, BARG_ELEMENT, BARG_INT },
    .what = { "", "", "the first cell to look at" }, .result = TY_CELL, .kind = BUILTIN_OP,
    .op = OP_FINDS },
  { .name = "opposite", .nargs = 1, .arg = { BARG_DIR }, .what = { "a direction" },
    .result = TY_DIR, .kind = BUILTIN_OP, .op = OP_OPPOSITE },
  { .name = "opponent", .nargs = 1, .arg = { BARG_PLAYER }, .what = { "a player" },
    .result = TY_PLAYER, .kind = BUILTIN_OP, .op = OP_NEXTP },
  { .name = "player", .nargs = 1, .arg = { BARG_INT }, .what = { "a player index" },
    .result = TY_PLAYER, .kind = BUILTIN_OP, .op = OP_CHECK, .player_index = 1 },
  { .name = "edge_between", .nargs = 2, .arg = { BARG_INT, BARG_INT }, .what = { "a node", "a node" },
    .result = TY_CELL, .kind = BUILTIN_OP, .edges = 1 },
  { .name = "endpoint", .nargs = 2, .arg = { BARG_CELL, BARG_INT }, .what = { "an edge", "0 or 1" },
    .result = TY_INT, .kind = BUILTIN_OP, .edges = 1 },
  { .name = "neighbours", .nargs = 1, .arg = { BARG_CELL }, .what = { "the argument of neighbours" },
    .result = TY_CELL, .kind = BUILTIN_ITERATE },
  { .name = "neighbors", .nargs = 1, .arg = { BARG_CELL }, .what = { "the argument of neighbours" },
    .result = TY_CELL, .kind = BUILTIN_ITERATE },
  { .name = "ray", .nargs = 2, .arg = { BARG_CELL, BARG_DIR }, .what = { "a cell", "a direction" },
    .result = TY_CELL, .kind = BUILTIN_ITERATE, .rect = 1 },
};

const Builtin *builtin_find(const char *name, int nargs) {
  const Builtin *named = NULL;
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
    if (strcmp(builtins[i].name, name) != 0) continue;
    if (nargs < 0 || builtins[i].nargs == nargs) return &builtins[i];
    named = &builtins[i];
  }
  return named;
}

TypeKind builtin_arg_type(BuiltinArg a) {
  switch (a) {
    case BARG_CELL: return TY_CELL;
    case BARG_DIR: return TY_DIR;
    case BARG_PLAYER: return TY_PLAYER;
    default: return TY_INT;
  }
}

void arity_message(char *buf, size_t size, const char *name, int want, int got) {
  snprintf(buf, size, "%s() takes %d argument%s, not %d", name, want, want == 1 ? "" : "s", got);
}
