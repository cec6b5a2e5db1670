/*
** autotier.c -- `--engine auto` for a long job: whether the job is long
** enough for the compiled tier to pay for its build (a short probe of
** the game on the VM), and the build itself, said in one line, with a
** silent fall-back to the VM when no compiler works.
**
** The probe.  A perft of depth d: perft of depths 1, 2, ... on the VM
** within AUTO_PROBE_NODES nodes; when depth d is reached so, the job is
** quick; else the last two depths' growth extrapolates the leaves at
** depth d, long from AUTO_LONG_NODES.  N random games: AUTO_PROBE_GAMES
** of them played and timed, long when N would take AUTO_LONG_SECONDS.  Any
** other long mode (a solve, counts, test sets, tables): the reachable
** positions are
** walked depth first (a set of their hashes) up to AUTO_PROBE_POSITIONS;
** a game that has fewer is quick (Tic-tac-toe's 5,478), one that has
** more, or a line of play of AUTO_PROBE_DEPTH new positions, is long
** (Connect Four, Pig, a chess ending).
**
** GSOLVE_AUTO_BUILD=0 turns the build off (the test suite: its many
** small solves must never pay a compile they did not ask for); a cached
** object is still taken.
*/
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engines/engines.h"
#include "game/movestack.h"
#include "util/status.h"

#define AUTO_PROBE_NODES 200000        /* nodes the perft probe may visit */
#define AUTO_LONG_NODES 10000000.0     /* a perft of more leaves is long (~0.5 s on the VM) */
#define AUTO_PROBE_POSITIONS 50000     /* a game with more reachable positions is long */
#define AUTO_PROBE_DEPTH 2000          /* or a line of play longer than this */

#define AUTO_PROBE_GAMES 16            /* random games the playouts' probe plays */
#define AUTO_LONG_SECONDS 0.5          /* playouts that would take longer on the VM are long */
#define AUTO_GAME_PLIES 10000          /* a probe's random game stops here */

static int job_perft;      /* the job's perft depth, 0 when not a perft */
static long job_playouts;  /* its random games, 0 when it plays none */

void engine_auto_job(int perft_depth, long playouts) {
  job_perft = perft_depth;
  job_playouts = playouts;
}

typedef struct Frame { size_t base; int n, i; } Frame;

/* A probe's game and its buffers (freed by engine_job_is_long, also when
** a rule fails in the probe and leaves it by longjmp). */
typedef struct Probe {
  Game *g;
  int depth;
  MoveStack ms;
  uint64_t *set;
  Frame *fr;
} Probe;

/* Leaves at `depth` below the current position, while *budget lasts
** (each node visited spends one): -1 when it ran out. */
static int64_t probe_perft(Game *g, MoveStack *ms, int depth, int64_t *budget) {
  Outcome o;
  if (depth == 0) return 1;
  if (game_ended(g, &o)) return 0;
  size_t base = ms->top;
  int n = movestack_generate(ms, g);
  if (n < 0) return -1;
  int64_t leaves = 0;
  for (int i = 0; i < n; i++) {
    if (--*budget < 0) { leaves = -1; break; }
    game_apply(g, &ms->moves[base + (size_t)i]);
    int64_t k = probe_perft(g, ms, depth - 1, budget);
    game_undo(g);
    if (k < 0) { leaves = -1; break; }
    leaves += k;
  }
  ms->top = base;
  return leaves;
}

/* 1 when a perft of depth d is long. */
static int perft_long(Probe *p, int d) {
  Game *g = p->g;
  int64_t budget = AUTO_PROBE_NODES, prev = 1, leaves = 1;
  int k;
  for (k = 1; k <= d; k++) {
    int64_t n = probe_perft(g, &p->ms, k, &budget);
    if (n < 0) break;
    prev = leaves;
    leaves = n;
  }
  if (k > d) return 0;                  /* done within the probe: quick */
  double growth = prev > 0 ? (double)leaves / (double)prev : 1.0, est = (double)leaves;
  if (growth < 1.0) growth = 1.0;
  for (int i = k - 1; i < d && est < AUTO_LONG_NODES; i++) est *= growth;
  return est >= AUTO_LONG_NODES;
}

/* 1 when `games` random games are long: their CPU time on the VM
** estimated from AUTO_PROBE_GAMES of them, uniformly random moves. */
static int playouts_long(Probe *p, long games) {
  Game *g = p->g;
  MoveStack *ms = &p->ms;
  uint64_t rng = 0x9e3779b97f4a7c15u;
  clock_t t0 = clock();
  int n = games < AUTO_PROBE_GAMES ? (int)games : AUTO_PROBE_GAMES;
  Outcome o;
  for (int k = 0; k < n; k++) {
    int depth = 0;
    while (depth < AUTO_GAME_PLIES && !game_ended(g, &o)) {
      ms->top = 0;
      int m = movestack_generate(ms, g);
      if (m <= 0) break;
      rng ^= rng << 13;
      rng ^= rng >> 7;
      rng ^= rng << 17;
      game_apply(g, &ms->moves[rng % (uint64_t)m]);
      depth++;
    }
    for (; depth > 0; depth--) game_undo(g);
  }
  double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
  return seconds / n * (double)games >= AUTO_LONG_SECONDS;
}

/* Adds h to the open-addressed set (cap a power of 2): 1 if new. */
static int seen_add(uint64_t *set, size_t cap, uint64_t h) {
  if (h == 0) h = 1;
  for (size_t i = (size_t)(h ^ h >> 29) & (cap - 1); ; i = (i + 1) & (cap - 1)) {
    if (set[i] == h) return 0;
    if (set[i] == 0) { set[i] = h; return 1; }
  }
}

/* 1 when the game has more than AUTO_PROBE_POSITIONS positions reachable
** from the current one (or memory runs out: then no build either, 0). */
static int positions_long(Probe *p) {
  Game *g = p->g;
  size_t cap = 1;
  while (cap < 2 * AUTO_PROBE_POSITIONS) cap <<= 1;
  uint64_t *set = p->set = calloc(cap, sizeof *set);
  Frame *fr = p->fr = malloc((AUTO_PROBE_DEPTH + 2) * sizeof *fr);
  MoveStack *ms = &p->ms;
  int many = 0, ply = 0, found = 1;
  Outcome o;
  if (!set || !fr) goto done;
  seen_add(set, cap, game_hash(g));
  for (;;) {
    /* enter: the current position is new */
    Frame *f = &fr[ply];
    f->base = ms->top;
    f->i = 0;
    f->n = game_ended(g, &o) ? 0 : movestack_generate(ms, g);
    if (f->n < 0) goto done;
    for (;;) {
      f = &fr[ply];
      if (f->i < f->n) {
        game_apply(g, &ms->moves[f->base + (size_t)f->i++]);
        if (seen_add(set, cap, game_hash(g))) {
          /* (a line this long: a long game too) */
          if (++found > AUTO_PROBE_POSITIONS || ply + 1 >= AUTO_PROBE_DEPTH) {
            many = 1;
            ply++;
            goto unwind;
          }
          ply++;
          break;          /* enter the child */
        }
        game_undo(g);
        continue;
      }
      ms->top = f->base;
      if (ply == 0) goto done;
      ply--;
      game_undo(g);
    }
  }
unwind:
  for (; ply > 0; ply--) game_undo(g);
done:
  return many;
}


/* The positions are the game's without its repetition rule (as --count
** counts them): with it, each line of play is a position of its own, and
** a game of 57 positions (Go on 2x2) looked endless. */
static int probe(void *arg) {
  Probe *p = arg;
  if (p->depth > 0) return perft_long(p, p->depth);
  if (job_playouts > 0) return playouts_long(p, job_playouts);
  int history = p->g->has_history;     /* (which set_history changes) */
  if (history) game_set_history(p->g, 0);
  int many = positions_long(p);
  if (history) game_set_history(p->g, 1);
  return many;
}

int engine_auto_build_off(void) {
  const char *s = getenv("GSOLVE_AUTO_BUILD");
  return s && strcmp(s, "0") == 0;
}

int engine_job_is_long(Game *g) {
  Probe p;
  memset(&p, 0, sizeof p);
  p.g = g;
  p.depth = job_perft;
  int is_long = 0;
  /* A rule that fails in the probe fails the job the same way, which
  ** reports it: the probe's report goes to /dev/null. */
  fflush(stderr);
  int saved = dup(2), quiet = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved >= 0 && quiet >= 0) dup2(quiet, 2);
  int failed = game_call_trapped(g, probe, &p, &is_long);
  fflush(stderr);
  if (saved >= 0 && quiet >= 0) dup2(saved, 2);
  if (saved >= 0) close(saved);
  if (quiet >= 0) close(quiet);
  movestack_free(&p.ms);
  free(p.set);
  free(p.fr);
  return failed ? -1 : is_long;
}

/* 1 when the compiler `cc` is an executable file (a path) or one on PATH. */
static int compiler_found(const char *cc) {
  struct stat sb;
  if (strchr(cc, '/')) return access(cc, X_OK) == 0 && stat(cc, &sb) == 0 && S_ISREG(sb.st_mode);
  const char *path = getenv("PATH");
  if (!path) return 0;
  while (*path) {
    const char *end = strchr(path, ':');
    size_t n = end ? (size_t)(end - path) : strlen(path);
    char buf[4096];
    if (n + strlen(cc) + 2 < sizeof buf) {
      snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", cc);
      if (access(buf, X_OK) == 0 && stat(buf, &sb) == 0 && S_ISREG(sb.st_mode)) return 1;
    }
    path += n;
    if (*path == ':') path++;
  }
  return 0;
}

Game *compiled_auto(const Program *p, int quiet, FILE *err, int *status) {
  char why[256];
  const char *cc = getenv("GSOLVE_CC");
  *status = EXIT_OK;
  if (!cc || !*cc) cc = "cc";
  if (!compiler_found(cc)) return NULL;
  if (!quiet)
    fprintf(err, "gsolve: building the compiled tier for this game with '%s' (once: later runs "
            "take it from the cache)\n", cc);
  Game *g = compiled_build_quietly(p, why, sizeof why, status);
  /* A compiler that fails or makes nothing: the VM, silently.  A stop,
  ** a start block that failed, or out of memory are the job's end. */
  if (!g && *status != EXIT_INTERRUPTED && *status != EXIT_RUNTIME && *status != EXIT_LIMIT)
    *status = EXIT_OK;
  return g;
}
