/*
** lp_exact.h -- the exact vertex of an optimal basis (lp.c): after GLPK's
** exact simplex (glp_exact) the basis is exactly optimal, but GLPK gives
** the solution as doubles only.  lp_exact_vertex solves the basis's
** system again in fractions (GMP): the rows at their bounds, in the basic
** columns, the other columns at their bounds (all 0 in the sequence
** form's programs); lp_exact_duals the transposed one, the duals that
** make the basic columns' reduced costs 0.  Sparse Gauss-Jordan
** elimination, the shortest row first.
*/
#ifndef GSOLVE_LP_EXACT_H
#define GSOLVE_LP_EXACT_H

#include <glpk.h>
#include <gmp.h>
#include <stddef.h>

/* The columns' exact values (cols of them, colval[0] the first column's)
** at P's current basis; the matrix as triplets ia[1..nz], ja[1..nz],
** qa[1..nz] (GLPK's 1-based rows and columns), each row's bound 0 or 1
** as GLPK has it.  0, or -1 when the system is singular or stopped. */
int lp_exact_vertex(glp_prob *P, int rows, int cols, const int *ia, const int *ja, mpq_t *qa,
                    size_t nz, mpq_t *colval);

/* The rows' exact duals (rows of them) at P's current basis: the basic
** columns' reduced costs 0, the basic rows' duals 0.  0 or -1. */
int lp_exact_duals(glp_prob *P, int rows, int cols, const int *ia, const int *ja, mpq_t *qa,
                   size_t nz, mpq_t *rowdual);

#endif
