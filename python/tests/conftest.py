"""Shared fixtures: the repository's files, the command-line binary the tests compare against,
and one Dask LocalCluster of two workers for the session."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def _binary() -> Path:
    named = os.environ.get("SUDOKIT_CLI")
    if named:
        return Path(named)
    for profile in ("release", "debug"):
        candidate = REPO / "target" / profile / "sudokit"
        if candidate.exists():
            return candidate
    raise RuntimeError(
        "the sudokit command line is not built: run `cargo build --release` at the "
        "repository's root (or set SUDOKIT_CLI)"
    )


@pytest.fixture(scope="session")
def cli():
    """Runs the command line in the repository's root; returns (exit code, stdout)."""
    binary = _binary()

    def run(*args: str, check_codes=(0, 1, 2)) -> tuple[int, str]:
        done = subprocess.run(
            [str(binary), *args], cwd=REPO, capture_output=True, text=True, timeout=600
        )
        assert done.returncode in check_codes, done.stderr
        return done.returncode, done.stdout

    return run


@pytest.fixture(scope="session")
def client():
    """A LocalCluster of two workers, one thread each, in this process (processes=False: the
    workers are threads, so the tests start fast; the tasks still go through the scheduler, its
    serialisation of arguments and results, and its retries)."""
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture()
def in_repo(monkeypatch):
    """Runs the test in the repository's root, so relative paths read as the CLI's do."""
    monkeypatch.chdir(REPO)
