/*
** opcodes.h -- the instruction set of the gsolve VM, the single source of
** truth: the VM's dispatch, the disassembler and docs use this list.
**
** Code is an array of 32-bit words.  An instruction is its opcode word
** followed by 0 to 3 operand words, A, B and C:
**
**   +--------+--------+--------+--------+
**   | opcode |   A    |   B    |   C    |   (as many as the op says)
**   +--------+--------+--------+--------+
**
** The VM is a stack machine over 32-bit signed values.  A frame holds the
** locals of a rule or function (arguments first) below its operand stack.
** X(name, operands, synopsis): the synopsis is what --dump-bytecode shows.
*/
#ifndef GSOLVE_OPCODES_H
#define GSOLVE_OPCODES_H

#define OPCODE_LIST(X)                                                        \
  X(CONST,   1, "push A")                                                     \
  X(POP,     0, "drop the top value")                                         \
  X(DUP,     0, "push a copy of the top value")                               \
  X(LOADL,   1, "push local[A]")                                              \
  X(STOREL,  1, "local[A] := pop")                                            \
  X(LOADLI,  2, "i := pop; push local[A+i]  (0 <= i < B)")                    \
  X(STORELI, 2, "v := pop; i := pop; local[A+i] := v  (0 <= i < B)")          \
  X(CLEARL,  2, "local[A..A+B) := 0")                                        \
  X(LOADS,   1, "push state[A]")                                              \
  X(STORES,  1, "state[A] := pop  (range-checked, trailed, hashed)")          \
  X(LOADSI,  2, "i := pop; push state[A+i]  (0 <= i < B)")                    \
  X(STORESI, 2, "v := pop; i := pop; state[A+i] := v  (0 <= i < B)")          \
  X(LOADK,   2, "i := pop; push konst[A+i]  (0 <= i < B)")                    \
  X(CHECK,   1, "fail unless 0 <= top < A  (an index)")                       \
  X(ADD,     0, "b := pop; a := pop; push a+b  (overflow checked)")           \
  X(SUB,     0, "b := pop; a := pop; push a-b")                               \
  X(MUL,     0, "b := pop; a := pop; push a*b")                               \
  X(DIV,     0, "b := pop; a := pop; push a/b  (b != 0, rounds to -inf)")     \
  X(MOD,     0, "b := pop; a := pop; push a mod b  (b != 0, sign of b)")      \
  X(NEG,     0, "push -pop")                                                  \
  X(NOT,     0, "push !pop")                                                  \
  X(EQ,      0, "b := pop; a := pop; push a == b")                            \
  X(NE,      0, "b := pop; a := pop; push a != b")                            \
  X(LT,      0, "b := pop; a := pop; push a < b")                             \
  X(LE,      0, "b := pop; a := pop; push a <= b")                            \
  X(GT,      0, "b := pop; a := pop; push a > b")                             \
  X(GE,      0, "b := pop; a := pop; push a >= b")                            \
  X(ADDK,    1, "push pop + A  (overflow checked)")                           \
  X(JMP,     1, "pc := A")                                                    \
  X(JLT,     1, "b := pop; a := pop; if a < b: pc := A")                      \
  X(JLE,     1, "b := pop; a := pop; if a <= b: pc := A")                     \
  X(JGT,     1, "b := pop; a := pop; if a > b: pc := A")                      \
  X(JGE,     1, "b := pop; a := pop; if a >= b: pc := A")                     \
  X(JEQ,     1, "b := pop; a := pop; if a == b: pc := A")                     \
  X(JNE,     1, "b := pop; a := pop; if a != b: pc := A")                     \
  X(JLTK,    2, "a := pop; if a < B: pc := A")                                \
  X(JLEK,    2, "a := pop; if a <= B: pc := A")                               \
  X(JGTK,    2, "a := pop; if a > B: pc := A")                                \
  X(JGEK,    2, "a := pop; if a >= B: pc := A")                               \
  X(JEQK,    2, "a := pop; if a == B: pc := A")                               \
  X(JNEK,    2, "a := pop; if a != B: pc := A")                               \
  X(LOADLK,  2, "push local[A] + B  (overflow checked)")                      \
  X(LOADSL,  3, "push state[A+local[C]]  (0 <= local[C] < B)")                \
  X(LOADSXY, 2, "y := pop; x := pop; push state[A + the cell at (x, y)]")    \
  X(FORL,    3, "if local[A] < local[B]: local[A] += 1, count a step, pc := C") \
  X(FORK,    3, "if local[A] < B: local[A] += 1, count a step, pc := C")        \
  X(JMPF,    1, "if !pop: pc := A")                                           \
  X(JMPT,    1, "if pop: pc := A")                                            \
  X(LOOP,    1, "count a step against the budget; pc := A")                   \
  X(CALL,    2, "call function A with the top B values as arguments")         \
  X(RET,     0, "return pop to the caller")                                   \
  X(RET0,    0, "return from a function without a value")                     \
  X(NORET,   0, "fail: the function ended without 'return'")                  \
  X(STEP,    0, "d := pop; c := pop; push the neighbour of c towards d or -1")\
  X(AT,      0, "y := pop; x := pop; push the cell at (x, y)  (checked)")     \
  X(COLOF,   0, "push the column (x) of cell pop")                            \
  X(ROWOF,   0, "push the row (y) of cell pop")                               \
  X(LINE,    2, "d := pop; c := pop; push the run of equal state[A..A+B) "   \
                "through c along d and its opposite")                         \
  X(COUNTS,  2, "v := pop; push how many of state[A..A+B) equal v")          \
  X(NBRN,    0, "push the number of neighbours of cell pop")                  \
  X(NBR,     0, "i := pop; c := pop; push the i-th neighbour of c")           \
  X(OPPOSITE,0, "push the direction opposite to pop")                         \
  X(NEXTP,   0, "push the player after player pop")                           \
  X(ABS,     0, "push |pop|")                                                 \
  X(MIN,     0, "b := pop; a := pop; push min(a, b)")                         \
  X(MAX,     0, "b := pop; a := pop; push max(a, b)")                         \
  X(EMIT,    2, "add the move: rule A with arguments local[0..B)")            \
  X(SETNEXT, 0, "the player to move after this move := pop")                 \
  X(NEXTCHANCE, 0, "chance moves next, then player pop")                      \
  X(PAY,     0, "b := pop; p := pop; player p earns b on this move")          \
  X(ILLEGAL, 0, "the move being played is not legal: the effect stops")       \
  X(WIN,     0, "the game ends; player pop wins")                             \
  X(LOSE,    0, "the game ends; player pop loses")                            \
  X(DRAW,    0, "the game ends in a draw")                                    \
  X(SCORE,   1, "the game ends; the top A values are the payoffs")           \
  X(HALT,    0, "the chunk ends")

typedef enum OpCode {
#define OPCODE_ENUM(name, n, syn) OP_##name,
  OPCODE_LIST(OPCODE_ENUM)
#undef OPCODE_ENUM
  OP__COUNT
} OpCode;

/* Operand count and synopsis of each opcode (disasm.c). */
extern const unsigned char op_operands[OP__COUNT];
extern const char *const op_names[OP__COUNT];
extern const char *const op_synopsis[OP__COUNT];

#endif
