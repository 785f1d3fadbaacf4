#!/usr/bin/env python3
"""The house's size rules: no source file over 600 lines, no function in core/ or datasets/ over
100 lines. Prints the largest of each and fails naming every file or function over its limit.

    tools/check_sizes.py [REPO_ROOT]

Functions are found by the layout every file here follows: a definition's opening brace alone at
the start of a line, its closing brace alone at the start of a line (namespaces, classes and
structs are skipped by their first word).
"""
import os
import re
import sys

FILE_LIMIT = 600
FUNCTION_LIMIT = 100
SOURCE_FOLDERS = ("app", "core", "datasets", "ui", "tests", "tools")
FUNCTION_FOLDERS = ("core", "datasets")
NOT_FUNCTIONS = re.compile(r"^\s*(namespace|class|struct|enum|union|extern)\b")


def sources(root):
    for folder in SOURCE_FOLDERS:
        for directory, _, names in os.walk(os.path.join(root, folder)):
            for name in names:
                if name.endswith((".cpp", ".h")):
                    yield os.path.join(directory, name)


def functions(lines):
    """(first line number, length, signature) of each top-level function body."""
    found = []
    for number, line in enumerate(lines):
        if line.rstrip("\n") != "{":
            continue
        signature_line = number - 1
        while signature_line > 0 and lines[signature_line].strip() and not lines[signature_line].startswith(" ") \
                and not re.match(r"^[A-Za-z_~].*\(", lines[signature_line]):
            signature_line -= 1
        signature = lines[signature_line].strip() if signature_line >= 0 else ""
        if NOT_FUNCTIONS.match(signature):
            continue
        end = number + 1
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        found.append((signature_line + 1, end - signature_line + 1, signature))
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(root)
    failures = []
    largest_file = (0, "")
    largest_function = (0, "")
    for path in sources(root):
        relative = os.path.relpath(path, root)
        if relative.startswith(("build", "tools/fuzz/corpus")):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        largest_file = max(largest_file, (len(lines), relative))
        if len(lines) > FILE_LIMIT:
            failures.append("%s: %d lines (limit %d)" % (relative, len(lines), FILE_LIMIT))
        if relative.split(os.sep)[0] in FUNCTION_FOLDERS and path.endswith(".cpp"):
            for first, length, signature in functions(lines):
                largest_function = max(largest_function, (length, "%s:%d %s" % (relative, first, signature)))
                if length > FUNCTION_LIMIT:
                    failures.append("%s:%d: function of %d lines (limit %d): %s"
                                    % (relative, first, length, FUNCTION_LIMIT, signature))
    print("largest file: %s (%d lines)" % (largest_file[1], largest_file[0]))
    print("largest function in core/ and datasets/: %s (%d lines)" % (largest_function[1], largest_function[0]))
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
