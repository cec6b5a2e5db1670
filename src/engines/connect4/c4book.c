/*
** c4book.c -- Connect Four opening books: a sorted array of (key, score),
** saved to a small binary file with a checksum (layout in c4book.h).
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "engines/connect4/c4book.h"
#include "util/diag.h"
#include "util/file.h"
#include "util/status.h"

static const char BOOK_MAGIC[8] = { 'G', 'S', 'C', '4', 'B', 'O', 'O', 'K' };
#define BOOK_VERSION 1
#define BOOK_HEAD (8 + 5 * 4 + 8)
#define BOOK_RECORD 9

C4Book *c4book_new(int width, int height) {
  C4Book *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->width = width;
  b->height = height;
  b->from = -1;
  b->to = -1;
  return b;
}

void c4book_free(C4Book *b) {
  if (!b) return;
  free(b->key);
  free(b->score);
  free(b);
}

/* Sorts by key, keeping one of each (equal keys have equal scores). */
static void sort_unique(C4Book *b) {
  /* Shell sort on the pair arrays: books are small, and this keeps the
  ** two arrays in step without a temporary array of structs. */
  size_t n = b->n, gap = 1;
  while (gap < n / 3) gap = gap * 3 + 1;
  for (; gap > 0; gap /= 3)
    for (size_t i = gap; i < n; i++) {
      uint64_t k = b->key[i];
      int8_t s = b->score[i];
      size_t j = i;
      for (; j >= gap && b->key[j - gap] > k; j -= gap) {
        b->key[j] = b->key[j - gap];
        b->score[j] = b->score[j - gap];
      }
      b->key[j] = k;
      b->score[j] = s;
    }
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || b->key[m - 1] != b->key[i]) {
      b->key[m] = b->key[i];
      b->score[m] = b->score[i];
      m++;
    }
  b->n = m;
}

int c4book_add(C4Book *b, int stones, const uint64_t *key, const int8_t *score, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->n + n) cap *= 2;
    uint64_t *k = realloc(b->key, cap * sizeof *k);
    if (k) b->key = k;
    int8_t *s = realloc(b->score, cap * sizeof *s);
    if (s) b->score = s;
    if (!k || !s) return -1;
    b->cap = cap;
  }
  memcpy(b->key + b->n, key, n * sizeof *key);
  memcpy(b->score + b->n, score, n * sizeof *score);
  b->n += n;
  sort_unique(b);
  if (b->from < 0 || stones < b->from) b->from = stones;
  if (stones > b->to) b->to = stones;
  return 0;
}

int c4book_get(const C4Book *b, uint64_t key, int *score) {
  size_t lo = 0, hi = b->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (b->key[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  if (lo < b->n && b->key[lo] == key) { *score = b->score[lo]; return 1; }
  return 0;
}

static void put_le(unsigned char *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes; i-- > 0;) v = v << 8 | p[i];
  return v;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ULL; }
  return h;
}

int c4book_save(const C4Book *b, const char *path, FILE *err) {
  size_t size = BOOK_HEAD + b->n * BOOK_RECORD + 8;
  unsigned char *buf = malloc(size), *p = buf;
  if (!buf) return diag_fail(err, EXIT_LIMIT, "out of memory writing the book '%s'", path);
  memcpy(p, BOOK_MAGIC, 8);
  put_le(p + 8, BOOK_VERSION, 4);
  put_le(p + 12, (uint32_t)b->width, 4);
  put_le(p + 16, (uint32_t)b->height, 4);
  put_le(p + 20, (uint32_t)b->from, 4);
  put_le(p + 24, (uint32_t)b->to, 4);
  put_le(p + 28, b->n, 8);
  p += BOOK_HEAD;
  for (size_t i = 0; i < b->n; i++, p += BOOK_RECORD) {
    put_le(p, b->key[i], 8);
    p[8] = (unsigned char)b->score[i];
  }
  put_le(p, fnv1a(buf, size - 8), 8);
  /* Written beside the target and renamed (util/file.c): a stop never
  ** leaves half a book, and only a book is replaced. */
  FileOut fo;
  int st = file_create(&fo, path, BOOK_MAGIC, sizeof BOOK_MAGIC, "gsolve Connect Four book", err);
  if (st == EXIT_OK) {
    fwrite(buf, 1, size, fo.f);
    st = file_commit(&fo, err);
  }
  free(buf);
  return st;
}

/* Reads the book's header, then exactly the size it announces (one byte
** more shows trailing bytes), never more than a table that fits in
** memory: an endless input is refused after a few bytes. */
static int read_book(FileIn *in, const char *path, FILE *err) {
  int st = file_open(in, path, err);
  if (st == EXIT_OK) st = file_fill(in, BOOK_HEAD, err);
  if (st != EXIT_OK) return st;
  if (in->len < 8 || memcmp(in->data, BOOK_MAGIC, 8) != 0) {
    return diag_fail(err, EXIT_USAGE, "'%s' is not a gsolve Connect Four book", path);
  }
  if (in->len < BOOK_HEAD) return EXIT_OK;      /* truncated: the caller says so */
  uint64_t n = get_le(in->data + 28, 8);
  size_t mem = file_memory_bytes();
  if (n > (mem ? mem : SIZE_MAX / 2) / (BOOK_RECORD + sizeof(uint64_t) + 1)) {
    return diag_fail(err, EXIT_LIMIT, "'%s' is too large: its header announces %llu positions, "
                     "more than fit in memory (%zu MiB)", path, (unsigned long long)n, mem >> 20);
  }
  return file_fill(in, BOOK_HEAD + (size_t)n * BOOK_RECORD + 8 + 1, err);
}

int c4book_load(const char *path, int width, int height, C4Book **out, FILE *err) {
  *out = NULL;
  FileIn in;
  int st = read_book(&in, path, err);
  if (st != EXIT_OK) {
    file_close(&in);
    return st;
  }
  const unsigned char *buf = in.data;
  size_t size = in.len;
  st = EXIT_USAGE;
  C4Book *b = NULL;
  if (size < BOOK_HEAD + 8) goto corrupt;
  uint64_t n = get_le(buf + 28, 8);
  if (n > (size - BOOK_HEAD - 8) / BOOK_RECORD || size != BOOK_HEAD + n * BOOK_RECORD + 8 ||
      get_le(buf + size - 8, 8) != fnv1a(buf, size - 8))
    goto corrupt;
  if (get_le(buf + 8, 4) != BOOK_VERSION) {
    diag_fail(err, st, "'%s' is a book of another version", path);
    goto done;
  }
  int w = (int)get_le(buf + 12, 4), h = (int)get_le(buf + 16, 4);
  if (w != width || h != height) {
    diag_fail(err, st, "'%s' is a book for %dx%d, not %dx%d", path, w, h, width, height);
    goto done;
  }
  if (!(b = c4book_new(w, h))) { st = diag_out_of_memory(err); goto done; }
  b->from = (int)get_le(buf + 20, 4);
  b->to = (int)get_le(buf + 24, 4);
  b->key = malloc((n ? n : 1) * sizeof *b->key);
  b->score = malloc(n ? n : 1);
  if (!b->key || !b->score) { st = diag_out_of_memory(err); goto done; }
  b->n = b->cap = n;
  int bound = w * h;
  if (b->from < 0 || b->from > b->to || b->to > bound) goto corrupt;
  for (size_t i = 0; i < n; i++) {
    const unsigned char *p = buf + BOOK_HEAD + i * BOOK_RECORD;
    b->key[i] = get_le(p, 8);
    b->score[i] = (int8_t)p[8];
    /* Strictly sorted, scores within what the board allows. */
    if ((i > 0 && b->key[i] <= b->key[i - 1]) || b->score[i] > bound || b->score[i] < -bound) goto corrupt;
  }
  *out = b;
  b = NULL;
  st = EXIT_OK;
  goto done;
corrupt:
  st = diag_fail(err, EXIT_USAGE, "'%s' is corrupt (truncated, altered or checksum mismatch)", path);
done:
  c4book_free(b);
  file_close(&in);
  return st;
}
