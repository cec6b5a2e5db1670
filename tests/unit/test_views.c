/*
** test_views.c -- the VM's information states (GameVtable.infostate) on
** a whole game tree: for every position and every player, the key (folded
** incrementally on apply) and the text (built by replaying the line) must
** agree -- two positions have the same key exactly when they have the same
** text -- and undo must give back the keys of before.  Counts the
** information sets at the players' decision positions.  A game without
** `hidden` must have has_views 0 and no infostate or print_view.
**
** usage: test_views GAMEFILE [-D name=value ...]; prints "infosets: K"
** and "N passed, M failed".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gametest.h"
#include "vm/vm.h"

enum { MAX_SEEN = 1 << 16, TEXT = 4096 };

typedef struct Seen {
  int player;
  uint64_t key[2];
  char *text;
  uint64_t text_hash;
  int decision;     /* seen where that player is to move */
} Seen;

static Seen seen[MAX_SEEN];
static int nseen;

/* Records (player, key, text); checks it against what was seen before. */
static void record(Game *g, int player, int decision) {
  uint64_t key[2];
  char text[TEXT];
  size_t len = g->vt->infostate(g, player, key, text, sizeof text);
  CHECK(len == strlen(text), "the length returned is the text's");
  uint64_t k2[2];
  CHECK(g->vt->infostate(g, player, k2, NULL, 0) == len && k2[0] == key[0] && k2[1] == key[1],
        "infostate without text: same key and length");
  uint64_t th = 1469598103934665603ULL;
  for (const char *c = text; *c; c++) th = (th ^ (unsigned char)*c) * 1099511628211ULL;
  for (int i = 0; i < nseen; i++) {
    Seen *s = &seen[i];
    if (s->player != player) continue;
    int same_key = s->key[0] == key[0] && s->key[1] == key[1];
    int same_text = s->text_hash == th && strcmp(s->text, text) == 0;
    if (same_key || same_text) {
      CHECK(same_key && same_text, "player %d: key and text agree ('%s' / '%s')", player,
            s->text, text);
      s->decision |= decision;
      return;
    }
  }
  if (nseen == MAX_SEEN) { CHECK(0, "too many information states for the test"); return; }
  seen[nseen].player = player;
  memcpy(seen[nseen].key, key, sizeof key);
  seen[nseen].text = strdup(text);
  seen[nseen].text_hash = th;
  seen[nseen].decision = decision;
  nseen++;
}

static void walk(Game *g, int depth) {
  static Move moves[64][GAME_MAX_MOVES];
  Outcome o;
  uint64_t before[GAME_MAX_PLAYERS][2];
  int who = game_to_move(g);
  int n = game_ended(g, &o) ? 0 : game_generate(g, moves[depth]);
  for (int p = 0; p < g->nplayers; p++) {
    record(g, p, p == who && n > 0);
    g->vt->infostate(g, p, before[p], NULL, 0);
  }
  if (depth == 63) return;
  for (int i = 0; i < n; i++) {
    game_apply(g, &moves[depth][i]);
    walk(g, depth + 1);
    game_undo(g);
    for (int p = 0; p < g->nplayers; p++) {
      uint64_t k[2];
      g->vt->infostate(g, p, k, NULL, 0);
      CHECK(k[0] == before[p][0] && k[1] == before[p][1], "undo restores player %d's key", p);
    }
  }
}

int main(int argc, char **argv) {
  (void)next_random;
  if (argc < 2) { fprintf(stderr, "usage: test_views GAMEFILE [-D name=value ...]\n"); return 2; }
  Program *p = load_game(argv[1], argc, argv, 2);
  if (!p) { printf("0 passed, 1 failed\n"); return 1; }
  int status;
  Game *g = vm_new(p, &status);
  if (!g) { printf("0 passed, 1 failed\n"); return 1; }
  if (!g->has_views) {
    CHECK(g->vt->infostate == NULL, "perfect information: no infostate");
    CHECK(g->vt->print_view == NULL, "perfect information: no print_view");
  } else {
    CHECK(g->vt->infostate != NULL && g->vt->print_view != NULL, "views: the hooks are set");
    walk(g, 0);
    int k = 0;
    for (int i = 0; i < nseen; i++) k += seen[i].decision;
    printf("infosets: %d\n", k);
  }
  for (int i = 0; i < nseen; i++) free(seen[i].text);
  game_free(g);
  gs_program_free(p);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
