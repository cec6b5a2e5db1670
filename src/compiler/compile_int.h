/*
** compile_int.h -- the compiler's state, shared by its files (internal to
** src/compiler): emit.c (instructions, the peephole optimizer, locals and
** scopes), compile_expr.c (expressions), compile_stmt.c (statements) and
** compile.c (chunks, the move generator, the whole program).
**
** One pass per body: each expression is checked and emitted together, and
** an ill-typed expression gets the type TY_ERROR so one mistake gives one
** message.
*/
#ifndef GSOLVE_COMPILE_INT_H
#define GSOLVE_COMPILE_INT_H

#include "compiler/resolve.h"
#include "compiler/opcodes.h"

typedef struct Local {
  const char *name;
  int slot;               /* first frame slot */
  Type type;
  int ndims, dim[2];      /* arrays: dimensions */
  int readonly;           /* arguments and loop variables */
  int known;              /* an unrolled loop's variable: its value is */
  int32_t value;          /* a constant, emitted instead of a load */
} Local;

typedef struct Loop {
  int cont;               /* -1 until known: continue target */
  int *breaks; int nbreaks, capbreaks;
  int *conts; int nconts, capconts;
  struct Loop *outer;
} Loop;

typedef struct Compiler {
  Program *p;
  Diag *d;
  Resolver *r;
  int cap;                /* allocated code words */
  Local *locals; int nlocals;
  int slots;              /* frame slots in use */
  int frame;              /* the most slots ever in use: the frame size */
  int stack, maxstack;    /* operand stack depth */
  ChunkKind kind;         /* what is being compiled */
  Type ret;               /* functions: declared return type */
  Loop *loop;
  int depth;
  int oom;
  /* Peephole state: where the last instructions start, and the lowest pc
  ** that may be fused (a jump may land at or after `barrier`). */
  int recent[4]; int nrecent;
  int barrier;
  int scope_start;        /* first local of the innermost scope */
  int too_deep;           /* "nested too deeply" was reported */
  int copies;             /* inside unrolled loops: copies made of this
                          ** code, minus 1 (at most UNROLL_MAX_COPIES) */
  /* Function signatures, resolved once (an enumeration type declares its
  ** members, so resolving it twice would declare them twice). */
  Type *fparams;          /* FUNC_MAX_PARAMS per function */
  Type *fret;
  /* The generator's memos: a function without arguments called in `when`
  ** conditions runs once per generation (the state cannot change while
  ** moves are generated).  memo_slot[f]: the generator's local holding f's
  ** value, its flag the next one; -1 for other functions.  memo_end: the
  ** first local after them.  Used while kind is CHUNK_GENERATE. */
  int *memo_slot;
  int memo_end;
  /* The rule being generated: its calls whose arguments are known in an
  ** outer loop (a piece's cell) run once per pass of that loop; each site
  ** a call (equal calls share it), its value's local (the flag next) and
  ** the loop, cleared at the top of each pass. */
  struct MemoSite { const Node *call; int slot, level; } *sites;
  int nsites;
} Compiler;

/* compile_expr.c: whether calls of function fi are inlined (here). */
int cg_inlines(Compiler *c, int fi);
/* compile.c: the memo site of call e in the rule generated now, or NULL. */
const struct MemoSite *cg_memo_site(const Compiler *c, const Node *e);

#define FUNC_MAX_PARAMS 32   /* parameters of a user function */

static inline Type mkt(TypeKind k) { Type t = { k, 0, 0, 0 }; return t; }

static const Type T_ERR = { TY_ERROR, 0, 0, 0 };

typedef struct Scope { int nlocals, slots, outer_start; } Scope;

static inline int is_int(Type t) { return t.kind == TY_INT || t.kind == TY_CELL || t.kind == TY_ERROR; }

/* emit.c: instructions go through a peephole optimizer (constant folding,
** superinstructions); cg_emit returns the pc of the instruction, to patch
** a jump.  cg_here takes the current pc as a jump target. */
int cg_emit(Compiler *c, OpCode op, int32_t a, int32_t b, Span at);
int cg_emit_raw(Compiler *c, OpCode op, int32_t a, int32_t b, int32_t cc, Span at);
int cg_emit_raw4(Compiler *c, OpCode op, int32_t a, int32_t b, int32_t cc, int32_t d, Span at);
int cg_here(Compiler *c);
void cg_patch(Compiler *c, int pc, int target);
void cg_list_push(int **arr, int *n, int *cap, int v, Compiler *c);
Local *cg_find_local(Compiler *c, const char *name);
Local *cg_add_local(Compiler *c, const char *name, Type t, int size, Span at);
Scope cg_scope_open(Compiler *c);
void cg_scope_close(Compiler *c, Scope s);

/* compile_expr.c: checks and emits an expression; returns its type. */
Type cg_expr(Compiler *c, Node *e);
Type cg_expect(Compiler *c, Node *e, TypeKind want, const char *what);
Type cg_name_expr(Compiler *c, Node *e);
/* a[i] loaded, or stored from `value` with '=' or a compound op. */
Type cg_index_expr(Compiler *c, Node *e, int store, Node *value, int op);
int cg_arity(Compiler *c, Node *e, int want);
/* Whether e depends on nothing that changes (state, locals, functions);
** its value when it also folds (silently: 0 when it does not). */
int cg_is_constant(Compiler *c, Node *e);
int cg_constant_value(Compiler *c, Node *e, int32_t *v);

/* compile.c: a chunk's code begins (returns its index) and ends with
** `last` (for a missing return, located at `at`). */
int cg_chunk_begin(Compiler *c, ChunkKind k, const char *name);
void cg_chunk_end(Compiler *c, int idx, OpCode last, Span at);

/* compile_view.c: the `hidden` declarations, one view chunk each. */
void cg_views(Compiler *c);

/* compile_stmt.c: a block of statements in a scope of its own. */
void cg_block(Compiler *c, Node *b);
/* Loops of at most UNROLL_MAX_ITERATIONS passes over constants, whose
** body has at most UNROLL_MAX_NODES nodes, are unrolled (compile_stmt.c's
** `for` over a list, compile.c's generator), as long as nested ones make
** at most UNROLL_MAX_COPIES copies of the innermost code.  cg_unroll_size: `count`
** plus the nodes of the statements from n on, or more than the limit when
** one is a break or a continue. */
enum { UNROLL_MAX_ITERATIONS = 8, UNROLL_MAX_NODES = 64, UNROLL_MAX_COPIES = 64 };
int cg_unroll_size(const Node *n, int count);
/* The copies of an unrolled body report their errors once: cg_copy_done
** after each copy (the first counts, the others are muted and not
** counted: no error depends on the constant, whose checks are left to run
** time), cg_copies_end after the last. */
typedef struct Copies { const int *was; int mute, errors, n; } Copies;
void cg_copy_done(Compiler *c, Copies *k);
void cg_copies_end(Compiler *c, Copies *k);
/* defer.c: puts DEFER before the end of each effect that only sets what
** the outcome blocks read and cannot fail; 0 out of memory. */
int compile_defer(Program *p);
/* steps.c: MoveRule.expands for every rule of a game with moves of
** several steps (errors for chance moves go to d); 0 out of memory. */
int compile_steps(Program *p, Diag *d);

#endif
