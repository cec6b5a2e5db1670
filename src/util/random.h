/*
** random.h -- SplitMix64: the next number of a fast, well-mixed sequence
** from any seed (0 included); play, the playouts, ISMCTS and the
** symmetry test's random lines draw from it.
*/
#ifndef GSOLVE_RANDOM_H
#define GSOLVE_RANDOM_H

#include <stdint.h>

static inline uint64_t random_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

#endif
