/*
** opcodes.h -- the VM's instruction set as C: the OpCode enum, operand
** shapes, stack effects, jumps and ends of runs, all generated from
** opcodes.def, which lists each instruction once with its synopsis.
*/
#ifndef GSOLVE_OPCODES_H
#define GSOLVE_OPCODES_H

#include <stdint.h>

typedef enum OpCode {
#define OPCODE(name, shape, pops, pushes, flow, syn) OP_##name,
#include "compiler/opcodes.def"
#undef OPCODE
  OP__COUNT
} OpCode;

/* What an instruction's operand words are (disasm.c prints each shape). */
typedef enum OpShape {
#define OPSHAPE(name, n, jump, meaning) SHAPE_##name,
#include "compiler/opcodes.def"
#undef OPSHAPE
  SHAPE__COUNT
} OpShape;

/* The number of operand words of each shape: SHAPE_WORDS_IMM is 1. */
enum {
#define OPSHAPE(name, n, jump, meaning) SHAPE_WORDS_##name = n,
#include "compiler/opcodes.def"
#undef OPSHAPE
};

/* Per opcode (disasm.c): operand count, shape, name and synopsis. */
extern const unsigned char op_operands[OP__COUNT];
extern const unsigned char op_shape[OP__COUNT];
extern const char *const op_names[OP__COUNT];
extern const char *const op_synopsis[OP__COUNT];

/* The values instruction `op` with operands A and B takes from its frame's
** operand stack and leaves there; R is 1 when the function a CALL calls
** returns a value.  The compiler's stack accounting and the VM's checked
** build (VM_CHECK_STACK) both read the effects declared in opcodes.def. */
static inline int op_pops(int op, int32_t A, int32_t B) {
  (void)A; (void)B;
  switch (op) {
#define OPCODE(name, shape, pops, pushes, flow, syn) case OP_##name: return (pops);
#include "compiler/opcodes.def"
#undef OPCODE
    default: return 0;
  }
}

static inline int op_pushes(int op, int32_t A, int32_t B, int R) {
  (void)A; (void)B; (void)R;
  switch (op) {
#define OPCODE(name, shape, pops, pushes, flow, syn) case OP_##name: return (pushes);
#include "compiler/opcodes.def"
#undef OPCODE
    default: return 0;
  }
}

/* For the code analyses of compiler/defer.c and vm/aot_gen.c: whether op
** ends a run of code (nothing after it runs: flow END in opcodes.def),
** whether the instruction at pc writes local a, and the jump target of
** the one at pc (else -1: its shape's jump column). */
#define OP_FLOW_NEXT 0
#define OP_FLOW_END 1
static inline int op_ends_run(int op) {
  switch (op) {
#define OPCODE(name, shape, pops, pushes, flow, syn) case OP_##name: return OP_FLOW_##flow;
#include "compiler/opcodes.def"
#undef OPCODE
    default: return 0;
  }
}

static inline int op_writes_local(const int32_t *code, int pc, int a) {
  switch (code[pc]) {
    case OP_STOREL: case OP_FORL: case OP_FORK: case OP_SETL: case OP_INCL: case OP_TEEL:
      return code[pc + 1] == a;
    case OP_STORELI: case OP_CLEARL: return a >= code[pc + 1] && a < code[pc + 1] + code[pc + 2];
    default: return 0;
  }
}

/* The operand word of each shape that holds a jump target; 0: none. */
enum {
#define OPSHAPE(name, n, jump, meaning) SHAPE_JUMP_##name = jump,
#include "compiler/opcodes.def"
#undef OPSHAPE
};

/* Which operand word of op holds its jump target (1: A, 3: C); 0: none. */
static inline int op_jump_operand(int op) {
  switch (op) {
#define OPCODE(name, shape, pops, pushes, flow, syn) case OP_##name: return SHAPE_JUMP_##shape;
#include "compiler/opcodes.def"
#undef OPCODE
    default: return 0;
  }
}

static inline int op_jump_target(const int32_t *code, int pc) {
  int w = op_jump_operand(code[pc]);
  return w ? code[pc + w] : -1;
}

#endif
