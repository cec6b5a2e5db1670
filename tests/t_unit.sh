# The solvers' unit tests in C (tests/unit/test_solvers.c): every solver
# against hand-written engines with known values.
unit "unit tests of the solvers (tests/unit/test_solvers.c)" "$BUILD/test_solvers"
