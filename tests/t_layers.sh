# The include graph of src/ against its layers (docs/architecture.md): no
# folder includes a header of a folder above it.
check "src/ includes respect the layers" "layers: 0 violations" \
  "$(python3 tests/check_layers.py 2>&1 | tail -n 1)"
