/*
** test_vm.c -- the VM against itself on every bundled game: along random
** lines of play, the incremental Zobrist hash equals the hash recomputed
** from scratch after every apply and undo, undo restores the state byte
** for byte, generation is deterministic, every move's notation is unique
** and names the move, and the canonical form is invariant under play
** order (two lines reaching one position agree) and is the smallest
** image, and a move's effect replayed from its legality test is the
** effect run afresh; and the interpreter's fused code (vm_fuse.c) is the
** program's with exactly the pairs it lists fused.
**
** usage: test_vm GAMEFILE [-D name=value ...]; prints "N passed, M failed".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gametest.h"
#include "vm/vm.h"
#include "vm/vm_int.h"
#include "engines/engines.h"


enum { LINES = 300, MAX_LINE = 64 };

static void random_lines(Game *g) {
  static Move moves[GAME_MAX_MOVES], again[GAME_MAX_MOVES];
  size_t sb = g->state_bytes;
  unsigned char *before[MAX_LINE + 1];
  for (int i = 0; i <= MAX_LINE; i++) before[i] = malloc(sb);
  for (int line = 0; line < LINES; line++) {
    int depth = 0;
    Outcome o;
    while (depth < MAX_LINE && !game_ended(g, &o)) {
      int n = game_generate(g, moves);
      int n2 = game_generate(g, again);
      CHECK(n == n2 && memcmp(moves, again, (size_t)n * sizeof *moves) == 0,
            "generation is deterministic");
      if (n == 0) break;
      /* Notations are distinct, so a move list can be parsed back. */
      char a[128], b[128];
      for (int i = 0; i < n; i++) {
        game_format_move(g, &moves[i], a, sizeof a);
        for (int j = i + 1; j < n && j < i + 8; j++) {
          game_format_move(g, &moves[j], b, sizeof b);
          CHECK(strcmp(a, b) != 0, "two legal moves print as '%s'", a);
        }
      }
      memcpy(before[depth], game_state(g), sb);
      game_apply(g, &moves[next_random() % (unsigned)n]);
      depth++;
      CHECK(game_hash(g) == vm_hash_from_scratch(g), "hash after apply at ply %d", depth);
    }
    while (depth > 0) {
      game_undo(g);
      depth--;
      CHECK(memcmp(before[depth], game_state(g), sb) == 0, "undo restores the state at ply %d", depth);
      CHECK(game_hash(g) == vm_hash_from_scratch(g), "hash after undo at ply %d", depth);
    }
  }
  for (int i = 0; i <= MAX_LINE; i++) free(before[i]);
}

/* The canonical form of every image of a position is the same: play two
** random lines to depth 2..4 and check canonical(state) is idempotent. */
static void canonical_checks(Game *g) {
  if (!g->vt->canonical) return;
  size_t sb = g->state_bytes;
  unsigned char *c1 = malloc(sb), *c2 = malloc(sb), *k1 = malloc(g->key_bytes), *k2 = malloc(g->key_bytes);
  static Move moves[GAME_MAX_MOVES];
  for (int line = 0; line < 100; line++) {
    int depth = 0;
    Outcome o;
    while (depth < 6 && !game_ended(g, &o)) {
      int n = game_generate(g, moves);
      if (n == 0) break;
      game_apply(g, &moves[next_random() % (unsigned)n]);
      depth++;
      g->vt->canonical(g, game_state(g), c1);
      g->vt->canonical(g, c1, c2);
      CHECK(memcmp(c1, c2, sb) == 0, "canonical form is idempotent");
      if (g->vt->canonical_key && g->vt->pack) {
        /* Every game with a canonical form (permutable arrays too). */
        g->vt->pack(g, c1, k1);
        g->vt->canonical_key(g, game_state(g), k2);
        CHECK(memcmp(k1, k2, g->key_bytes) == 0, "canonical key is the canonical form packed");
      }
    }
    while (depth-- > 0) game_undo(g);
  }
  free(c1);
  free(c2);
  free(k1);
  free(k2);
}

/* The canonical form is the smallest image, slot by slot, of the state
** under the group (computed here the slow way from the program's cell
** permutations): the sparse comparison and the trie must both give it. */
static void canonical_reference(Game *g, const Program *p) {
  if (!g->vt->canonical || p->nsym <= 1 || p->npermute > 0) return;
  size_t sb = g->state_bytes;
  int n = p->nslots, nc = p->ncells;
  int32_t *want = malloc(sb), *img = malloc(sb), *got = malloc(sb);
  unsigned char *key_want = malloc(g->key_bytes), *key_got = malloc(g->key_bytes);
  static Move moves[GAME_MAX_MOVES];
  for (int line = 0; line < 100; line++) {
    int depth = 0;
    Outcome o;
    while (depth < 12 && !game_ended(g, &o)) {
      int k = game_generate(g, moves);
      if (k == 0) break;
      game_apply(g, &moves[next_random() % (unsigned)k]);
      depth++;
      const int32_t *in = game_state(g);
      for (int e = 0; e < p->nsym; e++) {
        memcpy(img, in, sb);
        for (int v = 0; v < p->nvars; v++)
          if (p->vars[v].on_board)
            for (int c = 0; c < nc; c++) img[p->vars[v].base + c] = in[p->vars[v].base + p->sym[(size_t)e * nc + c]];
        int smaller = e == 0;
        for (int i = 0; i < n && !smaller; i++)
          if (img[i] != want[i]) { smaller = img[i] < want[i]; break; }
        if (smaller) memcpy(want, img, sb);
      }
      g->vt->canonical(g, in, got);
      CHECK(memcmp(want, got, sb) == 0, "canonical form is the smallest image at ply %d", depth);
      if (g->vt->canonical_key && g->vt->pack) {
        /* The key made straight from a sparse board's pieces is the
        ** canonical form packed, and unpacks to it. */
        g->vt->pack(g, want, key_want);
        g->vt->canonical_key(g, in, key_got);
        CHECK(memcmp(key_want, key_got, g->key_bytes) == 0, "canonical key is the canonical form packed at ply %d", depth);
        if (g->vt->unpack) {
          g->vt->unpack(g, key_got, img);
          CHECK(memcmp(want, img, sb) == 0, "the canonical key unpacks to the canonical form at ply %d", depth);
        }
      }
    }
    while (depth-- > 0) game_undo(g);
  }
  free(want);
  free(img);
  free(got);
  free(key_want);
  free(key_got);
}

/* A legal move played where it was generated replays the effect its
** legality test recorded (vm_effects.c): the same state and hash as the
** effect run afresh (set_state voids the record). */
static void replay_checks(Game *g) {
  size_t sb = g->state_bytes;
  unsigned char *here = malloc(sb), *replayed = malloc(sb);
  static Move moves[GAME_MAX_MOVES];
  for (int line = 0; line < 50; line++) {
    int depth = 0;
    Outcome o;
    while (depth < 24 && !game_ended(g, &o)) {
      int k = game_generate(g, moves);
      if (k == 0) break;
      memcpy(here, game_state(g), sb);
      for (int i = 0; i < k; i++) {
        game_apply(g, &moves[i]);
        memcpy(replayed, game_state(g), sb);
        uint64_t h = game_hash(g);
        CHECK(h == vm_hash_from_scratch(g), "hash after a replayed effect at ply %d", depth);
        int next = game_to_move(g);
        game_undo(g);
        g->vt->set_state(g, here);
        /* set_state once folded the earlier positions into the slots' hash
        ** (a repetition rule's games then hashed without them). */
        CHECK(game_hash(g) == vm_hash_from_scratch(g), "hash after set_state at ply %d", depth);
        game_apply(g, &moves[i]);
        CHECK(memcmp(replayed, game_state(g), sb) == 0, "a replayed effect is the effect at ply %d", depth);
        CHECK(h == game_hash(g), "a replayed effect: the same hash at ply %d", depth);
        CHECK(next == game_to_move(g), "a replayed effect: the same player to move at ply %d", depth);
        game_undo(g);
        game_generate(g, moves);
      }
      game_apply(g, &moves[next_random() % (unsigned)k]);
      depth++;
    }
    while (depth-- > 0) game_undo(g);
  }
  free(here);
  free(replayed);
}

/* The interpreter's superinstructions (vm_fuse.c): its copy of the code
** differs from the program's only in the opcode words of instructions
** followed by the second part of a pair, each rewritten to that pair. */
static void fusion_checks(const Program *p) {
  int32_t *code = vm_fuse(p);
  CHECK(code != NULL, "vm_fuse");
  if (!code) return;
  for (int pc = 0; pc < p->ncode; pc += 1 + op_operands[p->code[pc]]) {
    int op = p->code[pc], n = op_operands[op], next = pc + 1 + n;
    for (int k = 1; k <= n && pc + k < p->ncode; k++)
      CHECK(code[pc + k] == p->code[pc + k], "vm_fuse: operand word %d kept", pc + k);
    int want = op;
    for (int f = OP__COUNT; f < OPF__END; f++)
      if (vm_fused_parts[f - OP__COUNT][0] == op && next < p->ncode && vm_fused_parts[f - OP__COUNT][1] == p->code[next])
        want = f;
    CHECK(code[pc] == want, "vm_fuse: opcode at %d is %d, not %d", pc, code[pc], want);
  }
  free(code);
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: test_vm GAME [-D name=value ...]\n"); return 2; }
  Program *p = load_game(argv[1], argc, argv, 2);
  int status;
  if (!p) return 2;
  /* GSOLVE_TEST_ENGINE=compiled: the same checks on the compiled tier. */
  const char *engine = getenv("GSOLVE_TEST_ENGINE");
  char why[256];
  Game *g = engine && !strcmp(engine, "compiled") ? compiled_new(p, why, sizeof why, &status) : vm_new(p, &status);
  if (!g) { gs_program_free(p); return 2; }
  CHECK(strcmp(g->engine, engine && !strcmp(engine, "compiled") ? "compiled" : "vm") == 0, "the engine asked for");
  CHECK(game_hash(g) == vm_hash_from_scratch(g), "hash at the start");
  fusion_checks(p);
  random_lines(g);
  canonical_checks(g);
  canonical_reference(g, p);
  replay_checks(g);
  game_free(g);
  gs_program_free(p);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
