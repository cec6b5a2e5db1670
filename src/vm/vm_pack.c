/*
** vm_pack.c -- packed keys: each slot's value minus its lowest, in as
** many bits as its range needs, in slot order (the repetition rule's
** set of earlier positions after them); or, when the game bounds its
** board's pieces (`at most N pieces`), the slots outside the board and
** then a list of the pieces, each its place and value.  Tables of
** millions of positions keep these instead of raw states.
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

/* Keys as lists of pieces when every [board] array bounds its pieces
** and the list is shorter than the cells: the loose slots first. */
static void list_layout(VM *vm, size_t dense_bits) {
  const Program *p = vm->p;
  int n = 0, value_bits = 0;
  if (!vm->pieces_key) return;
  for (int i = 0; i < p->nvars; i++) {
    if (!p->vars[i].on_board) continue;
    if (!p->vars[i].max_pieces) return;
    n += p->vars[i].max_pieces;
    int b = slot_bits(p->vars[i].elem.lo, p->vars[i].elem.hi);
    if (b > value_bits) value_bits = b;
  }
  int place_bits = slot_bits(0, (int32_t)vm->nboard * p->ncells - 1);
  if (place_bits + value_bits > 56) return;   /* an entry in one word (put_bits) */
  size_t off = 0;
  for (int i = 0; i < vm->nloose; i++) off += vm->bits[vm->loose[i]];
  size_t total = off + (size_t)n * (size_t)(place_bits + value_bits);
  if (total >= dense_bits) return;
  off = 0;
  for (int i = 0; i < vm->nloose; i++) {
    vm->bit_off[vm->loose[i]] = (uint32_t)off;
    off += vm->bits[vm->loose[i]];
  }
  vm->list_key = 1;
  vm->list_n = n;
  vm->place_bits = place_bits;
  vm->entry_bits = place_bits + value_bits;
  vm->list_off = (uint32_t)off;
  vm->base.key_bytes = (total + 7) / 8 ? (total + 7) / 8 : 1;
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
  list_layout(vm, total);
  return 1;
}

void vm_pack_free(VM *vm) {
  free(vm->bits);
  free(vm->zero_run);
  free(vm->bit_off);
  free(vm->loose);
}

/* Ors v (at most 57 bits) into out at bit offset off. */
static inline void put_bits(unsigned char *out, size_t off, uint64_t v) {
  if (!v) return;
  unsigned char *o = out + (off >> 3);
  v <<= off & 7;
  do { *o++ |= (unsigned char)v; v >>= 8; } while (v);
}

static void pack_list(VM *vm, const int32_t *s, unsigned char *out);

void vm_pack(Game *g, const void *state, void *key) {
  const VM *vm = (const VM *)g;
  const Program *p = vm->p;
  const int32_t *s = state;
  unsigned char *out = key, *o = out;
  if (vm->list_key) {
    pack_list((VM *)g, s, out);
    return;
  }
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

/* A state with more pieces than its arrays' bounds: a runtime error at
** the first array's declaration. */
static void too_many_pieces(VM *vm) {
  const Program *p = vm->p;
  for (int i = 0; i < p->nvars; i++)
    if (p->vars[i].on_board) {
      Span at = p->vars[i].where;
      at.end = at.start + 1;
      vm_fail_at(vm, at, EXIT_RUNTIME,
                 "a position has more than %d pieces on the board, the number the 'at most N pieces' "
                 "of its [board] arrays allow", vm->list_n);
    }
}

/* The loose slots into a zeroed key. */
static void pack_loose(const VM *vm, const int32_t *state, unsigned char *out) {
  const Program *p = vm->p;
  memset(out, 0, vm->base.key_bytes);
  for (int i = 0; i < vm->nloose; i++) {
    int s = vm->loose[i];
    put_bits(out, vm->bit_off[s], (uint64_t)((int64_t)state[s] - p->lo[s]));
  }
}

/* A list key's entries, written in order: they gather in a word,
** written out 32 bits at a time. */
typedef struct EntryWriter {
  VM *vm;
  unsigned char *out;
  size_t off;         /* where the word's bits go */
  uint64_t acc;
  int nacc, n;        /* bits in acc; entries written */
} EntryWriter;

static void entry_put(EntryWriter *w, int32_t place, uint64_t value) {
  VM *vm = w->vm;
  if (w->n++ == vm->list_n) too_many_pieces(vm);
  uint64_t e = (uint64_t)place | value << vm->place_bits;
  w->acc |= e << w->nacc;   /* bits past 64 are lost here: taken from e below */
  w->nacc += vm->entry_bits;
  while (w->nacc >= 32) {
    put_bits(w->out, w->off, w->acc & 0xffffffffu);
    w->off += 32;
    w->nacc -= 32;
    w->acc = w->nacc ? e >> (vm->entry_bits - w->nacc) : 0;   /* e's bits not yet written */
  }
}

/* A list key: the loose slots, then the pieces by increasing place.  The
** arrays share their lowest value (pieces_key). */
static void pack_list(VM *vm, const int32_t *s, unsigned char *out) {
  const Program *p = vm->p;
  int nc = p->ncells;
  int32_t low = p->lo[vm->board_base[0]];
  EntryWriter w = { vm, out, vm->list_off, 0, 0, 0 };
  pack_loose(vm, s, out);
  for (int b = 0; b < vm->nboard; b++) {
    const int32_t *row = s + vm->board_base[b];
    for (int c = 0; c < nc; c++)
      if (row[c] != low) entry_put(&w, b * nc + c, (uint64_t)((int64_t)row[c] - low));
  }
  put_bits(out, w.off, w.acc);
}

void vm_pack_pieces(VM *vm, const int32_t *state, const int32_t *place, const int32_t *value, int k,
                    void *key) {
  const Program *p = vm->p;
  unsigned char *out = key;
  int nc = p->ncells;
  pack_loose(vm, state, out);
  if (vm->list_key) {
    int32_t low = p->lo[vm->board_base[0]];
    EntryWriter w = { vm, out, vm->list_off, 0, 0, 0 };
    for (int t = 0; t < k; t++) entry_put(&w, place[t], (uint64_t)((int64_t)value[t] - low));
    put_bits(out, w.off, w.acc);
    return;
  }
  for (int t = 0; t < k; t++) {
    int s = vm->board_base[place[t] / nc] + place[t] % nc;
    put_bits(out, vm->bit_off[s], (uint64_t)((int64_t)value[t] - p->lo[s]));
  }
}

/* nb (at most 57) bits of a key from bit `bit` on: one word while 8
** bytes of the key remain (little-endian machines), else byte by byte. */
static uint64_t get_bits(const unsigned char *in, size_t bytes, size_t bit, int nb) {
  size_t first = bit >> 3;
  uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (first + 8 <= bytes) memcpy(&v, in + first, 8);
  else
#endif
  for (size_t j = first + 8 < bytes ? first + 8 : bytes; j-- > first;) v = v << 8 | in[j];
  return (v >> (bit & 7)) & ((1ULL << nb) - 1);
}

/* A list key's state: the loose slots, every cell at its lowest, then
** the pieces. */
static void unpack_list(const VM *vm, const unsigned char *in, int32_t *s) {
  const Program *p = vm->p;
  size_t bytes = vm->base.key_bytes;
  int nc = p->ncells;
  for (int i = 0; i < vm->nloose; i++) {
    int sl = vm->loose[i];
    s[sl] = (int32_t)((int64_t)p->lo[sl] + (int64_t)(vm->bits[sl] ? get_bits(in, bytes, vm->bit_off[sl], vm->bits[sl]) : 0));
  }
  for (int b = 0; b < vm->nboard; b++)
    for (int c = 0; c < nc; c++) s[vm->board_base[b] + c] = p->lo[vm->board_base[b] + c];
  for (int t = 0; t < vm->list_n; t++) {
    uint64_t e = get_bits(in, bytes, vm->list_off + (size_t)t * vm->entry_bits, vm->entry_bits);
    uint64_t v = e >> vm->place_bits;
    if (!v) break;   /* the unused entries, last */
    int place = (int)(e & ((1ULL << vm->place_bits) - 1));
    int sl = vm->board_base[place / nc] + place % nc;
    s[sl] = (int32_t)((int64_t)p->lo[sl] + (int64_t)v);
  }
}

/* vm_pack's inverse: each slot's bits, in slot order, plus lo. */
void vm_unpack(Game *g, const void *key, void *state) {
  const VM *vm = (const VM *)g;
  const Program *p = vm->p;
  const unsigned char *in = key;
  int32_t *s = state;
  size_t bit = 0, bytes = g->key_bytes;
  if (vm->list_key) {
    unpack_list(vm, in, s);
    return;
  }
  for (int i = 0; i < p->nslots; i++) {
    int nb = vm->bits[i];
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Eight slots of a run at lowest value 0 (a board's empty cells)
    ** read as 0 at once when their bits are. */
    if (vm->zero_run[i] >= 8 && nb <= 7 && (bit >> 3) + 8 <= bytes) {
      memcpy(&v, in + (bit >> 3), 8);
      if (((v >> (bit & 7)) & ((1ULL << (8 * nb)) - 1)) == 0) {
        memset(s + i, 0, 8 * sizeof *s);
        bit += (size_t)(8 * nb);
        i += 7;
        continue;
      }
      v = 0;
    }
#endif
    if (nb) v = get_bits(in, bytes, bit, nb);
    s[i] = (int32_t)((int64_t)p->lo[i] + (int64_t)v);
    bit += (size_t)nb;
  }
}
