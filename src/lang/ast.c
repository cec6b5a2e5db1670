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

/* Appends in O(length); lists in .game files are short. */
Node *ast_append(Node *list, Node *item) {
  if (!item) return list;
  if (!list) return item;
  Node *p = list;
  while (p->next) p = p->next;
  p->next = item;
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
  "function", "end", "nomoves", "start", "native", "eval", "bound", "symmetry", "pieces", "repetition",
  "score-only", "hidden", "paramdecl",
  "range-type", "bool-type", "player-type", "cell-type", "dir-type",
  "int-type", "enum-type", "named-type", "set-type",
  "block", "var", "assign", "if", "for", "while", "return", "break",
  "continue", "win", "lose", "draw", "score", "next", "pay", "illegal", "continue-move", "priority",
  "exprstmt",
  "int", "bool", "name", "index", "call", "unary", "binary", "cond",
  "list", "range",
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == NODE_KIND_COUNT, "a NodeKind without a name");

const char *ast_kind_name(NodeKind k) {
  return k < NODE_KIND_COUNT ? kind_names[k] : "?";
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
