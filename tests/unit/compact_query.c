/*
** compact_query.c -- retrograde analysis of a game in the compact form
** (--compact, src/retro/retro_compact.c), then N random positions of it
** answered from the table: the table's figures go to stderr, one a line
** ("positions N", "score S", ...), and the positions to stdout as a test
** set ("moves score" lines) that gsolve --test-set checks against another
** solver (tests/t_compact.sh: the native Connect Four solver).
**
** usage: compact_query GAME N SEED [-D name=value ...] > SET
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "loadgame.h"
#include "vm/vm.h"
#include "retro/retro_compact.h"
#include "retro/retro_stats.h"

static uint64_t rng;
static uint64_t next_random(void) {       /* SplitMix64 */
  uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: compact_query GAME N SEED [-D name=value ...]\n");
    return 2;
  }
  long n = atol(argv[2]);
  rng = strtoull(argv[3], NULL, 10);
  Program *p = load_game(argv[1], argc, argv, 4);
  int status;
  if (!p) return 2;
  Game *g = vm_new(p, &status);
  if (!g) return status;
  Retro r;
  Search s;
  retro_init(&r, g, 0, stderr);
  r.compact = 1;
  search_init(&s, g, 0, stderr);
  int st = retro_solve(&r, &s);
  if (st != 0) return st;
  int64_t score, plies;
  value_decode(s.result.value, &score, &plies);
  RetroStats rs;
  if (retro_stats_compute(&r, &rs) != 0) return 5;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fprintf(stderr, "positions %llu\nstored %llu\nscore %lld\nplies %lld\n",
          (unsigned long long)r.positions, (unsigned long long)r.stored, (long long)score,
          (long long)plies);
  fprintf(stderr, "longest %u\nlongest_win_0 %lld\nlongest_win_1 %lld\n", rs.maxdist,
          (long long)rs.longest[0], (long long)rs.longest[1]);
  fprintf(stderr, "table_bytes %zu\npeak_rss_bytes %ld\n", retro_memory(&r), ru.ru_maxrss * 1024L);
  fprintf(stderr, "seconds %.1f %.1f\n", r.enumerate_seconds, r.label_seconds);
  retro_stats_free(&rs);
  /* Each layer: its stored positions, its set's bits a key, its values'. */
  uint64_t largest = 0;
  for (int k = 0; k < r.cpt->nlayers; k++) {
    const CompactLayer *L = &r.cpt->layer[k];
    if (L->keys.n > largest) largest = L->keys.n;
    if (getenv("COMPACT_LAYERS"))
      fprintf(stderr, "layer %d: %llu stored, %.2f bits a key, %d bits a value\n", k,
              (unsigned long long)L->keys.n,
              L->keys.n ? 8.0 * (double)efset_bytes(&L->keys) / (double)L->keys.n : 0.0,
              retro_compact_width(r.cpt, L));
  }
  fprintf(stderr, "layers %d\nlargest_layer %llu\n", r.cpt->nlayers, (unsigned long long)largest);
  /* Random positions: a random number of random moves from the start,
  ** the game not over. */
  static Move moves[GAME_MAX_MOVES];
  char text[8192], one[64];
  int missing = 0;
  for (long i = 0; i < n;) {
    int want = (int)(next_random() % 64), ply = 0, over = 0;
    size_t len = 0;
    Outcome o;
    text[0] = 0;
    while (ply < want && !(over = game_ended(g, &o))) {
      int k = game_generate(g, moves);
      if (k == 0) { over = 1; break; }
      const Move *m = &moves[next_random() % (uint64_t)k];
      game_format_move(g, m, one, sizeof one);
      len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", len ? " " : "", one);
      game_apply(g, m);
      ply++;
    }
    if (!over && !game_ended(g, &o) && game_generate(g, moves) > 0) {
      int32_t sc;
      uint32_t d;
      if (retro_compact_find(&r, &sc, &d) > 0) printf("%s %d\n", ply ? text : "-", sc);
      else missing++;
      i++;
    }
    for (; ply > 0; ply--) game_undo(g);
  }
  fprintf(stderr, "missing %d\n", missing);
  search_free(&s);
  retro_free(&r);
  game_free(g);
  gs_program_free(p);
  return missing ? 1 : 0;
}
