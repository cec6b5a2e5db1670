/*
** db.c -- saving retrograde results to a file and reading them back
** (layout in db.h).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "retro/db.h"
#include "retro/retro_compact.h"
#include "search/value.h"
#include "util/diag.h"
#include "util/file.h"
#include "util/fnv.h"
#include "util/status.h"
#include "util/stop.h"

static const char DB_MAGIC[8] = { 'G', 'S', 'O', 'L', 'V', 'E', 'D', 'B' };
#define DB_ENDLESS 0xffffffffu
#define DB_MAX_TEXT 65536        /* longest name or parameter text */
#define DB_MAX_KEY (1 << 20)     /* largest key (state) a record may hold */
#define DB_FIXED_HEAD 48         /* bytes before the game name */
#define DB_RECORD_TAIL 10        /* bytes after a record's key */
#define DB_GRUNDY_BYTES 4        /* format 4: a Grundy value after them */
#define DB_SUM_SEED 0xcbf29ce484222325ULL
/* The sample checked against the rules on load (verify_walk). */
#define DB_VERIFY_POSITIONS 4096
/* Reachable positions one stored class may stand for when the engine
** cannot count its orbit (a header claiming more is refused). */
#define DB_MAX_ORBIT ((uint64_t)1 << 24)



static void put(DbWriter *o, const void *data, size_t n) {
  o->sum = fnv1a(o->sum, data, n);
  fwrite(data, 1, n, o->file.f);
}

static void put_u32(DbWriter *o, uint32_t v) {
  unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                         (unsigned char)(v >> 24) };
  put(o, b, 4);
}

static void put_u64(DbWriter *o, uint64_t v) {
  put_u32(o, (uint32_t)v);
  put_u32(o, (uint32_t)(v >> 32));
}

static void put_str(DbWriter *o, const char *s) {
  size_t n = strlen(s);
  put_u32(o, (uint32_t)n);
  put(o, s, n);
}

/* The stored keys: canonical forms or plain states. */
static const KeySet *stored_keys(const Retro *r) {
  return r->canonical ? &r->classes : &r->states;
}

/* The engine whose key format a database holds: the compiled tier keeps
** the VM's state and keys, so its databases are the VM's. */
static const char *db_engine(const Game *g) {
  return strcmp(g->engine, "compiled") == 0 ? "vm" : g->engine;
}

int db_write_begin(DbWriter *o, const Retro *r, uint64_t positions, uint64_t stored,
                   const char *path, const char *game, const char *params, uint64_t rules_hash,
                   FILE *err) {
  int st = file_create(&o->file, path, DB_MAGIC, sizeof DB_MAGIC, "gsolve database", err);
  if (st != EXIT_OK) return st;
  o->sum = DB_SUM_SEED;
  put(o, DB_MAGIC, sizeof DB_MAGIC);
  put_u32(o, r->gvalue ? DB_VERSION_GRUNDY : DB_VERSION);
  put_u32(o, (uint32_t)stored_keys(r)->key_bytes);
  put_u32(o, r->canonical != NULL);
  put_u32(o, (uint32_t)r->g->nplayers);
  put_u64(o, rules_hash);
  put_u64(o, positions);
  put_u64(o, stored);
  put_str(o, game);
  put_str(o, params);
  put_str(o, db_engine(r->g));
  return EXIT_OK;
}

void db_write_record(DbWriter *o, const void *key, size_t key_bytes, uint8_t value,
                     uint8_t mover, uint32_t dist, int32_t score) {
  put(o, key, key_bytes);
  unsigned char vm[2] = { value, mover };
  put(o, vm, 2);
  put_u32(o, dist >= RETRO_ENDLESS ? DB_ENDLESS : dist);
  put_u32(o, (uint32_t)score);
}

int db_write_end(DbWriter *o, FILE *err) {
  uint64_t sum = o->sum;
  put_u64(o, sum);
  return file_commit(&o->file, err);
}

/* Records go in the order of their keys (memcmp), whatever order the
** solver found them in: a distributed solve writes the same bytes. */
static const unsigned char *sort_keys;
static size_t sort_key_bytes;
static int by_key(const void *a, const void *b) {
  uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
  return memcmp(sort_keys + (size_t)i * sort_key_bytes, sort_keys + (size_t)j * sort_key_bytes,
                sort_key_bytes);
}

uint32_t *db_key_order(const KeySet *k, size_t n) {
  uint32_t *order = malloc((n + 1) * sizeof *order);
  if (!order) return NULL;
  for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
  sort_keys = k->keys;
  sort_key_bytes = k->key_bytes;
  qsort(order, n, sizeof *order, by_key);
  return order;
}

int db_write(const Retro *r, const char *path, const char *game, const char *params,
             uint64_t rules_hash, FILE *err) {
  if (retro_distributed) return retro_distributed->write(r, path, game, params, rules_hash, err);
  if (r->cpt) return compact_db_write(r, path, game, params, rules_hash, err);
  const KeySet *k = stored_keys(r);
  uint32_t *order = db_key_order(k, r->stored);
  if (!order) return diag_fail(err, EXIT_LIMIT, "out of memory writing '%s'", path);
  DbWriter o;
  int st = db_write_begin(&o, r, r->positions, r->stored, path, game, params, rules_hash, err);
  if (st != EXIT_OK) { free(order); return st; }
  for (size_t n = 0; n < r->stored; n++) {
    uint32_t i = order[n];
    db_write_record(&o, k->keys + (size_t)i * k->key_bytes, k->key_bytes, r->value[i],
                    r->mover[i], r->dist[i], r->score[i]);
    if (r->gvalue) put_u32(&o, r->gvalue[i]);
  }
  free(order);
  return db_write_end(&o, err);
}

/* A reader over the file in memory (its checksum verified first). */
typedef struct In {
  const unsigned char *p, *end;
  int short_read;
} In;

static const unsigned char *take(In *in, size_t n) {
  if ((size_t)(in->end - in->p) < n) { in->short_read = 1; return NULL; }
  const unsigned char *p = in->p;
  in->p += n;
  return p;
}

static uint32_t le32(const unsigned char *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t le64(const unsigned char *b) {
  return (uint64_t)le32(b) | (uint64_t)le32(b + 4) << 32;
}

static uint32_t get_u32(In *in) {
  const unsigned char *b = take(in, 4);
  return b ? le32(b) : 0;
}

static uint64_t get_u64(In *in) {
  const unsigned char *b = take(in, 8);
  return b ? le64(b) : 0;
}

/* A length-prefixed string, as stored (it may hold any byte). */
typedef struct Str {
  const unsigned char *s;
  size_t n;
} Str;

static int get_str(In *in, Str *out) {
  uint32_t n = get_u32(in);
  if (n > DB_MAX_TEXT) return -1;
  if ((out->s = take(in, n)) == NULL) return -1;
  out->n = n;
  return 0;
}

static int same_str(Str a, const char *b) {
  return a.n == strlen(b) && memcmp(a.s, b, a.n) == 0;
}

/* The text escaped for a message: a file's bytes never reach the
** terminal raw. */
static const char *shown(Str a, char *buf, size_t size) {
  return file_escape(a.s, a.n, buf, size);
}

/* Reads the file: the header first, which gives the exact size, then that
** many bytes (one more shows trailing bytes), bounded by the memory the
** records would need.  The checksum is verified before anything else is
** believed: a damaged header is "corrupt", not "other rules". */
#define DB_COMPACT (-1)     /* db_load_file: a compact form's file (its magic read) */

static int db_load_file(FileIn *fi, const char *path, const Retro *r, FILE *err) {
  int st = file_open(fi, path, err);
  if (st != EXIT_OK) return st;
  if ((st = file_fill(fi, DB_FIXED_HEAD, err)) != EXIT_OK) return st;
  if (fi->len >= 8 && memcmp(fi->data, COMPACT_DB_MAGIC, 8) == 0) return DB_COMPACT;
  if (fi->len < sizeof DB_MAGIC || memcmp(fi->data, DB_MAGIC, sizeof DB_MAGIC) != 0)
    return diag_fail(err, EXIT_USAGE, "'%s' is not a gsolve database", path);
  if (fi->len < DB_FIXED_HEAD) goto corrupt;
  uint32_t version = le32(fi->data + 8), key_bytes = le32(fi->data + 12);
  uint64_t stored = le64(fi->data + 40);
  if (version < 1 || version > DB_VERSION_GRUNDY)    /* a layout unknown: no size */
    return diag_fail(err, EXIT_USAGE, "'%s' has database format %u; this gsolve reads format %d",
                   path, version, DB_VERSION);
  size_t at = DB_FIXED_HEAD;
  for (int i = 0; i < (version == 1 ? 2 : 3); i++) {      /* name, parameters, engine */
    if ((st = file_fill(fi, at + 4, err)) != EXIT_OK) return st;
    if (fi->len < at + 4) goto corrupt;
    uint32_t n = le32(fi->data + at);
    if (n > DB_MAX_TEXT) goto corrupt;
    at += 4 + (size_t)n;
  }
  size_t rec = (size_t)key_bytes + DB_RECORD_TAIL
               + (version == DB_VERSION_GRUNDY ? DB_GRUNDY_BYTES : 0);
  if (key_bytes > DB_MAX_KEY || stored > UINT32_MAX) goto corrupt;
  size_t mem = file_memory_bytes();
  if (mem && stored > mem / (rec + retro_bytes_per_position(r)))
    return diag_fail(err, EXIT_LIMIT, "'%s' is too large: its header announces %llu positions, "
                   "more than fit in memory (%zu MiB)", path, (unsigned long long)stored,
                   mem >> 20);
  size_t total = at + (size_t)stored * rec + 8;
  if ((st = file_fill(fi, total + 1, err)) != EXIT_OK) return st;
  if (fi->len != total || le64(fi->data + total - 8) != fnv1a(DB_SUM_SEED, fi->data, total - 8))
    goto corrupt;
  if (version != DB_VERSION && version != DB_VERSION_GRUNDY)
    return diag_fail(err, EXIT_USAGE, "'%s' has database format %u; this gsolve reads format %d",
                   path, version, DB_VERSION);
  return EXIT_OK;
corrupt:
  return diag_fail(err, EXIT_USAGE, "'%s' is corrupt (truncated or checksum mismatch)",
                 path);
}

/* Why a record cannot have been written by retrograde analysis, or NULL:
** the value agrees with the score's sign, wins and losses end, distances
** stay below the number of positions (a shortest or longest line never
** visits a position twice), the mover is a player. */
static const char *bad_record(const unsigned char *vm, uint32_t d, int32_t score,
                              uint32_t nplayers, uint64_t stored) {
  if (vm[0] < RETRO_WIN || vm[0] > RETRO_DRAW) return "a value that is not win, loss or draw";
  if (vm[1] >= nplayers) return "a mover that is not a player";
  if (score > VALUE_SCORE_MAX || score < -VALUE_SCORE_MAX) return "a score out of range";
  if ((vm[0] == RETRO_WIN) != (score > 0) || (vm[0] == RETRO_LOSS) != (score < 0))
    return "a value that disagrees with its score";
  if (d == DB_ENDLESS) return vm[0] == RETRO_DRAW ? NULL : "a win or loss without end";
  if ((uint64_t)d >= stored) return "a distance beyond the number of positions";
  return NULL;
}

/* ------------------------------------------------------------------ */
/* A sample re-verified against the rules                             */
/* ------------------------------------------------------------------ */

/* Format 4: the Grundy value of position c (the engine's current one)
** is the least value none of its n moves reaches (the mex). */
static int grundy_agrees(Retro *r, uint32_t c, const Move *moves, int n) {
  uint32_t g = r->gvalue[c], x;
  if (g > (uint32_t)n) return 0;
  if (!r->mex_mark && !(r->mex_mark = malloc(GAME_MAX_MOVES + 1))) return 0;
  memset(r->mex_mark, 0, (size_t)g + 1);
  for (int i = 0; i < n; i++) {
    game_apply(r->g, &moves[i]);
    int f = retro_lookup(r, &x);
    game_undo(r->g);
    if (f && r->gvalue[x] <= g) r->mex_mark[r->gvalue[x]] = 1;
  }
  for (uint32_t v = 0; v < g; v++)
    if (!r->mex_mark[v]) return 0;
  return !r->mex_mark[g];
}

/* Checks position c (the engine's current one, with its n moves, or
** ended) against its children by one ply of lookups, as retro.c labels:
** a win has a child lost for the opponent at distance d-1 and none
** sooner, a loss has only such children and the farthest at d-1, a draw
** has no winning child and a drawn one, at the distance its mover
** chooses; a scored game takes the best child's score.  An end is
** checked against the outcome.  NULL, or what is wrong. */
static const char *verify_position(Retro *r, uint32_t c, int scored, const Outcome *o,
                                   const Move *moves, int n) {
  Game *g = r->g;
  if (o) {
    int m = r->mover[c];
    int64_t margin = g->nplayers == 1 ? o->payoff[0] : (int64_t)o->payoff[m] - o->payoff[1 - m];
    int v = margin > 0 ? RETRO_WIN : margin < 0 ? RETRO_LOSS : RETRO_DRAW;
    if (r->value[c] != v || r->dist[c] != 0) return "the value of a finished game";
    if (scored && margin > -VALUE_SCORE_MAX && margin < VALUE_SCORE_MAX && r->score[c] != margin)
      return "the score of a finished game";
    return r->gvalue && r->gvalue[c] != 0 ? "the Grundy value of a finished game" : NULL;
  }
  if (r->gvalue && !grundy_agrees(r, c, moves, n)) return "a Grundy value that is not the mex of its children's";
  int64_t best = INT64_MIN;
  uint32_t win_min = RETRO_ENDLESS, loss_max = 0, d = r->dist[c];
  uint32_t draw_min = RETRO_ENDLESS, draw_max = 0;   /* over draws that end */
  int wins = 0, draws = 0, endless = 0, best_at = 0;
  for (int i = 0; i < n; i++) {
    uint32_t x;
    game_apply(g, &moves[i]);
    int f = retro_lookup(r, &x);
    game_undo(g);
    if (f == 0) return "a move to a position that is not stored";
    int same = r->mover[x] == r->mover[c], v = r->value[x];
    if (!same && v != RETRO_DRAW) v = v == RETRO_WIN ? RETRO_LOSS : RETRO_WIN;
    int64_t s = same ? r->score[x] : -(int64_t)r->score[x];
    uint32_t dx = r->dist[x];
    int next = dx < RETRO_ENDLESS && dx + 1 == d;
    if (v == RETRO_WIN) { wins++; if (dx < win_min) win_min = dx; }
    else if (v == RETRO_LOSS) { if (dx > loss_max) loss_max = dx; }
    else if (dx >= RETRO_ENDLESS) { draws++; endless++; }
    else { draws++; if (dx < draw_min) draw_min = dx; if (dx > draw_max) draw_max = dx; }
    if (s > best) best = s;
    if (s == r->score[c]) best_at |= next;
  }
  if (scored)
    return best != r->score[c] || (d < RETRO_ENDLESS && !best_at) ? "the best move's score" : NULL;
  switch (r->value[c]) {
  case RETRO_WIN: return wins && win_min + 1 == d ? NULL : "a win without its winning move";
  case RETRO_LOSS: return !wins && !draws && loss_max + 1 == d ? NULL : "a loss with a better move";
  default:
    if (wins || !draws) return "a draw with a winning move or none drawn";
    /* The first player takes the shortest drawn line, the second the
    ** longest; a line without end wins over both (propagate_draws). */
    if (r->mover[c] == 0)
      return d == (draw_min < RETRO_ENDLESS ? draw_min + 1 : RETRO_ENDLESS) ? NULL : "a draw's length";
    return d == (endless ? RETRO_ENDLESS : draw_max + 1) ? NULL : "a draw's length";
  }
}

/* The engine's current position, stored at c, checked against the rules
** and its children's records (verify_position): its moves are pushed on
** r->ms (*n of them; 0 at an end).  NULL, or what is wrong; *oom when out
** of memory. */
static const char *check_position(Retro *r, uint32_t c, int *n, int *oom) {
  Game *g = r->g;
  Outcome o;
  size_t mbase = r->ms.top;
  *n = 0;
  int ended = game_to_move(g) != (int)r->mover[c] ? -1 : game_ended(g, &o);
  if (ended < 0) return "the player to move";
  if (!ended && (*n = movestack_generate(&r->ms, g)) < 0) {
    *n = 0;
    *oom = 1;
    return NULL;
  }
  if (!ended && *n == 0) { game_no_moves(g, &o); ended = 1; }
  return verify_position(r, c, r->scored, ended ? &o : NULL, r->ms.moves + mbase, *n);
}

/* The status of a check: EXIT_OK, or the corruption (or out of memory)
** reported on err. */
static int verdict(Retro *r, const char *path, const char *why, int oom, FILE *err) {
  if (oom) return r->status = diag_fail(err, EXIT_LIMIT, "out of memory loading '%s'", path);
  if (why)
    return r->status = diag_fail(err, EXIT_USAGE, "'%s' is corrupt: a position's record "
                                 "disagrees with the rules (%s)", path, why);
  return EXIT_OK;
}

/* One position on the verifier's line of play. */
typedef struct VFrame {
  size_t mbase;           /* its moves on r->ms */
  int n, i, start;        /* moves, the next to try, where the order begins */
} VFrame;

/* A depth-first walk from the current position over stored positions,
** each checked once (check_position) until `limit`: DB_VERIFY_POSITIONS
** at a load, all of a small database, a sample of a large one (children
** are tried from a pseudo-random first one, so the sample is not one
** corner of the game and a run is reproducible); SIZE_MAX: every stored
** position reachable from here.  The position is restored. */
static int verify_walk(Retro *r, const char *path, size_t limit, FILE *err) {
  Game *g = r->g;
  uint32_t c;
  if (game_to_move(g) == GAME_CHANCE || !retro_lookup(r, &c)) return EXIT_OK;
  VFrame *stack = NULL;
  size_t depth = 0, cap = 0, checked = 0;
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  const char *why = NULL;
  int oom = 0;
  uint8_t *seen = r->expanded;         /* unused after a load: zeroed again below */
  r->ms.top = 0;
enter:
  /* Step 1. A position not seen yet (its frame pushed first, so that
  ** frames are always one more than the moves applied): its moves or its
  ** end, checked. */
  seen[c] = 1;
  checked++;
  if (depth == cap) {
    size_t ncap = cap ? cap * 2 : 64;
    VFrame *s = realloc(stack, ncap * sizeof *s);
    if (!s) {
      if (depth > 0) game_undo(g);
      oom = 1;
      goto unwind;
    }
    stack = s;
    cap = ncap;
  }
  stack[depth++] = (VFrame){ r->ms.top, 0, 0, 0 };
  {
    VFrame *f = &stack[depth - 1];
    int n;
    if ((why = check_position(r, c, &n, &oom)) != NULL || oom) goto unwind;
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    f->n = n;
    f->start = n ? (int)(rng % (uint64_t)n) : 0;
  }
next:
  /* Step 2. The next child not seen; back up when there is none. */
  while (checked < limit && depth > 0) {
    VFrame *f = &stack[depth - 1];
    if (f->i < f->n) {
      game_apply(g, &r->ms.moves[f->mbase + (size_t)((f->start + f->i++) % f->n)]);
      if (!retro_lookup(r, &c)) {
        why = "a move to a position that is not stored";
        game_undo(g);
        goto unwind;
      }
      if (!seen[c] && game_to_move(g) != GAME_CHANCE) goto enter;
      game_undo(g);
      goto next;
    }
    r->ms.top = f->mbase;
    if (--depth > 0) game_undo(g);
  }
unwind:
  /* Step 3. Back to the start, whatever happened. */
  for (; depth > 1; depth--) game_undo(g);
  r->ms.top = 0;
  free(stack);
  memset(seen, 0, r->stored);
  return verdict(r, path, why, oom, err);
}

/* retro_answer's check (Retro.verify_here) before it answers from a
** loaded table, as at a direct query: the current position's record and
** each child's against their children's records.  A position not stored
** is left to retro_answer to report. */
static int verify_here(Retro *r) {
  Game *g = r->g;
  uint32_t c, x;
  if (game_to_move(g) == GAME_CHANCE || !retro_lookup(r, &c)) return EXIT_OK;
  size_t top = r->ms.top;
  int n, m, oom = 0;
  const char *why = check_position(r, c, &n, &oom);
  for (int i = 0; i < n && !why && !oom; i++) {
    game_apply(g, &r->ms.moves[top + (size_t)i]);
    if (game_to_move(g) != GAME_CHANCE && retro_lookup(r, &x)) {
      why = check_position(r, x, &m, &oom);
      r->ms.top = top + (size_t)n;
    }
    game_undo(g);
  }
  r->ms.top = top;
  return verdict(r, r->db_path, why, oom, r->err);
}

int db_verify_all(Retro *r, FILE *err) {
  if (r->cpt) return retro_compact_verify(r);
  Game *g = r->g;
  const KeySet *k = stored_keys(r);
  const char *path = r->db_path;
  if (!g->vt->set_state || (g->vt->pack ? !g->vt->unpack : k->key_bytes != g->state_bytes))
    return verify_walk(r, path, SIZE_MAX, err);   /* positions cannot be set: the walk */
  unsigned char *here = malloc(g->state_bytes), *state = malloc(g->state_bytes);
  const char *why = NULL;
  char bad[256];
  int oom = !here || !state, st = EXIT_OK, n;
  if (!oom) memcpy(here, game_state(g), g->state_bytes);
  for (size_t i = 0; i < r->stored && !why && !oom; i++) {
    const unsigned char *key = k->keys + i * k->key_bytes;
    if (g->vt->pack) g->vt->unpack(g, key, state);
    else memcpy(state, key, g->state_bytes);
    g->vt->set_state(g, state);
    r->ms.top = 0;
    /* A key whose values its slots cannot hold is corrupt, said so, not a
    ** rule's runtime error or a record checked as if it were a position
    ** (the compact form's reader does the same). */
    if (g->vt->invalid && g->vt->invalid(g, bad, sizeof bad)) {
      st = diag_fail(err, EXIT_USAGE, "'%s' is corrupt: a key that is not a position of the "
                     "game (%s)", path, bad);
      break;
    }
    why = check_position(r, (uint32_t)i, &n, &oom);
    if ((i & 0xffff) == 0 && stop_requested != STOP_NONE) {
      char msg[160];
      st = stop_message(msg, sizeof msg, i, "records verified");
      st = diag_fail(err, st, "verifying '%s': %s", path, msg);
      break;
    }
  }
  r->ms.top = 0;
  if (here) g->vt->set_state(g, here);
  free(here);
  free(state);
  return st != EXIT_OK ? (r->status = st) : verdict(r, path, why, oom, err);
}

/* The most reachable positions the stored classes can stand for: the sum
** of their orbits when the engine counts them, else DB_MAX_ORBIT each.
** A header claiming more is forged (it claimed 2^63). */
static uint64_t positions_bound(Retro *r) {
  Game *g = r->g;
  const KeySet *k = stored_keys(r);
  uint64_t sum = 0;
  unsigned char *state = NULL;
  if (g->vt->orbit && (g->vt->pack ? g->vt->unpack != NULL : k->key_bytes == g->state_bytes) &&
      (state = malloc(g->state_bytes)) != NULL) {
    for (size_t i = 0; i < r->stored; i++) {
      const unsigned char *key = k->keys + i * k->key_bytes;
      if (g->vt->pack) g->vt->unpack(g, key, state);
      else memcpy(state, key, g->state_bytes);
      uint32_t o = g->vt->orbit(g, state);
      if (o == 0) { sum = 0; break; }
      sum += o;
    }
    free(state);
    if (sum > 0) return sum;
  }
  return r->stored > UINT64_MAX / DB_MAX_ORBIT ? UINT64_MAX : r->stored * DB_MAX_ORBIT;
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

int db_read(Retro *r, const char *path, const char *game, const char *params,
            uint64_t rules_hash, FILE *err) {
  FileIn fi;
  int st = db_load_file(&fi, path, r, err);
  /* The compact form's file, begun: its reader goes on (compact_db.c). */
  if (st == DB_COMPACT) return compact_db_read(r, &fi, path, game, params, rules_hash, err);
  if (st != EXIT_OK) { file_close(&fi); return st; }
  In in = { fi.data, fi.data + fi.len - 8, 0 };
  Str name, par, engine;
  char shown1[256], shown2[256];
  take(&in, sizeof DB_MAGIC + 4);
  uint32_t key_bytes = get_u32(&in), symmetric = get_u32(&in), nplayers = get_u32(&in);
  uint64_t hash = get_u64(&in), positions = get_u64(&in), stored = get_u64(&in);
  int with_grundy = le32(fi.data + 8) == DB_VERSION_GRUNDY;
  if (get_str(&in, &name) < 0 || get_str(&in, &par) < 0 || get_str(&in, &engine) < 0)
    goto corrupt;     /* cannot happen: db_load_file measured them */
  int same_game = same_str(name, game) && same_str(par, params);
  if (same_game && hash == rules_hash && !same_str(engine, db_engine(r->g))) {
    /* The same game, but positions stored in another engine's format. */
    st = diag_fail(err, EXIT_USAGE, "'%s' was built with the %s engine, which stores positions "
                 "differently; this run uses %s: read it with --engine %s, or build it again",
                 path, shown(engine, shown1, sizeof shown1), db_engine(r->g),
                 same_str(engine, "vm") ? "vm" : "native");
    goto done;
  }
  if (!same_game || hash != rules_hash ||
      key_bytes != (r->g->vt->pack ? r->g->key_bytes : r->g->state_bytes) ||
      (symmetric && r->canonical == NULL) ||
      nplayers != (uint32_t)r->g->nplayers) {
    st = diag_fail(err, EXIT_USAGE, "'%s' was built for other rules: %s (%s)%s; this is %s (%s)",
                 path, shown(name, shown1, sizeof shown1), shown(par, shown2, sizeof shown2),
                 hash != rules_hash && same_game ? " with different rules" : "", game, params);
    goto done;
  }
  if (symmetric > 1 || positions < stored || (!symmetric && positions != stored)) goto corrupt;
  if (!symmetric) r->canonical = NULL;   /* built with --no-symmetry */
  KeySet *k = r->canonical ? &r->classes : &r->states;
  if (retro_scratch(r) < 0) goto oom;
  k->key_bytes = key_bytes;
  r->class_cap = stored + 1;
  r->value = malloc(stored + 1);
  r->mover = malloc(stored + 1);
  r->dist = malloc((stored + 1) * sizeof *r->dist);
  r->count = calloc(stored + 1, sizeof *r->count);
  r->terminal = calloc(stored + 1, 1);
  r->expanded = calloc(stored + 1, 1);
  r->score = malloc((stored + 1) * sizeof *r->score);
  if (!r->value || !r->mover || !r->dist || !r->count || !r->terminal || !r->expanded || !r->score)
    goto oom;
  if (with_grundy && !(r->gvalue = malloc((stored + 1) * sizeof *r->gvalue))) goto oom;
  for (uint64_t i = 0; i < stored; i++) {
    const unsigned char *key = take(&in, key_bytes);
    const unsigned char *vm = take(&in, 2);
    uint32_t d = get_u32(&in);
    int32_t score = (int32_t)get_u32(&in);
    uint32_t idx, gv = with_grundy ? get_u32(&in) : 0;
    const char *why = bad_record(vm, d, score, nplayers, stored);
    /* An impartial game's: no draws, a loss exactly where G is 0. */
    if (!why && with_grundy && (vm[0] == RETRO_DRAW || (gv == 0) != (vm[0] == RETRO_LOSS)
                            || gv > GAME_MAX_MOVES))
      why = "a Grundy value that disagrees with its value";
    if (why) {
      st = diag_fail(err, EXIT_USAGE, "'%s' is corrupt: record %llu has %s", path,
                   (unsigned long long)i + 1, why);
      goto done;
    }
    int a = keyset_add(k, key, &idx);
    if (a < 0) goto oom;
    if (a == 0 || idx != i) {
      st = diag_fail(err, EXIT_USAGE, "'%s' is corrupt: record %llu repeats a position", path,
                   (unsigned long long)i + 1);
      goto done;
    }
    r->value[i] = vm[0];
    r->score[i] = score;
    r->mover[i] = vm[1];
    r->dist[i] = d == DB_ENDLESS ? RETRO_ENDLESS : d;
    if (with_grundy) r->gvalue[i] = gv;
  }
  r->positions = positions;
  r->stored = stored;
  r->nclass = stored;
  for (size_t i = 0; i < stored && !r->scored; i++)
    r->scored = r->score[i] > 1 || r->score[i] < -1;
  if (positions > stored && positions > positions_bound(r)) {
    st = diag_fail(err, EXIT_USAGE, "'%s' is corrupt: its header claims %llu positions, more "
                   "than its %llu stored ones stand for", path, (unsigned long long)positions,
                   (unsigned long long)stored);
    goto done;
  }
  r->db_path = path;
  st = verify_walk(r, path, DB_VERIFY_POSITIONS, err);
  if (st == EXIT_OK) r->verify_here = verify_here;
  goto done;
corrupt:
  st = diag_fail(err, EXIT_USAGE, "'%s' is corrupt (truncated or checksum mismatch)", path);
  goto done;
oom:
  st = diag_fail(err, EXIT_LIMIT, "out of memory loading '%s'", path);
done:
  file_close(&fi);
  return st;
}

/* The compact form's records for db_dump: two walks, the longest
** distance, then the counts. */
typedef struct DumpCount {
  uint32_t maxd;
  uint64_t *counts, totals[3];
  uint64_t endless;         /* draws without end (a table with cycles) */
} DumpCount;

static int dump_one(void *arg, const void *state, int mover, int32_t score, uint32_t dist) {
  DumpCount *d = arg;
  int v = score > 0 ? 0 : score < 0 ? 1 : 2;
  if (dist >= RETRO_ENDLESS) {      /* counted apart, as the hash form's */
    if (d->counts) {
      d->totals[v]++;
      d->endless++;
    }
    return 0;
  }
  if (!d->counts) {
    if (dist > d->maxd) d->maxd = dist;
    return 0;
  }
  d->totals[v]++;
  d->counts[(size_t)dist * 3 + (size_t)v]++;
  return 0;
}

void db_dump(const Retro *r, FILE *out, int json) {
  /* Counts by value and distance; draws forever are listed apart. */
  uint32_t maxd = 0;
  uint64_t endless = 0;
  uint64_t *counts;
  uint64_t totals[3] = { 0, 0, 0 };
  if (r->cpt) {
    DumpCount d = { 0, NULL, { 0, 0, 0 }, 0 };
    if (retro_compact_each((Retro *)r, dump_one, &d) < 0) return;
    if (!(d.counts = calloc(((size_t)d.maxd + 1) * 3, sizeof *d.counts))) {
      diag_fail(stderr, EXIT_LIMIT, "out of memory");
      return;
    }
    if (retro_compact_each((Retro *)r, dump_one, &d) < 0) { free(d.counts); return; }
    maxd = d.maxd;
    endless = d.endless;
    counts = d.counts;
    memcpy(totals, d.totals, sizeof totals);
  } else {
  for (size_t i = 0; i < r->stored; i++) {
    if (r->dist[i] >= RETRO_ENDLESS) endless++;
    else if (r->dist[i] > maxd) maxd = r->dist[i];
  }
  counts = calloc(((size_t)maxd + 1) * 3, sizeof *counts);
  if (!counts) { diag_fail(stderr, EXIT_LIMIT, "out of memory"); return; }
  for (size_t i = 0; i < r->stored; i++) {
    int v = r->value[i] - 1;
    if (v < 0 || v > 2) continue;
    totals[v]++;
    if (r->dist[i] < RETRO_ENDLESS) counts[(size_t)r->dist[i] * 3 + (size_t)v]++;
  }
  }
  if (json) {
    fprintf(out, "{\"positions\":%llu,\"stored\":%llu,\"wins\":%llu,\"losses\":%llu,\"draws\":%llu,"
            "\"endless_draws\":%llu,\"by_distance\":[", (unsigned long long)r->positions,
            (unsigned long long)r->stored, (unsigned long long)totals[0],
            (unsigned long long)totals[1], (unsigned long long)totals[2], (unsigned long long)endless);
    int first = 1;
    for (uint32_t d = 0; d <= maxd; d++) {
      const uint64_t *c = counts + (size_t)d * 3;
      if (!c[0] && !c[1] && !c[2]) continue;
      fprintf(out, "%s{\"plies\":%u,\"wins\":%llu,\"losses\":%llu,\"draws\":%llu}", first ? "" : ",",
              d, (unsigned long long)c[0], (unsigned long long)c[1], (unsigned long long)c[2]);
      first = 0;
    }
    fputs("]}\n", out);
  } else {
    fprintf(out, "positions: %llu\nstored: %llu\nwins: %llu\nlosses: %llu\ndraws: %llu (%llu "
            "without end)\n", (unsigned long long)r->positions, (unsigned long long)r->stored,
            (unsigned long long)totals[0], (unsigned long long)totals[1],
            (unsigned long long)totals[2], (unsigned long long)endless);
    fprintf(out, "%6s %10s %10s %10s\n", "plies", "wins", "losses", "draws");
    for (uint32_t d = 0; d <= maxd; d++) {
      const uint64_t *c = counts + (size_t)d * 3;
      if (!c[0] && !c[1] && !c[2]) continue;
      fprintf(out, "%6u %10llu %10llu %10llu\n", d, (unsigned long long)c[0],
              (unsigned long long)c[1], (unsigned long long)c[2]);
    }
  }
  free(counts);
}
