#!/usr/bin/env python3
"""Plants mistakes in copies of the real bindings and expects tools/check_bindings.py to refuse them.

A fixture (tests/packaging/fixtures/*_mistakes.txt) names a binding file and lists mistakes: a text
to replace (which must occur exactly once, so a fixture that no longer applies fails loudly), its
replacement, and the problems the checker must report. All mistakes are applied to a temporary copy;
the checker must exit with status 1, report every expected problem, and report nothing else: a
checker that misses a mistake, or flags a correct declaration, fails this test. Planting into the
real files keeps the fixtures valid as the header and the bindings grow together.

Usage: check_bindings_rejects.py --checker tools/check_bindings.py --header include/sddmm.h
                                 --source-dir . [--clang clang] FIXTURE ...
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def read_fixture(path: str):
    """(binding path, [(replace, with, [expected problems])])."""
    binding, mistakes = None, []
    for line in open(path, encoding="utf-8"):
        match = re.match(r"(binding|replace|with|expect):\s*(.*?)\s*$", line)
        if not match:
            continue
        key, value = match.group(1), match.group(2).replace("\\n", "\n")
        if key == "binding":
            binding = value
        elif key == "replace":
            mistakes.append([value, None, []])
        elif key == "with":
            mistakes[-1][1] = value
        else:
            mistakes[-1][2].append(value)
    return binding, mistakes


def check_fixture(args: argparse.Namespace, fixture: str, scratch: str) -> list:
    binding, mistakes = read_fixture(fixture)
    if not binding or not mistakes or any(w is None or not e for _, w, e in mistakes):
        return [f"{fixture}: needs a binding and, for each replace, a with and an expect"]
    text = open(os.path.join(args.source_dir, binding), encoding="utf-8").read()
    failures = []
    for old, new, _ in mistakes:
        count = text.count(old)
        if count != 1:
            failures.append(f"{fixture}: '{old}' occurs {count} times in {binding}, not once")
        text = text.replace(old, new)
    if failures:
        return failures
    planted = os.path.join(scratch, os.path.basename(binding))
    with open(planted, "w", encoding="utf-8") as file:
        file.write(text)

    language = "rust" if binding.endswith(".rs") else "julia"
    command = [sys.executable, args.checker, "--header", args.header, "--clang", args.clang, f"--{language}", planted]
    result = subprocess.run(command, capture_output=True, text=True)
    print(f"$ {' '.join(command)}\n{result.stdout}{result.stderr}")
    expected = [e for _, _, problems in mistakes for e in problems]
    reported = [line for line in result.stdout.splitlines() if line.strip() and " problem(s): " not in line]
    if result.returncode != 1:
        failures.append(f"{fixture}: exit status {result.returncode}, expected 1")
    failures += [f"{fixture}: not reported: {e}" for e in expected if not any(e in line for line in reported)]
    failures += [f"{fixture}: reported but not planted: {line}" for line in reported
                 if not any(e in line for e in expected)]
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checker", required=True)
    parser.add_argument("--header", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--clang", default="clang")
    parser.add_argument("fixtures", nargs="+")
    args = parser.parse_args()
    failures = []
    for fixture in args.fixtures:
        with tempfile.TemporaryDirectory() as scratch:
            failures += check_fixture(args, fixture, scratch)
    for failure in failures:
        print(f"FAIL {failure}")
    print("every planted mistake was reported, and nothing else" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
