#!/usr/bin/env python3
"""Checks that a shared libsddmm exports exactly the functions declared in include/sddmm.h.

Lists the library's defined dynamic symbols (`nm -D --defined-only`) and compares them with the
header's functions (read through clang, as check_bindings.py does). Anything else exported, such as
a C++ symbol or a piece of CUB, Thrust or the CUDA runtime linked in statically, is an error, and so
is a header function that is missing or is not a function (nm type T).

Usage: check_exports.py --header include/sddmm.h --library libsddmm.so [--nm nm] [--clang clang]
Exit status: 0 exact match, 1 a difference (listed on stdout), 2 the check could not run.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sddmm_header import load_header  # noqa: E402


def exported_symbols(nm: str, library: str) -> dict:
    """{name: nm type letter} of the defined dynamic symbols; version suffixes (@@V) dropped."""
    result = subprocess.run([nm, "-D", "--defined-only", library], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{nm} -D --defined-only {library} failed:\n{result.stderr}")
    symbols = {}
    for line in result.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 2:
            symbols[fields[-1].split("@")[0]] = fields[-2]
    return symbols


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--header", required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--clang", default="clang")
    args = parser.parse_args()
    try:
        declared = set(load_header(args.header, args.clang).functions)
        exported = exported_symbols(args.nm, args.library)
    except (OSError, RuntimeError, ValueError) as error:
        print(f"check_exports: {error}", file=sys.stderr)
        return 2

    problems = [f"exported but not in the header: {name} (nm type {exported[name]})"
                for name in sorted(set(exported) - declared)]
    problems += [f"declared in the header but not exported: {name}" for name in sorted(declared - set(exported))]
    problems += [f"{name} is exported with nm type {exported[name]}, not as a function (T)"
                 for name in sorted(declared & set(exported)) if exported[name] != "T"]
    for problem in problems:
        print(problem)
    print(f"{args.library}: {len(exported)} exported symbols, {len(declared)} header functions: "
          f"{'ok' if not problems else f'{len(problems)} problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
