/*
** gsolve.h -- the public API, as one header: compile a .game file
** (compiler/compiler.h), make an engine for it, the VM (vm/vm.h) or a
** native one (engines/engines.h), and drive it through the game
** interface (game/game.h).  The command line, the fuzz harnesses and the
** unit tests include this; the layers below include what they use.
*/
#ifndef GSOLVE_H
#define GSOLVE_H

#include "game/game.h"
#include "compiler/compiler.h"
#include "vm/vm.h"
#include "engines/engines.h"

#endif
