/*
** c4word.h -- the board's word for the code written once over it
** (c4search.h, c4rules.h): define C4W_BITS as 64 or 128, then include
** this.  Word is uint64_t or unsigned __int128; ONE is 1 in it; the bit
** operations the compiler has no operator for come in both widths.
*/
#include <stdint.h>
#include "engines/connect4/c4solve.h"

#if C4W_BITS == 64
typedef uint64_t Word;
static inline int popcount_word(Word x) { return __builtin_popcountll(x); }
static inline int ctz_word(Word x) { return __builtin_ctzll(x); }
/* A 64-bit digest of the word, for tables that only hint. */
static inline uint64_t fold_word(Word x) { return x; }
#elif C4W_BITS == 128
typedef C4Bits Word;
static inline int popcount_word(Word x) {
  return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int ctz_word(Word x) {
  uint64_t lo = (uint64_t)x;
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline uint64_t fold_word(Word x) {
  return (uint64_t)x ^ (uint64_t)(x >> 64) * UINT64_C(0x9e3779b97f4a7c15);
}
#else
#error "C4W_BITS must be 64 or 128"
#endif
#define ONE ((Word)1)
