/*
** c4search.h -- the strong Connect Four solver on bitboards (k = 4, any
** width x height with width * (height + 1) <= 128): Pons' score for the
** player to move, from which the exact distance to the end follows.
**
** Written once over the board's word, Word: c4solve64.c compiles it with
** 64-bit words (every board up to 64 bits, 7x6 among them, at the speed
** of a solver that knows no other), c4solve128.c with 128-bit words
** (boards past 64 bits: 10x6, 9x7, 8x8 ...); c4solve.c picks one at
** c4_new.  C4W_BITS (64 or 128) is defined before the inclusion; this
** file is the search, c4root.h (included next) the root, the threads and
** the functions c4solve.c calls, c4_impl64 or c4_impl128 (c4impl.h).
**
** The techniques, each from the public Connect Four solver literature
** (the code is ours), each of which --without turns off so that make
** bench can measure it: negamax on the score "sooner wins score more",
** the window clamped to what is still reachable; never play a move that
** lets the opponent win at once, and answer a single threat at once (two
** threats lose): "anticipation"; moves ordered by the number of threats
** they create ("threats"), centre first ("centre"); a transposition table
** of lower and upper bounds with compact exact keys (c4table.c: "table",
** "lower-bounds"); a position and its mirror image sharing entries early
** in the game ("symmetry"); before searching the children, a look at their
** table entries for a cutoff ("etc", enhanced transposition cutoff); Allis'
** claimeven as an upper bound, also where odd columns pair up, and one ply ahead as a
** lower bound ("claimeven"); the opponent's threat on the cells his
** follow-up gives him, Allis' odd threat, as an upper bound, and one ply
** ahead as a lower bound ("odd-threat"); at the
** root, null-window probes that bisect the score range ("narrowing"); the table's best
** move searched first, before the others are ordered ("best-move"); forced
** moves played on without a table entry ("forced"); the last plies searched without
** the table ("bare-tail"); in the first third of the game, moves ordered
** by the windows of four they open and close ("windows").  An opening
** book made by gsolve itself can hold exact scores of the first plies
** (c4book.c, c4_make_book).
**
** Threads: "lazy SMP".  Every thread runs the same null-window probe of
** the root with the shared table (threads past the second each with its
** own tie-break order of the columns), and they feed each other
** entries; the first to answer narrows the root's range (Root) and the
** others drop the probe for the next one.  High in the tree a
** thread puts off a child that another is searching, the eldest too
** (ABDADA), so that they split the work instead of doing it twice.
**
** Bit layout: as in c4rules.h (a column of height + 1 bits, the top one
** a sentinel).  `cur` holds the stones of the player to move and `mask`
** every stone; cur + mask is a unique key of the position.
*/
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "engines/connect4/c4impl.h"
#include "engines/connect4/c4table.h"
#include "engines/connect4/c4word.h"
#include "util/stop.h"

#define MAX_THREADS 64
#define MAX_WIDTH (C4W_BITS / 2)   /* width * (height + 1) <= C4W_BITS, height >= 1 */

/* The table takes keys of one word or two. */
#if C4W_BITS == 64
#define TT_GET(t, k) c4t_get(t, k)
#define TT_PUT(t, k, v, w) c4t_put(t, k, v, w)
#define TT_PREFETCH(t, k) c4t_prefetch(t, k)
#else
#define TT_GET(t, k) c4t_get_wide(t, (uint64_t)(k), (uint64_t)((k) >> 64))
#define TT_PUT(t, k, v, w) c4t_put_wide(t, (uint64_t)(k), (uint64_t)((k) >> 64), v, w)
#define TT_PREFETCH(t, k) c4t_prefetch_wide(t, (uint64_t)(k), (uint64_t)((k) >> 64))
#endif
/* Helpers of the search, inlined so that the search of the board of
** shape_fixed (negamax_fixed) sees its geometry as constants. */
#define INLINE static inline __attribute__((always_inline))
#define BUSY_BITS 16         /* slots of the table of positions being searched */
/* Threads split the work (ABDADA, below) where this many cells are
** empty: the marks cost a shared cache line each, and below 24 empty
** cells a subtree is too small to pay for them.  (The figures behind
** these constants: docs/performance.md, "The Connect Four engine's
** constants".) */
#define SPLIT_MIN_EMPTY 24
/* A table of NEAR_FROM_MIB or more lives mostly in DRAM, where each
** probe waits on memory: positions with fewer than FAR_EMPTY empty cells
** (most nodes, each cheap to search again) then go to a table of NEAR_MIB
** that the caches hold, and only the others to the big table.  Each
** thread has its own: their entries are cheap to learn again, and a
** shared one moves cache lines between the cores at every write.  From
** 32 MiB, so that the default 64 MiB (test sets) has them too; 1 MiB, as
** a smaller near table misses less often past the cache than it loses
** in nodes. */
#define NEAR_FROM_MIB 32
#define NEAR_MIB 1
#define FAR_EMPTY 20
/* The windows order the moves up to this many stones, and in the first
** third of the game (negamax_on): on 10x6 (60 cells) a third is too
** deep. */
#define WINDOWS_UNTIL 14
/* The low threats count twice (threat_rank) only where the window lies
** within this of a draw (alpha > -4 and beta < 4): in a game one side
** wins by far, the low threats mislead. */
#define CLOSE_WITHIN 4
/* The rank of the table's best move when it is ordered with the others
** (ETC nodes): above any count of threats or windows' key (at most
** (16 * 9 + 3 * 128) * 64 + 128), and HINT_FIRST << 14 fits an int. */
#define HINT_FIRST (1 << 16)
/* Positions with fewer than TAIL_EMPTY empty cells are searched without
** the table: their subtrees cost less to search again than a table probe
** that misses the caches, and their entries would crowd out dearer ones. */
#define TAIL_EMPTY 8
/* Positions of at most ZERO_FIRST_UNTIL stones are first asked "does the
** player to move win?" (a probe at 0): so early in the game the score is
** always near 0. */
#define ZERO_FIRST_UNTIL 4
#ifndef ETC_MIN_EMPTY
#define ETC_MIN_EMPTY 20     /* ETC where this many cells are still empty */
#endif

/* The board's geometry.  The search is compiled twice: once for any
** board, reading it from the solver, and once for one board from a
** constant (shape_fixed), where every shift and mask is known to the
** compiler. */
typedef struct Shape {
  int w, h, cells;
  Word bottom, board;    /* bit 0 of every column; every playable cell */
  Word claim_rows;       /* cells of the rows of the parity of h */
} Shape;

/* The board compiled with its geometry as constants: 7x6 on 64-bit
** words; 10x6 (Steininger's sets) on 128-bit words, where a shift by a
** variable takes several instructions. */
#if C4W_BITS == 64
static const Shape shape_fixed = {
  7, 6, 42, UINT64_C(0x40810204081), UINT64_C(0xfdfbf7efdfbf), UINT64_C(0x54a952a54a95)
};
#else
#define WORD2(hi, lo) ((Word)UINT64_C(hi) << 64 | UINT64_C(lo))
static const Shape shape_fixed = {
  10, 6, 60, WORD2(0, 0x8102040810204081), WORD2(0x1f, 0xbf7efdfbf7efdfbf),
  WORD2(0xa, 0x952a54a952a54a95)
};
#endif

typedef struct Worker Worker;

#if C4W_BITS == 64
/* Eight positions, one a lane: the search's children on boards of at
** most 8 columns, each in the lane of its column's place in the
** worker's order (Worker.lane_cols), their winning cells computed
** together ("lanes").  Only in the search compiled for AVX2, where a
** Lanes operation takes two instructions (choose_search): with SSE2
** alone it takes four, and Test_L2_R2 took 6% longer than one child at
** a time (AVX2: 5% less; AVX-512, one instruction, 1-2% less again). */
typedef uint64_t Lanes __attribute__((vector_size(64)));
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2_LANES 1
#endif
/* (Lanes are passed only to inlined functions: no ABI to keep.) */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/* The root's score range while threads solve a position: all probe its
** middle (sharing the work through the table, "lazy SMP"); the first to
** answer narrows the range, under the lock, and stops the others, whose
** probe is then answered too. */
typedef struct Root {
  pthread_mutex_t lock;
  int lo, hi;                /* the score is in [lo, hi] */
  int zero_pending;          /* "does the player to move win?" comes first */
  int stones;                /* the position's: early ones probe near 0 (middle) */
  int probing[MAX_THREADS];  /* each thread's probe, or NO_PROBE */
  Worker *w;                 /* the threads */
} Root;
#define NO_PROBE (-1000)

/* A move of the search: its stone, the stone in the mirror image, the
** child's table key, and the cells where the move leaves the mover a
** four to complete. */
typedef struct Child {
  Word move, mmove, key, wins;
} Child;

typedef int Search(Worker *wk, Word cur, Word mask, Word mcur, Word mmask,
                   Word opp_wins, int moves, int alpha, int beta);
/* The search past the plies that share their mirror image's entries:
** without the mirror image, and the stones counted from `mask`, its six
** arguments all in registers. */
typedef int Deep(Worker *wk, Word cur, Word mask, Word opp_wins, int alpha, int beta);

typedef struct Solver {
  Shape g;
  Search *negamax;           /* the search compiled for g */
  C4Table *tt;               /* NULL without the table */
  C4Table *near[MAX_THREADS];   /* big tables only: positions with fewer than
                                   FAR_EMPTY empty cells, one table for each
                                   thread (else NULL) */
  const C4Book *book;
  unsigned without;          /* C4_NO_* */
  int threads;
  int mirror_until;          /* positions with at most this many stones share
                                their mirror image's table entry */
  int vmin, span;            /* bounds in a table byte: see encode_* */
  int done;                  /* a thread finished: the others stop */
  uint64_t *busy;            /* threads: keys being searched (ABDADA) */
  Root root;
  /* The progress display of the solve under way (c4_solve), or NULL. */
  const C4Query *query;      /* its progress callback */
  C4Progress progress;       /* the phase; nodes of the jobs finished */
} Solver;

/* One search thread: its counters and its order of the columns.
** Aligned to a cache line: each thread writes its `nodes` at every node,
** and a line shared with another thread's would move between the cores
** at every write. */
struct Worker {
  _Alignas(64) Solver *s;
  uint64_t nodes, book_hits, etc_cuts;
  int halt;                     /* set by another thread: stop this search */
  int stopped;                  /* this search saw a stop: it unwinds */
  C4Table *near;                /* its own table of the last plies */
  /* The table of a position with e empty cells: the big one, its near
  ** one (FAR_EMPTY) or none (NULL, the bare tail): looked up, not
  ** worked out, at every node. */
  C4Table *table_at[C4W_BITS + 1];
  /* The place in the worker's order of the column of each cell (bit):
  ** read from the move's bit, without dividing for its column. */
  uint8_t place[C4W_BITS];
#if C4W_BITS == 64
  Lanes lane_cols;              /* the cells of the column in each place (0 past w) */
#endif
  /* The job (solve or probe) and its result. */
  Word cur, mask;
  int moves, probe, alpha, beta;
  int result, finished;
  int id;                       /* its index among the threads */
};

INLINE Word column_mask(const Shape *g, int col) {
  return ((ONE << g->h) - 1) << (col * (g->h + 1));
}

/* Cells where `pos` would complete four (whether empty or not), of type
** T: a Word, or Lanes (below), eight positions at once.
** Inlined, its loop unrolled: the search calls it for every child (a
** call costs a third; unrolled, the 7x6 search has only constant shifts).
** Vertical: three below; then the diagonal, horizontal and other
** diagonal (shift d).  p & a | p & b as p & (a | b): one operation fewer
** twice a direction.  (pos >> d) & (pos >> 2d) comes from p when its left
** shifts lost no stone (the last column's top cell, w (h + 1) - 2,
** shifted by 2 (h + 2) stays in the word: 7x6, 10x6; a constant test on
** the fixed shape): 3 fewer operations a direction. */
#define DEFINE_WINNING_CELLS(name, T)                                    \
  INLINE T name(const Shape *g, T pos, Word mask) {                      \
    T r = (pos << 1) & (pos << 2) & (pos << 3);                          \
    _Pragma("GCC unroll 3")                                              \
    for (int i = 0; i < 3; i++) {                                        \
      int d = g->h + i;                                                  \
      T p = (pos << d) & (pos << 2 * d);                                 \
      r |= p & ((pos << 3 * d) | (pos >> d));                            \
      if (g->w * (g->h + 1) + 2 * g->h + 3 <= C4W_BITS) p >>= 3 * d;     \
      else p = (pos >> d) & (pos >> 2 * d);                              \
      r |= p & ((pos << d) | (pos >> 3 * d));                            \
    }                                                                    \
    return r & (g->board ^ mask);                                        \
  }
DEFINE_WINNING_CELLS(winning_cells, Word)

#if C4W_BITS == 64
DEFINE_WINNING_CELLS(winning_lanes, Lanes)
#endif

/* The column of the stone `m`. */
INLINE int column_of(const Shape *g, Word m) { return ctz_word(m) / (g->h + 1); }

INLINE Word possible(const Shape *g, Word mask) {
  return (mask + g->bottom) & g->board;
}

/* Whether only a move that leaves the opponent no safe reply (a double
** threat: a win with the mover's next stone) can beat alpha: alpha is
** already a win with his stone after that, and after any other move the
** opponent cannot lose at once (negamax_on). */
INLINE int only_double_threat_beats(unsigned without, int cells, int moves, int alpha) {
  return alpha >= (cells - 3 - moves) / 2 && !(without & (C4_NO_DOUBLETHREAT | C4_NO_ANTICIPATION));
}

/* Moves (one bit each) that do not hand the opponent an immediate win;
** `threats`: the opponent's winning cells. */
INLINE Word non_losing(const Shape *g, Word mask, Word threats) {
  Word poss = possible(g, mask);
  Word forced = poss & threats;
  if (forced) {
    if (forced & (forced - 1)) return 0;      /* two threats: lost */
    poss = forced;
  }
  return poss & ~(threats >> 1);              /* never play below a threat */
}

/* The shift from a cell to the next in direction `dir`: vertical,
** horizontal, and the two diagonals. */
INLINE int line_shift(const Shape *g, int dir) {
  return dir == 0 ? 1 : dir == 1 ? g->h + 1 : dir == 2 ? g->h : g->h + 2;
}

/* 1 if the stones `b` hold four in a row. */
INLINE int has_four(const Shape *g, Word b) {
  _Pragma("GCC unroll 4")
  for (int i = 0; i < 4; i++) {
    int d = line_shift(g, i);
    Word m = b & (b >> d);
    if (m & (m >> 2 * d)) return 1;
  }
  return 0;
}

/* Allis' claimeven, as an upper bound, widened to columns with an odd
** number of empty cells.  When every column has an even number, the
** opponent can answer every move in the same column, which leaves the
** player to move exactly the empty cells of the rows of his parity (the
** first, third, ... empty cell of each column).  When some columns have
** an odd number but the board an even number (so the odd ones pair up),
** the opponent answers a move in an odd column in another odd column and
** every other move on top of it: the even columns then go as before, and
** the player to move can get at most every empty cell of the odd ones.
** If those and his stones hold no four, he cannot win: his score is at
** most 0; and if the opponent's sure cells then hold a four, he loses: at
** most -1.  Returns that bound, or `hi` (the bound so far). */
INLINE int claimeven_bound(const Shape *g, Word cur, Word mask, int moves, int hi) {
  Word odd = possible(g, mask) & ~g->claim_rows;    /* columns with odd empties */
  if (odd && ((g->cells - moves) & 1)) return hi;      /* they do not pair up */
  /* The empty cells of the odd columns: in each column they run from its
  ** lowest empty cell (its bit of `odd`) to the top, so adding that bit
  ** carries through them into the sentinel and flips exactly them. */
  Word empty = g->board & ~mask, oddcells = ((empty + odd) ^ empty) & g->board;
  if (has_four(g, cur | (g->claim_rows & empty) | oddcells)) return hi;
  return has_four(g, (cur ^ mask) | (empty & ~g->claim_rows & ~oddcells)) ? -1 : 0;
}

/* Allis' follow-up for the opponent of the player to move, who has an
** odd number of empty cells and so an odd number of columns with an odd
** number.  The opponent answers every move on top of it, except that the
** odd columns other than one, c, pair up (a move in one is answered in
** its partner).  In c the opponent then gets every second empty cell
** from the second up; if one of them, T, completes his four, he wins:
** the player to move cannot fill c past T without giving it to him, so
** c is the last column to fill and T falls to the opponent, unless the
** player to move makes a four first.  He cannot if his stones and every
** cell he may get (his cells of the even columns, all the empty cells of
** the other odd columns, his cells of c below T) hold none.  `opp_wins`:
** the opponent's winning cells.  Returns -1 (a loss) or `hi`. */
INLINE int odd_threat_bound(const Shape *g, Word cur, Word mask, Word opp_wins,
                            int hi) {
  Word empty = g->board & ~mask, odd = possible(g, mask) & ~g->claim_rows;
  Word oddcells = ((empty + odd) ^ empty) & g->board;
  Word t = opp_wins & g->claim_rows & oddcells;
  Word base = cur | (g->claim_rows & empty & ~oddcells);
  while (t) {
    Word low = t & -t, col = column_mask(g, column_of(g, low));
    Word mine = base | (oddcells & ~col) | (oddcells & col & ~g->claim_rows & (low - 1));
    if (!has_four(g, mine)) return -1;
    t &= ~col;
  }
  return hi;
}

/* The windows of four (four cells in a row in one direction, all on
** the board), each known by its first cell, for the four directions
** (vertical, horizontal, the two diagonals): those the opponent has no
** stone in, open to the player to move, and those he has none in, and
** how many stones of each they hold, 0 to 3 (four would have ended the
** game), as the two bits of the count. */
typedef struct Windows {
  Word open_mine[4], open_his[4];
  Word mine0[4], mine1[4], his0[4], his1[4];
} Windows;

/* The windows in direction shift `d` (by their first cell) that hold a
** cell of `b`. */
INLINE Word windows_touching(Word b, int d) {
  return b | b >> d | b >> 2 * d | b >> 3 * d;
}

/* How many of the stones `b` each window in direction shift `d` holds,
** 0 to 3, as two bits: counted two cells by two, bit 0 the parity, bit
** 1 the carries. */
INLINE void window_counts(Word b, int d, Word *bit0, Word *bit1) {
  Word a = b ^ b >> d, c = b >> 2 * d ^ b >> 3 * d;
  *bit0 = a ^ c;
  *bit1 = (b & b >> d) ^ (b >> 2 * d & b >> 3 * d) ^ (a & c);
}

/* The windows of the position `cur` (the player to move's stones), `mask`. */
INLINE void windows_of(const Shape *g, Word cur, Word mask, Windows *w) {
  Word his = cur ^ mask;
  for (int dir = 0; dir < 4; dir++) {
    int d = line_shift(g, dir);
    Word on = g->board & g->board >> d & g->board >> 2 * d & g->board >> 3 * d;
    w->open_mine[dir] = on & ~windows_touching(his, d);
    w->open_his[dir] = on & ~windows_touching(cur, d);
    window_counts(cur, d, &w->mine0[dir], &w->mine1[dir]);
    window_counts(his, d, &w->his0[dir], &w->his1[dir]);
  }
}

/* What the stone `m` of the player to move does to the windows through
** it, the game's usual static evaluation: a window open to him with k of
** his stones gains one (weight 3^k: 1, 3, 9), and one open to the
** opponent holding j >= 1 of his is closed (weight 3^(j-1)). */
INLINE int window_gain(const Shape *g, const Windows *w, Word m) {
  int gain = 0;
  for (int dir = 0; dir < 4; dir++) {
    Word through = windows_touching(m, line_shift(g, dir));
    Word mine = through & w->open_mine[dir], his = through & w->open_his[dir] & ~w->open_mine[dir];
    Word m0 = w->mine0[dir], m1 = w->mine1[dir], h0 = w->his0[dir], h1 = w->his1[dir];
    gain += popcount_word(mine & ~m0 & ~m1) + 3 * popcount_word(mine & m0 & ~m1) +
            9 * popcount_word(mine & ~m0 & m1);
    gain += popcount_word(his & h0 & ~h1) + 3 * popcount_word(his & ~h0 & h1) +
            9 * popcount_word(his & h0 & h1);
  }
  return gain;
}

INLINE int can_win_now(const Shape *g, Word cur, Word mask) {
  return (winning_cells(g, cur, mask) & possible(g, mask)) != 0;
}

/* A table byte: an upper bound v as 1 + v - vmin, a lower bound as
** 1 + span + v - vmin (never 0, below 256 for every board). */
static int encode_upper(const Solver *s, int v) { return 1 + v - s->vmin; }
static int encode_lower(const Solver *s, int v) { return 1 + s->span + v - s->vmin; }

static Word mirror(const Shape *g, Word b) {
  Word m = 0, col = (ONE << (g->h + 1)) - 1;
  for (int c = 0; c < g->w; c++)
    m |= ((b >> c * (g->h + 1)) & col) << (g->w - 1 - c) * (g->h + 1);
  return m;
}

#if C4W_BITS == 64
/* The key of the position or of its mirror image, whichever is smaller
** (opening books: 64-bit boards only). */
static Word canonical_key(const Shape *g, Word cur, Word mask) {
  Word key = cur + mask, mkey = mirror(g, cur) + mirror(g, mask);
  return mkey < key ? mkey : key;
}
#endif

/* The table key: early in the game the smaller of the position's key and
** its mirror image's (mcur, mmask: the mirror image, kept up to date by
** the search while moves <= mirror_until). */
static Word table_key(const Solver *s, unsigned without, Word cur, Word mask, Word mcur,
                          Word mmask, int moves, int *flipped) {
  Word key = cur + mask;
  *flipped = 0;
  if (moves > s->mirror_until || (without & C4_NO_SYMMETRY)) return key;
  if (mcur + mmask < key) { *flipped = 1; return mcur + mmask; }
  return key;
}

/* The keys of positions some thread is searching (threads only): a
** small table of slots, one key each; a taken slot just means no mark. */
/* (Wide keys are folded to 64 bits: two keys that fold alike only put
** off a child that no one is searching, a matter of speed.) */
static int busy_slot(uint64_t key) { return (int)((key * UINT64_C(0xd6e8feb86659fd93)) >> (64 - BUSY_BITS)); }

static int busy_test(const Solver *s, Word key) {
  uint64_t k = fold_word(key);
  return __atomic_load_n(&s->busy[busy_slot(k)], __ATOMIC_RELAXED) == k;
}

static int busy_mark(Solver *s, Word key) {
  uint64_t empty = 0, k = fold_word(key);
  return __atomic_compare_exchange_n(&s->busy[busy_slot(k)], &empty, k, 0, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED);
}

static void busy_unmark(Solver *s, Word key) {
  __atomic_store_n(&s->busy[busy_slot(fold_word(key))], 0, __ATOMIC_RELAXED);
}

/* A signal or the time limit: stop_requested is set by a handler on the
** main thread and read here by every thread, so atomically on both sides. */
static int signalled(void) { return __atomic_load_n(&stop_requested, __ATOMIC_RELAXED) != 0; }

/* Whether to stop: a signal or time limit, another thread's answer to the
** probe, or to the whole job.  The search asks every POLL_NODES nodes
** (at every node it cost 4% of the instructions) and then unwinds on
** wk->stopped alone, so that no stopped search stores a value. */
#define POLL_NODES 256
#define PROGRESS_NODES 65536
static void report_progress(Worker *wk);
static int poll_stop(Worker *wk) {
  if (wk->id == 0 && wk->s->query && (wk->nodes & (PROGRESS_NODES - 1)) == 0) report_progress(wk);
  return wk->stopped = signalled() || __atomic_load_n(&wk->halt, __ATOMIC_RELAXED) ||
                       __atomic_load_n(&wk->s->done, __ATOMIC_RELAXED);
}

static int stopping(const Worker *wk) { return wk->stopped; }

/* Tells the caller's progress callback how far the solve is: the first
** thread's nodes stand for every thread's (the others' counters are
** theirs alone to read), and the root's score range while it narrows. */
static void report_progress(Worker *wk) {
  Solver *s = wk->s;
  C4Progress p = s->progress;
  p.nodes += wk->nodes * (uint64_t)s->threads;
  if (!wk->probe) {
    /* The range of the position being solved: the root's, or a move's
    ** child's (--all-moves), seen from the root's mover. */
    pthread_mutex_lock(&s->root.lock);
    p.lo = p.move ? -s->root.hi : s->root.lo;
    p.hi = p.move ? -s->root.lo : s->root.hi;
    pthread_mutex_unlock(&s->root.lock);
  }
  s->query->progress(&p, s->query->progress_arg);
}

/* The move part of a table datum: column + 1 as the entry's key sees
** the board (mirrored when `flipped`), above the value byte; 0 (none)
** on boards too wide for 5 bits or without the technique. */
static int move_datum(const Solver *s, unsigned without, int col, int flipped) {
  if (col < 0 || s->g.w > 31 || (without & C4_NO_BESTMOVE)) return 0;
  return (flipped ? s->g.w - col : col + 1) << 8;
}

static int log2_work(uint64_t n) { return n ? 64 - __builtin_clzll(n) : 0; }

/* A cutoff: move `col` proved the lower bound v of the position `key`,
** at a cost of `work` nodes. */
INLINE void store_lower(const Solver *s, unsigned without, C4Table *tt, Word key, int v,
                        int col, int flipped, uint64_t work) {
  if (tt && !(without & C4_NO_LOWER))
    TT_PUT(tt, key, encode_lower(s, v) | move_datum(s, without, col, flipped), log2_work(work));
}

/* The mirror image of a move in column `col`, on the mirrored stones
** `mmask`. */
INLINE Word mirror_move(const Shape *g, Word mmask, int col) {
  return possible(g, mmask) & column_mask(g, g->w - 1 - col);
}

/* A move's rank from the threats it leaves us (`threats`, after it:
** `mask`).  Where `close` (negamax_on: past the windows' plies, in a
** window within CLOSE_WITHIN of a draw), a threat right above a cell
** the opponent could play next counts twice: he cannot play that cell
** without giving us the win, and a threat so low is soon in play. */
INLINE int threat_rank(const Shape *g, unsigned without, int close, Word threats, Word mask) {
  int t = popcount_word(threats);
  if (close && !(without & C4_NO_CLOSETHREATS))
    t += popcount_word(threats & possible(g, mask) << 1);
  return t;
}

/* The moves ch[rank[0..n-1] & 255], ranked by threats (rank: threats
** << 14 | column order << 8 | index), ranked again by the windows they
** change, threats added three times over and breaking ties
** (negamax_on); the table's best move, when ranked with them, stays
** first.  Apart from the search, so that the search of the later plies
** keeps its registers. */
static __attribute__((noinline)) void order_by_windows(const Shape *g, Word cur, Word mask,
                                                       const Child *ch, int *rank, int n) {
  Windows win;
  windows_of(g, cur, mask, &win);
  int key[MAX_WIDTH];
  for (int k = 0; k < n; k++) {
    int t = rank[k] >> 14, i = rank[k] & 255;
    key[i] = t == HINT_FIRST ? t : (window_gain(g, &win, ch[i].move) + 3 * t) * 64 + t;
  }
  for (int k = 1; k < n; k++) {
    int r = rank[k], j = k;
    for (; j > 0 && key[rank[j - 1] & 255] < key[r & 255]; j--) rank[j] = rank[j - 1];
    rank[j] = r;
  }
}

/* Negamax for the player to move, who cannot win at once; `opp_wins`:
** the cells where the opponent would complete four (the parent has them
** from ordering its moves by the threats they create).  Fail-soft
** contract: the result r satisfies r <= alpha => the true score <= r;
** r >= beta => the true score >= r; else exact.  After a stop it returns
** at once, storing nothing. */
/* `deep` (a constant in each compilation): past the mirrored plies,
** mcur and mmask are not given and moves is counted; children past them
** are searched by `deep_self`, the others by `self`. */
/* `lanes` (a constant): the moves' threats computed in Lanes (boards of
** at most 8 columns), unless --without lanes. */
#define SEARCH_CHILD(c, m, mc, mm, w, a, b)                                     \
  (deep || moves + 1 > s->mirror_until ? deep_self(wk, c, m, w, a, b)           \
                                       : self(wk, c, m, mc, mm, w, moves + 1, a, b))
INLINE int negamax_on(
    const Shape *g, int plain, int deep, int lanes, Search *self, Deep *deep_self, Worker *wk,
    Word cur, Word mask, Word mcur, Word mmask, Word opp_wins, int moves, int alpha, int beta) {
  Solver *s = wk->s;
  if (deep) { mcur = mmask = 0; moves = popcount_word(mask); }
  /* `plain` (a constant in each compilation): every technique on and no
  ** book, so that their tests fold away. */
  unsigned without = plain ? 0 : s->without;
  const C4Book *book = plain ? NULL : s->book;
  (void)book;                  /* (books: 64-bit boards only) */
  int cells = g->cells;
  if ((++wk->nodes & (POLL_NODES - 1)) == 0 && poll_stop(wk)) return 0;
  Word next;
  int lo;
  if (!(without & C4_NO_ANTICIPATION)) {
    next = non_losing(g, mask, opp_wins);
    if (next == 0) return -(cells - moves) / 2;        /* the opponent wins next */
    if (moves >= cells - 2) return 0;                   /* a draw: board full after two */
    lo = -(cells - 2 - moves) / 2;                      /* the opponent cannot win next */
  } else {
    if (can_win_now(g, cur, mask)) return (cells + 1 - moves) / 2;
    if (moves == cells) return 0;
    next = possible(g, mask);
    lo = -(cells - moves) / 2;
  }
  if (alpha < lo) { alpha = lo; if (alpha >= beta) return alpha; }
  if (!(next & (next - 1)) && !(without & C4_NO_FORCED)) {
    /* A forced move: this position is worth minus its child, whose own
    ** entry is all the table needs (no lookup, no entry here).  Before
    ** the static bounds: the child computes its own, and a chain of
    ** forced moves computed them at every link. */
    Word mm = 0;
    if (moves + 1 <= s->mirror_until) {
      int col = column_of(g, next);
      mm = (g->w - 1 - col >= col) ? next << (g->w - 1 - 2 * col) * (g->h + 1)
                                   : next >> (2 * col - g->w + 1) * (g->h + 1);
    }
    Word w = winning_cells(g, cur | next, mask | next);
    /* Only a double threat beats alpha here (below): the forced move is
    ** tested for one instead of searched. */
    if (only_double_threat_beats(without, cells, moves, alpha))
      return non_losing(g, mask | next, w) ? (cells - 3 - moves) / 2 : (cells - 1 - moves) / 2;
    return -SEARCH_CHILD(cur ^ mask, mask | next, mcur ^ mmask, mmask | mm, w, -beta, -alpha);
  }
  int hi = (cells - 1 - moves) / 2;                     /* we cannot win next */
  /* The static bounds are 0 or -1: only a window above -1 needs them. */
  if (hi >= 0 && beta >= 0 && !(without & C4_NO_CLAIMEVEN)) hi = claimeven_bound(g, cur, mask, moves, hi);
  if (hi > -1 && beta >= 0 && ((cells - moves) & 1) && !(without & C4_NO_ODDTHREAT))
    hi = odd_threat_bound(g, cur, mask, opp_wins, hi);
  if (beta > hi) { beta = hi; if (alpha >= beta) return beta; }
  if (only_double_threat_beats(without, cells, moves, alpha)) {
    /* Only a move that leaves the opponent no safe reply (a double
    ** threat: we win with our next stone) beats alpha; after any other he
    ** cannot lose at once, so we win at best with the stone after, a
    ** score of (cells - 3 - moves) / 2 <= alpha.  Each move is tested
    ** here rather than searched: each such child returned at its first
    ** bound, and a search of this node ordered them, probed the table
    ** and prefetched their buckets first. */
    /* non_losing whole, not the ordering's cheaper double-threat test:
    ** a move missed here would make the bound below wrong. */
    for (Word b = next; b; b &= b - 1) {
      Word m = b & -b;
      if (!non_losing(g, mask | m, winning_cells(g, cur | m, mask) & ~m)) return (cells - 1 - moves) / 2;
    }
    return (cells - 3 - moves) / 2;
  }
#if C4W_BITS == 64
  if (book && moves >= book->from && moves <= book->to) {
    int v;
    if (c4book_get(book, canonical_key(g, cur, mask), &v)) { wk->book_hits++; return v; }
  }
#endif
  Word key = 0;
  int flipped = 0, hint = -1;           /* the table's best move, a column */
  C4Table *tt = wk->table_at[cells - moves], *ctt = wk->table_at[cells - moves - 1];
  if (tt) {
    key = table_key(s, without, cur, mask, mcur, mmask, moves, &flipped);
    int ent = TT_GET(tt, key), val = ent & 255, hm = ent >> 8;
    if (hm) hint = flipped ? g->w - hm : hm - 1;
    if (val > s->span) {
      int bound = val - 1 - s->span + s->vmin;
      if (alpha < bound) { alpha = bound; if (alpha >= beta) return alpha; }
    } else if (val) {
      int bound = val - 1 + s->vmin;
      if (beta > bound) { beta = bound; if (alpha >= beta) return beta; }
    }
  }

  /* The static bounds one ply ahead come after the table: an entry that
  ** answers spares their loops over the moves. */
  if (beta <= 1 && ((cells - moves) & 1) && !(without & C4_NO_CLAIMEVEN)) {
    /* The same bound one ply ahead, as a lower bound: a move after which
    ** the opponent (then with an even number of empty cells) cannot win
    ** makes this position worth at least 0, and at least 1 if he then
    ** loses.  Only useful where the window ends at 1 or below. */
    for (Word b = next; b; b &= b - 1) {
      int u = claimeven_bound(g, cur ^ mask, mask | (b & -b), moves + 1, 1);
      if (u < 1 && -u > alpha) {
        alpha = -u;
        if (alpha >= beta) return alpha;
      }
    }
  }
  if (alpha < 1 && beta > 0 && !((cells - moves) & 1) && !(without & C4_NO_ODDTHREAT)) {
    /* The same one ply ahead: a move after which the opponent loses to
    ** a threat of ours makes this position worth at least 1. */
    Word wins = winning_cells(g, cur, mask) & g->claim_rows, empty = g->board & ~mask;
    Word odd = possible(g, mask) & ~g->claim_rows;
    Word oddwins = wins & ((empty + odd) ^ empty);   /* in columns with odd empties */
    for (Word b = wins ? next : 0; b; b &= b - 1) {
      /* The child's threats on the right cells lie in the columns odd
      ** here or in the column of the move, which turns odd. */
      Word m = b & -b;
      if (!oddwins && !(wins & ((empty + m) ^ empty))) continue;
      if (odd_threat_bound(g, cur ^ mask, mask | m, wins, 0) < 0) {
        alpha = 1;
        if (alpha >= beta) return alpha;
        break;
      }
    }
  }
  int mirrored = moves + 1 <= s->mirror_until, etc = tt && !(without & C4_NO_ETC) &&
                                                    cells - moves >= ETC_MIN_EMPTY;
  uint64_t before = wk->nodes;
  int best = -1, bestv = -1000;       /* ch[best], or HINT_FIRST: the hint */
  if (hint >= 0 && !etc && (next & column_mask(g, hint))) {
    /* The table's best move, searched before the others are even
    ** ordered: when it refutes the position, as it mostly does, the
    ** threat counts of the others are never needed. */
    Word m = next & column_mask(g, hint);
    Word mm = mirrored ? mirror_move(g, mmask, hint) : 0;
    int v = -SEARCH_CHILD(cur ^ mask, mask | m, mcur ^ mmask, mmask | mm,
                          winning_cells(g, cur | m, mask | m), -beta, -alpha);
    if (stopping(wk)) return 0;
    if (v >= beta) {
      store_lower(s, without, tt, key, v, hint, flipped, wk->nodes - before);
      return v;
    }
    bestv = v;
    best = HINT_FIRST;
    if (v > alpha) alpha = v;
    next &= ~column_mask(g, hint);
  }
  /* Order: more threats created first, then the worker's column order.
  ** The moves are taken from the bits of `next`, not by testing each
  ** column in the worker's order, whose test for a move mispredicted.
  ** On boards of at most 8 columns (`lazy`), a move's place in the order
  ** is a bit of one word, `sel`: bit (7 - threats) * 8 + the column's
  ** place in the worker's order, the move in ch[] at that place (threats
  ** above 7 count as 7, which changes next to nothing).  The lowest bit
  ** is the next move: no sort, and nothing ranked past the move that
  ** cuts off; the insertion sort it replaces mispredicted.
  ** Wider boards, and the nodes that rank the moves again (the windows)
  ** or look at every child (ETC, where the table's best move is still
  ** among them), take rank[]: each rank an int ((threats << 6 | prio) <<
  ** 8 | index), insertion sorted. */
  Child ch[MAX_WIDTH];
  int rank[MAX_WIDTH];
  uint64_t sel = 0;
  Word hint_cells = hint >= 0 ? column_mask(g, hint) : 0;   /* still among the moves: ETC */
  Word child_key = (cur ^ mask) + mask;       /* a child's key, but for its stone */
  int n = 0, early = 3 * moves <= cells && moves <= WINDOWS_UNTIL;
  int windows = early && !(without & C4_NO_WINDOWS);
  int lazy = g->w <= 8 && !windows && !etc;    /* the moves taken from sel as searched */
  int in_lanes = g->w <= 8 && lanes && !(without & C4_NO_LANES);
  (void)in_lanes;                /* (lanes: 64-bit boards only) */
  int close = !early && alpha > -CLOSE_WITHIN && beta < CLOSE_WITHIN;
  /* The cells where each move leaves us a four to complete: the child's
  ** opponent's, and their number orders the moves, but for those right
  ** above one of the opponent's (no one plays under it, so it is not a
  ** threat while his stands).  (A forced move needs no ordering.)
  ** A double threat: after a move we would have two cells to win on at
  ** once, or one with another right above it.  The opponent, who cannot
  ** win at once (anticipation: we play neither below his threats nor
  ** past the one we must block), blocks one and our next stone wins: the
  ** best score still reachable, exact.  Test_L1_R1: 33% fewer nodes, 22%
  ** fewer instructions; Test_L1_R2 (first 20): 18% fewer nodes;
  ** Test_L2_R2 (first 200): 9% fewer. */
  int dt_test = !(without & (C4_NO_DOUBLETHREAT | C4_NO_ANTICIPATION));
#if C4W_BITS == 64
  /* Lanes: every move's at once, in the lanes of their places (a
  ** lane whose column is not a move holds our winning cells now, none
  ** of them playable: we cannot win at once), and one test for a double
  ** threat among them. */
  Lanes lane_wins;
  if (in_lanes) {
    Lanes mv = wk->lane_cols & next;
    lane_wins = winning_lanes(g, mv | cur, mask) & ~mv;
    if (dt_test) {
      Lanes now = lane_wins & (((mv | mask) + g->bottom) & g->board);
      Lanes dt = (now & (now - 1)) | (now & (lane_wins >> 1));
      Word any = 0;
      for (int p = 0; p < 8; p++) any |= dt[p];
      if (any) return (cells - 1 - moves) / 2;
    }
  }
#endif
  for (Word b = next; b; b &= b - 1) {
    Word m = b & -b, mm = 0, w;
    int place = wk->place[ctz_word(m)];
#if C4W_BITS == 64
    if (in_lanes) w = lane_wins[place];
    else
#endif
    {
      w = winning_cells(g, cur | m, mask) & ~m;
      if (dt_test) {
        Word now = w & possible(g, mask | m);
        if ((now & (now - 1)) || (now & (w >> 1))) return (cells - 1 - moves) / 2;
      }
    }
    int t = !(next & (next - 1)) ? 0
            : (m & hint_cells) ? HINT_FIRST
            : (without & C4_NO_THREATS) ? 0
            : threat_rank(g, without, close, w & ~(opp_wins << 1), mask | m);
    if (mirrored) mm = mirror_move(g, mmask, column_of(g, m));
    Word ck = 0;
    if (ctt) {
      /* The child's table bucket, fetched while the others are ordered
      ** (not in the bare tail, where the child looks up nothing). */
      int f;
      ck = mirrored ? table_key(s, without, cur ^ mask, mask | m, mcur ^ mmask, mmask | mm, moves + 1, &f)
                    : child_key + m;
      TT_PREFETCH(ctt, ck);
    }
    ch[lazy ? place : n] = (Child){ m, mm, ck, w };
    if (lazy) {
      sel |= UINT64_C(1) << ((7 - (t < 7 ? t : 7)) * 8 + place);
      n++;
      continue;
    }
    int order_key = t << 6 | (63 - place);  /* ties: the worker's column order */
    int j = n, r = order_key << 8 | n;
    n++;
    for (; j > 0 && rank[j - 1] >> 8 < order_key; j--) rank[j] = rank[j - 1];
    rank[j] = r;
  }
  /* In the first third of the game (at most WINDOWS_UNTIL stones), where
  ** a first move that fails costs the biggest subtrees, the windows of
  ** four each move opens and closes order the moves, and threats only
  ** add to them.  Deeper they cost nodes. */
  if (windows && n > 1) order_by_windows(g, cur, mask, ch, rank, n);
  if (etc) {
    /* Enhanced transposition cutoff: a child whose upper bound u is
    ** known makes this position worth at least -u; enough for a cutoff
    ** without searching any child. */
    for (int i = 0; i < n; i++) {
      int val = TT_GET(ctt, ch[rank[i] & 255].key) & 255;
      if (val == 0 || val > s->span) continue;
      int v = -(val - 1 + s->vmin);
      if (v >= beta) { wk->etc_cuts++; return v; }
    }
  }
  /* With threads, high in the tree: a child another thread is searching
  ** is put off to the end (ABDADA), so that threads split the work; the
  ** eldest too, so that a thread reaching a node another is in starts
  ** on another child instead of following it down the same path. */
  int split = s->busy && cells - moves >= SPLIT_MIN_EMPTY, order[2 * MAX_WIDTH], ndeferred = 0;
  uint64_t deferred = 0;
  for (int k = 0; k < n + ndeferred; k++) {
    int i, marked = 0;                /* the moves in order, then those put off */
    if (k >= n) i = order[k];
    else if (lazy) { i = __builtin_ctzll(sel) & 7; sel &= sel - 1; }
    else i = rank[k] & 255;
    if (split && k < n && !(deferred >> i & 1)) {
      if (busy_test(s, ch[i].key)) { order[n + ndeferred++] = i; deferred |= UINT64_C(1) << i; continue; }
      marked = busy_mark(s, ch[i].key);
    }
    /* Playing ch[i]: the opponent becomes the player to move. */
    int v = -SEARCH_CHILD(cur ^ mask, mask | ch[i].move, mcur ^ mmask, mmask | ch[i].mmove,
                          ch[i].wins, -beta, -alpha);
    if (marked) busy_unmark(s, ch[i].key);
    if (stopping(wk)) return 0;
    if (v >= beta) {
      store_lower(s, without, tt, key, v, column_of(g, ch[i].move), flipped, wk->nodes - before);
      return v;
    }
    if (v > bestv) { bestv = v; best = i; }
    if (v > alpha) alpha = v;
  }
  if (best >= 0) best = best == HINT_FIRST ? hint : column_of(g, ch[best].move);
  if (tt)
    TT_PUT(tt, key, encode_upper(s, alpha) | move_datum(s, without, best, flipped),
            log2_work(wk->nodes - before));
  return alpha;
}

/* Each search twice: with the mirror image (the first plies) and past
** it (deep); `attr`: the instruction set it is compiled for. */
#define SEARCH_PAIR(name, deep_name, shape, plain, lanes, attr)                          \
  attr static int deep_name(Worker *wk, Word cur, Word mask, Word opp_wins, int alpha, int beta); \
  attr static int name(Worker *wk, Word cur, Word mask, Word mcur, Word mmask,              \
                       Word opp_wins, int moves, int alpha, int beta) {                     \
    return negamax_on(shape, plain, 0, lanes, name, deep_name, wk, cur, mask, mcur, mmask,   \
                      opp_wins, moves, alpha, beta);                                        \
  }                                                                                         \
  attr static int deep_name(Worker *wk, Word cur, Word mask, Word opp_wins, int alpha,      \
                            int beta) {                                                     \
    return negamax_on(shape, plain, 1, lanes, name, deep_name, wk, cur, mask, 0, 0,          \
                      opp_wins, 0, alpha, beta);                                            \
  }
/* Any board, technique and book. */
SEARCH_PAIR(negamax_any, negamax_any_deep, &wk->s->g, 0, 0, )
/* The board of shape_fixed, any technique and book. */
SEARCH_PAIR(negamax_fixed, negamax_fixed_deep, &shape_fixed, 0, 0, )
/* The board of shape_fixed with every technique and no book, the usual
** case, compiled apart so that the tests of s->without and s->book fold
** away. */
SEARCH_PAIR(negamax_plain, negamax_plain_deep, &shape_fixed, 1, 0, )
#if HAVE_AVX2_LANES
/* The same two for AVX2, with lanes. */
#define AVX2 __attribute__((target("avx2")))
SEARCH_PAIR(negamax_fixed_avx2, negamax_fixed_avx2_deep, &shape_fixed, 0, 1, AVX2)
SEARCH_PAIR(negamax_plain_avx2, negamax_plain_avx2_deep, &shape_fixed, 1, 1, AVX2)
#endif

/* The search for the solver's board, techniques and book. */
static void choose_search(Solver *s) {
  const Shape *k = &shape_fixed;
  int is_fixed = s->g.w == k->w && s->g.h == k->h && s->g.cells == k->cells &&
                 s->g.bottom == k->bottom && s->g.board == k->board && s->g.claim_rows == k->claim_rows;
  int plain = !s->without && !s->book;
  s->negamax = !is_fixed ? negamax_any : plain ? negamax_plain : negamax_fixed;
#if HAVE_AVX2_LANES
  if (is_fixed && !(s->without & C4_NO_LANES) && __builtin_cpu_supports("avx2"))
    s->negamax = plain ? negamax_plain_avx2 : negamax_fixed_avx2;
#endif
}
