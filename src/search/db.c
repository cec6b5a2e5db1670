/*
** db.c -- saving retrograde results to a file and reading them back
** (layout in db.h).
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "search/db.h"
#include "util/status.h"

static const char DB_MAGIC[8] = { 'G', 'S', 'O', 'L', 'V', 'E', 'D', 'B' };
#define DB_ENDLESS 0xffffffffu
#define DB_MAX_TEXT 65536        /* longest name or parameter text */

static int db_fail(FILE *err, int status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    fputs("gsolve: error: ", err);
    vfprintf(err, fmt, ap);
    fputc('\n', err);
    va_end(ap);
  }
  return status;
}

/* A writer that checksums what it writes. */
typedef struct Out {
  FILE *f;
  uint64_t sum;
} Out;

static void put(Out *o, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) { o->sum ^= p[i]; o->sum *= 0x100000001b3ULL; }
  fwrite(data, 1, n, o->f);
}

static void put_u32(Out *o, uint32_t v) {
  unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                         (unsigned char)(v >> 24) };
  put(o, b, 4);
}

static void put_u64(Out *o, uint64_t v) {
  put_u32(o, (uint32_t)v);
  put_u32(o, (uint32_t)(v >> 32));
}

static void put_str(Out *o, const char *s) {
  size_t n = strlen(s);
  put_u32(o, (uint32_t)n);
  put(o, s, n);
}

/* The stored keys: canonical forms or plain states. */
static const KeySet *stored_keys(const Retro *r) {
  return r->canonical ? &r->classes : &r->states;
}

int db_write(const Retro *r, const char *path, const char *game, const char *params,
             uint64_t rules_hash, FILE *err) {
  const KeySet *k = stored_keys(r);
  size_t len = strlen(path);
  char *tmp = malloc(len + 5);
  if (!tmp) return db_fail(err, EXIT_LIMIT, "out of memory");
  memcpy(tmp, path, len);
  memcpy(tmp + len, ".tmp", 5);
  Out o = { fopen(tmp, "wb"), 0xcbf29ce484222325ULL };
  if (!o.f) {
    int st = db_fail(err, EXIT_IO, "cannot write '%s': %s", tmp, strerror(errno));
    free(tmp);
    return st;
  }
  put(&o, DB_MAGIC, sizeof DB_MAGIC);
  put_u32(&o, DB_VERSION);
  put_u32(&o, (uint32_t)k->key_bytes);
  put_u32(&o, r->canonical != NULL);
  put_u32(&o, (uint32_t)r->g->nplayers);
  put_u64(&o, rules_hash);
  put_u64(&o, r->positions);
  put_u64(&o, r->stored);
  put_str(&o, game);
  put_str(&o, params);
  put_str(&o, r->g->engine);
  for (size_t i = 0; i < r->stored; i++) {
    put(&o, k->keys + i * k->key_bytes, k->key_bytes);
    unsigned char vm[2] = { r->value[i], r->mover[i] };
    put(&o, vm, 2);
    put_u32(&o, r->dist[i] >= RETRO_ENDLESS ? DB_ENDLESS : r->dist[i]);
    put_u32(&o, (uint32_t)r->score[i]);
  }
  uint64_t sum = o.sum;
  put_u64(&o, sum);
  int bad = ferror(o.f);
  if (fclose(o.f) != 0) bad = 1;
  if (bad || rename(tmp, path) != 0) {
    int st = db_fail(err, EXIT_IO, "cannot write '%s': %s", path, strerror(errno));
    remove(tmp);
    free(tmp);
    return st;
  }
  free(tmp);
  return EXIT_OK;
}

/* A reader over the whole file in memory, checksumming as it goes. */
typedef struct In {
  const unsigned char *p, *end;
  uint64_t sum;
  int short_read;
} In;

static const unsigned char *take(In *in, size_t n) {
  if ((size_t)(in->end - in->p) < n) { in->short_read = 1; return NULL; }
  const unsigned char *p = in->p;
  for (size_t i = 0; i < n; i++) { in->sum ^= p[i]; in->sum *= 0x100000001b3ULL; }
  in->p += n;
  return p;
}

static uint32_t get_u32(In *in) {
  const unsigned char *b = take(in, 4);
  if (!b) return 0;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t get_u64(In *in) {
  uint64_t lo = get_u32(in);
  return lo | (uint64_t)get_u32(in) << 32;
}

/* A length-prefixed string, NUL-terminated into buf. */
static int get_str(In *in, char *buf, size_t size) {
  uint32_t n = get_u32(in);
  if (n >= size) return -1;
  const unsigned char *s = take(in, n);
  if (!s) return -1;
  memcpy(buf, s, n);
  buf[n] = 0;
  return 0;
}

static unsigned char *slurp(const char *path, size_t *len, int *st, FILE *err) {
  FILE *f = fopen(path, "rb");
  if (!f) { *st = db_fail(err, EXIT_IO, "cannot read '%s': %s", path, strerror(errno)); return NULL; }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = NULL;
  for (;;) {
    unsigned char *b = realloc(buf, cap);
    if (!b) { free(buf); fclose(f); *st = db_fail(err, EXIT_LIMIT, "out of memory reading '%s'", path); return NULL; }
    buf = b;
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { free(buf); *st = db_fail(err, EXIT_IO, "cannot read '%s'", path); return NULL; }
  *len = n;
  return buf;
}

int db_read(Retro *r, const char *path, const char *game, const char *params,
            uint64_t rules_hash, FILE *err) {
  size_t len;
  int st = EXIT_OK;
  unsigned char *buf = slurp(path, &len, &st, err);
  if (!buf) return st;
  In in = { buf, buf + len, 0xcbf29ce484222325ULL, 0 };
  char name[DB_MAX_TEXT], par[DB_MAX_TEXT], engine[DB_MAX_TEXT];
  const unsigned char *magic = take(&in, sizeof DB_MAGIC);
  if (!magic || memcmp(magic, DB_MAGIC, sizeof DB_MAGIC) != 0) {
    st = db_fail(err, EXIT_USAGE, "'%s' is not a gsolve database", path);
    goto done;
  }
  uint32_t version = get_u32(&in);
  if (in.short_read) goto corrupt;      /* not another format: cut short */
  if (version != DB_VERSION) {
    st = db_fail(err, EXIT_USAGE, "'%s' has database format %u; this gsolve reads format %d",
                 path, version, DB_VERSION);
    goto done;
  }
  uint32_t key_bytes = get_u32(&in), symmetric = get_u32(&in), nplayers = get_u32(&in);
  uint64_t hash = get_u64(&in), positions = get_u64(&in), stored = get_u64(&in);
  if (get_str(&in, name, sizeof name) < 0 || get_str(&in, par, sizeof par) < 0 ||
      get_str(&in, engine, sizeof engine) < 0)
    goto corrupt;
  if (in.short_read) goto corrupt;      /* not other rules: cut short */
  if (strcmp(name, game) == 0 && strcmp(par, params) == 0 && hash == rules_hash &&
      strcmp(engine, r->g->engine) != 0) {
    /* The same game, but positions stored in another engine's format. */
    st = db_fail(err, EXIT_USAGE, "'%s' was built with the %s engine, which stores positions "
                 "differently; this run uses %s: read it with --engine %s, or build it again",
                 path, engine, r->g->engine, strcmp(engine, "vm") == 0 ? "vm" : "native");
    goto done;
  }
  if (strcmp(name, game) != 0 || strcmp(par, params) != 0 || hash != rules_hash ||
      key_bytes != (r->g->vt->pack ? r->g->key_bytes : r->g->state_bytes) ||
      (symmetric && r->canonical == NULL) ||
      nplayers != (uint32_t)r->g->nplayers) {
    st = db_fail(err, EXIT_USAGE, "'%s' was built for other rules: %s (%s)%s; this is %s (%s)",
                 path, name, par, hash != rules_hash && !strcmp(name, game) && !strcmp(par, params)
                 ? " with different rules" : "", game, params);
    goto done;
  }
  size_t rec = (size_t)key_bytes + 10;
  if (stored > UINT32_MAX || (size_t)(in.end - in.p) < stored * rec + 8) goto corrupt;
  /* Verify the checksum before trusting any record. */
  {
    In check = in;
    take(&check, stored * rec);
    uint64_t want = check.sum;
    if (get_u64(&check) != want || check.p != check.end) goto corrupt;
  }
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
  for (uint64_t i = 0; i < stored; i++) {
    const unsigned char *key = take(&in, key_bytes);
    const unsigned char *vm = take(&in, 2);
    uint32_t d = get_u32(&in);
    int32_t score = (int32_t)get_u32(&in);
    uint32_t idx;
    int a = retro_key_add(k, key, &idx);
    if (a < 0) goto oom;
    if (a == 0 || idx != i || vm[0] < RETRO_WIN || vm[0] > RETRO_DRAW || vm[1] >= nplayers) goto corrupt;
    r->value[i] = vm[0];
    r->score[i] = score;
    r->mover[i] = vm[1];
    r->dist[i] = d == DB_ENDLESS ? RETRO_ENDLESS : d;
    if (d != DB_ENDLESS && d >= RETRO_ENDLESS) goto corrupt;
  }
  r->positions = positions;
  r->stored = stored;
  r->nclass = stored;
  goto done;
corrupt:
  st = db_fail(err, EXIT_USAGE, "'%s' is corrupt (truncated or checksum mismatch)", path);
  goto done;
oom:
  st = db_fail(err, EXIT_LIMIT, "out of memory loading '%s'", path);
done:
  free(buf);
  return st;
}

void db_dump(const Retro *r, FILE *out, int json) {
  /* Counts by value and distance; draws forever are listed apart. */
  uint32_t maxd = 0;
  uint64_t endless = 0;
  for (size_t i = 0; i < r->stored; i++) {
    if (r->dist[i] >= RETRO_ENDLESS) endless++;
    else if (r->dist[i] > maxd) maxd = r->dist[i];
  }
  uint64_t *counts = calloc(((size_t)maxd + 1) * 3, sizeof *counts);
  if (!counts) { fputs("gsolve: error: out of memory\n", stderr); return; }
  uint64_t totals[3] = { 0, 0, 0 };
  for (size_t i = 0; i < r->stored; i++) {
    int v = r->value[i] - 1;
    if (v < 0 || v > 2) continue;
    totals[v]++;
    if (r->dist[i] < RETRO_ENDLESS) counts[(size_t)r->dist[i] * 3 + (size_t)v]++;
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
