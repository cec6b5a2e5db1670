/*
** program.h -- a compiled game: its declarations, state layout, bytecode.
**
** Built by the resolver (declarations, parameters, state layout) and the
** compiler (bodies to bytecode); read by the VM and the disassembler.
*/
#ifndef GSOLVE_PROGRAM_H
#define GSOLVE_PROGRAM_H

#include <stdint.h>
#include "lang/ast.h"
#include "util/diag.h"
#include "game/game.h"
#include "compiler/compiler.h"

/* Limits of a compiled game, each with its own message. */
#define PROG_MAX_SLOTS      65536   /* state vector entries */
#define PROG_MAX_ARRAY      65536   /* entries of one array */
#define PROG_MAX_SYMBOLS    4096    /* global names */
#define PROG_MAX_LOCALS     16384   /* locals (including arrays) per frame */
#define PROG_MAX_CODE       (1 << 22) /* code words */
#define PROG_MAX_RULES      256     /* move rules */
#define PROG_MAX_CELLS      4096    /* cells of a board */
#define PROG_MAX_SYMMETRIES 40320   /* elements of the symmetry group (8!) */
#define PROG_MAX_SYM_ENTRIES (1 << 22) /* group elements x cells, its table */
#define PROG_MAX_EDGE_NODES 256     /* nodes of an edges board */
#define PROG_MAX_LIST       4096    /* elements of a list parameter */

/* Directions of a rectangular board, in this order (dir values 0..7). */
#define DIR_COUNT 8
extern const char *const dir_names[DIR_COUNT];
extern const int dir_dx[DIR_COUNT], dir_dy[DIR_COUNT];

typedef enum TypeKind {
  TY_ERROR, TY_VOID, TY_INT, TY_BOOL, TY_PLAYER, TY_CELL, TY_DIR, TY_ENUM,
  TY_LIST
} TypeKind;

/* A type; lo..hi bound the values a state slot or argument may hold. */
typedef struct Type {
  TypeKind kind;
  int enum_id;          /* TY_ENUM: which enumeration */
  int32_t lo, hi;       /* value bounds (TY_LIST: konst offset, length) */
} Type;

typedef struct EnumInfo {
  const char *name;     /* declared name or "" for an anonymous one */
  int count;
  const char **members;
} EnumInfo;

typedef struct ParamInfo {
  const char *name;
  Type type;            /* TY_INT/TY_BOOL/TY_ENUM, or TY_LIST */
  int32_t value;        /* scalar value */
  int overridden;       /* set by -D */
} ParamInfo;

typedef struct StateVar {
  const char *name;
  int base;             /* first slot */
  int ndims, dim[2];    /* 0, 1 or 2 dimensions */
  int on_board;         /* the (single) dimension is the board's cells */
  int max_pieces;       /* `at most N pieces`: N, else 0 */
  Type elem;            /* element type */
  Span where;
} StateVar;

typedef enum ChunkKind {
  CHUNK_GENERATE, CHUNK_LEGALITY, CHUNK_EFFECT, CHUNK_END, CHUNK_NOMOVES,
  CHUNK_EVAL, CHUNK_FUNCTION, CHUNK_START, CHUNK_WEIGHT, CHUNK_BOUND, CHUNK_VIEW, CHUNK_VALID
} ChunkKind;

/* A compiled body: where its code lies and how big its frame is. */
typedef struct Chunk {
  ChunkKind kind;
  const char *name;     /* rule or function name */
  int start, end;       /* code range [start, end) */
  int nparams;          /* arguments (functions, effects) */
  int nlocals;          /* frame size including arguments */
  int maxstack;         /* operand stack needed beyond the locals */
  int returns;          /* functions: 1 if it returns a value */
} Chunk;

typedef struct MoveRule {
  const char *name;
  int nargs;
  Type arg[GAME_MAX_ARGS];
  const char *argname[GAME_MAX_ARGS];
  const char *notation;   /* "as" format or NULL */
  const char *step_notation;  /* its second format: as a later step of a
                          ** move of several steps; NULL: " " + notation */
  int expands;            /* its effect (or a function it calls) may say
                          ** `continue move` or `priority`: generate plays
                          ** it to find the whole move (steps.c) */
  int set_off[GAME_MAX_ARGS];   /* `in LIST` arguments: konst offset... */
  int set_len[GAME_MAX_ARGS];   /* ...and length; 0 for a range */
  int effect;             /* chunk index */
  int chance;             /* a move of the chance player */
  int weight;             /* chunk computing its weight, or -1: weight 1 */
} MoveRule;

/* A `hidden` declaration: state variable `var` (every slot of it) is
** masked from a player unless its view chunk says that player sees it.
** The chunk takes the cell's indices (nidx of them: 0 for the whole
** variable, else its dimensions) and the player (1-based) and returns
** 1 when that player sees the cell in the current state; -1: hidden
** from every player, always. */
typedef struct HiddenDecl {
  int var;
  int nidx;
  int chunk;
} HiddenDecl;

typedef enum BoardKind { BOARD_NONE, BOARD_RECT, BOARD_GRAPH, BOARD_EDGES } BoardKind;
enum { REP_NONE, REP_FORBIDDEN, REP_DRAW };

struct Program {
  Arena *arena;           /* the AST and every string */
  int oom;                /* an allocation failed while compiling */
  char *filename;
  char *source;           /* a copy, for runtime error messages */
  size_t source_len;
  Node *ast;

  const char *name;       /* game "..." */
  const char *native;     /* native "engine" declared, or NULL */
  int native_ok;          /* its `when` condition holds for the parameters */
  int nplayers;
  const char *players[GAME_MAX_PLAYERS];
  /* Chance: the player value of the chance player (nplayers + 1) and the
  ** hidden slot holding who moves after it; both 0 without chance moves. */
  int chance, chance_slot;
  int has_pay;            /* some effect says `pay` (per-move payoffs) */
  /* A game a move can end (`win P;` ... in an effect): outcome_slot is a
  ** hidden flag set by that move, the payoffs in the nplayers slots after
  ** it; 0 when no effect declares an outcome (resolve_ending.c). */
  int outcome_slot;
  /* `nomoves pass;`: the rule offered alone to a player without a move,
  ** and the hidden slot counting passes in a row (pass_slot 0: none). */
  int pass_rule, pass_slot;
  /* The repetition rule in force: a position whose slots under rep_mask
  ** equal those of an earlier position of the game may not be reached
  ** (REP_FORBIDDEN; moves of rules with rep_except[rule] are exempt) or
  ** ends the game in a draw (REP_DRAW). */
  int rep_kind;
  uint8_t *rep_mask;      /* nslots flags: the slots compared */
  uint8_t *rep_except;    /* nrules flags */
  int has_score;          /* some outcome is a `score` (margins beyond 1) */
  int has_illegal;        /* some effect may say `illegal` */
  /* Moves of several steps (steps.c): some effect may say `continue
  ** move` or `priority`, and which of them does (MoveRule.expands). */
  int has_steps;
  int has_priority;       /* some effect may say `priority` */
  int score_only;         /* `score only;`: a position's value is its score
                          ** alone, not the distance to the end */

  ParamInfo *params; int nparams;
  EnumInfo *enums; int nenums;
  int32_t *konst; int nkonst;       /* constant arrays (list parameters) */

  BoardKind board;
  int width, height, ncells;
  int gtp_cells;          /* rect cells print GTP style: columns skip 'i' */
  int *nbr_start;         /* ncells+1 offsets into nbr: adjacency (CSR) */
  int *nbr;
  int16_t *step;          /* rect: ncells*8 neighbour per direction, -1 off */
  int nnodes;             /* edges: the graph's nodes (cells are its edges) */
  int32_t *edge_end;      /* edges: 2*ncells, the two nodes of each edge */
  int32_t *edge_at;       /* edges: nnodes*nnodes, the edge joining a and b or -1 */
  int edge_end_k, edge_at_k;  /* edges: the same tables in konst, for the code */

  StateVar *vars; int nvars;
  int nslots;             /* slot 0 is the player to move (1-based) */
  int32_t *lo, *hi;       /* bounds of each slot */
  int32_t *init;          /* the start position */

  int32_t *code; int32_t *pos; int ncode;   /* pos: source offset per word */
  Chunk *chunks; int nchunks;
  MoveRule *rules; int nrules;
  int gen_chunk, end_chunk, nomoves_chunk, eval_chunk, start_chunk; /* -1 if absent */
  int bound_chunk;        /* bound(p: player), or -1 */
  /* `valid { ... }`: the chunk returns 0 for a position of the game, else
  ** k + 1 for the k-th reason its `invalid "REASON";` statements give;
  ** -1: no valid block. */
  int valid_chunk;
  const char **invalid_reasons; int ninvalid;
  int maxargs;            /* max arguments over rules */

  /* Symmetry: a group of cell permutations (element 0 the identity) that
  ** move the entries of every [board] array, and the arrays whose entries
  ** are interchangeable (canonical: sorted). */
  int pieces_base;        /* `pieces`: first slot of the board array */
  const char *piece_letters; /* letter of value k + 1 at [k] (0 is an empty
                          ** cell); NULL: no `pieces` declaration */
  int check_chunk;        /* `pieces ... check F`: F(player): bool, whether
                          ** that player is in check (SAN's '+'); or -1 */
  /* `pieces ... castling V "KQkq" en_passant E halfmove H fullmove F`:
  ** the slots FEN's later fields go to (0: none; slot 0 is the mover). */
  int fen_castle_base;    /* V[0]: the right of letter 0 */
  const char *fen_castle_letters;
  int fen_ep_slot, fen_half_slot, fen_full_slot;
  int nsym;
  int32_t *sym;           /* nsym * ncells: cell c of the image = cell sym[c] */
  int *permute_vars; int npermute;
  /* `components V;`: the state array whose entries are separate games
  ** (docs/cgt.md); -1: none. */
  int components_var;

  /* Views (hidden information): the `hidden` declarations, in order. */
  HiddenDecl *hidden; int nhidden;
};

/* resolve*.c: declarations -> symbols, parameters, state layout. */
typedef struct Resolver Resolver;
int resolve_program(Program *p, Diag *d, const ParamDef *defs, int ndefs,
                    int *usage_error, Resolver **out);
void resolver_free(Resolver *r);

/* compile*.c: bodies -> bytecode (uses the resolver's symbols). */
int compile_program(Program *p, Diag *d, Resolver *r);

/* program.c: helpers shared by the resolver, compiler, VM and printer. */
int program_format_value(const Program *p, Type t, int32_t v, char *buf, size_t n);
/* The name of a state slot for messages: heap[2], cell[3][1], mover. */
void program_slot_name(const Program *p, int slot, char *buf, size_t n);
void *prog_alloc(Program *p, size_t n);   /* arena memory, zeroed; sets p->oom */

#endif
