/*
** vm_symmetry.c -- positions under the declared symmetries: canonical
** forms (the smallest image; a trie of the group's elements, or the
** pieces alone on a sparse board) and orbits, for the tables that store
** one position per class.
*/
#include <stdlib.h>
#include <string.h>
#include "vm/vm_int.h"

/* Sparse positions (see canonical_sparse): at most SPARSE_CELLS pieces,
** groups of at most SPARSE_GROUP elements. */
enum { SPARSE_CELLS = VM_SPARSE_CELLS, SPARSE_GROUP = 64 };

/* The group's elements sorted by their cell sequences (element e before f
** when e's sequence is smaller), and for each cell c and element i the
** first element after i that differs from it in cells 0..c: the trie
** vm_canonical walks.  0 when out of memory. */
typedef struct SymRow { const int32_t *cells; int nc; } SymRow;

static int cmp_rows(const void *a, const void *b) {
  const SymRow *x = a, *y = b;
  for (int c = 0; c < x->nc; c++)
    if (x->cells[c] != y->cells[c]) return x->cells[c] < y->cells[c] ? -1 : 1;
  return 0;
}

int vm_symmetry_trie(VM *vm) {
  const Program *p = vm->p;
  int G = p->nsym, nc = p->ncells;
  SymRow *order = malloc((size_t)G * sizeof *order);
  vm->sym_sorted = malloc((size_t)G * nc * sizeof *vm->sym_sorted);
  vm->sym_next = malloc((size_t)G * nc * sizeof *vm->sym_next);
  vm->live = malloc((size_t)4 * G * sizeof *vm->live);
  vm->sym_inverse = malloc((size_t)G * nc * sizeof *vm->sym_inverse);
  if (!order || !vm->sym_sorted || !vm->sym_next || !vm->live || !vm->sym_inverse) {
    free(order);
    return 0;
  }
  for (int i = 0; i < G; i++) order[i] = (SymRow){ p->sym + (size_t)i * nc, nc };
  qsort(order, (size_t)G, sizeof *order, cmp_rows);
  for (int i = 0; i < G; i++)
    memcpy(vm->sym_sorted + (size_t)i * nc, order[i].cells, (size_t)nc * sizeof(int32_t));
  free(order);
  for (int i = 0; i < G; i++)
    for (int c = 0; c < nc; c++)
      vm->sym_inverse[(size_t)i * nc + vm->sym_sorted[(size_t)i * nc + c]] = c;
  if (G <= SPARSE_GROUP && nc <= 0xffff && vm->nboard <= 0x7fff) {
    /* By slot, its board and cell, for sparse_pieces's list of pieces. */
    if (!(vm->cell_of_slot = malloc((size_t)p->nslots * sizeof *vm->cell_of_slot))) return 0;
    for (int s = 0; s < p->nslots; s++) vm->cell_of_slot[s] = -1;
    for (int b = 0; b < vm->nboard; b++)
      for (int c = 0; c < nc; c++) vm->cell_of_slot[vm->board_base[b] + c] = b << 16 | c;
  }
  if (G <= SPARSE_GROUP && vm->nboard * nc <= 64) {
    /* By cell, each element's image of it as a bit, for sparse_best. */
    if (!(vm->sym_bit = malloc((size_t)nc * G * sizeof *vm->sym_bit))) return 0;
    for (int c = 0; c < nc; c++)
      for (int i = 0; i < G; i++) vm->sym_bit[(size_t)c * G + i] = 1ULL << vm->sym_inverse[(size_t)i * nc + c];
  }
  for (int i = G - 1; i >= 0; i--) {
    /* lcp: how many leading cells element i shares with element i + 1. */
    int lcp = 0;
    if (i + 1 < G)
      while (lcp < nc && vm->sym_sorted[(size_t)i * nc + lcp] == vm->sym_sorted[(size_t)(i + 1) * nc + lcp]) lcp++;
    for (int c = 0; c < nc; c++)
      vm->sym_next[(size_t)c * G + i] = c < lcp ? vm->sym_next[(size_t)c * G + i + 1] : i + 1;
  }
  return 1;
}

/* Canonical form under the declared symmetries: the image whose slot
** values, read in slot order, are smallest (any fixed total order would
** do), with the permutable arrays sorted.  Only the [board] arrays move,
** so each group element is compared on their slots alone, and the
** comparison stops at the first slot that differs: an element costs a
** few reads unless the position maps onto itself under it. */
static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static void sort_permutable(const Program *p, int32_t *s) {
  for (int i = 0; i < p->npermute; i++) {
    const StateVar *v = &p->vars[p->permute_vars[i]];
    qsort(s + v->base, (size_t)v->dim[0], sizeof(int32_t), cmp_i32);
  }
}

/* The image of `in` under element e, its board arrays moved. */
static void board_image(const Program *p, int e, const int32_t *in, int32_t *out) {
  const int32_t *pe = p->sym + (size_t)e * p->ncells;
  memcpy(out, in, (size_t)p->nslots * sizeof *out);
  for (int vi = 0; vi < p->nvars; vi++) {
    const StateVar *v = &p->vars[vi];
    if (v->on_board)
      for (int c = 0; c < p->ncells; c++) out[v->base + c] = in[v->base + pe[c]];
  }
}

/* The group element by element (game.h).  Not with `permute` arrays:
** their images are not one permutation of the slots. */
int vm_symmetries(Game *g) {
  const Program *p = ((VM *)g)->p;
  return p->npermute > 0 ? 0 : p->nsym;
}

void vm_symmetry_image(Game *g, int e, const void *state, void *out) {
  board_image(((VM *)g)->p, e, state, out);
}

static int sparse_pieces(VM *vm, const int32_t *in, int32_t *cell, int32_t *board, int32_t *value);

/* The number of distinct images of a state: the group's order over the
** number of elements that fix it (orbit and stabiliser).  0 with
** `permute` arrays: raw states that differ only in their order are
** distinct positions, which this does not count.  An element fixes a
** sparse position when it sends each piece onto a cell holding its value
** (the images of the k pieces are then the k pieces). */
uint32_t vm_orbit(Game *g, const void *state) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  if (p->npermute > 0) return 0;
  if (p->nsym <= 1) return 1;
  const int32_t *in = state;
  int32_t cell[SPARSE_CELLS], board[SPARSE_CELLS], value[SPARSE_CELLS];
  int k = p->nsym <= SPARSE_GROUP ? sparse_pieces(vm, in, cell, board, value) : -1;
  if (k >= 0) {
    uint32_t fixed = 0;
    for (int e = 0; e < p->nsym; e++) {
      const int32_t *inv = vm->sym_inverse + (size_t)e * p->ncells;
      int t = 0;
      while (t < k && in[vm->board_base[board[t]] + inv[cell[t]]] == value[t]) t++;
      fixed += t == k;
    }
    return (uint32_t)p->nsym / fixed;
  }
  size_t n = (size_t)p->nslots;
  int32_t *img = vm->scratch;   /* free here: no permutable arrays */
  uint32_t fixed = 0;
  for (int e = 0; e < p->nsym; e++) {
    board_image(p, e, state, img);
    fixed += memcmp(img, state, n * sizeof(int32_t)) == 0;
  }
  return (uint32_t)p->nsym / fixed;
}

/* The canonical form of a sparse position: when at most SPARSE_CELLS
** board cells hold anything but their array's lowest value (chess's
** empty squares), the images are compared by those cells alone: an image
** is smaller when its first such cell comes later, or comes at the same
** place with a smaller value, and so on.  The same form as the trie's
** walk, at a cost in the number of pieces instead of cells.  0 when the
** position is not sparse (or the group is large: then the trie wins). */
/* The index of the lowest set bit of x (x != 0). */
static inline int lowest_bit(uint64_t x) {
#if defined(__GNUC__)
  return __builtin_ctzll(x);
#else
  int i = 0;
  while (!(x & 1)) { x >>= 1; i++; }
  return i;
#endif
}

/* The cells of a sparse position that hold something else than their
** array's lowest value: cell, board (index into board_base) and value;
** their number, or -1 when there are more than SPARSE_CELLS. */
static int scan_pieces(const VM *vm, const int32_t *in, int32_t *cell, int32_t *board,
                       int32_t *value) {
  const Program *p = vm->p;
  int nc = p->ncells, k = 0;
  for (int b = 0; b < vm->nboard; b++) {
    int base = vm->board_base[b];
    int32_t low = p->lo[base];
    const int32_t *row = in + base;
    int c = 0;
    if (low == 0)
      /* Empty cells eight at a time, then two at a time. */
      for (uint64_t w[4]; c + 8 <= nc; c += 8) {
        memcpy(w, row + c, sizeof w);
        if ((w[0] | w[1] | w[2] | w[3]) == 0) continue;
        for (int j = 0; j < 4; j++) {
          if (!w[j]) continue;
          for (int i = c + 2 * j; i < c + 2 * j + 2; i++)
            if (row[i] != 0) {
              if (k == SPARSE_CELLS) return -1;
              cell[k] = i;
              board[k] = b;
              value[k++] = row[i];
            }
        }
      }
    for (; c < nc; c++)
      if (row[c] != low) {
        if (k == SPARSE_CELLS) return -1;
        cell[k] = c;
        board[k] = b;
        value[k++] = row[c];
      }
  }
  return k;
}

/* A write of v into slot s, made on a list of pieces: the cell's entry
** goes, and comes back with v unless v is its array's lowest.  The list's
** order does not matter to its readers.  -1 past SPARSE_CELLS pieces. */
static int put_piece(const VM *vm, int32_t *cell, int32_t *board, int32_t *value, int k, int s,
                     int32_t v) {
  int at = vm->cell_of_slot[s];
  if (at < 0) return k;
  int b = at >> 16, c = at & 0xffff;
  for (int t = 0; t < k; t++)
    if (cell[t] == c && board[t] == b) {
      k--;
      cell[t] = cell[k];
      board[t] = board[k];
      value[t] = value[k];
      break;
    }
  if (v == vm->p->lo[vm->board_base[b]]) return k;
  if (k == SPARSE_CELLS) return -1;
  cell[k] = c;
  board[k] = b;
  value[k] = v;
  return k + 1;
}

/* Copies k pieces (sparse_pieces's three arrays). */
static void copy_pieces(int32_t *cell, int32_t *board, int32_t *value, const int32_t *from_cell,
                        const int32_t *from_board, const int32_t *from_value, int k) {
  memcpy(cell, from_cell, (size_t)k * sizeof *cell);
  memcpy(board, from_board, (size_t)k * sizeof *board);
  memcpy(value, from_value, (size_t)k * sizeof *value);
}

/* The current position's pieces.  A search keys every child of a
** position in a row: the parent's pieces are kept, and each child's are
** the parent's with the cells its move wrote (the trail since the
** parent's mark) at their new values.  When the parent's are not known,
** a child's are scanned and its parent's made from them by the trail's
** old values, latest write first; a position set by vm_set_state keeps
** its own scanned pieces for its children. */
static int sparse_pieces(VM *vm, const int32_t *in, int32_t *cell, int32_t *board, int32_t *value) {
  int d = vm->h.nmarks, k;
  if (in != vm->slots || !vm->cell_of_slot) return scan_pieces(vm, in, cell, board, value);
  if (vm->pieces_depth == d || (vm->pieces_depth == d - 1 && d > vm->state_set_depth)) {
    k = vm->npieces;
    copy_pieces(cell, board, value, vm->piece_cell, vm->piece_board, vm->piece_value, k);
    if (vm->pieces_depth == d) return k;
    const int32_t *tr = vm->h.trail;
    for (int i = vm->h.marks[d - 1].trail; i < vm->h.ntrail && k >= 0; i++)
      k = put_piece(vm, cell, board, value, k, tr[2 * i], in[tr[2 * i]]);
    return k >= 0 ? k : scan_pieces(vm, in, cell, board, value);
  }
  k = scan_pieces(vm, in, cell, board, value);
  if (k < 0) return k;
  int pk = k;
  copy_pieces(vm->piece_cell, vm->piece_board, vm->piece_value, cell, board, value, k);
  if (d > vm->state_set_depth) {
    const int32_t *tr = vm->h.trail;
    for (int i = vm->h.ntrail; i-- > vm->h.marks[d - 1].trail && pk >= 0;)
      pk = put_piece(vm, vm->piece_cell, vm->piece_board, vm->piece_value, pk, tr[2 * i], tr[2 * i + 1]);
    d--;
  }
  vm->npieces = pk;
  vm->pieces_depth = pk >= 0 ? d : -1;
  return k;
}

/* The smallest image of a sparse position as its pieces in increasing
** order of place (board b's cell c is place b * ncells + c): place[t]
** holds value[t].  Their number, or -1 when the position is not sparse
** or the group is large. */
static int sparse_best(VM *vm, const int32_t *in, int32_t *place, int32_t *value) {
  const Program *p = vm->p;
  int G = p->nsym, nc = p->ncells;
  if (G > SPARSE_GROUP) return -1;
  int32_t cell[SPARSE_CELLS], board[SPARSE_CELLS], val[SPARSE_CELLS];
  int k = sparse_pieces(vm, in, cell, board, val);
  if (k <= 0) return k;   /* an empty board is its every image */
  if (vm->nboard * nc <= 64) {
    /* Each image as the set of its pieces' places (a 64-bit mask, read in
    ** increasing order) and their values by place; two tables, the best
    ** image's and the one being made. */
    int32_t tab[2][64];
    uint64_t best_mask = 0, masks[SPARSE_GROUP];
    int cur = 0, bi = -1, first = 0;
    for (int t = 0; t < k; t++) board[t] *= nc;   /* the board's first place */
    /* The images whose first place is the latest: usually one, and the
    ** values are not needed to find it. */
    if (G == 8) {
      /* A square's group: the eight masks in registers. */
      uint64_t m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0, m7 = 0;
      for (int t = 0; t < k; t++) {
        const uint64_t *bit = vm->sym_bit + (size_t)cell[t] * 8;
        int shift = board[t];
        m0 |= bit[0] << shift; m1 |= bit[1] << shift; m2 |= bit[2] << shift; m3 |= bit[3] << shift;
        m4 |= bit[4] << shift; m5 |= bit[5] << shift; m6 |= bit[6] << shift; m7 |= bit[7] << shift;
      }
      masks[0] = m0; masks[1] = m1; masks[2] = m2; masks[3] = m3;
      masks[4] = m4; masks[5] = m5; masks[6] = m6; masks[7] = m7;
    } else {
      for (int e = 0; e < G; e++) masks[e] = 0;
      for (int t = 0; t < k; t++) {
        const uint64_t *bit = vm->sym_bit + (size_t)cell[t] * G;
        for (int e = 0; e < G; e++) masks[e] |= bit[e] << board[t];
      }
    }
    int low[SPARSE_GROUP];
    for (int e = 0; e < G; e++) {
      low[e] = lowest_bit(masks[e]);
      if (low[e] > first) first = low[e];
    }
    for (int e = 0; e < G; e++) {
      const int32_t *inv = vm->sym_inverse + (size_t)e * nc;
      uint64_t m = masks[e];
      if (low[e] != first) continue;
      int32_t *tv = tab[cur];
      for (int t = 0; t < k; t++) tv[board[t] + inv[cell[t]]] = val[t];
      int smaller = bi < 0;
      for (uint64_t a = m, b = best_mask; !smaller && a; a &= a - 1, b &= b - 1) {
        int pa = lowest_bit(a), pb = lowest_bit(b);
        if (pa != pb) { smaller = pa > pb; break; }
        if (tv[pa] != tab[bi][pb]) { smaller = tv[pa] < tab[bi][pb]; break; }
      }
      if (smaller) {
        best_mask = m;
        bi = cur;
        cur ^= 1;
      }
    }
    int t = 0;
    for (uint64_t a = best_mask; a; a &= a - 1, t++) {
      place[t] = lowest_bit(a);
      value[t] = tab[bi][place[t]];
    }
    return k;
  }
  /* Each image as its k pieces sorted by place, each piece one number,
  ** (place << 32) + (INT32_MAX - value): at the first piece where two
  ** images differ, the one whose number is larger (a later place, or the
  ** same place and a smaller value) is the smaller image. */
  int64_t best[SPARSE_CELLS], img[SPARSE_CELLS];
  for (int e = 0; e < G; e++) {
    const int32_t *inv = vm->sym_inverse + (size_t)e * nc;
    for (int t = 0; t < k; t++) {
      int64_t x = ((int64_t)(board[t] * nc + inv[cell[t]]) << 32) + ((int64_t)INT32_MAX - val[t]);
      int u = t;
      for (; u > 0 && img[u - 1] > x; u--) img[u] = img[u - 1];
      img[u] = x;
    }
    int t = 0;
    if (e > 0)
      while (t < k && img[t] == best[t]) t++;
    if (e == 0 || (t < k && img[t] > best[t])) memcpy(best, img, (size_t)k * sizeof *img);
  }
  for (int t = 0; t < k; t++) {
    place[t] = (int32_t)(best[t] >> 32);
    value[t] = (int32_t)((int64_t)INT32_MAX - (best[t] & 0xffffffff));
  }
  return k;
}

/* The canonical form of a sparse position into out (a copy of in): its
** boards emptied, then the best image's pieces.  0 when not sparse. */
static int canonical_sparse(VM *vm, const int32_t *in, int32_t *out) {
  const Program *p = vm->p;
  int nc = p->ncells;
  int32_t place[SPARSE_CELLS], value[SPARSE_CELLS];
  int k = sparse_best(vm, in, place, value);
  if (k < 0) return 0;
  if (k == 0) return 1;
  for (int b = 0; b < vm->nboard; b++) {
    int base = vm->board_base[b];
    int32_t low = p->lo[base];
    if (low == 0) memset(out + base, 0, (size_t)nc * sizeof *out);
    else for (int c = 0; c < nc; c++) out[base + c] = low;
  }
  for (int t = 0; t < k; t++) out[vm->board_base[place[t] / nc] + place[t] % nc] = value[t];
  return 1;
}

/* The packed key of the canonical form: straight from the best image's
** pieces when the position is sparse (no canonical state, no pass over
** the empty cells), else through vm_canonical and vm_pack. */
void vm_canonical_key(Game *g, const void *state, void *key) {
  VM *vm = (VM *)g;
  int32_t place[SPARSE_CELLS], value[SPARSE_CELLS];
  int k = vm->pieces_key ? sparse_best(vm, state, place, value) : -1;
  if (k < 0) {
    vm_canonical(g, state, vm->canon_state);
    vm_pack(g, vm->canon_state, key);
    return;
  }
  vm_pack_pieces(vm, state, place, value, k, key);
}

void vm_canonical(Game *g, const void *state, void *result) {
  VM *vm = (VM *)g;
  const Program *p = vm->p;
  const int32_t *in = state;
  int32_t *out = result;
  int n = p->nslots, nc = p->ncells;
  memcpy(out, in, (size_t)n * sizeof *out);
  if (vm->permute_on_board) {
    /* A permutable [board] array: each image sorted, then compared whole. */
    int32_t *tmp = vm->scratch;
    sort_permutable(p, out);
    for (int e = 1; e < p->nsym; e++) {
      board_image(p, e, in, tmp);
      sort_permutable(p, tmp);
      for (int k = 0; k < n; k++)
        if (tmp[k] != out[k]) {
          if (tmp[k] < out[k]) memcpy(out, tmp, (size_t)n * sizeof *out);
          break;
        }
    }
    return;
  }
  if (p->nsym > 1 && canonical_sparse(vm, in, out)) {
    sort_permutable(p, out);
    return;
  }
  /* The elements, sorted by their cell sequences, form a trie: those that
  ** agree on the first k cells are a run.  Walk it level by level keeping
  ** only the runs whose image so far is the smallest; a run whose next
  ** value is larger is dropped whole, with one read. */
  int G = p->nsym, nlive = 1, m = G > 1 ? vm->nboard * nc : 0;
  /* vm->live exists when the group does (nsym > 1); else no pointer is
  ** made from it (NULL + G is undefined even unused). */
  int32_t *lo = NULL, *hi = NULL, *nlo = NULL, *nhi = NULL;
  if (m > 0) {
    lo = vm->live, hi = vm->live + G, nlo = vm->live + 2 * G, nhi = vm->live + 3 * G;
    lo[0] = 0;
    hi[0] = G;
  }
  for (int j = 0; j < m; j++) {
    int b = j / nc, c = j % nc, base = vm->board_base[b], nnew = 0;
    int32_t best = INT32_MAX;
    for (int r = 0; r < nlive; r++) {
      for (int i = lo[r]; i < hi[r];) {
        int nx = hi[r] - lo[r] == 1 || b > 0 ? i + 1 : vm->sym_next[(size_t)c * G + i];
        int32_t v = in[base + vm->sym_sorted[(size_t)i * nc + c]];
        if (v < best) { best = v; nnew = 0; }
        if (v == best) { nlo[nnew] = i; nhi[nnew++] = nx; }
        i = nx;
      }
    }
    out[base + c] = best;
    int32_t *t = lo; lo = nlo; nlo = t;
    t = hi; hi = nhi; nhi = t;
    nlive = nnew;
    if (nlive == 1 && hi[0] - lo[0] == 1) {
      /* One element left: the rest of its image as it is. */
      const int32_t *pe = vm->sym_sorted + (size_t)lo[0] * nc;
      for (j++; j < m; j++) {
        b = j / nc;
        c = j % nc;
        out[vm->board_base[b] + c] = in[vm->board_base[b] + pe[c]];
      }
    }
  }
  sort_permutable(p, out);
}
