/*
** treedot.c -- draws the game tree as a Graphviz DOT graph.
**
** Step 1 builds the tree in memory, depth first with the search's walker
** (search/walk.h, no recursion: a line may be long), each node with its drawing (game_print) and how it
** ends: terminal (its outcome), cut off at the depth limit, a repetition
** of a position earlier on its line (games with cycles), or expanded.
** Step 2 backs the values up, negamax style with the solvers' value keys
** (value.h): a node is settled when all its children are.  Step 3 writes
** the DOT text, leaving out with --tree-prune the moves that do worse
** than their node's result; optimal moves are drawn bold.  The text goes
** to the file, or through Graphviz's `dot` to an image.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gsolve.h"
#include "cli/treedot.h"
#include "game/boardview.h"
#include "search/value.h"
#include "search/walk.h"
#include "util/diag.h"

enum { NODE_INNER, NODE_TERMINAL, NODE_CUT, NODE_REPEAT };

typedef struct TreeNode {
  int parent;             /* -1 for the root */
  int first_child, next_sibling;  /* -1: none */
  int kind;               /* NODE_* */
  int mover;              /* player to move */
  int ply;                /* from the root */
  int settled;            /* value is known */
  Value value;            /* for the mover, end ply absolute from the root */
  char *move;             /* the move that led here (NULL at the root) */
  char *board;            /* game_print of the position */
} TreeNode;

typedef struct Tree {
  Game *g;
  FILE *err;
  TreeNode *nodes;
  int n, cap;
  Walk walk;              /* the line being built (search/walk.h) */
  unsigned char *states;  /* the states on the current line, for repeats */
  uint64_t *hashes;
  int path_cap;
  int *stack;             /* Step 3's nodes to write, one per node */
  int depth, prune;       /* what treedot_write was asked for */
  const char *path;
  TreeDotStats *stats;
} Tree;

/* A new node for the engine's current position; its index, or -1. */
static int add_node(Tree *t, int parent, const Move *m, int ply) {
  TreeNode *nd;
  char buf[256];
  if (t->n == TREEDOT_MAX_NODES) return -2;
  if (t->n == t->cap) {
    int cap = t->cap ? 2 * t->cap : 256;
    TreeNode *nn = realloc(t->nodes, (size_t)cap * sizeof *nn);
    if (nn == NULL) return -1;
    t->nodes = nn;
    t->cap = cap;
  }
  nd = &t->nodes[t->n];
  memset(nd, 0, sizeof *nd);
  nd->parent = parent;
  nd->first_child = nd->next_sibling = -1;
  nd->mover = game_to_move(t->g);
  nd->ply = ply;
  if (m != NULL) {
    buf[0] = '\0';
    game_format_move(t->g, m, buf, sizeof buf);
    buf[sizeof buf - 1] = '\0';
    if ((nd->move = strdup(buf)) == NULL) return -1;
  }
  if ((nd->board = boardview_text(t->g)) == NULL) {
    free(nd->move);
    return -1;
  }
  return t->n++;
}

/* Whether the current position repeats one of the `len` before it on
** the line; records it at index len. */
static int repeats(Tree *t, int len) {
  Game *g = t->g;
  size_t sb = g->state_bytes;
  uint64_t h = game_hash(g);
  if (len >= t->path_cap) {
    int cap = t->path_cap ? 2 * t->path_cap : 64;
    unsigned char *s = realloc(t->states, (size_t)cap * (sb ? sb : 1));
    uint64_t *hs;
    if (s == NULL) return -1;
    t->states = s;
    if ((hs = realloc(t->hashes, (size_t)cap * sizeof *hs)) == NULL) return -1;
    t->hashes = hs;
    t->path_cap = cap;
  }
  for (int i = 0; i < len; i++)
    if (t->hashes[i] == h && memcmp(t->states + (size_t)i * sb, game_state(g), sb) == 0)
      return 1;
  t->hashes[len] = h;
  memcpy(t->states + (size_t)len * sb, game_state(g), sb);
  return 0;
}

/* Links child idx last among its parent's children (generation order). */
static void link_child(Tree *t, int parent, int idx) {
  TreeNode *p = &t->nodes[parent];
  if (p->first_child < 0) {
    p->first_child = idx;
  } else {
    int c = p->first_child;
    while (t->nodes[c].next_sibling >= 0) c = t->nodes[c].next_sibling;
    t->nodes[c].next_sibling = idx;
  }
}

/* Step 1: the tree below the engine's current position, walked with the
** search's walker: a node is terminal, cut off, a repetition, or
** expanded. */
static int build(Tree *t, int depth) {
  Game *g = t->g;
  Walk *w = &t->walk;
  int cur = -1;           /* the node the engine is at */

  for (int e = walk_begin(w); e != WALK_DONE; e = walk_step(w)) {
    Outcome o;
    TreeNode *nd;
    int n, idx, rep;
    if (e == WALK_BACK) cur = t->nodes[cur].parent;
    if (e != WALK_NODE) continue;
    if ((idx = add_node(t, cur, w->ply > 0 ? walk_move(w) : NULL, w->ply)) < 0) {
      walk_unwind(w);
      if (idx == -2)
        return diag_fail(t->err, EXIT_LIMIT, "the tree has more than %d nodes; draw less "
                         "of it with --depth N", TREEDOT_MAX_NODES);
      return diag_fail(t->err, EXIT_LIMIT, "out of memory drawing the tree (%d nodes)", t->n);
    }
    if (cur >= 0) link_child(t, cur, idx);
    cur = idx;
    nd = &t->nodes[idx];
    if (game_ended(g, &o)) {
      nd->kind = NODE_TERMINAL;
    } else if ((n = walk_expand(w)) < 0) {
      walk_unwind(w);
      return diag_fail(t->err, EXIT_LIMIT, "out of memory drawing the tree (%d nodes)", t->n);
    } else if (n == 0) {
      game_no_moves(g, &o);
      nd->kind = NODE_TERMINAL;
    } else if (depth && w->ply >= depth) {
      walk_close(w);
      nd->kind = NODE_CUT;
    } else if ((rep = repeats(t, w->ply)) != 0) {
      walk_close(w);
      if (rep < 0) {
        walk_unwind(w);
        return diag_fail(t->err, EXIT_LIMIT, "out of memory drawing the tree (%d nodes)", t->n);
      }
      nd->kind = NODE_REPEAT;
    }
    if (nd->kind == NODE_TERMINAL) {
      nd->settled = 1;
      nd->value = value_from_outcome(&o, g->nplayers, nd->mover, w->ply);
    }
  }
  return EXIT_OK;
}

/* A child's value for its parent's mover. */
static Value for_parent(const Tree *t, const TreeNode *parent, const TreeNode *child) {
  return child->mover != parent->mover && t->g->nplayers == 2 ? -child->value : child->value;
}

/* Step 2: children come after their parent, so a backward sweep sees
** every child before its parent. */
static void back_up(Tree *t) {
  for (int i = t->n - 1; i >= 0; i--) {
    TreeNode *nd = &t->nodes[i];
    Value best = -VALUE_INF;
    if (nd->kind != NODE_INNER) continue;
    nd->settled = 1;
    for (int c = nd->first_child; c >= 0; c = t->nodes[c].next_sibling) {
      Value v;
      if (!t->nodes[c].settled) {
        nd->settled = 0;
        break;
      }
      v = for_parent(t, nd, &t->nodes[c]);
      if (v > best) best = v;
    }
    if (nd->settled) nd->value = best;
  }
}

static int sign_of(Value v) {
  int64_t score, ply;
  value_decode(v, &score, &ply);
  return score > 0 ? 1 : score < 0 ? -1 : 0;
}

/* Whether --tree-prune leaves out the move to child c of nd: both
** settled, and the child's result is worse for nd's mover than nd's. */
static int pruned(const Tree *t, const TreeNode *nd, const TreeNode *c) {
  return nd->settled && c->settled && sign_of(for_parent(t, nd, c)) < sign_of(nd->value);
}

/* DOT string contents: quotes and backslashes escaped, each line ended
** by \l (left-justified). */
static void put_escaped(FILE *f, const char *s) {
  for (; *s != '\0'; s++) {
    if (*s == '\n') fputs("\\l", f);
    else if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else fputc(*s, f);
  }
}

/* The result line of a node: who wins (or a draw) in how many plies. */
static void put_result(FILE *f, const Tree *t, const TreeNode *nd) {
  Game *g = t->g;
  int64_t score, end;
  value_decode(nd->value, &score, &end);
  if (nd->kind == NODE_CUT) {
    fputs("cut off (depth limit)", f);
    return;
  }
  if (nd->kind == NODE_REPEAT) {
    fputs("repeats a position above", f);
    return;
  }
  if (!nd->settled) {
    fputs("not settled within the depth", f);
    return;
  }
  if (score == 0) fputs("draw", f);
  else if (g->nplayers == 1) fputs(score > 0 ? "win" : "loss", f);
  else fprintf(f, "%s wins", g->player_names[score > 0 ? nd->mover : 1 - nd->mover]);
  if (score > 1 || score < -1) fprintf(f, " by %lld", (long long)(score > 0 ? score : -score));
  if (end > nd->ply) fprintf(f, " in %lld", (long long)(end - nd->ply));
}

/* A node's fill: who wins it (first player blue, second red), a draw
** grey; unsettled white. */
static const char *fill_of(const Tree *t, const TreeNode *nd) {
  int s;
  if (!nd->settled) return "white";
  s = sign_of(nd->value);
  if (s == 0) return "gray90";
  if (t->g->nplayers == 1) return s > 0 ? "lightblue" : "mistyrose";
  return (s > 0) == (nd->mover == 0) ? "lightblue" : "mistyrose";
}

/* Step 3. */
static void write_dot(const Tree *t, int prune, FILE *f, TreeDotStats *stats) {
  int *stack = t->stack, top = 0;
  fputs("digraph \"", f);
  put_escaped(f, t->g->name);
  fputs("\" {\n  node [shape=box, style=filled, fontname=\"monospace\", fontsize=10];\n"
        "  edge [fontname=\"monospace\", fontsize=10];\n", f);
  stack[top++] = 0;
  while (top > 0) {
    int i = stack[--top];
    const TreeNode *nd = &t->nodes[i];
    stats->nodes++;
    if (nd->kind == NODE_CUT) stats->cutoffs++;
    fprintf(f, "  n%d [label=\"", i);
    put_escaped(f, nd->board);
    put_result(f, t, nd);
    fprintf(f, "\\l\", fillcolor=%s%s];\n", fill_of(t, nd),
            nd->kind == NODE_CUT || nd->kind == NODE_REPEAT ? ", style=\"filled,dashed\"" : "");
    /* Children pushed in reverse, so they are written in move order. */
    int kept = 0;
    for (int k = nd->first_child; k >= 0; k = t->nodes[k].next_sibling) {
      const TreeNode *c = &t->nodes[k];
      int best = nd->settled && c->settled && for_parent(t, nd, c) == nd->value;
      if (prune && pruned(t, nd, c)) {
        stats->pruned++;
        continue;
      }
      stats->edges++;
      kept++;
      fprintf(f, "  n%d -> n%d [label=\"", i, k);
      put_escaped(f, c->move);
      fprintf(f, "\"%s];\n", best ? ", penwidth=2.5" : "");
    }
    int at = top + kept;
    for (int k = nd->first_child; k >= 0; k = t->nodes[k].next_sibling)
      if (!(prune && pruned(t, nd, &t->nodes[k]))) stack[--at] = k;
    top += kept;
  }
  fputs("}\n", f);
}

/* The image format asked for by the file's name, or NULL for DOT text. */
static const char *image_format(const char *path) {
  const char *dot = strrchr(path, '.');
  if (dot == NULL) return NULL;
  if (strcmp(dot, ".svg") == 0) return "svg";
  if (strcmp(dot, ".png") == 0) return "png";
  if (strcmp(dot, ".pdf") == 0) return "pdf";
  return NULL;
}

/* Writes the graph through `dot -Tformat -o path`; a status. */
static int write_image(const Tree *t, int prune, const char *path, const char *format,
                       TreeDotStats *stats) {
  int fd[2], status;
  char tflag[16];
  pid_t pid;
  FILE *f;
  snprintf(tflag, sizeof tflag, "-T%s", format);
  if (pipe(fd) != 0) return diag_fail(t->err, EXIT_IO, "cannot make a pipe to dot");
  fflush(NULL);
  if ((pid = fork()) < 0) {
    close(fd[0]);
    close(fd[1]);
    return diag_fail(t->err, EXIT_IO, "cannot start dot");
  }
  if (pid == 0) {
    dup2(fd[0], 0);
    close(fd[0]);
    close(fd[1]);
    execlp("dot", "dot", tflag, "-o", path, (char *)NULL);
    _exit(127);
  }
  close(fd[0]);
  if ((f = fdopen(fd[1], "w")) == NULL) {
    close(fd[1]);
    waitpid(pid, &status, 0);
    return diag_fail(t->err, EXIT_LIMIT, "out of memory drawing the tree (%d nodes)", t->n);
  }
  write_dot(t, prune, f, stats);
  fclose(f);
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
      return diag_fail(t->err, EXIT_IO, "cannot run 'dot' to draw '%s': Graphviz is not "
                       "installed (apt-get install graphviz), or write a .dot file", path);
    return diag_fail(t->err, EXIT_IO, "dot failed to draw '%s'", path);
  }
  return EXIT_OK;
}

/* Steps 2 and 3 once the tree is built: the file, or an image. */
static int draw(Tree *t, int prune, const char *path, TreeDotStats *stats) {
  const char *format = image_format(path);
  FILE *f;
  back_up(t);
  /* Before any output: out of memory must not leave an empty drawing. */
  if ((t->stack = malloc((size_t)(t->n > 0 ? t->n : 1) * sizeof *t->stack)) == NULL)
    return diag_fail(t->err, EXIT_LIMIT, "out of memory drawing the tree (%d nodes)", t->n);
  if (format != NULL) return write_image(t, prune, path, format, stats);
  if ((f = fopen(path, "w")) == NULL)
    return diag_fail(t->err, EXIT_IO, "cannot write '%s': %s", path, strerror(errno));
  write_dot(t, prune, f, stats);
  if (fclose(f) != 0)
    return diag_fail(t->err, EXIT_IO, "cannot write '%s': %s", path, strerror(errno));
  return EXIT_OK;
}

/* Builds the tree and writes it: run under a trap (treedot_write). */
static int build_and_draw(void *arg) {
  Tree *t = arg;
  int st = build(t, t->depth);
  return st == EXIT_OK ? draw(t, t->prune, t->path, t->stats) : st;
}

int treedot_write(Game *g, int depth, int prune, const char *path,
                  TreeDotStats *stats, FILE *err) {
  Tree *t;
  int st = EXIT_OK;
  memset(stats, 0, sizeof *stats);
  if (g->nplayers < 1 || g->nplayers > 2)
    return diag_fail(err, EXIT_USAGE, "--tree-dot needs a game of one or two players "
                     "(this game has %d)", g->nplayers);
  /* Its values are minimax values: no expectations, no running pay. */
  if (g->has_chance || g->has_rewards)
    return diag_fail(err, EXIT_USAGE, "--tree-dot draws games without %s",
                     g->has_chance ? "chance moves" : "per-move payoffs");
  /* On the heap, so that a rule failing at run time (a longjmp out of
  ** build_and_draw) leaves it intact to free. */
  if ((t = calloc(1, sizeof *t)) == NULL) return diag_fail(err, EXIT_LIMIT, "out of memory");
  *t = (Tree){ .g = g, .err = err, .depth = depth, .prune = prune, .path = path,
               .stats = stats };
  walk_init(&t->walk, g);
  if (game_call_trapped(g, build_and_draw, t, &st)) st = g->error_status;
  for (int i = 0; i < t->n; i++) {
    free(t->nodes[i].move);
    free(t->nodes[i].board);
  }
  free(t->nodes);
  walk_free(&t->walk);
  free(t->states);
  free(t->hashes);
  free(t->stack);
  free(t);
  return st;
}
