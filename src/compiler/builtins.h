/*
** builtins.h -- the built-in functions (len, max, at, line, ...), one
** table: their names, arity, argument and result types and how each
** compiles.  The resolver reads it to fold constants and to keep user
** declarations off these names, the compiler to check and emit calls.
** Internal to the compiler.
*/
#ifndef GSOLVE_BUILTINS_H
#define GSOLVE_BUILTINS_H

#include <stddef.h>
#include "compiler/program.h"
#include "compiler/opcodes.h"

#define BUILTIN_MAX_ARGS 5

/* How a call compiles. */
typedef enum BuiltinKind {
  BUILTIN_FOLD,       /* over list parameters: folded to a constant */
  BUILTIN_OP,         /* the arguments, then the instruction `op`; with an
                      ** array argument, op's operands are its base, size */
  BUILTIN_ITERATE     /* only as `for x in NAME(...)` (compile_stmt.c) */
} BuiltinKind;

/* What an argument must be. */
typedef enum BuiltinArg {
  BARG_INT, BARG_CELL, BARG_DIR, BARG_PLAYER,
  BARG_LIST,          /* a list parameter */
  BARG_ARRAY,         /* a state array */
  BARG_BOARD_ARRAY,   /* a state array over the board */
  BARG_ELEMENT        /* a value of the array argument's element type */
} BuiltinArg;

/* The constant a call folds to when its arguments are constants. */
typedef enum BuiltinFold {
  FOLD_NONE, FOLD_LEN, FOLD_SUM, FOLD_MAX, FOLD_MIN, FOLD_ABS, FOLD_AT
} BuiltinFold;

typedef struct Builtin {
  const char *name;
  int nargs;
  BuiltinArg arg[BUILTIN_MAX_ARGS];
  const char *what[BUILTIN_MAX_ARGS];   /* the argument in messages */
  TypeKind result;    /* TY_PLAYER results range over the players */
  BuiltinKind kind;
  OpCode op;          /* BUILTIN_OP */
  BuiltinFold fold;   /* folds with constant arguments (else FOLD_NONE) */
  int rect;           /* needs a rect board */
  int edges;          /* needs an edges board: a lookup in its tables
                      ** (compile_expr.c), `op` unused */
  int player_index;   /* player(i): i checked in 0..players-1, the
                      ** player value i + 1 (the first declared is 0) */
  int pad_nowhere;    /* the instruction takes one more argument, nowhere
                      ** here (sees() without the cell that counts as v) */
} Builtin;

/* The built-in NAME taking nargs arguments; when none takes that many,
** the last one of that name (its arity goes in the message).  nargs -1:
** any built-in of that name.  NULL if NAME is no built-in. */
const Builtin *builtin_find(const char *name, int nargs);
/* The type an argument kind BARG_INT..BARG_PLAYER must have. */
TypeKind builtin_arg_type(BuiltinArg a);
/* "NAME() takes 2 arguments, not 3", for built-in and user functions. */
void arity_message(char *buf, size_t size, const char *name, int want, int got);

#endif
