/*
** main_mpi.c -- gsolve-mpi: the gsolve command line on every MPI rank,
** with the retrograde solver distributed over the ranks (retro_mpi.c).
** `make mpi` compiles main.c with its main renamed gsolve_main; this
** file and retro_mpi.c are the only ones that see MPI.
*/
#include <stdio.h>
#include <string.h>
#include "search/retro_mpi.h"
#include "util/status.h"

int gsolve_main(int argc, char **argv);

int main(int argc, char **argv) {
  int st = retro_mpi_start(&argc, &argv);
  if (st != EXIT_OK) return st;
  /* The line of play needs lookups past the root's children, which only
  ** their owners hold: read the database with the plain gsolve. */
  for (int i = 1; i < argc && st == EXIT_OK; i++)
    if (strcmp(argv[i], "--pv") == 0) {
      fputs("gsolve: error: gsolve-mpi does not take --pv; build the database with --db FILE "
            "and read it with gsolve --db FILE --pv\n", stderr);
      st = EXIT_USAGE;
    }
  if (st == EXIT_OK) st = gsolve_main(argc, argv);
  return retro_mpi_end(st);
}
