/*
** pig_hand.c -- Pig solved by value iteration, written by hand: the
** reference that `make bench` times gsolve's value iteration against
** (tests/bench_valueiter.sh), and whose values tests/t_valueiter_hand.sh
** compares with gsolve's.
**
** The formulation is Neller and Presser's ("Optimal Play of the Dice Game
** Pig", The UMAP Journal 25(1), 2004): P(i,j,k) is the probability that
** the player to move wins with his score i, the opponent's j and his turn
** total k.  A turn total that reaches the goal wins (i + k >= goal: 1);
** otherwise
**   roll:  (1 - P(j,i,0) + sum over r = 2..s of P(i,j,k+r)) / s
**   hold:  1 - P(j,i+k,0)                       (only when k > 0)
** and P is the larger of the two.  Gauss-Seidel sweeps over the whole
** state space, in the paper's way, until the largest change in a sweep
** is below epsilon (1e-12, gsolve's default --epsilon).  With -p the
** sweeps run instead over one pair of scores {i,j} at a time, by
** decreasing i + j (a pair leads only to itself and to higher sums): the
** same values, a smaller job.
**
** Usage: pig_hand [-p] [-a] [goal [sides]]   (goal 100, sides 6)
** Prints the first player's P(win) to 10 digits, the sweeps and the CPU
** seconds; -a prints every P(i,j,k) too.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int goal = 100, sides = 6;
static double *P;   /* P[(i * goal + j) * goal + k], k < goal - i */

#define AT(i, j, k) P[((size_t)(i) * goal + (j)) * goal + (k)]

/* Player to move's win probability when a turn total k' = k + r is
** reached: 1 once he has the goal. */
static double after(int i, int j, int k) {
  return i + k >= goal ? 1.0 : AT(i, j, k);
}

/* One update of state (i,j,k); returns the change. */
static double update(int i, int j, int k) {
  double roll = 1.0 - AT(j, i, 0);
  for (int r = 2; r <= sides; r++) roll += after(i, j, k + r);
  roll /= sides;
  double best = roll;
  if (k > 0) {
    double hold = 1.0 - AT(j, i + k, 0);
    if (hold > best) best = hold;
  }
  double d = fabs(best - AT(i, j, k));
  AT(i, j, k) = best;
  return d;
}

int main(int argc, char **argv) {
  int pairs = 0, all = 0, n = 0;
  double eps = 1e-12;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "-p") == 0) pairs = 1;
    else if (strcmp(argv[a], "-a") == 0) all = 1;
    else if (n == 0) { goal = atoi(argv[a]); n++; }
    else sides = atoi(argv[a]);
  }
  if (goal < 2 || sides < 2) { fprintf(stderr, "usage: pig_hand [-p] [-a] [goal [sides]]\n"); return 2; }
  /* P(goal - hold, ., .) is read as 1 - P(j, i + k, 0) with i + k < goal
  ** only, so one extra row of i is never touched. */
  P = calloc((size_t)goal * goal * goal, sizeof *P);
  if (!P) { fprintf(stderr, "pig_hand: out of memory\n"); return 1; }
  clock_t t0 = clock();
  long sweeps = 0;
  if (!pairs) {
    double res;
    do {
      res = 0;
      for (int i = goal - 1; i >= 0; i--)
        for (int j = goal - 1; j >= 0; j--)
          for (int k = goal - 1 - i; k >= 0; k--) {
            double d = update(i, j, k);
            if (d > res) res = d;
          }
      sweeps++;
    } while (res >= eps);
  } else {
    for (int s = 2 * goal - 2; s >= 0; s--)
      for (int i = s < goal ? s : goal - 1; i >= 0 && s - i < goal && i >= s - i; i--) {
        int j = s - i;
        double res;
        long here = 0;
        do {
          res = 0;
          for (int k = goal - 1 - i; k >= 0; k--) {
            double d = update(i, j, k);
            if (d > res) res = d;
          }
          if (j != i)
            for (int k = goal - 1 - j; k >= 0; k--) {
              double d = update(j, i, k);
              if (d > res) res = d;
            }
          here++;
        } while (res >= eps);
        if (here > sweeps) sweeps = here;
      }
  }
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("goal: %d\nsides: %d\nmode: %s\np_win: %.10f\nsweeps: %ld\nseconds: %.3f\n", goal, sides,
         pairs ? "pairs" : "whole", AT(0, 0, 0), sweeps, secs);
  if (all)
    for (int i = 0; i < goal; i++)
      for (int j = 0; j < goal; j++)
        for (int k = 0; k < goal - i; k++) printf("P %d %d %d %.12f\n", i, j, k, AT(i, j, k));
  free(P);
  return 0;
}
