#!/usr/bin/env bash
# Installs the Debian packages nsed needs, only those that are missing.
# Idempotent and quiet when everything is present. Usable as root (CI) or
# through sudo. Stops with one clear sentence naming the package on failure.
set -euo pipefail

# Build tools and libraries (what `meson setup` needs) and the Python side
# (plots, the cffi binding). libsundials-dev pulls in PETSc/OpenMPI/HDF5
# (~160 packages, see docs/install.md); that weight is Debian's packaging.
# libjs-three is embedded into `nsed view`'s page; chromium loads that page
# headless in the test suite (tests/view).
PACKAGES=(
  build-essential meson ninja-build pkg-config
  libsiconos-numerics-dev libopenblas-dev liblapacke-dev libsundials-dev libyaml-dev libhdf5-dev
  libglpk-dev
  python3 python3-numpy python3-matplotlib python3-cffi python3-h5py python3-venv python3-setuptools
  python3-yaml python3-jsonschema
  openmpi-bin clang libclang-rt-14-dev valgrind time
  libjs-three chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "nsed: missing packages (${missing[*]}) and not root; install them with: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

echo "nsed: installing missing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
if ! $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
  # The package lists may be stale or absent on a fresh machine: refresh once.
  $SUDO apt-get update -q >>"$log" 2>&1 || true
  if ! $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
    for p in "${missing[@]}"; do
      if ! apt-cache show "$p" >/dev/null 2>&1; then
        echo "nsed: the Debian package '$p' cannot be found by apt-get; nsed needs it (log: $log)" >&2
        exit 1
      fi
    done
    echo "nsed: apt-get failed to install: ${missing[*]} (see $log)" >&2
    exit 1
  fi
fi
rm -f "$log"
