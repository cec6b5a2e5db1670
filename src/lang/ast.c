/*
** ast.c -- building, walking and dumping the syntax tree.
*/
#include "lang/ast.h"

#include <stdlib.h>
#include <string.h>

/* The arena is a chain of blocks; big requests get a block of their own. */
typedef struct Block {
  struct Block *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} Block;

struct Arena {
  Block *head;
};

enum { ARENA_BLOCK = 64 * 1024 };

Arena *arena_new(void) {
  return calloc(1, sizeof(Arena));
}

void arena_free(Arena *a) {
  if (!a) return;
  for (Block *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(a);
}

void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  Block *b = a->head;
  if (!b || b->size - b->used < n) {
    size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    b = malloc(sizeof(Block) + size);
    if (!b) return NULL;
    b->size = size;
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

Node *ast_node(ParseState *ps, NodeKind k, Span at) {
  Node *n = arena_alloc(ps->arena, sizeof(Node));
  if (!n) { ps->oom = 1; return NULL; }
  n->kind = k;
  n->span = at;
  return n;
}

/* Appends in constant time: the list's first node keeps its last (a
** block of 100,000 statements took minutes when each append walked the
** list).  item may be a list itself. */
Node *ast_append(Node *list, Node *item) {
  if (!item) return list;
  if (!list) return item;
  Node *p = list->last ? list->last : list;
  while (p->next) p = p->next;
  p->next = item;
  for (p = item->last ? item->last : item; p->next; p = p->next) {}
  list->last = p;
  return list;
}

int ast_count(const Node *list) {
  int n = 0;
  for (; list; list = list->next) n++;
  return n;
}

/* One name per NodeKind, in its order (the assertion counts them). */
static const char *const kind_names[] = {
  "game", "players", "param", "const", "type", "board", "state", "move",
  "function", "end", "nomoves", "start", "native", "eval", "bound", "symmetry", "pieces",
  "repetition", "score-only", "hidden", "valid", "components", "paramdecl",
  "range-type", "bool-type", "player-type", "cell-type", "dir-type",
  "int-type", "enum-type", "named-type", "set-type",
  "block", "var", "assign", "if", "for", "while", "return", "break",
  "continue", "win", "lose", "draw", "score", "next", "pay", "illegal", "invalid", "continue-move", "priority",
  "exprstmt",
  "int", "bool", "name", "index", "call", "unary", "binary", "cond",
  "list", "range",
};
/* One name per kind: a kind added without its name shifted every later
** one (--dump-ast printed `pieces` as "repetition" and the last as NULL). */
_Static_assert(sizeof kind_names / sizeof kind_names[0] == NODE_KIND_COUNT, "a NodeKind has no name");

const char *ast_kind_name(NodeKind k) {
  return k < NODE_KIND_COUNT ? kind_names[k] : "?";
}

/* The nesting of expressions, walked with a stack of its own: a chain of
** 70,000 `+` terms is a tree that deep (the parser's stack bounds only
** right-nested forms), and every later pass walks expressions
** recursively.  The first expression deeper than AST_MAX_EXPR_DEPTH is
** reported, once; the passes after the parse then never recurse deeper
** than that plus the parser's bound on nested blocks. */
typedef struct DepthItem { const Node *n; int depth; } DepthItem;

int ast_check_depth(ParseState *ps, const Node *root) {
  size_t cap = 256, top = 0;
  DepthItem *stack = malloc(cap * sizeof *stack);
  int found = 0;
  if (!stack) { ps->oom = 1; return 0; }
  if (root) stack[top++] = (DepthItem){ root, 0 };
  while (top > 0 && !found) {
    DepthItem it = stack[--top];
    const Node *n = it.n;
    /* Its depth: one more than the enclosing expression's, if it is one. */
    int depth = n->kind >= NODE_INT ? it.depth + 1 : 0;
    if (depth > AST_MAX_EXPR_DEPTH) {
      diag_error(ps->diag, n->span, "expression nested too deeply");
      found = 1;
      break;
    }
    /* Children and the next in the list, pushed so that `a` comes out
    ** first and the list's next after the whole node (source order). */
    const Node *kids[6] = { n->next, n->e, n->d, n->c, n->b, n->a };
    if (cap - top < 6) {
      DepthItem *more = realloc(stack, 2 * cap * sizeof *stack);
      if (!more) { ps->oom = 1; break; }
      stack = more;
      cap *= 2;
    }
    for (int k = 0; k < 6; k++)
      if (kids[k]) stack[top++] = (DepthItem){ kids[k], k == 0 ? it.depth : depth };
  }
  free(stack);
  return !found && !ps->oom;
}

static void dump_op(int op, FILE *out) {
  switch (op) {
    case 0: return;
    case OPR_EQ: fputs(" ==", out); return;
    case OPR_NE: fputs(" !=", out); return;
    case OPR_LE: fputs(" <=", out); return;
    case OPR_GE: fputs(" >=", out); return;
    case OPR_AND: fputs(" &&", out); return;
    case OPR_OR: fputs(" ||", out); return;
    default: fprintf(out, " %c", op);
  }
}

void ast_dump(const Node *list, int indent, FILE *out) {
  for (const Node *n = list; n; n = n->next) {
    fprintf(out, "%*s%s", indent * 2, "", ast_kind_name(n->kind));
    if (n->name) fprintf(out, " '%s'", n->name);
    if (n->kind == NODE_INT || n->kind == NODE_BOOL)
      fprintf(out, " %lld", (long long)n->ival);
    if (n->kind == NODE_MOVE) fputs(n->op ? " chance" : "", out);
    else dump_op(n->op, out);
    fprintf(out, " @%d\n", n->span.start);
    const Node *kids[5] = { n->a, n->b, n->c, n->d, n->e };
    for (int i = 0; i < 5; i++) {
      if (!kids[i]) continue;
      fprintf(out, "%*s%c:\n", indent * 2 + 1, "", "abcde"[i]);
      ast_dump(kids[i], indent + 1, out);
    }
  }
}
