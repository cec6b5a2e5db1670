/*
** compact_spill.c -- the compact form's memory checks and its layers on
** disk (retro_compact.h, docs/performance.md "Layers on disk"): the
** estimates against --memory and what the machine has free, the spill
** file of the forward pass's sets and of the sorted runs of the layer
** being gathered (their merge), and the layers read back from the
** database written as they finished.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "retro/retro_compact.h"
#include "util/file.h"
#include "util/status.h"

/* ------------------------------------------------------------------ */
/* Memory, and layers on disk                                         */
/* ------------------------------------------------------------------ */

/* Whether `more` bytes can be taken on top of `held`: within --memory (or
** its default, 3/4 of the machine), and within what the machine has free
** now (MemAvailable, or less under ulimit -v).  *limit: the bound that
** failed, *free_now: what was free (0 unknown). */
int compact_fits(const Retro *r, size_t held, size_t more, size_t *limit, size_t *free_now) {
  int limited;
  *limit = r->memory_limit;
  *free_now = file_memory_free(&limited);
  if (r->memory_limit && held + more > r->memory_limit) return 0;
  return *free_now == 0 || more <= *free_now;
}

/* The refusal: the figure, what it was compared with, which flag helps. */
int compact_refuse(Retro *r, size_t need, size_t limit, size_t free_now, const char *what, int k) {
  RetroCompact *c = r->cpt;
  char over[160];
  if (limit && need > limit)
    snprintf(over, sizeof over, "over the memory limit of %zu MiB; raise --memory", limit >> 20);
  else
    snprintf(over, sizeof over, "more than this machine has free (about %zu MiB); free memory or "
             "use a larger machine", free_now >> 20);
  return retro_fail(r, EXIT_LIMIT, "the compact table needs about %.1f MiB %s at layer %d (%llu "
                    "positions so far%s), %s", (double)need / (1 << 20), what, k,
                    (unsigned long long)r->positions,
                    c->spill ? ", the other layers on disk" : "", over);
}

/* The folder of the files of layers on disk: --spill DIR, else the --db
** FILE's, else $TMPDIR or /tmp. */
const char *compact_spill_folder(const Retro *r, char *buf, size_t size) {
  if (r->spill_dir) return r->spill_dir;
  if (r->db_out) {
    const char *slash = strrchr(r->db_out, '/');
    if (!slash) return ".";
    if (slash == r->db_out) return "/";
    snprintf(buf, size, "%.*s", (int)(slash - r->db_out), r->db_out);
    return buf;
  }
  const char *t = getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

/* The spill file: created exclusively (mkstemp: a name no one can guess,
** O_EXCL), then unlinked at once, so that no end of the run leaves it.
** 0, or the status reported. */
int compact_spill_open(Retro *r, RetroCompact *c) {
  if (c->spill_fd) return 0;
  char buf[4096];
  const char *dir = compact_spill_folder(r, buf, sizeof buf);
  size_t n = strlen(dir) + 32;
  char *name = malloc(n);
  if (!name) return retro_fail(r, EXIT_LIMIT, "out of memory");
  snprintf(name, n, "%s/gsolve-layers-XXXXXX", dir);
  int fd = mkstemp(name);
  int e = errno;
  if (fd >= 0) unlink(name);
  free(name);
  if (fd < 0)
    return retro_fail(r, EXIT_IO, "cannot create a temporary file in '%s' for the compact table's "
                      "layers on disk: %s (give --spill DIR)", dir, strerror(e));
  c->spill_fd = fd + 1;
  return 0;
}

int compact_write_at(int fd, const void *p, size_t n, uint64_t off) {
  const unsigned char *b = p;
  while (n) {
    ssize_t put = pwrite(fd, b, n, (off_t)off);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return -1;
    b += put;
    n -= (size_t)put;
    off += (uint64_t)put;
  }
  return 0;
}

/* Layer L's set to the spill file (once) and out of memory: 0, or the
** status reported. */
int compact_spill_keys(Retro *r, RetroCompact *c, CompactLayer *L) {
  if (!compact_keys_resident(L) || L->keys.n == 0) return 0;
  if (!L->spill_pos) {
    int st = compact_spill_open(r, c);
    if (st) return st;
    const EfSet *e = &L->keys;
    size_t nl = bits_words(e->n, e->lbits) * 8, nh = ((e->high_bits + 63) / 64 + 1) * 8;
    if (compact_write_at(c->spill_fd - 1, e->low, nl, c->spill_end) < 0 ||
        compact_write_at(c->spill_fd - 1, e->high, nh, c->spill_end + nl) < 0) {
      char buf[4096];
      return retro_fail(r, EXIT_IO, "cannot write the compact table's layers to disk in '%s': %s "
                        "(give --spill DIR)", compact_spill_folder(r, buf, sizeof buf), strerror(errno));
    }
    L->spill_pos = c->spill_end + 1;
    c->spill_end += nl + nh;
  }
  compact_db_unload(L);
  return 0;
}

/* Layer L's set back from the spill file: 0; -1 out of memory; 1 failed
** (reported). */
int compact_keys_back(Retro *r, RetroCompact *c, CompactLayer *L) {
  if (compact_keys_resident(L)) return 0;
  EfSet saved = L->keys;
  size_t nl = bits_words(saved.n, saved.lbits), nh = (saved.high_bits + 63) / 64 + 1;
  uint64_t *low = malloc(nl * 8), *high = malloc(nh * 8);
  if (!low || !high) {
    free(low);
    free(high);
    return -1;
  }
  if (compact_pread(c->spill_fd - 1, low, nl * 8, L->spill_pos - 1) < 0 ||
      compact_pread(c->spill_fd - 1, high, nh * 8, L->spill_pos - 1 + nl * 8) < 0) {
    free(low);
    free(high);
    retro_fail(r, EXIT_IO, "cannot read the compact table's layers back from disk");
    return 1;
  }
  int rc = efset_adopt(&L->keys, saved.n, saved.lbits, saved.high_bits, low, high);
  if (rc < 0) {
    efset_free(&L->keys);
    L->keys = saved;
    if (rc == -1) return -1;
    retro_fail(r, EXIT_IO, "the compact table's layers on disk were changed under it");
    return 1;
  }
  return 0;
}

/* Layer k read back for a walk over it, dropped once walked. */
void compact_layer_done(RetroCompact *c, int k) {
  for (int i = 0; i < 2; i++)
    if (c->loaded[i] == k + 1) {
      compact_db_unload(&c->layer[k]);
      if (i == 0) c->loaded[0] = c->loaded[1];
      c->loaded[1] = 0;
      return;
    }
}

/* Layer k with its set and values in memory, for a lookup after the
** solve: read back from the database written when they left (two such
** layers held at most, the one used longest ago dropped).  0, or -1
** (reported). */
int compact_layer_ready(Retro *r, RetroCompact *c, int k) {
  CompactLayer *L = &c->layer[k];
  if (compact_keys_resident(L) && (L->vals || L->block_at)) {
    if (c->loaded[0] == k + 1 && c->loaded[1]) {       /* the newer now */
      c->loaded[0] = c->loaded[1];
      c->loaded[1] = k + 1;
    }
    return 0;
  }
  if (!L->file_pos || !c->read_fd)
    return retro_fail(r, EXIT_RUNTIME, "a layer of the compact table is neither in memory nor "
                      "on disk"), -1;
  if (c->loaded[0] && c->loaded[1]) {
    compact_db_unload(&c->layer[c->loaded[0] - 1]);
    c->loaded[0] = c->loaded[1];
    c->loaded[1] = 0;
  }
  if (compact_db_load(r, L) < 0) return -1;
  c->loaded[c->loaded[0] ? 1 : 0] = k + 1;
  return 0;
}

/* A run being merged: its keys left on disk, a buffer of them. */
typedef struct Run {
  uint64_t at, left;
  uint64_t *buf;
  size_t len, pos;
} Run;

/* The run's next key into *key: 1, 0 at its end, -1 failed to read. */
static int run_next(RetroCompact *c, Run *u, uint64_t *key) {
  if (u->pos == u->len) {
    if (!u->left) return 0;
    size_t n = u->left < COMPACT_RUN_KEYS ? (size_t)u->left : COMPACT_RUN_KEYS;
    if (compact_pread(c->spill_fd - 1, u->buf, n * sizeof *u->buf, u->at) < 0) return -1;
    u->at += n * sizeof *u->buf;
    u->left -= n;
    u->len = n;
    u->pos = 0;
  }
  *key = u->buf[u->pos++];
  return 1;
}

/* One pass over the runs' keys in order, each once: fn(arg, key, i) for
** the i-th.  0; -1 out of memory; 1 failed to read (reported). */
int compact_merge_runs(Retro *r, RetroCompact *c, void (*fn)(void *arg, uint64_t key, uint64_t i),
                      void *arg) {
  int n = c->nruns, rc = 0, nheap = 0;
  Run *run = calloc((size_t)n, sizeof *run);
  int *heap = malloc((size_t)n * sizeof *heap);
  uint64_t *head = malloc((size_t)n * sizeof *head);
  if (!run || !heap || !head) rc = -1;
  for (int i = 0; rc == 0 && i < n; i++) {
    run[i].at = c->run_at[i];
    run[i].left = c->run_n[i];
    if (!(run[i].buf = malloc(COMPACT_RUN_KEYS * sizeof *run[i].buf))) rc = -1;
  }
  /* A binary heap of the runs by their next key. */
#define LESS(a, b) (head[heap[a]] < head[heap[b]])
  for (int i = 0; rc == 0 && i < n; i++) {
    int got = run_next(c, &run[i], &head[i]);
    if (got < 0) rc = 1;
    if (got <= 0) continue;
    int j = nheap++;
    heap[j] = i;
    for (; j > 0 && LESS(j, (j - 1) / 2); j = (j - 1) / 2) {
      int t = heap[j]; heap[j] = heap[(j - 1) / 2]; heap[(j - 1) / 2] = t;
    }
  }
  uint64_t count = 0, last = 0;
  while (rc == 0 && nheap > 0) {
    int u = heap[0];
    uint64_t key = head[u];
    if (count == 0 || key != last) fn(arg, key, count++);
    last = key;
    int got = run_next(c, &run[u], &head[u]);
    if (got < 0) rc = 1;
    if (got <= 0) heap[0] = heap[--nheap];
    for (int j = 0;;) {
      int a = 2 * j + 1, b = a + 1, m = j;
      if (a < nheap && LESS(a, m)) m = a;
      if (b < nheap && LESS(b, m)) m = b;
      if (m == j) break;
      int t = heap[j]; heap[j] = heap[m]; heap[m] = t;
      j = m;
    }
  }
#undef LESS
  for (int i = 0; run && i < n; i++) free(run[i].buf);
  free(run);
  free(heap);
  free(head);
  if (rc > 0) retro_fail(r, EXIT_IO, "cannot read the compact table's layers back from disk");
  return rc;
}

/* What the labels will need at least, known after each layer of the
** forward pass: the sets so far and a bit of value (the mover) for each
** of their positions; all of them (in memory), or the two adjacent layers
** that take most (on disk).  Layers go to disk once all would not fit;
** the run stops once two adjacent ones would not, not at the end of the
** forward pass.  0, or the refusal. */
int compact_labels_so_far(Retro *r, RetroCompact *c) {
  size_t all = 0, pair = 0, prev = 0, limit, free_now;
  for (int k = 0; k < c->nlayers; k++) {
    const CompactLayer *L = &c->layer[k];
    size_t b = sizeof *L + efset_bytes(&L->keys) + bits_words(L->keys.n, 1) * 8;
    all += b;
    if (b + prev > pair) pair = b + prev;
    prev = b;
  }
  size_t held = retro_compact_bytes(r);
  if (!c->spill && !compact_fits(r, held, all > held ? all - held : 0, &limit, &free_now)) {
    c->spill = 1;
    for (int k = 0; k + 1 < c->nlayers; k++) {
      int st = compact_spill_keys(r, c, &c->layer[k]);
      if (st) return st;
    }
    held = retro_compact_bytes(r);
  }
  if (!c->spill) return 0;
  size_t need = pair + COMPACT_WRITER_BYTES(0);
  if (!compact_fits(r, 0, 0, &limit, &free_now) || (limit && need > limit) ||
      (free_now && need > held && need - held > free_now))
    return compact_refuse(r, need, limit, free_now, "at least, to label its two largest adjacent layers so "
                  "far", c->nlayers - 1);
  return 0;
}

/* After the forward pass, before the labels are allocated: what they
** need, all layers in memory (need_memory) and two at a time with the
** others on disk (need_disk: the largest two adjacent layers' sets and
** values, the root's two layers, the writer's buffers), against --memory
** and what is free.  Layers go to disk when they must (or --spill asked),
** and the database they go to is opened.  0, or the refusal. */
int compact_plan_labels(Retro *r, RetroCompact *c) {
  size_t all = 0, pair = 0, prev = 0, root = 0, limit, free_now;
  for (int k = 0; k < c->nlayers; k++) {
    const CompactLayer *L = &c->layer[k];
    size_t b = sizeof *L + efset_bytes(&L->keys) +
               bits_words(L->keys.n, 1 + c->sbits + bits_for((uint64_t)(c->nlayers - 1 - k))) * 8;
    all += b;
    if (k < 2) root += b;
    if (b + prev > pair) pair = b + prev;
    prev = b;
  }
  c->need_memory = all;
  c->need_disk = pair + root + COMPACT_WRITER_BYTES(c->sbits);
  size_t held = retro_compact_bytes(r);
  if (!c->spill && !r->spill_dir && compact_fits(r, held, all > held ? all - held : 0, &limit, &free_now)) {
    c->estimate = all;
    c->limit = limit;
    return 0;
  }
  c->spill = 1;
  for (int k = 0; k + 1 < c->nlayers; k++) {
    int st = compact_spill_keys(r, c, &c->layer[k]);
    if (st) return st;
  }
  held = retro_compact_bytes(r);
  c->estimate = c->need_disk;
  if (!compact_fits(r, held, c->need_disk > held ? c->need_disk - held : 0, &limit, &free_now))
    return compact_refuse(r, c->need_disk, limit, free_now, "to label its two largest adjacent layers",
                  c->nlayers);
  c->limit = limit;
  char buf[4096];
  return compact_db_open(r, r->db_out, compact_spill_folder(r, buf, sizeof buf), r->db_game, r->db_params,
                         r->db_hash, r->err);
}

