#!/bin/sh
# build.sh -- the README's first command: on a fresh machine, installs
# what the build needs (a C compiler, make, Flex, Bison, GLPK, libmicrohttpd)
# with apt-get when any is missing -- as root, or through sudo -- then runs `make demo`,
# which builds ./gsolve and solves games/nim.game.  Without apt-get, or
# without the right to install, it says what to install and stops (exit 1).
# POSIX sh: a minimal Debian has dash and nothing else.
#
#   ./build.sh          (or: sh build.sh)
#
# Then `make test` runs the test suite (it installs its own tools the
# same way, or says which are missing).
set -eu
cd "$(dirname "$0")"

need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
command -v flex >/dev/null 2>&1 || need="$need flex"
command -v bison >/dev/null 2>&1 || need="$need bison"
[ -e /usr/include/glpk.h ] || need="$need libglpk-dev"              # --solver lp (GLPK, GMP)
[ -e /usr/include/microhttpd.h ] || need="$need libmicrohttpd-dev"    # gsolve serve

if [ -n "$need" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "build.sh: gsolve needs:$need (install them with your system's packages, then run make demo)" >&2
    exit 1
  fi
  if [ "$(id -u)" = 0 ]; then
    as_root=""
  elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
  else
    echo "build.sh: gsolve needs:$need; as root: apt-get install$need" >&2
    exit 1
  fi
  echo "build.sh: installing$need"
  $as_root apt-get update -qq
  # (DEBCONF_NOWARNINGS: no "delaying package configuration" note on a
  # system without apt-utils)
  $as_root env DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq $need >/dev/null
fi

exec make demo
