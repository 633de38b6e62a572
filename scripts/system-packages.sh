#!/bin/sh
# The system packages Muster needs, checked before anything is created (make run,
# make test): Python 3.11+ with its venv module (Debian ships it apart), and the PDF
# packages listed in scripts/debian-packages.txt (Pango, HarfBuzz's subsetter, the DejaVu
# fonts). Run as root on Debian, it installs what is missing with apt-get; otherwise it
# stops and prints the one command to run as root.
#
#   sh scripts/system-packages.sh [PYTHON]
set -eu

PYTHON=${1:-python3.11}
PDF_PACKAGES=$(sed -e 's/#.*//' "$(dirname "$0")/debian-packages.txt" | tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//')
missing=""

need() {
    for package in "$@"; do
        case " $missing " in *" $package "*) ;; *) missing="${missing:+$missing }$package" ;; esac
    done
}

# Python and its venv module (Debian: python3.X-venv, which holds ensurepip).
if command -v "$PYTHON" >/dev/null 2>&1; then
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "Muster needs Python 3.11 or newer; $PYTHON is $("$PYTHON" -V 2>&1). Use PYTHON=... to name another." >&2
        exit 1
    fi
    if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
        need "python3.$("$PYTHON" -c 'import sys; print(sys.version_info[1])')-venv"
    fi
elif [ "$PYTHON" = python3.11 ]; then
    need python3.11 python3.11-venv
else
    echo "Muster needs Python 3.11 or newer: $PYTHON was not found. Use PYTHON=... to name another." >&2
    exit 1
fi

# Pango and the fonts: on Debian, by package; elsewhere, whether Pango loads at all.
if command -v dpkg-query >/dev/null 2>&1; then
    for package in $PDF_PACKAGES; do
        [ "$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null)" = installed ] || need "$package"
    done
elif ! "$PYTHON" -c '
import ctypes, ctypes.util, sys
def loads(soname, name):
    for candidate in (soname, ctypes.util.find_library(name)):
        try:
            ctypes.CDLL(candidate)
            return True
        except (OSError, TypeError):
            pass
    return False
sys.exit(not all(loads(s, n) for s, n in [("libpango-1.0.so.0", "pango-1.0"), ("libpangoft2-1.0.so.0", "pangoft2-1.0")]))
' 2>/dev/null; then
    echo "Muster's PDFs need Pango 1.44 or newer (WeasyPrint) and the DejaVu fonts: install them with your" >&2
    echo "system's package manager (Debian: $PDF_PACKAGES), then run make again." >&2
    exit 1
fi

[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing the Debian packages Muster needs: $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    # shellcheck disable=SC2086  # one word per package
    apt-get install -y -q --no-install-recommends $missing
else
    echo "Muster needs these Debian packages, which are missing: $missing" >&2
    echo "Nothing was created. Run this command as root (in a root shell, su - on a plain Debian), then run make again:" >&2
    echo "    apt-get install -y $missing" >&2
    exit 1
fi
