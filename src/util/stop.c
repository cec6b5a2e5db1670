/*
** stop.c -- Ctrl-C and --time-limit: flags set by signal handlers.
*/
#include "util/stop.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/clock.h"
#include "util/diag.h"
#include "util/status.h"

volatile sig_atomic_t stop_requested = STOP_NONE;
static unsigned limit_seconds;
static double started;             /* clock_seconds() at stop_install */

/* The temporary file being written: a copy the handler can read at any
** time (cleanup_set is cleared while the name changes). */
static char cleanup_path[PATH_MAX + 64];
static volatile sig_atomic_t cleanup_set;

void stop_set_cleanup(const char *path) {
  cleanup_set = 0;
  if (path == NULL || strlen(path) >= sizeof cleanup_path) return;
  memcpy(cleanup_path, path, strlen(path) + 1);
  cleanup_set = 1;
}

/* The process group of a child to kill with us (0: none). */
static volatile sig_atomic_t child_group;

void stop_set_child(int pgid) {
  child_group = pgid;
}

/* A second Ctrl-C or SIGTERM: only async-signal-safe calls (kill, unlink,
** write, _exit) -- a child's group is killed, the temporary file goes, a
** message says why. */
static void stop_at_once(void) {
  static const char msg[] = DIAG_ERROR_HEAD "interrupted again; stopped at once, no result\n";
  if (child_group > 0) kill(-(pid_t)child_group, SIGKILL);
  if (cleanup_set) unlink(cleanup_path);
  ssize_t w = write(2, msg, sizeof msg - 1);
  (void)w;
  _exit(EXIT_INTERRUPTED);
}

/* An atomic store (lock-free, so safe in a handler): the Connect Four
** solver's threads read the flag too. */
static void on_signal(int sig) {
  if (stop_requested == STOP_NONE)
    __atomic_store_n(&stop_requested, sig == SIGALRM ? STOP_TIME : STOP_INTERRUPT, __ATOMIC_RELAXED);
  else if (sig != SIGALRM)
    stop_at_once();
}

void stop_install(unsigned seconds) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;                     /* the second Ctrl-C: stop_at_once */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  started = clock_seconds();
  limit_seconds = seconds;
  if (seconds > 0) {
    sigaction(SIGALRM, &sa, NULL);
    alarm(seconds);
  }
}

double stop_elapsed(void) {
  return clock_seconds() - started;
}

void stop_head(char *buf, size_t n) {
  diag_clear_transient();      /* a message follows: not on a progress line */
  if (stop_requested == STOP_TIME)
    snprintf(buf, n, "time limit of %u second%s reached", limit_seconds, limit_seconds == 1 ? "" : "s");
  else
    snprintf(buf, n, "interrupted");
}

int stop_message(char *buf, size_t n, uint64_t count, const char *what) {
  char head[64];
  stop_head(head, sizeof head);
  snprintf(buf, n, "%s after %llu %s and %.2f seconds; no result", head,
           (unsigned long long)count, what, stop_elapsed());
  return stop_requested == STOP_TIME ? EXIT_LIMIT : EXIT_INTERRUPTED;
}
