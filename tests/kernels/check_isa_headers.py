#!/usr/bin/env python3
"""Checks that the project headers the ISA translation units include hold no code.

Files under src/kernels/optimized/<isa>/ are compiled with their own instruction-set flags
(-mavx2, -mavx512...). An inline function, template or constexpr function in a header they
include would be emitted there with those instructions, and the linker may pick that copy for
every caller: a SIGILL on a CPU without the ISA. So the interface headers they share with
portable code (qgemm.h, qdw.h, ...) must be plain declarations and aggregates. Headers inside
an ISA directory (requant_avx2.h, ...) are that ISA's own and exempt.

usage: check_isa_headers.py SRC_DIR   (exit 0 when clean, 1 listing each offending line)
"""
import os
import re
import sys

ISA_DIRS = ("x86", "arm")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Code in a header: the inline keyword, a template, or a function body (a closing parenthesis,
# optional qualifiers, then a brace).
CODE = [
    (re.compile(r"\binline\b"), "inline function"),
    (re.compile(r"\btemplate\s*<"), "template"),
    (re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(->\s*[\w:<>]+\s*)?\{"), "function body"),
]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def isa_private(path, optimized):
    rel = os.path.relpath(path, optimized)
    return rel.split(os.sep)[0] in ISA_DIRS


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1])
        return 2
    src = os.path.abspath(sys.argv[1])
    optimized = os.path.join(src, "kernels", "optimized")
    roots = []
    for isa in ISA_DIRS:
        d = os.path.join(optimized, isa)
        if os.path.isdir(d):
            roots += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".cc")]
    if not roots:
        print(f"no ISA translation units under {optimized}")
        return 1
    # Every project header reachable from an ISA file, with who includes it.
    seen, pending, problems = {}, list(roots), []
    while pending:
        path = pending.pop()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for name in INCLUDE.findall(text):
            header = os.path.join(src, name)
            if not os.path.isfile(header) or header in seen:
                continue
            seen[header] = path
            pending.append(header)
    for header, includer in sorted(seen.items()):
        if isa_private(header, optimized):
            continue
        with open(header, encoding="utf-8") as f:
            lines = strip_comments(f.read()).splitlines()
        for number, line in enumerate(lines, 1):
            for pattern, what in CODE:
                if pattern.search(line):
                    problems.append(f"{os.path.relpath(header, src)}:{number}: {what} in a header "
                                    f"that {os.path.relpath(includer, src)} (ISA flags) includes: "
                                    f"{line.strip()}")
    for p in problems:
        print(p)
    print(f"{len(seen)} headers reachable from {len(roots)} ISA files: "
          f"{'clean' if not problems else str(len(problems)) + ' problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
