/*
** clock.h -- the one clock of gsolve: seconds on the monotonic clock
** (elapsed times, time limits, progress lines) and the process's CPU time.
**
** Only differences of two readings mean anything; the origin is
** arbitrary.  Both are inline: the solvers' unit tests link util/ file
** by file.
*/
#ifndef GSOLVE_CLOCK_H
#define GSOLVE_CLOCK_H

#include <time.h>

/* Seconds on the monotonic clock (never goes back, not the time of day). */
static inline double clock_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds of CPU time this process has used, all threads together. */
static inline double clock_cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The monotonic clock's reading `seconds` from now, as a deadline for
** pthread_cond_timedwait on a condition variable whose clock is
** CLOCK_MONOTONIC (pthread_condattr_setclock). */
static inline struct timespec clock_deadline(double seconds) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  if (seconds < 0) seconds = 0;
  time_t whole = (time_t)seconds;
  ts.tv_sec += whole;
  ts.tv_nsec += (long)((seconds - (double)whole) * 1e9);
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  return ts;
}

#endif
