"""The README's set-up commands on a bare machine, in a sandbox: a copy of the Makefile
and scripts/, with fake `id`, `dpkg-query`, `apt-get` and Python on the PATH standing
for a Debian 12 that lacks Pango, the fonts or Python's venv module.

As root the missing packages are installed with apt-get; otherwise make stops before
creating anything and prints the one command to run. A broken .venv is rebuilt."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = shutil.which("python3.11") or sys._base_executable  # a real 3.11, outside any venv
# The one list (scripts/debian-packages.txt), read as the set-up script reads it.
PDF_PACKAGES = [
    line
    for line in (ROOT / "scripts" / "debian-packages.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None, reason="needs make (the README's commands use it)"
)

FAKES = {
    # dpkg-query -W -f='${db:Status-Status}' PACKAGE: "installed" when listed in $FAKE/installed
    "dpkg-query": """#!/bin/sh
for last; do :; done
grep -qx "$last" "$FAKE/installed" && printf installed && exit 0
echo "dpkg-query: no packages found matching $last" >&2; exit 1
""",
    "id": """#!/bin/sh
cat "$FAKE/uid"
""",
    # apt-get records what it was asked and "installs" the packages
    "apt-get": """#!/bin/sh
echo "apt-get $*" >> "$FAKE/apt.log"
[ "$1" = install ] && for p; do case "$p" in -*|install) ;; *) echo "$p" >> "$FAKE/installed" ;; esac; done
exit 0
""",
    # Python 3.11 whose ensurepip exists only once python3.11-venv is "installed"
    "python3.11": f"""#!/bin/sh
case "$*" in *ensurepip*) grep -qx python3.11-venv "$FAKE/installed" || exit 1 ;; esac
exec {PYTHON} "$@"
""",
}


@pytest.fixture
def machine(tmp_path):
    """make(target, uid=..., installed=[...]) in a sandboxed copy of the project's set-up files."""
    project, fake = tmp_path / "muster", tmp_path / "fake"
    project.mkdir()
    fake.mkdir()
    shutil.copy(ROOT / "Makefile", project)
    shutil.copytree(ROOT / "scripts", project / "scripts")
    for name, text in FAKES.items():
        (fake / name).write_text(text)
        (fake / name).chmod(0o755)

    def make(target, *, uid=1000, installed=(), python="python3.11"):
        (fake / "uid").write_text(f"{uid}\n")
        (fake / "installed").write_text("".join(f"{p}\n" for p in installed))
        env = {
            **os.environ,
            "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
            "FAKE": str(fake),
            # a new venv's `pip install --upgrade pip` then keeps the bundled pip, without the network
            "PIP_NO_INDEX": "1",
            "PIP_FIND_LINKS": "",
        }
        env.pop("MAKEFLAGS", None)
        done = subprocess.run(
            ["make", "-s", target, f"PYTHON={python}"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        done.apt = (fake / "apt.log").read_text() if (fake / "apt.log").exists() else ""
        return done

    make.project = project
    return make


def created(project: Path) -> set[str]:
    return {p.name for p in project.iterdir()} - {"Makefile", "scripts"}


@pytest.mark.parametrize("target", ["run", "test"])
def test_without_root_a_missing_package_stops_make_before_anything_is_created(machine, target):
    done = machine(target, installed=["python3.11-venv"])  # no Pango, no fonts
    assert done.returncode != 0
    assert "Run this command as root" in done.stderr
    assert (
        f"\n    apt-get install -y {' '.join(PDF_PACKAGES)}\n" in done.stderr
    )  # no sudo: a bare Debian has none
    assert "sudo" not in done.stderr
    assert done.apt == ""  # nothing installed
    assert created(machine.project) == set()  # no .venv, no var/


def test_without_root_the_venv_module_is_named_with_the_rest(machine):
    done = machine("install", installed=PDF_PACKAGES[:-1])
    assert done.returncode != 0
    assert f"    apt-get install -y python3.11-venv {PDF_PACKAGES[-1]}\n" in done.stderr
    assert created(machine.project) == set()


def test_as_root_the_missing_packages_are_installed_with_apt_get(machine):
    done = machine("system", uid=0, installed=PDF_PACKAGES[1:2])
    assert done.returncode == 0, done.stderr
    wanted = [p for p in PDF_PACKAGES if p != PDF_PACKAGES[1]]
    assert done.apt.splitlines() == [
        "apt-get update -q",
        f"apt-get install -y -q --no-install-recommends python3.11-venv {' '.join(wanted)}",
    ]
    assert (
        machine("system", uid=0, installed=["python3.11-venv", *PDF_PACKAGES]).apt == done.apt
    )  # then: nothing


def test_as_root_a_machine_without_python_gets_it(machine, tmp_path):
    fake, tools = tmp_path / "fake", tmp_path / "tools"
    (fake / "python3.11").unlink()
    tools.mkdir()  # a PATH with what the commands use, and no python3.11 anywhere on it
    for tool in ("make", "sh", "grep", "cat", "sed", "tr", "dirname"):
        (tools / tool).symlink_to(shutil.which(tool))
    (fake / "installed").write_text("".join(f"{p}\n" for p in PDF_PACKAGES))
    (fake / "uid").write_text("0\n")
    done = subprocess.run(
        ["make", "-s", "system"],
        cwd=machine.project,
        capture_output=True,
        text=True,
        env={"PATH": f"{fake}{os.pathsep}{tools}", "FAKE": str(fake)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (fake / "apt.log").read_text().splitlines()[-1] == (
        "apt-get install -y -q --no-install-recommends python3.11 python3.11-venv"
    )


def test_a_python_older_than_3_11_is_refused(machine, tmp_path):
    old = tmp_path / "fake" / "python-old"
    old.write_text(
        f"#!/bin/sh\ncase \"$*\" in *version_info*) exit 1;; -V) echo Python 3.9.2;; esac\nexec {PYTHON} \"$@\"\n"
    )
    old.chmod(0o755)
    done = machine("install", python="python-old", installed=["python3.11-venv", *PDF_PACKAGES])
    assert (
        done.returncode != 0
        and "needs Python 3.11 or newer; python-old is Python 3.9.2" in done.stderr
    )
    assert created(machine.project) == set()


def test_a_venv_without_pip_is_rebuilt(machine):
    venv = machine.project / ".venv"
    # What `python3.11 -m venv` left when Debian's venv module was missing: no pip in it.
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True)
    done = machine("venv", installed=["python3.11-venv", *PDF_PACKAGES])
    assert done.returncode == 0, done.stderr
    assert ".venv is broken (no working Python or pip in it): rebuilding it." in done.stdout
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "--version"], capture_output=True, text=True
    )
    assert pip.returncode == 0, pip.stderr
    assert (
        "rebuilding" not in machine("venv", installed=["python3.11-venv", *PDF_PACKAGES]).stdout
    )  # healthy now


def test_a_venv_without_python_is_removed_and_a_failed_creation_leaves_none(machine, tmp_path):
    venv = machine.project / ".venv"
    venv.mkdir()
    (venv / "pyvenv.cfg").write_text("home = /nowhere\n")  # no bin/python
    failing = (
        tmp_path / "fake" / "python-venv-fails"
    )  # makes half a venv, then fails, as without ensurepip
    failing.write_text(f"""#!/bin/sh
[ "$1" = -m ] && [ "$2" = venv ] && mkdir -p "$3/bin" && ln -s {PYTHON} "$3/bin/python" && exit 1
exec {PYTHON} "$@"
""")
    failing.chmod(0o755)
    done = machine("venv", python="python-venv-fails", installed=["python3.11-venv", *PDF_PACKAGES])
    assert done.returncode != 0
    assert ".venv is broken (no working Python or pip in it): rebuilding it." in done.stdout
    assert "Could not create .venv with python-venv-fails." in done.stderr
    assert not venv.exists()  # never a half-made one for the next make to trip on
