"""Builds the streamsim package from a checkout (python/pyproject.toml): the native module and the
``streamsim`` CLI come from the checkout's CMake project, built in <checkout>/build-pip (Release),
or taken from the build folder that STREAMSIM_BUILD_DIR names (already built: the test suite's
own, so the package test compiles nothing more).

Installed layout (what python/native/build_paths.cc looks for):
    _streamsim_native*.so           the extension module
    streamsim/                      the package (python/streamsim)
    streamsim/_shim/pyspark/        the pyspark shim (python/pyspark), put in front only inside
                                    streamsim's calls (streamsim/_isolation.py)
    streamsim/_shim/delta/          delta.tables over the shim's Delta stand-in (python/delta)
    streamsim/_bin/streamsim        the CLI (reproduce lines, sweep workers)
"""

import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(HERE)


def _cmake_build() -> str:
    given = os.environ.get("STREAMSIM_BUILD_DIR")
    if given:
        build = os.path.abspath(given)
        if not glob.glob(os.path.join(build, "python", "_streamsim_native*.so")):
            sys.exit(f"STREAMSIM_BUILD_DIR={given}: no python/_streamsim_native*.so in it "
                     "(build it first: cmake --build <dir> --target _streamsim_native streamsim)")
        return build
    build = os.path.join(CHECKOUT, "build-pip")
    if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
        subprocess.check_call(["cmake", "-S", CHECKOUT, "-B", build, "-G", "Ninja",
                               "-DCMAKE_BUILD_TYPE=Release", "-DSTREAMSIM_BUILD_TESTS=OFF"])
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
    subprocess.check_call(["cmake", "--build", build, "-j", jobs,
                           "--target", "_streamsim_native", "streamsim"])
    return build


class BuildNative(build_ext):
    """The extension module and the CLI, from the CMake build."""

    def build_extension(self, ext: Extension) -> None:
        build = _cmake_build()
        module = sorted(glob.glob(os.path.join(build, "python", "_streamsim_native*.so")))[-1]
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(module, target)
        bin_dir = os.path.join(self.build_lib, "streamsim", "_bin")
        os.makedirs(bin_dir, exist_ok=True)
        shutil.copy2(os.path.join(build, "tools", "streamsim"), os.path.join(bin_dir, "streamsim"))


class BuildPy(build_py):
    """The streamsim package, and the shim under streamsim/_shim/pyspark."""

    def run(self) -> None:
        super().run()
        shim = os.path.join(self.build_lib, "streamsim", "_shim", "pyspark")
        if os.path.isdir(shim):
            shutil.rmtree(shim)
        shutil.copytree(os.path.join(HERE, "pyspark"), shim,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        # delta-spark's delta.tables over the shim's Delta stand-in, beside it.
        delta = os.path.join(self.build_lib, "streamsim", "_shim", "delta")
        if os.path.isdir(delta):
            shutil.rmtree(delta)
        shutil.copytree(os.path.join(HERE, "delta"), delta,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(
    packages=["streamsim"],
    py_modules=["streamsim_cli"],
    package_dir={"streamsim": "streamsim"},
    ext_modules=[Extension("_streamsim_native", sources=[])],
    cmdclass={"build_ext": BuildNative, "build_py": BuildPy},
)
