/*
** registry.c -- the choice of an engine for a compiled game: the VM, its
** compiled tier, or one of the native engines (hand-written C
** implementations of the game interface for games where speed matters).
** A .game file names its native engine with `native "name" when COND;`;
** the command line picks with --engine (auto by default).
*/
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "engines/engines.h"
#include "util/diag.h"
#include "util/status.h"
#include "vm/vm.h"

void native_out_of_memory(Game *g) {
  diag_out_of_memory(stderr);
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
  Game *(*create)(const Program *p, char *why, size_t n, int *status);
} NativeEntry;

static const NativeEntry engines[] = {
  { "nim", native_nim_new },
  { "connect4", native_c4_new },
  { "matchsticks", native_sticks_new },
};

Game *native_new(const Program *p, char *why, size_t n, int *status) {
  int allowed;
  const char *name = gs_native_name(p, &allowed);
  Game *g;
  *status = EXIT_USAGE;
  if (!name) {
    snprintf(why, n, "the game declares no native engine");
    return NULL;
  }
  if (!allowed) {
    snprintf(why, n, "the native engine '%s' is declared only for other parameters", name);
    return NULL;
  }
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    if (!strcmp(engines[i].name, name)) {
      if ((g = engines[i].create(p, why, n, status)) != NULL) *status = EXIT_OK;
      return g;
    }
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
      diag_fail(err, *status, "--engine compiled: %s", why);
      return NULL;
    }
    /* The compiler ran out of time: the VM answers the same. */
    diag_plain(err, "warning", "--engine compiled: %s; using the VM", why);
    if ((g = vm_new(p, status)) == NULL && *status == EXIT_LIMIT)
      diag_out_of_memory(err);
    return g;
  }
  int rules_only = choice == ENGINE_AUTO_RULES;
  if (rules_only) choice = ENGINE_AUTO_LONG;
  if (!rules_only && choice != ENGINE_VM && (gs_native_name(p, &allowed) || choice == ENGINE_NATIVE)) {
    g = native_new(p, why, sizeof why, status);
    /* Out of memory is not a reason to fall back on the VM, whose answers
    ** may differ in what they give (distances): it is said as such. */
    if (g == NULL && *status == EXIT_LIMIT) return diag_out_of_memory(err), NULL;
    if (g == NULL && choice == ENGINE_NATIVE) {
      diag_fail(err, EXIT_USAGE, "--engine native: %s", why);
      return NULL;
    }
    /* auto, a long job: the compiled tier, cached or built now (docs/cli.md,
    ** "The compiled tier"). */
    if (g == NULL && choice == ENGINE_AUTO_LONG) {
      if ((g = compiled_cached(p, status)) == NULL && *status != EXIT_OK) goto failed;
      int cached = g != NULL;
      if (g == NULL && (g = auto_long(p, quiet, err, status)) == NULL) goto failed;
      if (!quiet && strcmp(g->engine, "compiled") == 0)
        diag_plain(err, "note", "%s; using the compiled tier%s", why, cached ? " (cached)" : "");
      else if (!quiet)
        diag_plain(err, "note", "%s; using the VM", why);
    } else if (g == NULL && !quiet) {
      diag_plain(err, "note", "%s; using the VM", why);
    }
  } else if (choice == ENGINE_AUTO_LONG) {
    if ((g = compiled_cached(p, status)) == NULL && *status != EXIT_OK) goto failed;
    if (g == NULL && (g = auto_long(p, quiet, err, status)) == NULL) goto failed;
  }
  if (g == NULL && (g = vm_new(p, status)) == NULL && *status == EXIT_LIMIT)
    diag_out_of_memory(err);
  if (g && rules_only && !quiet && gs_native_name(p, &allowed))
    diag_plain(err, "note", "the native engine does not pack positions into keys (--compact); "
               "using %s", strcmp(g->engine, "compiled") == 0 ? "the compiled tier" : "the VM");
  return g;
failed:   /* the cached compiled tier: out of memory, or its start block failed (reported) */
  if (*status == EXIT_LIMIT) diag_out_of_memory(err);
  return NULL;
}
