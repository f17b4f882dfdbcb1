#!/usr/bin/env bash
# Installs what building and testing sddmm needs on Debian, if missing. Idempotent; needs root (or sudo).
# The CUDA toolkit is not installed here: with nvcc on PATH the CUDA backend is built, without it the
# CPU-only library is.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config doctest-dev clang clang-tidy libclang-rt-14-dev libomp-14-dev python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: nvcc found at /usr/local/cuda/bin (add it to PATH to build the CUDA backend)"
fi
echo "install-deps: ok"
