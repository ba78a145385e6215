"""Checks one cross-built wheel of the Python package without its platform: the wheel's name
carries the platform tag its target must have; its extension is a binary of that platform and
architecture (`file`); it links only what every machine of the platform has (the import table:
Windows system DLLs and the stable ABI's python3.dll, libSystem and iconv on macOS, glibc's
libraries on Linux, never a libpython); it exports the module's PyInit function; it carries no
symbol table (the wheels are stripped); on x86-64 it counts bits with POPCNT (x86-64-v2,
.cargo/config.toml). Tools: `file` and
`llvm-objdump` (Debian's `file` and `llvm`).

    python3 .ci/check_wheel.py TARGET WHEEL

Prints one line: the wheel, its extension's size and what it imports; exits non-zero with the
first thing that is wrong.
"""

import pathlib
import re
import subprocess
import sys
import tempfile
import zipfile

#: Per Rust target: the wheel's platform tag, the extension's name in the wheel, what `file`
#: says of it, and whether the extension must hold POPCNT instructions.
TARGETS = {
    "x86_64-unknown-linux-gnu": (
        "manylinux2014_x86_64.manylinux_2_17_x86_64",
        "stacktune/_stacktune.abi3.so",
        "ELF 64-bit LSB shared object, x86-64",
        True,
    ),
    "aarch64-unknown-linux-gnu": (
        "manylinux2014_aarch64.manylinux_2_17_aarch64",
        "stacktune/_stacktune.abi3.so",
        "ELF 64-bit LSB shared object, ARM aarch64",
        False,
    ),
    "x86_64-apple-darwin": (
        "macosx_10_12_x86_64",
        "stacktune/_stacktune.abi3.so",
        "Mach-O 64-bit x86_64 dynamically linked shared library",
        True,
    ),
    "aarch64-apple-darwin": (
        "macosx_11_0_arm64",
        "stacktune/_stacktune.abi3.so",
        "Mach-O 64-bit arm64 dynamically linked shared library",
        False,
    ),
    "x86_64-pc-windows-gnu": (
        "win_amd64",
        "stacktune/_stacktune.pyd",
        "PE32+ executable (DLL) (console) x86-64",
        True,
    ),
}

#: What each platform's extension may link: on Linux the libraries manylinux2014 allows that
#: Rust's standard library uses; on macOS libSystem and the iconv libraries Rust's standard
#: library links (`libc` links iconv on Apple targets), all three in /usr/lib of every macOS
#: (Python's own symbols are looked up in the process, `-undefined dynamic_lookup`); on Windows
#: python3.dll (the stable ABI, whose import library PyO3's `generate-import-lib` writes) and
#: DLLs every Windows has.
ALLOWED = {
    "linux": {"libc.so.6", "libm.so.6", "libgcc_s.so.1", "libpthread.so.0", "libdl.so.2",
              "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "librt.so.1"},
    "darwin": {"/usr/lib/libsystem.b.dylib", "/usr/lib/libiconv.2.dylib",
               "/usr/lib/libcharset.1.dylib"},
    "windows": {"python3.dll", "kernel32.dll", "ntdll.dll", "bcryptprimitives.dll",
                "api-ms-win-core-synch-l1-2-0.dll", "msvcrt.dll", "ws2_32.dll", "userenv.dll",
                "advapi32.dll"},
}


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def platform_of(target):
    return next(p for p in ("linux", "darwin", "windows") if p in target)


def imports(platform, path):
    """The libraries the extension names in its import table, in its order."""
    if platform == "linux":
        out = run("llvm-objdump", "-p", path)
        return re.findall(r"^\s*NEEDED\s+(\S+)", out, re.M)
    if platform == "darwin":
        # The list begins with the library's own name (its LC_ID_DYLIB), which is not an import.
        own = run("llvm-objdump", "--macho", "--dylib-id", path).splitlines()[1:]
        out = run("llvm-objdump", "--macho", "--dylibs-used", path)
        used = [line.split(" (")[0].strip() for line in out.splitlines()[1:] if line.strip()]
        return [lib for lib in used if lib not in {line.strip() for line in own}]
    out = run("llvm-objdump", "-p", path)
    return re.findall(r"^\s*DLL Name:\s+(\S+)", out, re.M)


def exports(platform, path):
    """The names the extension exports: Python looks for PyInit_<module> among them."""
    if platform == "linux":
        return run("llvm-objdump", "-T", path).split()
    if platform == "darwin":
        # Mach-O names carry a leading underscore.
        out = run("llvm-objdump", "--macho", "--exports-trie", path)
        return [word[1:] for word in out.split() if word.startswith("_")]
    out = run("llvm-objdump", "-p", path)
    return out[out.find("Export Table:"):].split()


def symbols(platform, path):
    """How many entries the extension's symbol table holds (its dynamic symbols aside)."""
    out = run("llvm-objdump", "-t", path)
    if platform == "darwin":
        # Mach-O keeps the symbols the dynamic linker binds in its one table: count the local
        # ones, which stripping removes.
        return sum(1 for line in out.splitlines() if re.match(r"^[0-9a-f]{16} l ", line))
    return sum(1 for line in out.splitlines() if re.match(r"^(\[\s*\d+\]|[0-9a-f]{8,16}) ", line))


def check(target, wheel):
    tag, extension, kind, popcnt = TARGETS[target]
    name = pathlib.Path(wheel).name
    match = re.fullmatch(r"stacktune-[^-]+-cp39-abi3-(.+)\.whl", name)
    if not match or match.group(1) != tag:
        sys.exit(f"{name}: the platform tag is not {tag}")
    platform = platform_of(target)
    with tempfile.TemporaryDirectory() as folder, zipfile.ZipFile(wheel) as archive:
        if extension not in archive.namelist():
            sys.exit(f"{name}: no {extension} in the wheel")
        path = archive.extract(extension, folder)
        described = run("file", "-b", path)
        if not described.startswith(kind):
            sys.exit(f"{name}: {extension} is `{described.strip()}`, not `{kind}`")
        libraries = imports(platform, path)
        strays = [lib for lib in libraries if lib.lower() not in ALLOWED[platform]]
        if not libraries or strays:
            sys.exit(f"{name}: {extension} imports {libraries}; not allowed: {strays}")
        init = "PyInit_" + pathlib.PurePosixPath(extension).name.split(".")[0]
        if init not in exports(platform, path):
            sys.exit(f"{name}: {extension} does not export {init}: Python cannot import it")
        count = symbols(platform, path)
        if count:
            sys.exit(f"{name}: {extension} keeps {count} symbols: not stripped")
        popcnts = None
        if popcnt:
            code = run("llvm-objdump", "-d", "--no-show-raw-insn", path)
            popcnts = len(re.findall(r"\tpopcnt", code))
            if not popcnts:
                sys.exit(f"{name}: {extension} has no POPCNT instruction: built for baseline x86-64")
        size = pathlib.Path(path).stat().st_size
    note = f", {popcnts} POPCNT" if popcnts else ""
    print(f"{name}: {extension} {size / 1e6:.1f} MB, {described.split(',')[0]}{note}; "
          f"imports {' '.join(libraries)}")


if __name__ == "__main__":
    check(*sys.argv[1:])
