/*
** resolve.h -- the resolver's symbol table and helpers, shared by its files
** (resolve.c, resolve_types.c, resolve_board.c) and the compiler's.
** Internal to src/compiler.
*/
#ifndef GSOLVE_RESOLVE_H
#define GSOLVE_RESOLVE_H

#include "compiler/program.h"

typedef enum SymKind {
  SYM_PARAM,     /* a parameter: value (scalar) or list (type TY_LIST) */
  SYM_CONST,     /* const NAME = ...: value */
  SYM_ENUMVAL,   /* an enumeration member: value, type */
  SYM_TYPE,      /* a named type */
  SYM_STATE,     /* a state variable: index into p->vars */
  SYM_FUNC,      /* a function: index into the resolver's funcs */
  SYM_MOVE,      /* a move rule: index into p->rules */
  SYM_VALUE,     /* a built-in or player constant: value, type */
  SYM_MOVER,     /* the player to move */
  SYM_ROLLER,    /* the player whose turn it is: the mover, or at a chance
                 ** node the player chance hands the turn back to */
  SYM_BOARDDECL  /* the board */
} SymKind;

typedef struct Symbol {
  const char *name;
  SymKind kind;
  Type type;
  int32_t value;
  int index;
  Span where;
} Symbol;

/* The symbol table's hash index: twice the most names a game may declare,
** so that a probe is short; a power of two. */
#define RESOLVE_SLOTS (2 * PROG_MAX_SYMBOLS)

struct Resolver {
  Program *p;
  Diag *d;
  Symbol *syms; int nsyms, cap;
  int *slots;                       /* RESOLVE_SLOTS: 1 + a symbol's index by
                                    ** its name's hash, 0 empty */
  Node **funcs; int nfuncs;         /* function declarations, by index */
  Node *pieces_check;               /* `pieces ... check F`: F's name, or NULL */
  Node **moves;                     /* move declarations, by rule index */
  Node *end_decl, *nomoves_decl, *eval_decl, *start_decl, *bound_decl;
  Node *valid_decl;                 /* `valid { ... }`, or NULL */
  Node **symmetries; int nsymmetries;
  int32_t *sym_gens; int nsym_gens; /* generators: ncells each (resolve_symmetry.c) */
  Node **sym_gen_decl;              /* the declaration of each generator */
  Node **repetitions; int nrepetitions;
  Node **hiddens; int nhiddens;     /* `hidden` declarations (compile_view.c) */
  int depth;                        /* recursion guard for const folding */
  Span players_span[GAME_MAX_PLAYERS];
  int players_seen;                 /* a players declaration exists */
};

static inline Type mktype(TypeKind k, int32_t lo, int32_t hi) {
  Type t = { k, 0, lo, hi };
  return t;
}

Symbol *resolve_lookup(Resolver *r, const char *name);
/* resolve.c: declares a global name (NULL and a message when taken), or a
** built-in value; the word for a kind of symbol in messages. */
Symbol *resolve_declare(Resolver *r, const char *name, SymKind k, Span where);
void resolve_declare_value(Resolver *r, const char *name, Type t, int32_t v);
const char *resolve_kind_word(SymKind k);

/* resolve_types.c: an enumeration's members as constants; the constant
** pool: values appended (offset, or -1 out of memory), a list literal. */
Type resolve_declare_enum(Resolver *r, const char *name, Node *members);
int resolve_konst_add(Program *p, const int32_t *v, int n);
Type resolve_const_list(Resolver *r, Node *list, int *ok);

/* resolve_board.c: the board declaration; each symmetry declaration
** checked, then the group they generate; the repetition rule. */
void resolve_declare_board(Resolver *r, Node *decl);
void resolve_check_symmetry(Resolver *r, Node *s);
void resolve_declare_pieces(Resolver *r, Node *n);
void resolve_symmetry_group(Resolver *r);
void resolve_declare_repetition(Resolver *r, Node *n);

/* resolve_symmetry.c: a generator of the group (a permutation of the
** cells) added for declaration s; `symmetry cells|nodes PERM;` read and
** checked; the group closed (resolve_symmetry_group above). */
void resolve_symmetry_add(Resolver *r, Node *s, const int32_t *perm);
void resolve_symmetry_perm(Resolver *r, Node *s);

/* Folds a constant expression; reports an error and returns 0 with *ok=0
** when it is not constant.  *t receives its type. */
int32_t resolve_const(Resolver *r, Node *e, Type *t, int *ok);
/* A type node to a Type; `storable` demands bounds (state, arguments). */
Type resolve_type(Resolver *r, Node *t, int storable);
/* Same kind of value (int and cell mix; enums must be the same one). */
int type_compatible(Type a, Type b);
const char *type_name(const Program *p, Type t, char *buf, size_t n);

/* resolve_ending.c: the hidden slots of a game that a move may end, and
** the built-in pass (`nomoves pass;`): its rule's declaration, or NULL. */
void resolve_effect_outcomes(Resolver *r);
Node *resolve_builtin_pass(Resolver *r, Node *decl);

#endif
