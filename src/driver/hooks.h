/*
** hooks.h -- the report hooks of the solver rows (solver_report.c), for
** the table of solvers.c: --stats lines, JSON fields, reported names.
*/
#ifndef GSOLVE_HOOKS_H
#define GSOLVE_HOOKS_H

#include "driver/solvers.h"

void solver_stats_alphabeta(const SolveJob *j, double seconds, FILE *f);
void solver_stats_expected(const SolveJob *j, double seconds, FILE *f);
void solver_stats_retro(const SolveJob *j, double seconds, FILE *f);
void solver_stats_valueiter(const SolveJob *j, double seconds, FILE *f);
void solver_stats_engine(const SolveJob *j, double seconds, FILE *f);
void solver_stats_cfr(const SolveJob *j, double seconds, FILE *f);
void solver_stats_lp(const SolveJob *j, double seconds, FILE *f);
void solver_json_valueiter(const SolveJob *j, JsonWriter *w);
const char *solver_name_cfr(const SolveJob *j);

#endif
