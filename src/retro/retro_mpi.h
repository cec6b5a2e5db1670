/*
** retro_mpi.h -- gsolve-mpi's start and end (src/retro/retro_mpi.c,
** compiled only by `make mpi`): MPI set up, the distributed retrograde
** solver installed as retro_distributed (retro.h), then torn down.
*/
#ifndef GSOLVE_RETRO_MPI_H
#define GSOLVE_RETRO_MPI_H

/* MPI_Init; on ranks other than 0, stdout and stderr to /dev/null (rank
** 0 speaks for the job).  EXIT_OK or a failure status. */
int retro_mpi_start(int *argc, char ***argv);

/* MPI_Finalize; returns the exit status of this rank. */
int retro_mpi_end(int status);

#endif
