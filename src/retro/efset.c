/*
** efset.c -- sorted sets of 64-bit keys in Elias-Fano form (efset.h).
**
** Key x splits into its low `lbits` bits, kept in a packed array, and
** its high part h = x >> lbits, kept in unary: key i sets bit h + i of
** the upper bit vector.  With lbits = floor(log2(U / n)) the upper
** vector has at most 2n + 1 bits, so a key costs lbits + 2 bits.  The
** keys whose high part is h are the ones between zero number h - 1 and
** zero number h of the upper vector; a sample of every EF_SAMPLE-th
** zero's position finds those in a few words.
*/
#include "retro/efset.h"

#include <stdlib.h>
#include <string.h>

static int popcount64(uint64_t w) { return __builtin_popcountll(w); }

/* select_in_word's table: the position of the k-th set bit of a byte. */
static uint8_t select8[256][8];

static void select8_init(void) {
  if (select8[255][7]) return;
  for (int b = 0; b < 256; b++)
    for (int k = 0, i = 0; i < 8; i++)
      if (b >> i & 1) select8[b][k++] = (uint8_t)i;
}

/* Position of the k-th (0-based) set bit of w, which has more than k. */
static int select_in_word(uint64_t w, int k) {
  int base = 0;
  for (;;) {
    int c = popcount64(w & 255);
    if (k < c) return base + select8[w & 255][k];
    k -= c;
    w >>= 8;
    base += 8;
  }
}

void efset_free(EfSet *s) {
  free(s->low);
  free(s->high);
  free(s->zero_at);
  memset(s, 0, sizeof *s);
}

/* The sample of the zeros' positions (zero_at); 0, -1 out of memory. */
static int sample_zeros(EfSet *s) {
  size_t nzeros = s->high_bits - (size_t)s->n;
  s->nzero_at = (nzeros + EF_SAMPLE - 1) / EF_SAMPLE;
  free(s->zero_at);
  if (!(s->zero_at = malloc((s->nzero_at + 1) * sizeof *s->zero_at))) return -1;
  size_t seen = 0, next = 0, k = 0;
  for (size_t w = 0; w * 64 < s->high_bits && k < s->nzero_at; w++) {
    uint64_t z = ~s->high[w];
    if ((w + 1) * 64 > s->high_bits) z &= (UINT64_C(1) << (s->high_bits - w * 64)) - 1;
    size_t c = (size_t)popcount64(z);
    while (k < s->nzero_at && next < seen + c) {
      s->zero_at[k++] = w * 64 + (size_t)select_in_word(z, (int)(next - seen));
      next += EF_SAMPLE;
    }
    seen += c;
  }
  return 0;
}

int efset_adopt(EfSet *s, uint64_t n, int lbits, size_t high_bits, uint64_t *low, uint64_t *high) {
  memset(s, 0, sizeof *s);
  select8_init();
  s->n = n;
  s->lbits = lbits;
  s->high_bits = high_bits;
  s->low = low;
  s->high = high;
  if (n == 0) return 0;
  /* n ones below high_bits, the last bit a zero, nothing beyond. */
  size_t words = (high_bits + 63) / 64 + 1, ones = 0;
  if (lbits < 0 || lbits > 63 || high_bits <= n) return -2;
  for (size_t w = 0; w < words; w++) {
    uint64_t x = high[w];
    if (w * 64 + 64 > high_bits) {
      size_t keep = w * 64 >= high_bits ? 0 : high_bits - w * 64;
      if (keep < 64 && (x >> keep) != 0) return -2;
    }
    ones += (size_t)popcount64(x);
  }
  if (ones != n || high[(high_bits - 1) / 64] >> ((high_bits - 1) % 64) & 1) return -2;
  return sample_zeros(s);
}

int efset_begin(EfSet *s, uint64_t n, uint64_t max) {
  memset(s, 0, sizeof *s);
  select8_init();
  s->n = n;
  if (n == 0) return 0;
  uint64_t q = max / n;
  s->lbits = q ? 63 - __builtin_clzll(q) : 0;
  s->high_bits = (size_t)(n + (max >> s->lbits) + 1);
  size_t hwords = (s->high_bits + 63) / 64 + 1;
  s->low = calloc(bits_words(n, s->lbits), sizeof *s->low);
  s->high = calloc(hwords, sizeof *s->high);
  if (!s->low || !s->high) {
    efset_free(s);
    return -1;
  }
  return 0;
}

void efset_put(EfSet *s, uint64_t i, uint64_t key) {
  uint64_t lmask = s->lbits ? (UINT64_C(1) << s->lbits) - 1 : 0;
  size_t pos = (size_t)((key >> s->lbits) + i);
  s->high[pos >> 6] |= UINT64_C(1) << (pos & 63);
  bits_or(s->low, i * (uint64_t)s->lbits, s->lbits, key & lmask);
}

int efset_end(EfSet *s) {
  if (s->n && sample_zeros(s) < 0) {
    efset_free(s);
    return -1;
  }
  return 0;
}

int efset_build(EfSet *s, const uint64_t *keys, uint64_t n) {
  if (efset_begin(s, n, n ? keys[n - 1] : 0) < 0) return -1;
  for (uint64_t i = 0; i < n; i++) efset_put(s, i, keys[i]);
  return efset_end(s);
}

/* Position of zero number j (0-based) in the upper bits; j must be below
** their number of zeros. */
static size_t select0(const EfSet *s, uint64_t j) {
  size_t pos = (size_t)s->zero_at[j / EF_SAMPLE];
  uint64_t need = j % EF_SAMPLE;
  if (need == 0) return pos;
  pos++;
  size_t w = pos >> 6;
  uint64_t z = ~s->high[w] & (~UINT64_C(0) << (pos & 63));
  for (;;) {
    uint64_t c = (uint64_t)popcount64(z);
    if (c >= need) return w * 64 + (size_t)select_in_word(z, (int)(need - 1));
    need -= c;
    z = ~s->high[++w];
  }
}

int64_t efset_rank(const EfSet *s, uint64_t key) {
  if (s->n == 0) return -1;
  uint64_t h = key >> s->lbits;
  if (h > s->high_bits - s->n - 1) return -1;
  /* The keys of high part h: a binary search among their low parts
  ** (real key sets cluster: a bucket may hold many). */
  uint64_t first = (h == 0 ? 0 : select0(s, h - 1) + 1) - h, end = select0(s, h) - h;
  uint64_t lo = s->lbits ? key & ((UINT64_C(1) << s->lbits) - 1) : 0;
  while (first < end) {
    uint64_t mid = first + (end - first) / 2;
    uint64_t l = bits_get(s->low, mid * (uint64_t)s->lbits, s->lbits);
    if (l == lo) return (int64_t)mid;
    if (l < lo) first = mid + 1;
    else end = mid;
  }
  return -1;
}

size_t efset_bytes(const EfSet *s) {
  if (s->n == 0) return 0;
  return bits_words(s->n, s->lbits) * 8 + ((s->high_bits + 63) / 64 + 1) * 8 +
         (s->nzero_at + 1) * 8;
}

void efset_iter_init(EfIter *it, const EfSet *s) {
  it->s = s;
  it->index = 0;
  it->pos = 0;
}

int efset_next(EfIter *it, uint64_t *key) {
  const EfSet *s = it->s;
  if (it->index >= s->n) return 0;
  size_t w = it->pos >> 6;
  uint64_t bits = s->high[w] & (~UINT64_C(0) << (it->pos & 63));
  while (!bits) bits = s->high[++w];
  size_t pos = w * 64 + (size_t)__builtin_ctzll(bits);
  uint64_t h = pos - it->index;
  *key = h << s->lbits | bits_get(s->low, it->index * (uint64_t)s->lbits, s->lbits);
  it->index++;
  it->pos = pos + 1;
  return 1;
}
