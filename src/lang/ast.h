/*
** ast.h -- the syntax tree of a .game file.
**
** One node type for everything; the meaning of the children a, b, c, d
** depends on the kind and is given beside each kind.  Lists (declarations,
** statements, arguments) are chained through `next`.  All nodes live in one
** arena and are freed together.
*/
#ifndef GSOLVE_AST_H
#define GSOLVE_AST_H

#include <stdint.h>
#include "util/diag.h"

typedef enum NodeKind {
  /* declarations */
  NODE_GAME,       /* name: the game's name */
  NODE_PLAYERS,    /* a: list of NODE_NAME */
  NODE_PARAM,      /* name; a: type or NULL; b: default expression */
  NODE_CONST,      /* name; b: expression */
  NODE_TYPEDEF,    /* name; a: type */
  NODE_BOARD,      /* name: "rect" or "graph"; a: argument list; b: condition
                   ** or NULL; c: notation style (NODE_NAME "gtp") or NULL */
  NODE_STATE,      /* name; a: type; b: init or NULL; c: dims list */
  NODE_MOVE,       /* name; a: params; b: guard or NULL; c: body; d: notation
                   ** (its a: the notation as a later step of a move, or NULL);
                   ** op: 1 for a chance move; e: its weight or NULL */
  NODE_FUNC,       /* name; a: params; b: return type or NULL; c: body */
  NODE_END,        /* c: body */
  NODE_NOMOVES,    /* c: body (NULL: none); a: NODE_NAME "pass" for the
                   ** built-in pass, or NULL */
  NODE_START,      /* c: body: sets up the start position */
  NODE_NATIVE,     /* name: engine; a: condition on the parameters or NULL */
  NODE_EVAL,       /* c: body */
  NODE_BOUND,      /* a: params (one: the player); c: body */
  NODE_SYMMETRY,   /* name: kind ("mirror", ...); a: NODE_NAME operand or NULL;
                   ** b: `when` condition or NULL */
  NODE_PIECES,     /* name: a [board] state array; a: NODE_NAME, the letters;
                   ** b: the clauses, each a NODE_NAME named by its word
                   ** ("check", "castling", ...) with its operand's NODE_NAME
                   ** in a and, for castling, the letters' NODE_NAME in b */
  NODE_REPETITION, /* name: "forbidden" or "draw"; a: clauses (NODE_NAME "of"
                   ** or "except", names in a); b: condition or NULL */
  NODE_SCORE_ONLY, /* name: the word after 'score' ("only" when right) */
  NODE_HIDDEN,     /* name: the state hidden; a: cell index names (NODE_NAME)
                   ** or NULL; b: `seen by` players or NULL; c: `when` or NULL */
  NODE_VALID,      /* c: body: which positions belong to the game */
  NODE_COMPONENTS, /* name: the state array whose entries are separate games */
  NODE_PARAMDECL,  /* name; a: type (move/function parameter) */
  /* types */
  NODE_TRANGE,     /* a..b */
  NODE_TBOOL, NODE_TPLAYER, NODE_TCELL, NODE_TDIR, NODE_TINT,
  NODE_TENUM,      /* a: list of NODE_NAME members */
  NODE_TNAME,      /* name of a declared type */
  NODE_TSET,       /* in a: a move argument drawn from a list */
  /* statements */
  NODE_BLOCK,      /* a: statement list */
  NODE_VAR,        /* name; a: type or NULL; b: init or NULL; c: dims */
  NODE_ASSIGN,     /* op: '=', '+', '-', '*'; a: target; b: value */
  NODE_IF,         /* a: condition; b: then block; c: else (block/if) */
  NODE_FOR,        /* name: variable; a: iterable; c: body */
  NODE_WHILE,      /* a: condition; c: body */
  NODE_RETURN,     /* a: value or NULL */
  NODE_BREAK, NODE_CONTINUE,
  NODE_WIN,        /* a: player */
  NODE_LOSE,       /* a: player */
  NODE_DRAW,
  NODE_SCORE,      /* a: list of one expression per player */
  NODE_NEXT,       /* a: player who moves next; b: after chance, or NULL */
  NODE_PAY,        /* a: player; b: amount (a per-move payoff) */
  NODE_ILLEGAL,    /* the move being played is not legal after all */
  NODE_INVALID,    /* name: the reason a position is refused (valid block) */
  NODE_CONTMOVE,   /* `continue move;`: the mover makes another step of this move */
  NODE_PRIORITY,   /* a: the move's priority (`priority e;`) */
  NODE_EXPRSTMT,   /* a: expression (a call) */
  /* expressions */
  NODE_INT,        /* ival */
  NODE_BOOL,       /* ival: 0 or 1 */
  NODE_NAME,       /* name */
  NODE_INDEX,      /* a: array expression; b: index list */
  NODE_CALL,       /* name; a: argument list */
  NODE_UNARY,      /* op: '-', '!'; a */
  NODE_BINARY,     /* op: token; a, b */
  NODE_COND,       /* a ? b : c */
  NODE_LIST,       /* a: element list */
  NODE_RANGE,      /* a..b as an iterable */
  NODE_KIND_COUNT
} NodeKind;

/* Binary operators that are not single characters. */
enum { OPR_EQ = 256, OPR_NE, OPR_LE, OPR_GE, OPR_AND, OPR_OR };

typedef struct Node Node;
struct Node {
  NodeKind kind;
  int op;
  Span span;
  const char *name;
  int64_t ival;
  Node *a, *b, *c, *d;
  Node *e;             /* NODE_MOVE: the weight of a chance move */
  Node *next;
  Node *last;          /* on a list's first node: its last (ast_append) */
};

/* A bump allocator that owns every node and string of one parse. */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);       /* zeroed; NULL when out of memory */
char *arena_strndup(Arena *a, const char *s, size_t n);

/* Parser state shared by the lexer and the grammar actions. */
typedef struct ParseState {
  Arena *arena;
  Diag *diag;
  Node *root;          /* the declaration list */
  int oom;             /* an allocation failed */
  int depth;           /* nesting depth, bounded by AST_MAX_DEPTH */
  int offset;          /* lexer: byte offset of the next token */
  int comment_start;   /* lexer: where an open comment began */
  void *lexmem;        /* lexer: its live allocations, freed together when
                       ** it runs out of memory (lexer.l, parse.c) */
  void *fatal;         /* lexer: jmp_buf * where an allocation failure
                       ** in Flex's code (YY_FATAL_ERROR) leaves */
  int braces;          /* lexer: '{' not closed yet */
  int decl_start;      /* lexer: the next token starts a declaration (the
                       ** word `valid` is then the VALID token) */
} ParseState;

#define AST_MAX_DEPTH 200      /* nesting of blocks and parentheses */
#define AST_MAX_SOURCE (1 << 24) /* bytes of source accepted */
#define AST_MAX_EXPR_DEPTH (AST_MAX_DEPTH * 4) /* nesting of expressions, a
                               ** chain of binary operators included */

Node *ast_node(ParseState *ps, NodeKind k, Span at);
Node *ast_append(Node *list, Node *item);   /* returns the list head */
int ast_count(const Node *list);
const char *ast_kind_name(NodeKind k);
void ast_dump(const Node *list, int indent, FILE *out);

/* 1 when no expression of the tree nests deeper than AST_MAX_EXPR_DEPTH;
** else 0, the first one reported ("expression nested too deeply"), or
** ps->oom set.  Iterative: safe on any tree the parser builds. */
int ast_check_depth(ParseState *ps, const Node *root);

/* Parses text; returns the declaration list (NULL on failure or empty
** file).  Errors are reported through ps->diag. */
Node *ast_parse(ParseState *ps, const char *text, size_t len);

#endif
