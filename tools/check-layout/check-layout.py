#!/usr/bin/env python3
"""Checks the rules of Documentation/Architecture.md that a compiler does not: pointer code
lives only where the architecture allows it, and functions stay short enough to read at once.

Usage: tools/check-layout/check-layout.py [--max-lines N]   (from the package root)
Exits 1 and names every file or function that breaks a rule.
"""
import os
import re
import sys

# Where code may name a pointer type (`Unsafe...`): the storage layer's system-call and raw-byte
# layer, the checksum code, the engine, and the web server's socket file. Everything else is safe Swift.
POINTER_HOMES = ("Sources/LedgerStorage/IO/", "Sources/LedgerStorage/Checksums/",
                 "Sources/CLedgerChecksums/", "Sources/CLedgerPrefetch/", "Sources/CLedgerCompression/",
                 "Sources/ContactsEngine/",
                 "Sources/LedgerServer/HTTP/Socket.swift")
# One file outside them names a pointer type without doing pointer work: the Contacts framework's
# enumeration block takes `UnsafeMutablePointer<ObjCBool>` for its stop flag, and code written
# for the framework must compile unchanged against ContactsCompat (decision 0028).
POINTER_SIGNATURES = ("Sources/ContactsCompat/CNContactStore+Enumeration.swift",)
POINTER = re.compile(r"Unsafe|unsafe(Mutable)?Address|unsafeBitCast")
CHECKED = ("Package.swift", "Sources", "Migrations", "tools")
MODIFIERS = (r"(?:public|package|internal|private|fileprivate|open|static|class|final|override|"
             r"mutating|nonmutating|convenience|required|nonisolated|consuming|borrowing)")
DECLARATION = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:" + MODIFIERS + r"\s+)*"
                         r"(?:func\s|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")


def swift_files():
    for top in CHECKED:
        if os.path.isfile(top):
            yield top
            continue
        for root, _, names in os.walk(top):
            for name in sorted(names):
                if name.endswith((".swift", ".c", ".h")):
                    yield os.path.join(root, name)


def code_of(line):
    """The line without string literals and its trailing comment, for counting braces."""
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', line).split("//")[0]


def long_functions(path, lines, limit):
    for start, line in enumerate(lines):
        if not DECLARATION.match(line):
            continue
        depth, opened = 0, False
        for end in range(start, len(lines)):
            code = code_of(lines[end])
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                if end - start + 1 > limit:
                    yield f"{path}:{start + 1}: a function of {end - start + 1} lines (at most {limit})"
                break
            if not opened and end > start + 15:
                break


def main():
    limit = 75
    if "--max-lines" in sys.argv:
        limit = int(sys.argv[sys.argv.index("--max-lines") + 1])
    problems = []
    for path in swift_files():
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
        if not path.startswith(POINTER_HOMES) and path not in POINTER_SIGNATURES and any(POINTER.search(line) for line in lines):
            problems.append(f"{path}: pointer code outside {', '.join(POINTER_HOMES)}")
        if path.endswith(".swift"):
            problems.extend(long_functions(path, lines, limit))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
