/*
** value.c -- encoding and decoding of search values (see value.h).
*/
#include <assert.h>
#include "search/value.h"

Value value_make(int64_t score, int64_t endply, int mover) {
  assert(endply >= 0 && endply < VALUE_BIG / 2);
  if (score > VALUE_SCORE_MAX) score = VALUE_SCORE_MAX;
  if (score < -VALUE_SCORE_MAX) score = -VALUE_SCORE_MAX;
  if (score > 0) return score * VALUE_BIG - endply;
  if (score < 0) return score * VALUE_BIG + endply;
  return mover == 0 ? -endply : endply;
}

Value value_from_outcome(const Outcome *o, int nplayers, int mover,
                         int64_t ply) {
  int64_t score;
  if (nplayers == 2)
    score = (int64_t)o->payoff[mover] - (int64_t)o->payoff[1 - mover];
  else
    score = o->payoff[0];
  return value_make(score, ply, mover);
}

/* The score is the multiple of BIG nearest to the key: the ply term is
** always smaller than BIG/2 in magnitude. */
void value_decode(Value v, int64_t *score, int64_t *endply) {
  int64_t q = v + VALUE_BIG / 2;
  int64_t s = q >= 0 ? q / VALUE_BIG : -((-q + VALUE_BIG - 1) / VALUE_BIG);
  int64_t e = v - s * VALUE_BIG;
  *score = s;
  *endply = e < 0 ? -e : e;
}

Value value_shift(Value v, int mover, int64_t delta) {
  int64_t score, endply;
  value_decode(v, &score, &endply);
  return value_make(score, endply + delta, mover);
}

const char *value_verdict(int64_t score) {
  return score > 0 ? "win" : score < 0 ? "loss" : "draw";
}
