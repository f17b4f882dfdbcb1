#!/usr/bin/env bash
# Runs a command with address-space layout randomisation off, where the kernel lets a process ask.
# For the sanitizer runs of scripts/test.sh and scripts/fuzz.sh: clang 14's ThreadSanitizer (Debian 12)
# fits its shadow memory around at most 28 bits of mmap randomisation (vm.mmap_rnd_bits); newer
# kernels may use up to 32. Measured here with the TSan suite binary, the sysctl set by hand: at 28
# bits (this machine's setting) the whole suite ran twice; at 29, 9 of 15 starts died at once
# ("FATAL: ThreadSanitizer: unexpected memory mapping"); at 30 and 31 all 30 died, 3 of them by
# SIGSEGV; at 32 all 20. Under `setarch -R` at 32 bits, 10 of 10 ran. CI on 1867dd2 most likely died
# the SIGSEGV way, mid-suite (TSan reported the handler doctest runs for the signal, not the signal).
# LLVM 18 re-executes itself without ASLR; clang 14 does not, so this script does. Where setarch is
# refused (a sandbox that forbids personality(2)), the command runs as is, and says so.
set -euo pipefail
arch=$(uname -m)
if setarch "$arch" -R true 2>/dev/null; then
  exec setarch "$arch" -R "$@"
fi
echo "no-aslr.sh: setarch -R refused; running with ASLR (vm.mmap_rnd_bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo unknown))" >&2
exec "$@"
