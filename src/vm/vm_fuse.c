/*
** vm_fuse.c -- the interpreter's superinstructions: pairs of instructions
** that follow each other often in hot code (a board cell tested and
** branched on, a loop's increment and its jump back, a generator's test
** and its move) run as one dispatch.
**
** The program's code is never changed: the VM runs a copy (VM.code) in
** which the first instruction of each such pair has its opcode word
** rewritten to a fused one (OPF_*, numbered after the program's opcodes).
** Every operand word stays where it was, and so does the second
** instruction: a jump may still land on it, and runs it alone.  The fused
** handler (interp.c) does exactly what the two would, reads the second's
** operands in place, and reports a runtime error at the position of the
** part that failed.  The compiled tier, the disassembler and defer.c see
** only the program's code.
*/
#include "vm/vm_int.h"

#include <stdlib.h>
#include <string.h>

/* Each fused opcode's parts: the first instruction, then the second. */
const int vm_fused_parts[OPF__END - OP__COUNT][2] = {
#define PARTS(a, b) [OPF_##a##_##b - OP__COUNT] = { OP_##a, OP_##b },
  VM_FUSED_PAIRS(PARTS)
#undef PARTS
};

int32_t *vm_fuse(const Program *p) {
  int32_t *code = malloc(((size_t)p->ncode + 1) * sizeof *code);
  if (!code) return NULL;
  memcpy(code, p->code, (size_t)p->ncode * sizeof *code);
  /* The code is one stream of instructions from 0: each one's operands
  ** follow its opcode word. */
  for (int pc = 0; pc < p->ncode; pc += 1 + op_operands[p->code[pc]]) {
    int op = p->code[pc];
    if (op < 0 || op >= OP__COUNT) break;   /* never in a checked program */
    int next = pc + 1 + op_operands[op];
    if (next >= p->ncode) break;
    for (int f = OP__COUNT; f < OPF__END; f++)
      if (vm_fused_parts[f - OP__COUNT][0] == op && vm_fused_parts[f - OP__COUNT][1] == p->code[next]) code[pc] = f;
  }
  return code;
}
