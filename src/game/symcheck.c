/*
** symcheck.c -- whether the symmetries a game declares hold where a
** solver will use them (symcheck.h).
**
** A position p and its image q = e(p) must agree on what a solver reads:
** the player to move, whether the game has ended and with what outcome,
** and the positions their moves lead to, compared as multisets of
** canonical keys (with each move's chance weight and payoffs), since the
** image of a successor of p is a successor of q exactly when both sets
** of canonical keys are equal.  This is a test, not a proof: it catches a
** declaration that is wrong on the positions it is shown.
*/
#include <stdlib.h>
#include <string.h>

#include "game/symcheck.h"
#include "util/diag.h"
#include "util/fnv.h"
#include "util/random.h"
#include "util/status.h"

/* What a position shows a solver, reduced to numbers that compare. */
typedef struct Signature {
  int mover, ended, nmoves;
  Outcome outcome;
  uint64_t *succ;          /* sorted hashes of the successors */
} Signature;

typedef struct Check {
  Game *g;
  Move *moves;             /* GAME_MAX_MOVES */
  unsigned char *key;      /* key_bytes */
  uint32_t *weights;       /* GAME_MAX_MOVES */
  Signature a, b;
  unsigned char *home, *image;   /* state_bytes each */
  char *why;
  size_t size;
  int trapped;             /* a rule failed: the engine can only be freed */
} Check;

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

/* The current position's signature into s. */
static void sign(Check *c, Signature *s) {
  Game *g = c->g;
  memset(&s->outcome, 0, sizeof s->outcome);
  s->mover = game_to_move(g);
  s->ended = game_ended(g, &s->outcome);
  s->nmoves = 0;
  if (s->ended) return;
  int n = game_generate(g, c->moves);
  if (n == 0) {
    game_no_moves(g, &s->outcome);
    return;
  }
  if (s->mover == GAME_CHANCE) game_weights(g, c->moves, n, c->weights);
  for (int i = 0; i < n; i++) {
    uint64_t h = FNV_OFFSET;
    game_apply(g, &c->moves[i]);
    int32_t pay[GAME_MAX_PLAYERS] = {0};
    if (game_rewards(g, pay)) h = fnv1a(h, pay, sizeof pay);
    g->vt->canonical_key(g, game_state(g), c->key);
    h = fnv1a(h, c->key, g->key_bytes);
    game_undo(g);
    if (s->mover == GAME_CHANCE) h = fnv1a(h, &c->weights[i], sizeof c->weights[i]);
    s->succ[i] = h;
  }
  qsort(s->succ, (size_t)n, sizeof *s->succ, cmp_u64);
  s->nmoves = n;
}

/* Why two signatures differ, or 0 when they agree. */
static int differ(Check *c, int e) {
  const Signature *a = &c->a, *b = &c->b;
  if (a->mover != b->mover)
    snprintf(c->why, c->size, "its image under symmetry element %d has another player to move", e);
  else if (a->ended != b->ended)
    snprintf(c->why, c->size, "its image under symmetry element %d %s", e,
             a->ended ? "has not ended" : "has ended");
  else if (memcmp(&a->outcome, &b->outcome, sizeof a->outcome) != 0)
    snprintf(c->why, c->size, "its image under symmetry element %d has another outcome", e);
  else if (a->nmoves != b->nmoves)
    snprintf(c->why, c->size, "it has %d legal moves, its image under symmetry element %d has %d",
             a->nmoves, e, b->nmoves);
  else if (a->nmoves && memcmp(a->succ, b->succ, (size_t)a->nmoves * sizeof *a->succ) != 0)
    snprintf(c->why, c->size, "its moves lead to positions that are not the images of those "
             "its image under symmetry element %d leads to", e);
  else
    return 0;
  return 1;
}

static int run_check(void *arg) {
  Check *c = arg;
  Game *g = c->g;
  int G = g->vt->symmetries(g);
  memcpy(c->home, game_state(g), g->state_bytes);
  sign(c, &c->a);
  int step = G - 1 > SYMCHECK_MAX_ELEMENTS ? (G - 1) / SYMCHECK_MAX_ELEMENTS : 1;
  int bad = 0;
  for (int e = 1; e < G && !bad; e += step) {
    g->vt->symmetry_image(g, e, c->home, c->image);
    if (memcmp(c->image, c->home, g->state_bytes) == 0) continue;
    g->vt->set_state(g, c->image);
    sign(c, &c->b);
    g->vt->set_state(g, c->home);
    bad = differ(c, e);
  }
  return bad;
}

/* Whether the engine offers what the test needs. */
static int testable(Game *g) {
  const GameVtable *vt = g->vt;
  return vt->symmetries && vt->symmetry_image && vt->set_state && vt->canonical_key &&
         !g->has_views && !g->has_history && vt->symmetries(g) > 1;
}

static void check_free(Check *c) {
  free(c->moves);
  free(c->key);
  free(c->weights);
  free(c->a.succ);
  free(c->b.succ);
  free(c->home);
  free(c->image);
}

static int check_init(Check *c, Game *g, char *why, size_t size) {
  memset(c, 0, sizeof *c);
  c->g = g;
  c->why = why;
  c->size = size;
  c->moves = malloc(GAME_MAX_MOVES * sizeof *c->moves);
  c->key = malloc(g->key_bytes ? g->key_bytes : 1);
  c->weights = malloc(GAME_MAX_MOVES * sizeof *c->weights);
  c->a.succ = malloc(GAME_MAX_MOVES * sizeof *c->a.succ);
  c->b.succ = malloc(GAME_MAX_MOVES * sizeof *c->b.succ);
  c->home = malloc(g->state_bytes);
  c->image = malloc(g->state_bytes);
  if (!c->moves || !c->key || !c->weights || !c->a.succ || !c->b.succ || !c->home || !c->image) {
    check_free(c);
    return 0;
  }
  return 1;
}

/* One position under a trap: 1 broken, 0 holds.  After a rule failed
** (c->trapped) the engine can only be freed. */
static int check_here(Check *c) {
  int bad = 0;
  if (!game_call_trapped(c->g, run_check, c, &bad)) return bad;
  c->trapped = 1;
  snprintf(c->why, c->size, "a rule failed at run time on it or on one of its images (above)");
  return 1;
}

int symmetry_holds_not(Game *g, char *why, size_t size) {
  Check c;
  if (!testable(g)) return 0;
  if (!check_init(&c, g, why, size)) return -1;
  int bad = check_here(&c);
  check_free(&c);
  return bad;
}

int position_check_symmetry(Game *g, const char *what, FILE *err) {
  char why[256];
  int bad = symmetry_holds_not(g, why, sizeof why);
  if (bad == 0) return EXIT_OK;
  if (bad < 0) return diag_out_of_memory(err);
  return diag_fail(err, EXIT_USAGE, "%s: the game's symmetries do not hold on this position: %s "
                   "(its values would be wrong; --no-symmetry solves it without them)", what, why);
}

int symmetry_walk(Game *g, long positions, uint64_t seed, FILE *out, FILE *err) {
  if (!testable(g)) {
    const GameVtable *vt = g->vt;
    if (vt->symmetries == NULL && strcmp(g->engine, "vm") != 0)
      diag_fail(err, EXIT_USAGE, "--check-symmetry: the %s engine does not offer its symmetries "
                "(--engine vm tests the ones the game declares)", g->engine);
    else if (vt->symmetries == NULL || vt->symmetries(g) <= 1)
      diag_fail(err, EXIT_USAGE, "--check-symmetry: the game declares no board symmetry under "
                "these parameters (a `permute` symmetry of an array is not tested)");
    else
      diag_fail(err, EXIT_USAGE, "--check-symmetry: this game's symmetries cannot be tested "
                "(%s)", g->has_views ? "hidden information" : g->has_history ? "a repetition rule"
              : "the engine cannot set a position");
    return EXIT_USAGE;
  }
  char why[256];
  Check c;
  if (!check_init(&c, g, why, sizeof why)) {
    return diag_out_of_memory(err);
  }
  unsigned char *root = malloc(g->state_bytes);
  Move *line = malloc(sizeof *line * 1024);
  int status = EXIT_OK, depth = 0, lines = 1;
  uint64_t rng = seed;
  if (!root || !line) {
    status = diag_out_of_memory(err);
    goto done;
  }
  memcpy(root, game_state(g), g->state_bytes);
  long checked = 0;
  while (checked < positions) {
    int bad = check_here(&c);
    checked++;
    if (bad && c.trapped) {
      fprintf(out, "symmetry: fails after %ld position%s: %s\n", checked, checked == 1 ? "" : "s", why);
      status = EXIT_RUNTIME;
      goto done;
    }
    if (bad) {
      char buf[128];
      fprintf(out, "symmetry: fails after %ld position%s: %s\nline:", checked,
              checked == 1 ? "" : "s", why);
      /* The line from the root: replayed to name its moves. */
      g->vt->set_state(g, root);
      for (int i = 0; i < depth; i++) {
        game_format_move(g, &line[i], buf, sizeof buf);
        fprintf(out, " %s%s", buf, i + 1 < depth ? "," : "");
        game_apply(g, &line[i]);
      }
      fprintf(out, "%s\n", depth ? "" : " (the position itself)");
      game_print(g, out);
      status = EXIT_BAD_GAME;
      break;
    }
    Outcome o;
    int n = depth < 1024 && !game_ended(g, &o) ? game_generate(g, c.moves) : 0;
    if (n == 0) {                      /* the end: a new line from the root */
      g->vt->set_state(g, root);
      depth = 0;
      lines++;
      continue;
    }
    line[depth] = c.moves[random_next(&rng) % (uint64_t)n];
    game_apply(g, &line[depth++]);
  }
  if (status == EXIT_OK)
    fprintf(out, "symmetry: holds on %ld positions of %d line%s (%d group elements, at most %d "
            "compared a position)\n", checked, lines, lines == 1 ? "" : "s",
            g->vt->symmetries(g), SYMCHECK_MAX_ELEMENTS);
  g->vt->set_state(g, root);
done:
  free(root);
  free(line);
  check_free(&c);
  return status;
}
