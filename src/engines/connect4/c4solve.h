/*
** c4solve.h -- the strong Connect Four solver (c4solve.c): Pons' score of
** a position, the exact plies to the end, every move's score, and opening
** books (boards up to 64 bits).  Boards with width * (height + 1) up to
** C4_MAX_BITS: 64-bit words up to 64 bits, 128-bit words past them.
*/
#ifndef GSOLVE_C4SOLVE_H
#define GSOLVE_C4SOLVE_H

#include <stddef.h>
#include <stdint.h>
#include "engines/connect4/c4book.h"

/* A bitboard of up to 128 bits (GCC and Clang on 64-bit targets). */
__extension__ typedef unsigned __int128 C4Bits;
#define C4_MAX_BITS 128

/* 1 if the solver (and the native engine) take this board: k = 4,
** width * (height + 1) <= C4_MAX_BITS, and every score in a table byte
** (2 * width * height + 6 < 256). */
int c4_supported(int width, int height);

/* How far a c4_solve is, for a progress display. */
typedef struct C4Progress {
  uint64_t nodes;           /* searched so far (other threads' estimated) */
  int move, nmoves;         /* 0: the position's score; k: move k of nmoves */
  int lo, hi;               /* the score being found lies in [lo, hi] */
} C4Progress;

typedef struct C4Query {
  int width, height;
  C4Bits cur, mask;         /* stones of the player to move; all stones */
  int moves;                /* stones on the board */
  int weak;                 /* only win/draw/loss: the scores are -1, 0, 1 */
  int all_moves;            /* every legal move's exact score; else the
                               optimal ones exact and the others bounded */
  int root_only;            /* only the position's score (no nmoves) */
  /* Optional: told now and then (every 65536 nodes of the first thread)
  ** how far the solve is; it is called on the calling thread. */
  void (*progress)(const C4Progress *p, void *arg);
  void *progress_arg;
} C4Query;


typedef struct C4Answer {
  int score;                /* Pons' score for the player to move */
  int plies;                /* to the end under best play (not weak) */
  uint64_t nodes;           /* all threads together */
  uint64_t book_hits;
  int nmoves;               /* legal moves, column order */
  int col[64];              /* 0-based column */
  int move_score[64];       /* its score for the player to move ... */
  int move_exact[64];       /* ... exact, or else an upper bound */
} C4Answer;

/* The techniques, each of which --without can turn off to measure it
** (make bench); every combination gives the same scores. */
enum {
  C4_NO_ANTICIPATION = 1 << 0,  /* never play under an opponent's threat */
  C4_NO_THREATS = 1 << 1,       /* order moves by the threats they make */
  C4_NO_CENTRE = 1 << 2,        /* centre columns first (else left first) */
  C4_NO_TABLE = 1 << 3,         /* transposition table */
  C4_NO_LOWER = 1 << 4,         /* lower bounds in the table, not only upper */
  C4_NO_SYMMETRY = 1 << 5,      /* a position and its mirror share entries */
  C4_NO_NARROWING = 1 << 6,     /* null-window bisection of the score range */
  C4_NO_ETC = 1 << 7,           /* enhanced transposition cutoffs */
  C4_NO_CLAIMEVEN = 1 << 8,     /* Allis' claimeven as an upper bound */
  C4_NO_BESTMOVE = 1 << 9,      /* the table's best move tried first */
  C4_NO_FORCED = 1 << 10,       /* a forced move played without a table entry */
  C4_NO_BARETAIL = 1 << 11,     /* the last plies searched without the table */
  C4_NO_ODDTHREAT = 1 << 12,    /* a threat on the follow-up's parity wins */
  C4_NO_DOUBLETHREAT = 1 << 13, /* a move making two threats at once wins */
  C4_NO_WINDOWS = 1 << 14,      /* the first plies ordered by windows of four */
  C4_NO_CLOSETHREATS = 1 << 15, /* later, a threat over a playable cell counts twice */
  C4_NO_LANES = 1 << 16         /* the children's threats in vector lanes (AVX2) */
};

/* The bit of a technique's name ("anticipation", "threats", "centre",
** "table", "lower-bounds", "symmetry", "narrowing", "etc", "claimeven",
** "best-move", "forced", "bare-tail", "odd-threat", "double-threat",
** "windows", "close-threats", "lanes"), 0 if unknown. */
unsigned c4_technique(const char *name);
#define C4_TECHNIQUE_NAMES "anticipation, threats, centre, table, lower-bounds, symmetry, " \
  "narrowing, etc, claimeven, best-move, forced, bare-tail, odd-threat, double-threat, windows, " \
  "close-threats, lanes"
extern const char *const c4_technique_names;   /* "anticipation, ..." */

typedef struct C4Config {
  size_t tt_mib;            /* table size (0: a small one) */
  int threads;              /* search threads sharing the table (>= 1) */
  unsigned without;         /* C4_NO_* */
  const C4Book *book;       /* exact scores to use, or NULL */
} C4Config;

/* A solver for one board size (NULL: unsupported size or out of memory). */
typedef struct C4Solver C4Solver;
C4Solver *c4_new(int width, int height, const C4Config *cfg);

/* The table's bytes when it had to halve to fit the memory, else 0. */
size_t c4_table_shrunk_bytes(const C4Solver *s);
void c4_free(C4Solver *s);
/* Clears the table (cheaply: only the buckets written since). */
void c4_reset(C4Solver *s);
/* Maps the tables' memory now, up to `budget` bytes (c4t_touch), not as
** searches reach it. */
void c4_touch(C4Solver *s, size_t budget);

/* Solves a position that has not ended; 0, or -1 (another board size),
** or -2 when stopped (stop.h: Ctrl-C, --time-limit; the answer and the
** table are then worthless).  The table keeps what it learnt unless
** c4_reset is called. */
int c4_solve(C4Solver *s, const C4Query *q, C4Answer *a);

/* Solves every position of `to` stones down to 0 stones reachable from
** the empty board (deepest first, each level then used as a book for the
** next) into `book`, counting the nodes searched into *nodes.
** `progress`, if set, is told before each level is listed (positions 0)
** and each position is solved: its stones, its index among the level's
** `positions`, and the nodes so far.
** 0, -1 out of memory, -2 stopped, -3 a board past 64 bits (no books). */
int c4_make_book(C4Solver *s, int to, C4Book *book, uint64_t *nodes,
                 void (*progress)(int stones, size_t done, size_t positions, uint64_t nodes,
                                  void *arg), void *arg);

/* Checks a book read from a file (--book) against the rules: exactly the
** positions of 0..to stones reachable from the empty board, and each
** score below the last level the one its moves' scores give (the last
** level's are the searches the book saves).  0; 1 with *why when it is
** not what c4_make_book makes; -1 out of memory; -2 stopped. */
int c4_check_book(C4Solver *s, const C4Book *book, const char **why);

/* Plies to the end from Pons' score at `moves` stones on `cells` cells. */
int c4_plies_from_score(int cells, int moves, int score);

#endif
