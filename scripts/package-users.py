#!/usr/bin/env python3
"""Which modules use each `package` declaration of the app modules, read from the compiler's index.

    swift build --build-tests && python3 scripts/package-users.py [--unused]

`scripts/public-api.py` counts the app modules' `package` declarations; this says who uses them, from the index store
a debug build writes (libIndexStore, through ctypes): one line per declaration, `file:line  declaration  <- modules`.
With `--unused`, only the declarations no other module references (tests included): candidates for `internal`.
A candidate may still have to stay `package` (a `package` signature elsewhere names its type, it witnesses a
`package` protocol requirement, or the Apple-only adapters use it, which are not compiled on Linux: run
`scripts/typecheck-apple-adapters.sh` after a change); the compiler says so. A test that uses one reaches it through
`@testable import`. Stale index records (files since changed) can only add users, never hide one.
"""
import ctypes
import importlib.util
import pathlib
import shutil
import subprocess
import sys
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("public_api", ROOT / "scripts" / "public-api.py")
public_api = importlib.util.module_from_spec(spec)
spec.loader.exec_module(public_api)


class Text(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]


def text(ref):
    return ctypes.string_at(ref.data, ref.length).decode() if ref.length else ""


def library():
    swift = pathlib.Path(shutil.which("swift")).resolve()  # <toolchain>/usr/bin/swift
    lib = ctypes.CDLL(str(swift.parent.parent / "lib" / "libIndexStore.so"))
    v = ctypes.c_void_p
    for name, result, args in [
        ("indexstore_store_create", v, [ctypes.c_char_p, ctypes.POINTER(v)]),
        ("indexstore_unit_reader_create", v, [v, ctypes.c_char_p, ctypes.POINTER(v)]),
        ("indexstore_unit_reader_get_module_name", Text, [v]),
        ("indexstore_unit_dependency_get_kind", ctypes.c_int, [v]),
        ("indexstore_unit_dependency_get_name", Text, [v]),
        ("indexstore_unit_dependency_get_filepath", Text, [v]),
        ("indexstore_record_reader_create", v, [v, ctypes.c_char_p, ctypes.POINTER(v)]),
        ("indexstore_occurrence_get_symbol", v, [v]),
        ("indexstore_occurrence_get_roles", ctypes.c_uint64, [v]),
        ("indexstore_occurrence_get_line_col", None, [v, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
        ("indexstore_symbol_get_usr", Text, [v]),
        ("indexstore_unit_reader_dispose", None, [v]),
        ("indexstore_record_reader_dispose", None, [v]),
    ]:
        function = getattr(lib, name)
        function.restype, function.argtypes = result, args
    return lib


def read_index(store_path):
    """(file, line) → USRs defined there; USR → {module using it}, a test module as `T:name`."""
    lib, v = library(), ctypes.c_void_p
    each_name = ctypes.CFUNCTYPE(ctypes.c_bool, v, Text)
    each_item = ctypes.CFUNCTYPE(ctypes.c_bool, v, v)
    lib.indexstore_store_units_apply_f.argtypes = [v, ctypes.c_uint, v, each_name]
    lib.indexstore_unit_reader_dependencies_apply_f.argtypes = [v, v, each_item]
    lib.indexstore_record_reader_occurrences_apply_f.argtypes = [v, v, each_item]
    error = v()
    store = lib.indexstore_store_create(str(store_path).encode(), ctypes.byref(error))
    units = []
    lib.indexstore_store_units_apply_f(store, 0, None, each_name(lambda _, name: units.append(text(name)) or True))
    defined, users, read = defaultdict(set), defaultdict(set), set()
    root = str(ROOT) + "/"
    for unit in units:
        reader = lib.indexstore_unit_reader_create(store, unit.encode(), ctypes.byref(error))
        if not reader:
            continue
        module = text(lib.indexstore_unit_reader_get_module_name(reader))
        records = []

        def dependency(_, item):
            if lib.indexstore_unit_dependency_get_kind(item) == 2:  # a record: one source file's occurrences
                records.append((text(lib.indexstore_unit_dependency_get_name(item)),
                                text(lib.indexstore_unit_dependency_get_filepath(item))))
            return True

        lib.indexstore_unit_reader_dependencies_apply_f(reader, None, each_item(dependency))
        lib.indexstore_unit_reader_dispose(reader)
        for record, path in records:
            if not path.startswith(root) or (record, module) in read:
                continue
            read.add((record, module))
            user = ("T:" if path.startswith(root + "Tests/") else "") + module
            occurrences = lib.indexstore_record_reader_create(store, record.encode(), ctypes.byref(error))

            def occurrence(_, item):
                symbol = lib.indexstore_occurrence_get_symbol(item)
                usr, roles = text(lib.indexstore_symbol_get_usr(symbol)), lib.indexstore_occurrence_get_roles(item)
                if roles & 3:  # declaration or definition
                    line, column = ctypes.c_uint(), ctypes.c_uint()
                    lib.indexstore_occurrence_get_line_col(item, ctypes.byref(line), ctypes.byref(column))
                    defined[(path[len(root):], line.value)].add(usr)
                if roles & 4:  # reference
                    users[usr].add(user)
                return True

            lib.indexstore_record_reader_occurrences_apply_f(occurrences, None, each_item(occurrence))
            lib.indexstore_record_reader_dispose(occurrences)
    return defined, users


def main():
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True).stdout
    store = pathlib.Path(bin_path.strip()).parent / "debug" / "index" / "store"
    if not store.exists():
        sys.exit(f"no index store at {store}: run `swift build --build-tests` first")
    defined, users = read_index(store)
    unused_only = "--unused" in sys.argv
    for module in public_api.MODULES:
        for path in sorted(public_api.module_dir(module).rglob("*.swift")):
            relative, in_block = str(path.relative_to(ROOT)), False
            for number, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
                line, in_block = public_api.strip_comments(raw, in_block)
                if not public_api.PACKAGE.match(line) or " extension " in f" {line.strip()} ":
                    continue
                symbols = defined.get((relative, number))
                if not symbols:
                    continue  # not compiled on Linux (the Apple adapters)
                outside = sorted({user for usr in symbols for user in users[usr]} - {module})
                if not unused_only or not outside:
                    print(f"{relative}:{number}  {raw.strip()[:100]}  <- {', '.join(outside) or 'no other module'}")


if __name__ == "__main__":
    main()
