/*
** stop.c -- Ctrl-C and --time-limit: flags set by signal handlers.
*/
#include "util/stop.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "util/status.h"

volatile sig_atomic_t stop_requested = STOP_NONE;
static unsigned limit_seconds;
static struct timespec started;

/* An atomic store (lock-free, so safe in a handler): the Connect Four
** solver's threads read the flag too. */
static void on_signal(int sig) {
  if (stop_requested == STOP_NONE)
    __atomic_store_n(&stop_requested, sig == SIGALRM ? STOP_TIME : STOP_INTERRUPT, __ATOMIC_RELAXED);
}

void stop_install(unsigned seconds) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;          /* the second Ctrl-C kills */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  clock_gettime(CLOCK_MONOTONIC, &started);
  limit_seconds = seconds;
  if (seconds > 0) {
    sa.sa_flags = 0;
    sigaction(SIGALRM, &sa, NULL);
    alarm(seconds);
  }
}

double stop_elapsed(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - started.tv_sec) + (double)(t.tv_nsec - started.tv_nsec) * 1e-9;
}

int stop_message(char *buf, size_t n, uint64_t count, const char *what) {
  char head[64];
  if (stop_requested == STOP_TIME)
    snprintf(head, sizeof head, "time limit of %u second%s reached", limit_seconds,
             limit_seconds == 1 ? "" : "s");
  else
    snprintf(head, sizeof head, "interrupted");
  snprintf(buf, n, "%s after %llu %s and %.2f seconds; no result", head,
           (unsigned long long)count, what, stop_elapsed());
  return stop_requested == STOP_TIME ? EXIT_LIMIT : EXIT_INTERRUPTED;
}
