"""Builds octet._octet with CMake for pip (metadata: pyproject.toml).

The extension is cmake/python.cmake's target octet_python, configured for the Python
running this script and linked with Octet's static library. CMake works in build-pip/
(OCTET_PIP_BUILD_DIR to change it); CMAKE_BUILD_PARALLEL_LEVEL sets the build jobs, and
OCTET_CMAKE_ARGS passes extra configure arguments (e.g. -DOCTET_WITH_XNNPACK=OFF).
"""

import os
import pathlib
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
BUILD_BASE = pathlib.Path(os.environ.get("OCTET_PIP_BUILD_DIR", ROOT / "build-pip"))


class CMakeExtension(Extension):
    """An extension CMake builds (no sources for setuptools to compile)."""

    def __init__(self, name: str, target: str) -> None:
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    """Configures and builds the CMake target, then copies the module where pip wants it."""

    def build_extension(self, ext: Extension) -> None:
        if not isinstance(ext, CMakeExtension):
            super().build_extension(ext)
            return
        cmake_dir = BUILD_BASE / "cmake"
        configure = [
            "cmake",
            "-S",
            str(ROOT),
            "-B",
            str(cmake_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DOCTET_BUILD_PYTHON=ON",
            "-DOCTET_BUILD_TESTS=OFF",
            "-DOCTET_BUILD_BENCHMARKS=OFF",
            f"-DPython3_EXECUTABLE={sys.executable}",
            *shlex.split(os.environ.get("OCTET_CMAKE_ARGS", "")),
        ]
        subprocess.run(configure, check=True)
        build = ["cmake", "--build", str(cmake_dir), "--target", ext.target]
        if "CMAKE_BUILD_PARALLEL_LEVEL" not in os.environ:
            build += ["-j", str(os.cpu_count() or 1)]
        subprocess.run(build, check=True)
        built = sorted((cmake_dir / "python" / "octet").glob("_octet*.so"))
        if not built:
            raise RuntimeError(f"CMake built no _octet module in {cmake_dir}/python/octet")
        destination = pathlib.Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], destination)


BUILD_BASE.mkdir(parents=True, exist_ok=True)
setup(
    ext_modules=[CMakeExtension("octet._octet", target="octet_python")],
    cmdclass={"build_ext": CMakeBuild},
    # Not setuptools' default build/: that is the repository's CMake build directory.
    options={
        "build": {"build_base": str(BUILD_BASE)},
        "egg_info": {"egg_base": str(BUILD_BASE)},
    },
)
