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
** to the file, or through Graphviz's `dot` to an image, by the safe
** writer of util/file.h (refused over the game file, a symlink, a folder,
** a fifo or a file of another kind; never half written).
*/
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
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
#include "util/file.h"
#include "util/status.h"
#include "util/stop.h"

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

/* What a file of the name's extension holds: Graphviz's -T format (NULL
** for DOT text), the bytes it begins with, and its kind for a refusal
** (util/file.h replaces only a file of the same kind). */
typedef struct DrawFormat {
  const char *ext, *format, *magic, *kind;
} DrawFormat;

static const DrawFormat formats[] = {
  { ".svg", "svg", "<?xml", "SVG drawing" },
  { ".png", "png", "\x89PNG", "PNG image" },
  { ".pdf", "pdf", "%PDF", "PDF document" },
  { NULL, NULL, "digraph", "DOT graph" },     /* any other name */
};

static const DrawFormat *draw_format(const char *path) {
  const char *dot = strrchr(path, '.');
  size_t i = 0;
  for (; formats[i].ext; i++)
    if (dot && strcmp(dot, formats[i].ext) == 0) break;
  return &formats[i];
}

/* The DOT text, written to a memory stream (write_dot through
** file_text_of). */
typedef struct DotText {
  const Tree *t;
  int prune;
  TreeDotStats *stats;
} DotText;

static void dot_text(void *arg, FILE *f) {
  DotText *d = arg;
  write_dot(d->t, d->prune, f, d->stats);
}

/* Runs `dot -Tformat` on text[0..len) and copies what it prints into out:
** a poll loop feeds its input and reads its output (either pipe may fill
** first), so that gsolve, not dot, writes the file and sees a full disk.
** A stop (Ctrl-C, SIGTERM) kills dot.  EXIT_OK or a status. */
static int run_dot(const Tree *t, const char *format, const char *path, const char *text,
                   size_t len, FILE *out) {
  int in[2], from[2], status = 0;
  char tflag[16];
  snprintf(tflag, sizeof tflag, "-T%s", format);
  if (pipe(in) != 0) return diag_fail(t->err, EXIT_IO, "cannot make a pipe to dot");
  if (pipe(from) != 0) {
    close(in[0]);
    close(in[1]);
    return diag_fail(t->err, EXIT_IO, "cannot make a pipe to dot");
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(in[0]); close(in[1]); close(from[0]); close(from[1]);
    return diag_fail(t->err, EXIT_IO, "cannot start dot");
  }
  if (pid == 0) {
    setpgid(0, 0);          /* a group of its own: a stop kills what it runs too */
    dup2(in[0], 0);
    dup2(from[1], 1);
    close(in[0]); close(in[1]); close(from[0]); close(from[1]);
    execlp("dot", "dot", tflag, (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  close(from[1]);
  /* dot may exit before reading everything: EPIPE, not SIGPIPE. */
  struct sigaction ign, old;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGPIPE, &ign, &old);
  fcntl(in[1], F_SETFL, O_NONBLOCK);
  size_t sent = 0, copied = 0;
  int feeding = 1, st = EXIT_OK;
  char buf[1 << 14];
  for (;;) {
    struct pollfd pf[2] = { { from[0], POLLIN, 0 }, { in[1], POLLOUT, 0 } };
    if (stop_requested != STOP_NONE) {
      char msg[160];
      kill(-pid, SIGKILL);
      st = stop_message(msg, sizeof msg, copied, "bytes of the drawing");
      st = diag_fail(t->err, st, "'%s' not written: %s", path, msg);
      break;
    }
    if (poll(pf, feeding ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      st = diag_fail(t->err, EXIT_IO, "cannot read from dot: %s", strerror(errno));
      kill(-pid, SIGKILL);
      break;
    }
    if (feeding && pf[1].revents) {
      ssize_t w = write(in[1], text + sent, len - sent);
      if (w > 0) sent += (size_t)w;
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == len) {
        close(in[1]);
        feeding = 0;
      }
    }
    if (pf[0].revents) {
      ssize_t r = read(from[0], buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;                    /* dot closed its output */
      copied += fwrite(buf, 1, (size_t)r, out);
    }
  }
  if (feeding) close(in[1]);
  close(from[0]);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  sigaction(SIGPIPE, &old, NULL);
  if (st != EXIT_OK) return st;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    return diag_fail(t->err, EXIT_IO, "cannot run 'dot' to draw '%s': Graphviz is not "
                     "installed (apt-get install graphviz), or write a .dot file", path);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || sent != len)
    return diag_fail(t->err, EXIT_IO, "dot failed to draw '%s'", path);
  return EXIT_OK;
}

/* Steps 2 and 3 once the tree is built: the DOT text, or an image drawn
** by dot, written through util/file.h (a temporary file renamed into
** place: the old drawing stays if anything fails; only a drawing of the
** same kind, or an empty file, is replaced). */
static int draw(Tree *t, int prune, const char *path, TreeDotStats *stats) {
  const DrawFormat *fm = draw_format(path);
  FileOut o;
  back_up(t);
  /* Before any output: out of memory must not leave an empty drawing. */
  if ((t->stack = malloc((size_t)(t->n > 0 ? t->n : 1) * sizeof *t->stack)) == NULL)
    return diag_fail(t->err, EXIT_LIMIT, "out of memory drawing the tree (%d nodes)", t->n);
  char *text = NULL;
  if (fm->format != NULL) {
    DotText d = { t, prune, stats };
    if ((text = file_text_of(dot_text, &d)) == NULL)
      return diag_fail(t->err, EXIT_LIMIT, "out of memory drawing the tree (%d nodes)", t->n);
  }
  int st = file_create(&o, path, fm->magic, strlen(fm->magic), fm->kind, t->err);
  if (st != EXIT_OK) {
    free(text);
    return st;
  }
  if (fm->format != NULL) st = run_dot(t, fm->format, path, text, strlen(text), o.f);
  else write_dot(t, prune, o.f, stats);
  free(text);
  if (st != EXIT_OK) {
    file_abort(&o);
    return st;
  }
  return file_commit(&o, t->err);
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
