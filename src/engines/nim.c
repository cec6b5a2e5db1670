/*
** nim.c -- Nim (games/nim.game) in C: heaps of matches, a move
** takes n >= 1 from one heap, normal play (the player who cannot move
** loses) or misere (he wins).
**
** The state is laid out as the VM lays out nim.game's: word 0 the player
** to move (1-based), then one word per heap; moves are rule 0 "take H N"
** (H 1-based) generated heap by heap, n ascending, as the VM does.
*/
#include <stdlib.h>
#include <string.h>
#include "engines/engines.h"

#define NIM_MAX_HEAPS 64

typedef struct Nim {
  Game base;
  int nheaps;
  int32_t maxtake;          /* n ranges over 1..maxtake */
  int misere;
  int32_t s[1 + NIM_MAX_HEAPS];   /* mover (1-based), heaps */
  int16_t *undo;            /* (heap, taken) per ply */
  size_t nundo, capundo;
} Nim;

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static int nim_generate(Game *g, Move *buf) {
  Nim *nim = (Nim *)g;
  int k = 0;
  for (int h = 0; h < nim->nheaps; h++)
    for (int32_t n = 1; n <= nim->s[1 + h] && n <= nim->maxtake; n++) {
      memset(&buf[k], 0, sizeof buf[k]);
      buf[k].arg[0] = (int16_t)(h + 1);
      buf[k].arg[1] = (int16_t)n;
      k++;
    }
  return k;
}

static void nim_apply(Game *g, const Move *m) {
  Nim *nim = (Nim *)g;
  if (nim->nundo == nim->capundo) {
    size_t cap = nim->capundo ? nim->capundo * 2 : 64;
    int16_t *u = realloc(nim->undo, cap * 2 * sizeof *u);
    if (!u) native_out_of_memory(g);
    nim->undo = u;
    nim->capundo = cap;
  }
  nim->undo[2 * nim->nundo] = m->arg[0];
  nim->undo[2 * nim->nundo + 1] = m->arg[1];
  nim->nundo++;
  nim->s[m->arg[0]] -= m->arg[1];
  nim->s[0] = 3 - nim->s[0];
}

static void nim_undo(Game *g) {
  Nim *nim = (Nim *)g;
  if (nim->nundo == 0) return;
  nim->nundo--;
  nim->s[nim->undo[2 * nim->nundo]] += nim->undo[2 * nim->nundo + 1];
  nim->s[0] = 3 - nim->s[0];
}

static int nim_ended(Game *g, Outcome *o) {
  (void)g; (void)o;
  return 0;   /* the game ends only when no move is left */
}

static void nim_no_moves(Game *g, Outcome *o) {
  Nim *nim = (Nim *)g;
  memset(o, 0, sizeof *o);
  o->payoff[nim->s[0] - 1] = nim->misere ? 1 : -1;
}

/* nim.game's eval: 1 when the nim-sum is not 0, else -1. */
static int32_t nim_eval(Game *g) {
  Nim *nim = (Nim *)g;
  int32_t x = 0;
  for (int h = 0; h < nim->nheaps; h++) x ^= nim->s[1 + h];
  return x != 0 ? 1 : -1;
}

static int nim_to_move(Game *g) { return ((Nim *)g)->s[0] - 1; }

static uint64_t nim_hash(Game *g) {
  Nim *nim = (Nim *)g;
  uint64_t h = 0;
  for (int i = 0; i <= nim->nheaps; i++) h = mix(h ^ (uint64_t)(uint32_t)nim->s[i] ^ ((uint64_t)i << 40));
  return h;
}

static const void *nim_state(Game *g) { return ((Nim *)g)->s; }

static int nim_format(Game *g, const Move *m, char *buf, size_t n) {
  (void)g;
  return snprintf(buf, n, "take %d %d", m->arg[0], m->arg[1]);
}

static void nim_print(Game *g, FILE *f) {
  Nim *nim = (Nim *)g;
  fputs("heap = [", f);
  for (int h = 0; h < nim->nheaps; h++) fprintf(f, "%s%d", h ? ", " : "", nim->s[1 + h]);
  fprintf(f, "]\nto move: %s\n", g->player_names[nim->s[0] - 1]);
}

static int cmp32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Heaps are interchangeable: the canonical form sorts them. */
static void nim_canonical(Game *g, const void *state, void *out) {
  Nim *nim = (Nim *)g;
  memcpy(out, state, (size_t)(1 + nim->nheaps) * sizeof(int32_t));
  qsort((int32_t *)out + 1, (size_t)nim->nheaps, sizeof(int32_t), cmp32);
}

static void nim_free(Game *g) {
  Nim *nim = (Nim *)g;
  if (!nim) return;
  free(nim->undo);
  free(nim);
}

static int nim_lost(const Nim *nim, const int32_t *heaps);

/* The nim-sum rule answers at once: a move wins exactly when it leaves
** the opponent lost by the same rule.  It gives no distance to the end. */
static int nim_solve(Game *g, const EngineSolveOptions *o, EngineAnswer *a) {
  Nim *nim = (Nim *)g;
  int32_t heaps[NIM_MAX_HEAPS];
  memcpy(heaps, nim->s + 1, (size_t)nim->nheaps * sizeof *heaps);
  int win = !nim_lost(nim, heaps);
  native_answer_root(a, win ? 1 : -1, -1, 1);
  if (o->root_only) return EXIT_OK;
  /* The moves in generation order: heap by heap, fewest matches first. */
  for (int h = 0; h < nim->nheaps; h++) {
    int32_t keep = heaps[h];
    for (int32_t n = 1; n <= keep; n++) {
      heaps[h] = keep - n;
      native_answer_move(a, nim_lost(nim, heaps) ? 1 : -1, -1, 1);
    }
    heaps[h] = keep;
  }
  return EXIT_OK;
}

static const GameVtable nim_vtable = {
  .generate = nim_generate, .apply = nim_apply, .undo = nim_undo, .ended = nim_ended,
  .no_moves = nim_no_moves, .eval = nim_eval, .to_move = nim_to_move, .hash = nim_hash,
  .state = nim_state, .format_move = nim_format, .print = nim_print, .canonical = nim_canonical,
  .features = ENGINE_SOLVES,
  .solve = nim_solve,
};

Game *native_nim_new(const Program *p, char *why, size_t n, int *status) {
  const int32_t *heaps;
  int nheaps;
  int32_t misere = 0;
  if (!gs_param_list(p, "heaps", &heaps, &nheaps)) {
    snprintf(why, n, "native nim needs a list parameter 'heaps'");
    return NULL;
  }
  gs_param_int(p, "misere", &misere);
  if (gs_player_count(p) != 2) {
    snprintf(why, n, "native nim needs two players");
    return NULL;
  }
  if (nheaps < 1 || nheaps > NIM_MAX_HEAPS) {
    snprintf(why, n, "native nim handles 1 to %d heaps, not %d", NIM_MAX_HEAPS, nheaps);
    return NULL;
  }
  Nim *nim = calloc(1, sizeof *nim);
  if (!nim) { *status = EXIT_LIMIT; return NULL; }
  nim->nheaps = nheaps;
  nim->misere = misere != 0;
  nim->s[0] = 1;
  nim->maxtake = 1;
  for (int h = 0; h < nheaps; h++) {
    if (heaps[h] < 0 || heaps[h] > INT16_MAX) {
      snprintf(why, n, "native nim handles heaps of 0 to %d, not %d", INT16_MAX, heaps[h]);
      free(nim);
      return NULL;
    }
    nim->s[1 + h] = heaps[h];
    if (heaps[h] > nim->maxtake) nim->maxtake = heaps[h];
  }
  /* generate() writes at most GAME_MAX_MOVES moves: one per match at
  ** the start, fewer later. */
  int64_t total = 0;
  for (int h = 0; h < nheaps; h++) total += heaps[h];
  if (total > GAME_MAX_MOVES) {
    snprintf(why, n, "native nim handles positions of at most %d moves (these heaps hold %lld "
             "matches)", GAME_MAX_MOVES, (long long)total);
    free(nim);
    return NULL;
  }
  return native_init(&nim->base, p, &nim_vtable, "native-nim",
                     (size_t)(1 + nheaps) * sizeof(int32_t), nim_free);
}

/* The nim-sum rule (Bouton): in normal play the player to move loses
** exactly when the heaps XOR to 0; in misere play likewise, except when
** no heap has more than one match, where he loses when the number of
** single matches is odd. */
static int nim_lost(const Nim *nim, const int32_t *heaps) {
  int32_t x = 0, big = 0, ones = 0;
  for (int h = 0; h < nim->nheaps; h++) {
    x ^= heaps[h];
    big |= heaps[h] > 1;
    ones += heaps[h] == 1;
  }
  if (nim->misere && !big) return ones % 2 == 1;
  return x == 0;
}

