# The solvers' unit tests in C (tests/unit/test_solvers.c): every solver
# against hand-written engines with known values.
unit "unit tests of the solvers (tests/unit/test_solvers.c)" "$BUILD/test_solvers"
# CFR and the tree expansion (tests/unit/test_cfr.c): Kuhn and Leduc engines in C.
unit "unit tests of CFR (tests/unit/test_cfr.c)" "$BUILD/test_cfr"
