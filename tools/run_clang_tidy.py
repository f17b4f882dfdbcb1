#!/usr/bin/env python3
"""Runs clang-tidy (configured by the repository's .clang-tidy) over the public header and every
src/**/*.cpp that a build compiles, using that build's compile_commands.json. CUDA sources (.cu)
are left out: clang-tidy would need the CUDA toolkit's own clang setup to parse them.

The header is checked on its own twice, as C99 and as C++17, since it must be clean in both.
A src/**/*.cpp that the build does not compile (cuda/unavailable.cpp in a CUDA build) is named in
the output, not silently passed over.

Usage: run_clang_tidy.py --build-dir build --source-dir . [--clang-tidy clang-tidy]
Exit status: 0 no findings, 1 findings or a failed run, 2 the check could not start.
"""
import argparse
import glob
import json
import os
import subprocess
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--clang-tidy", default="clang-tidy")
    args = parser.parse_args()

    database = os.path.join(args.build_dir, "compile_commands.json")
    try:
        with open(database, encoding="utf-8") as file:
            compiled = {os.path.realpath(os.path.join(e["directory"], e["file"])) for e in json.load(file)}
    except OSError as error:
        print(f"run_clang_tidy: {error} (configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON)", file=sys.stderr)
        return 2

    sources = sorted(glob.glob(os.path.join(args.source_dir, "src", "**", "*.cpp"), recursive=True))
    checked = [s for s in sources if os.path.realpath(s) in compiled]
    for source in sorted(set(sources) - set(checked)):
        print(f"not compiled by this build, so not checked: {source}")
    if not checked:
        print("run_clang_tidy: no src/**/*.cpp in the compile database", file=sys.stderr)
        return 2

    header = os.path.join(args.source_dir, "include", "sddmm.h")
    runs = [[args.clang_tidy, "--quiet", "-p", args.build_dir] + checked,
            [args.clang_tidy, "--quiet", header, "--", "-x", "c", "-std=c99"],
            [args.clang_tidy, "--quiet", header, "--", "-x", "c++", "-std=c++17"]]
    failed = False
    for command in runs:
        result = subprocess.run(command, capture_output=True, text=True)
        # clang-tidy prints findings on stdout and its "N warnings generated" chatter on stderr.
        findings = result.stdout.strip()
        if findings:
            print(findings)
        if result.returncode != 0:
            failed = True
            print(f"FAILED ({result.returncode}): {' '.join(command)}\n{result.stderr.strip()}")
    print(f"clang-tidy: {len(checked)} source file(s) and the header (C99, C++17): "
          f"{'findings' if failed else 'clean'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
