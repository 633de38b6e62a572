#!/bin/sh
# The project's virtualenv: made when missing, rebuilt when broken (no bin/python, a
# Python that no longer runs, or no pip, as a venv made while Debian's venv module was
# missing is left).
#
#   sh scripts/venv.sh PYTHON VENV
set -eu

PYTHON=$1
VENV=$2

healthy() {
    "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 \
        && "$VENV/bin/python" -m pip --version >/dev/null 2>&1
}

if [ -e "$VENV" ] && ! healthy; then
    echo "$VENV is broken (no working Python or pip in it): rebuilding it."
    rm -rf "$VENV"
fi
if [ ! -e "$VENV" ]; then
    if ! "$PYTHON" -m venv "$VENV"; then
        rm -rf "$VENV"  # never leave a half-made one behind
        echo "Could not create $VENV with $PYTHON." >&2
        exit 1
    fi
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi
