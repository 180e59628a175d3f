"""Shared pytest fixtures for the third-party client tests.

The server under test is named by command-line options or environment variables:

    --nfs-host / TCNFS_HOST      (default 127.0.0.1)
    --nfs-port / TCNFS_PORT      (default 2049)
    --nfs-export / TCNFS_EXPORT  (default "/": the export's path in the server's namespace)
    --nfs-rs-version / TCNFS_NFS_RS_VERSION  (default "4.1"; "4.0" runs the nfs-rs tests over NFSv4.0)

Every test works inside a fresh directory of its own under the export, so the tests can run repeatedly
and side by side against one server. Nothing here starts a server; the Java harness (ServerProcess) or
a person does that.
"""

import dataclasses
import hashlib
import os
import random
import uuid

import pytest


@dataclasses.dataclass(frozen=True)
class NfsTarget:
    host: str
    port: int
    export: str
    nfs_rs_version: str = "4.1"

    @property
    def export_path(self) -> str:
        """The export path without leading or trailing slashes ("" for the root)."""
        return self.export.strip("/")

    def nfs_rs_url(self) -> str:
        return f"nfs://{self.host}:{self.port}/{self.export_path}?version={self.nfs_rs_version}&noresvport=true"


def pytest_addoption(parser):
    group = parser.getgroup("tcnfs")
    group.addoption("--nfs-host", default=os.environ.get("TCNFS_HOST", "127.0.0.1"),
                    help="NFSv4.1 server address")
    group.addoption("--nfs-port", type=int, default=int(os.environ.get("TCNFS_PORT", "2049")),
                    help="NFSv4.1 server TCP port")
    group.addoption("--nfs-export", default=os.environ.get("TCNFS_EXPORT", "/"),
                    help="path of the export in the server's NFSv4 namespace")
    group.addoption("--nfs-rs-version", default=os.environ.get("TCNFS_NFS_RS_VERSION", "4.1"),
                    choices=["4.0", "4.1"], help="NFSv4 minor version nfs-rs speaks")


@pytest.fixture(scope="session")
def target(request) -> NfsTarget:
    return NfsTarget(
        host=request.config.getoption("--nfs-host"),
        port=request.config.getoption("--nfs-port"),
        export=request.config.getoption("--nfs-export"),
        nfs_rs_version=request.config.getoption("--nfs-rs-version"),
    )


@pytest.fixture
def unique_name(request) -> str:
    """A directory name no other test run uses: pyit-<test>-<random>."""
    test = request.node.name.replace("[", "-").replace("]", "").replace("/", "_")[:40]
    return f"pyit-{test}-{uuid.uuid4().hex[:8]}"


# Sizes that cross the interesting boundaries: empty, one byte, a page, the usual 1 MiB READ/WRITE
# limit, the 8 MiB chunking of nfs4fs and the 16 MiB read budget, and 64 MiB.
SIZES = [0, 1, 4095, 4096, 4097, 65536, 1048575, 1048576, 1048577, 8 * 1048576 + 3, 17 * 1048576 + 5,
         64 * 1048576]


def payload(size: int, seed: int) -> bytes:
    """Deterministic pseudo-random bytes (not all-zero, so holes or lost writes show)."""
    return random.Random(seed * 1_000_003 + size).randbytes(size)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
