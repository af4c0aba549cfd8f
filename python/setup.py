"""`pip install ./python` carries libnsed: the package gets a copy of the
library built by meson (nsed/libnsed.so.0), which it loads before anything
else found on the system, so the installed package works without
NSED_LIBRARY and without `meson install` (docs/python.md, "Installing").

The library is taken from $NSED_BUILD_DIR/src/libnsed.so, else from the
repository's build/src/libnsed.so next to this file. Without either the
install stops with a sentence saying what to do, unless
NSED_PIP_WITHOUT_LIBRARY=1 says that libnsed comes from `meson install`.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def built_library():
    build = os.environ.get("NSED_BUILD_DIR") or os.path.join(HERE, "..", "build")
    path = os.path.join(build, "src", "libnsed.so")
    return os.path.realpath(path) if os.path.exists(path) else None, path


class build_py_with_libnsed(build_py):
    """The package's files, and libnsed.so.0 beside them."""

    def run(self):
        super().run()
        if os.environ.get("NSED_PIP_WITHOUT_LIBRARY") == "1":
            return
        lib, looked = built_library()
        if lib is None:
            raise SystemExit(
                f"nsed: no libnsed at {looked}: build it first (meson setup build && ninja -C "
                "build), or name the build directory with NSED_BUILD_DIR=..., or set "
                "NSED_PIP_WITHOUT_LIBRARY=1 if libnsed is installed by `meson install`")
        target = os.path.join(self.build_lib, "nsed", "libnsed.so.0")
        shutil.copyfile(lib, target)
        os.chmod(target, 0o755)


setup(cmdclass={"build_py": build_py_with_libnsed},
      package_data={"nsed": []})
