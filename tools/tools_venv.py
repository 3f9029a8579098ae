"""Runs a tool script inside tools/.venv (made with Debian's python3 -m venv), with what it imports installed.

Standard library only: the scripts import it before anything the venv provides.
"""
import os
import subprocess
import sys
from pathlib import Path

VENV = Path(__file__).resolve().parent / ".venv"


def reexec_in_venv(script: str, requirements: list[str], modules: list[str]) -> None:
    """Returns at once inside tools/.venv; otherwise creates it when missing, installs
    `requirements` when one of `modules` cannot be imported, and re-executes `script`
    with the same arguments in it."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"{Path(script).stem}: creating {VENV} with {', '.join(requirements)}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if subprocess.run([str(python), "-c", "import " + ", ".join(modules)], capture_output=True).returncode:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *requirements], check=True)
    os.execv(str(python), [str(python), str(Path(script).resolve()), *sys.argv[1:]])
