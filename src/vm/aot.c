/*
** aot.c -- the VM side of the compiled tier: runs a game's chunks through
** the functions of a loaded module (C translated from the bytecode by
** aot_gen.c, compiled and loaded by src/engines/compiled) instead of the
** interpreter.  Everything else of the VM (apply, undo, hashing, the
** repetition rule, views, canonical forms) is the same code for both.
*/
#include "vm/vm_int.h"

#include <stddef.h>
#include <stdlib.h>

/* The generated code writes moves through AotMove. */
_Static_assert(sizeof(AotMove) == sizeof(Move), "AotMove and Move differ");
_Static_assert(offsetof(AotMove, rule) == offsetof(Move, rule), "AotMove and Move differ");
_Static_assert(offsetof(AotMove, arg) == offsetof(Move, arg), "AotMove and Move differ");
_Static_assert(sizeof(((AotMove *)0)->arg) == sizeof(((Move *)0)->arg), "AotMove and Move differ");

static __attribute__((noreturn, format(printf, 5, 6))) void aot_fail(void *vm, int pc, int depth, int status,
                                                                     const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vm_vfail(vm, pc, depth, status, fmt, ap);
}

static void aot_store_slow(void *v, int slot, int32_t value, int pc, int depth) {
  VM *vm = v;
  vm->depth = depth;
  store_slot(vm, slot, value, pc);
}

static void aot_op(void *vm, int op, int pc, int depth, const int32_t *vals, int n) {
  vm_rare_op(vm, op, pc, depth, vals, n);
}

void vm_aot_attach(VM *vm, const AotModule *m, void *handle, void (*release)(void *handle)) {
  AotEnv *e = &vm->aot_env;
  vm->aot = m;
  vm->aot_handle = handle;
  vm->aot_release = release;
  e->vm = vm;
  e->slots = vm->slots;
  e->h = &vm->h;
  e->movebuf = (AotMove **)&vm->movebuf;
  e->nmoves = &vm->nmoves;
  e->ret_pc1 = &vm->frames[1].ret_pc;
  e->fail = aot_fail;
  e->store = aot_store_slow;
  e->op = aot_op;
}

