/*
** vm_pack.c -- packed keys: each slot's value minus its lowest, in as
** many bits as its range needs, in slot order (the repetition rule's
** set of earlier positions after them).  Tables of millions of
** positions keep these instead of raw states.
*/
#include <stdlib.h>
#include <string.h>
#include "vm/vm_int.h"

/* Bits for the values lo..hi of a slot. */
static int slot_bits(int32_t lo, int32_t hi) {
  uint64_t span = (uint64_t)((int64_t)hi - lo);
  int b = 0;
  while (span >> b) b++;
  return b;
}

int vm_pack_init(VM *vm) {
  const Program *p = vm->p;
  Game *g = &vm->base;
  size_t n = (size_t)p->nslots;
  vm->bits = malloc(n + 1);
  vm->zero_run = malloc(n + 1);
  vm->bit_off = malloc((n + 1) * sizeof *vm->bit_off);
  vm->loose = malloc((n + 1) * sizeof *vm->loose);
  if (!vm->bits || !vm->zero_run || !vm->bit_off || !vm->loose) return 0;
  size_t total = 0;
  for (size_t i = 0; i < n; i++) {
    vm->bit_off[i] = (uint32_t)total;
    total += vm->bits[i] = (uint8_t)slot_bits(p->lo[i], p->hi[i]);
  }
  /* Runs of slots with lowest value 0 and one width (a board's cells),
  ** which vm_pack skips four at a time while they are 0. */
  for (int i = p->nslots - 1; i >= 0; i--) {
    int next = i + 1 < p->nslots && p->lo[i + 1] == 0 && vm->bits[i + 1] == vm->bits[i] ? vm->zero_run[i + 1] : 0;
    vm->zero_run[i] = (uint8_t)(p->lo[i] != 0 ? 0 : next < 255 ? next + 1 : 255);
  }
  g->key_bytes = (total + 7) / 8 ? (total + 7) / 8 : 1;
  if (p->rep_kind != REP_NONE) g->key_bytes = (total + 7) / 8 + 8;
  /* The slots outside the [board] arrays, and whether a key can be made
  ** from them and a board's pieces alone (vm_pack_pieces): the arrays'
  ** cells share one lowest value, which packs to no bits. */
  unsigned char *on_board = calloc(n + 1, 1);
  if (!on_board) return 0;
  int uniform = 1;
  for (int b = 0; b < vm->nboard; b++)
    for (int c = 0; c < p->ncells; c++) {
      on_board[vm->board_base[b] + c] = 1;
      uniform &= p->lo[vm->board_base[b] + c] == p->lo[vm->board_base[b]];
    }
  vm->nloose = 0;
  for (size_t i = 0; i < n; i++)
    if (!on_board[i]) vm->loose[vm->nloose++] = (int)i;
  free(on_board);
  vm->pieces_key = uniform && vm->nboard > 0 && p->npermute == 0 && p->rep_kind == REP_NONE;
  return 1;
}

void vm_pack_free(VM *vm) {
  free(vm->bits);
  free(vm->zero_run);
  free(vm->bit_off);
  free(vm->loose);
}

/* Ors v (at most 32 bits) into out at bit offset off. */
static inline void put_bits(unsigned char *out, size_t off, uint64_t v) {
  if (!v) return;
  unsigned char *o = out + (off >> 3);
  v <<= off & 7;
  do { *o++ |= (unsigned char)v; v >>= 8; } while (v);
}

void vm_pack(Game *g, const void *state, void *key) {
  const VM *vm = (const VM *)g;
  const Program *p = vm->p;
  const int32_t *s = state;
  unsigned char *out = key, *o = out;
  /* The bits gather in a word, written out 32 at a time (a slot has at
  ** most 32 bits, so the word never overflows); runs of four slots at
  ** their lowest value (a board's empty cells) are skipped at once. */
  uint64_t acc = 0;
  int nacc = 0;
  for (int i = 0; i < p->nslots; i++) {
    if (vm->zero_run[i] >= 4) {
      uint64_t w[2];
      memcpy(w, s + i, sizeof w);
      if ((w[0] | w[1]) == 0) {
        nacc += 4 * vm->bits[i];
        i += 3;
        goto flush;
      }
    }
    acc |= (uint64_t)((int64_t)s[i] - p->lo[i]) << nacc;
    nacc += vm->bits[i];
  flush:
    while (nacc >= 32) {
      o[0] = (unsigned char)acc;
      o[1] = (unsigned char)(acc >> 8);
      o[2] = (unsigned char)(acc >> 16);
      o[3] = (unsigned char)(acc >> 24);
      o += 4;
      acc >>= 32;
      nacc -= 32;
    }
  }
  for (; nacc > 0; nacc -= 8, acc >>= 8) *o++ = (unsigned char)acc;
  size_t rep = p->rep_kind != REP_NONE ? 8 : 0;
  while ((size_t)(o - out) < g->key_bytes - rep) *o++ = 0;   /* a key of no bits: one byte */
  if (rep) {
    uint64_t set = vm->rep_on && vm->rep_in_key && state == vm->slots ? vm->rep_set[vm->nrep - 1] : 0;
    for (int i = 0; i < 8; i++) *o++ = (unsigned char)(set >> (8 * i));
  }
}

void vm_pack_pieces(const VM *vm, const int32_t *state, const int32_t *slot, const int32_t *value,
                    int k, void *key) {
  const Program *p = vm->p;
  unsigned char *out = key;
  memset(out, 0, vm->base.key_bytes);
  for (int i = 0; i < vm->nloose; i++) {
    int s = vm->loose[i];
    put_bits(out, vm->bit_off[s], (uint64_t)((int64_t)state[s] - p->lo[s]));
  }
  for (int t = 0; t < k; t++)
    put_bits(out, vm->bit_off[slot[t]], (uint64_t)((int64_t)value[t] - p->lo[slot[t]]));
}

/* vm_pack's inverse: each slot's bits, in slot order, plus lo.  A slot
** spans at most 5 bytes: read as one word while 8 bytes of the key
** remain (little-endian machines), else byte by byte. */
void vm_unpack(Game *g, const void *key, void *state) {
  const VM *vm = (const VM *)g;
  const Program *p = vm->p;
  const unsigned char *in = key;
  int32_t *s = state;
  size_t bit = 0, bytes = g->key_bytes;
  for (int i = 0; i < p->nslots; i++) {
    int nb = vm->bits[i];
    uint64_t v = 0;
    if (nb) {
      size_t first = bit >> 3;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      if (first + 8 <= bytes) memcpy(&v, in + first, 8);
      else
#endif
      for (size_t j = first + 8 < bytes ? first + 8 : bytes; j-- > first;) v = v << 8 | in[j];
      v = (v >> (bit & 7)) & ((1ULL << nb) - 1);
    }
    s[i] = (int32_t)((int64_t)p->lo[i] + (int64_t)v);
    bit += (size_t)nb;
  }
}
