/*
** retro_limits.c -- the hash form's memory checks (retro.h): made before
** each large allocation -- the doubling of the table, the labelling's
** reverse move graph -- against --memory and what the machine has free,
** each refusal naming what would help: --memory, --compact where the
** engine can take it, gsolve-mpi (which spreads this form over ranks).
*/
#include "retro/retro.h"
#include "retro/retro_compact.h"
#include "util/file.h"
#include "util/status.h"

int retro_room_for(Retro *r, size_t more) {
  int limited;
  size_t free_now = file_memory_free(&limited);
  r->memory_free = 0;
  if (r->memory_limit && retro_memory(r) + more > r->memory_limit) return 0;
  if (free_now && more > free_now) {
    r->memory_free = free_now;
    return 0;
  }
  return 1;
}

static const char *memory_help(const Retro *r) {
  return retro_compact_refusal(r) ? " spread the table over processes with gsolve-mpi"
         : ", try --compact: a few bytes a position; or spread the table over "
           "processes with gsolve-mpi";
}

int retro_memory_refused(Retro *r) {
  size_t n = r->classes.n ? r->classes.n : r->states.n;
  size_t each = retro_memory(r) / (r->states.n ? r->states.n : r->classes.n ? r->classes.n : 1);
  if (r->memory_free)
    return retro_fail(r, EXIT_LIMIT, "this machine has about %zu MiB free, too little for the table "
                      "to grow beyond %zu stored positions (about %zu bytes each, moves included, "
                      "%zu MiB so far); free memory (or%s)", r->memory_free >> 20, n, each,
                      retro_memory(r) >> 20, memory_help(r));
  return retro_fail(r, EXIT_LIMIT, "memory limit of %zu MiB reached after %zu stored positions "
                    "(about %zu bytes each, moves included); raise --memory (or%s)",
                    r->memory_limit >> 20, n, each, memory_help(r));
}

int retro_labels_refused(Retro *r) {
  size_t labels = ((size_t)r->stored + 1) * 3 * sizeof(uint32_t) + ((size_t)r->edges + 1) * sizeof(uint32_t);
  if (retro_room_for(r, labels)) return 0;
  retro_fail(r, EXIT_LIMIT, "the labelling needs about %zu MiB more (the reverse graph of %llu "
             "moves) on top of the %zu MiB the %llu stored positions hold: over %s of %zu MiB; %s "
             "(or%s)", labels >> 20, (unsigned long long)r->edges, retro_memory(r) >> 20,
             (unsigned long long)r->stored, r->memory_free ? "what this machine has free, about"
             : "the memory limit", (r->memory_free ? r->memory_free : r->memory_limit) >> 20,
             r->memory_free ? "free memory" : "raise --memory", memory_help(r));
  return 1;
}
