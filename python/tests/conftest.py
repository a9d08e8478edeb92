"""Fixtures of the Python module's tests: the `lastwave` CLI binary (the independent path the
module's outputs are compared with) and the repository files the tests read. Run by
python/tests/run_pytest.sh (bazel test //python/tests:pytest)."""

import os
import subprocess

import pytest

R17 = "configs/models/h200-bf16-wgmma-r17.json"


@pytest.fixture(scope="session")
def cli():
    """Runs the lastwave CLI with `args`; returns its stdout (the test fails on a non-zero exit)."""
    binary = os.environ["LASTWAVE_CLI"]

    def run(*args: str) -> str:
        done = subprocess.run([binary, *args], capture_output=True, text=True)
        assert done.returncode == 0, f"lastwave {' '.join(args)}: {done.stderr}"
        return done.stdout

    return run


@pytest.fixture(scope="session")
def cli_error():
    """Runs the lastwave CLI expecting a one-line error (exit 2); returns that line's message."""
    binary = os.environ["LASTWAVE_CLI"]

    def run(*args: str) -> str:
        done = subprocess.run([binary, *args], capture_output=True, text=True)
        assert done.returncode == 2, f"lastwave {' '.join(args)} exited {done.returncode}"
        return done.stderr.strip().split(": error: ", 1)[1]

    return run
