#!/usr/bin/env python3
"""Runs the Python module's pytest suite for CTest (tests/python, see cmake/python.cmake).

Exits 77 (CTest's SKIP_RETURN_CODE for this test) with a message when pytest or NumPy is
not installed for this interpreter; otherwise exits with pytest's status.
usage: run_pytest.py TEST_DIR [PYTEST_ARGS...]
"""

import importlib.util
import sys


def main(argv: list) -> int:
    missing = [name for name in ("pytest", "numpy") if importlib.util.find_spec(name) is None]
    if missing:
        print(
            f"SKIPPED: {', '.join(missing)} not installed for {sys.executable} "
            "(Debian: apt-get install python3-pytest python3-numpy)"
        )
        return 77
    import pytest

    # No cache directory in the source tree; -rs lists why each skipped test was skipped.
    return int(pytest.main([argv[1], "-p", "no:cacheprovider", "-rs", "-q", *argv[2:]]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
