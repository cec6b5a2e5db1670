/*
** native.c -- the registry of native engines: hand-written C
** implementations of the game interface for games where speed matters.
** A .game file names its engine with `native "name" when COND;`; the
** command line picks it with --engine (auto by default).
*/
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "engines/engines.h"
#include "vm/vm.h"

void native_out_of_memory(Game *g) {
  fputs("gsolve: error: out of memory\n", stderr);
  g->error_status = EXIT_LIMIT;
  if (g->trap) longjmp(*g->trap, 1);
  exit(EXIT_LIMIT);
}

Game *native_init(Game *g, const Program *p, const GameVtable *vt, const char *engine,
                  size_t state_bytes, void (*destroy)(Game *g)) {
  g->vt = vt;
  g->engine = engine;
  g->name = gs_game_name(p);
  g->nplayers = 2;
  g->player_names[0] = gs_player_name(p, 0);
  g->player_names[1] = gs_player_name(p, 1);
  g->state_bytes = state_bytes;
  g->key_bytes = state_bytes;
  g->destroy = destroy;
  return g;
}

typedef struct NativeEntry {
  const char *name;
  Game *(*create)(const Program *p, char *why, size_t n);
} NativeEntry;

static const NativeEntry engines[] = {
  { "nim", native_nim_new },
  { "connect4", native_c4_new },
  { "matchsticks", native_sticks_new },
};

Game *native_new(const Program *p, char *why, size_t n) {
  int allowed;
  const char *name = gs_native_name(p, &allowed);
  if (!name) {
    snprintf(why, n, "the game declares no native engine");
    return NULL;
  }
  if (!allowed) {
    snprintf(why, n, "the native engine '%s' is declared only for other parameters", name);
    return NULL;
  }
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    if (!strcmp(engines[i].name, name)) return engines[i].create(p, why, n);
  snprintf(why, n, "there is no native engine '%s' in this gsolve", name);
  return NULL;
}

/* `auto` for a long job whose compiled object is not cached: the VM,
** probed (compiled/autotier.c); when the job is long and a compiler
** works, the compiled tier built now.  NULL with *status on failure. */
static Game *auto_long(const Program *p, int quiet, FILE *err, int *status) {
  Game *vm = vm_new(p, status), *g;
  if (vm == NULL || engine_auto_build_off()) return vm;
  int is_long = engine_job_is_long(vm);
  if (is_long < 0) {
    /* A rule failed in the probe: a fresh VM meets it again in the job. */
    game_free(vm);
    return vm_new(p, status);
  }
  if (!is_long) return vm;
  if ((g = compiled_auto(p, quiet, err, status)) == NULL && *status == EXIT_OK) return vm;
  game_free(vm);
  return g;
}

Game *engine_new(const Program *p, EngineChoice choice, int quiet, FILE *err, int *status) {
  char why[256];
  int allowed;
  Game *g = NULL;
  *status = EXIT_OK;
  if (choice == ENGINE_COMPILED) {
    if ((g = compiled_new(p, why, sizeof why, status)) != NULL || *status == EXIT_RUNTIME)
      return g;
    if (*status != EXIT_OK) {
      fprintf(err, "gsolve: error: --engine compiled: %s\n", why);
      return NULL;
    }
    /* The compiler ran out of time: the VM answers the same. */
    fprintf(err, "gsolve: warning: --engine compiled: %s; using the VM\n", why);
    if ((g = vm_new(p, status)) == NULL && *status == EXIT_LIMIT)
      fputs("gsolve: error: out of memory\n", err);
    return g;
  }
  if (choice != ENGINE_VM && (gs_native_name(p, &allowed) || choice == ENGINE_NATIVE)) {
    g = native_new(p, why, sizeof why);
    if (g == NULL && strcmp(why, "out of memory") == 0) {
      /* Not a reason to fall back on the VM, whose answers may differ in
      ** what they give (distances): out of memory is said as such. */
      fputs("gsolve: error: out of memory\n", err);
      *status = EXIT_LIMIT;
      return NULL;
    }
    if (g == NULL && choice == ENGINE_NATIVE) {
      fprintf(err, "gsolve: error: --engine native: %s\n", why);
      *status = EXIT_USAGE;
      return NULL;
    }
    /* auto, a long job: the compiled tier, cached or built now (docs/cli.md,
    ** "The compiled tier"). */
    if (g == NULL && choice == ENGINE_AUTO_LONG) {
      if ((g = compiled_cached(p, status)) == NULL && *status != EXIT_OK) goto failed;
      int cached = g != NULL;
      if (g == NULL && (g = auto_long(p, quiet, err, status)) == NULL) goto failed;
      if (!quiet && strcmp(g->engine, "compiled") == 0)
        fprintf(err, "gsolve: note: %s; using the compiled tier%s\n", why, cached ? " (cached)" : "");
      else if (!quiet)
        fprintf(err, "gsolve: note: %s; using the VM\n", why);
    } else if (g == NULL && !quiet) {
      fprintf(err, "gsolve: note: %s; using the VM\n", why);
    }
  } else if (choice == ENGINE_AUTO_LONG) {
    if ((g = compiled_cached(p, status)) == NULL && *status != EXIT_OK) goto failed;
    if (g == NULL && (g = auto_long(p, quiet, err, status)) == NULL) goto failed;
  }
  if (g == NULL && (g = vm_new(p, status)) == NULL && *status == EXIT_LIMIT)
    fputs("gsolve: error: out of memory\n", err);
  return g;
failed:   /* the cached compiled tier: out of memory, or its start block failed (reported) */
  if (*status == EXIT_LIMIT) fputs("gsolve: error: out of memory\n", err);
  return NULL;
}
