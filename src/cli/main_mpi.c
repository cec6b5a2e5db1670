/*
** main_mpi.c -- gsolve-mpi: the gsolve command line on every MPI rank,
** with the retrograde solver distributed over the ranks (retro_mpi.c).
** `make mpi` compiles main.c with its main renamed gsolve_main; this
** file and retro_mpi*.c are the only ones that see MPI.
*/
#include "retro/retro_mpi.h"
#include "util/status.h"

int gsolve_main(int argc, char **argv);

int main(int argc, char **argv) {
  int st = retro_mpi_start(&argc, &argv);
  if (st != EXIT_OK) return st;
  return retro_mpi_end(gsolve_main(argc, argv));
}
