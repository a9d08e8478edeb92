#!/usr/bin/env python3
"""Whether a change leaves the other kernels' machine code alone, without a GPU: compares every
kernel's .text section (its SASS, byte for byte) between two cubins, or between the wgmma kernel
table (cuda/kernels/wgmma_part_*.cu), gemm.cu and stage_rows.cu of a git ref and of the working tree
compiled with nvcc -cubin (the flags of cuda/defs.bzl). Kernels are matched by name; a template
argument added with a default (`, false>` tails, and the values --defaulted names: `--defaulted
64` for an `int kK = 64`) matches the name without it. Exit 0 when every
kernel of the old side is present and identical (kernels only on the new side are listed as new),
1 when any differs or is missing, 2 on bad input.
Usage: tools/cubin_diff.py OLD.cubin NEW.cubin [--defaulted VALUE]...
       tools/cubin_diff.py --ref REF [--jobs N] [--defaulted VALUE]...   (REF: a git ref; run from
       the repository root)"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
NVCC_FLAGS = ["-std=c++17", "-O3", "-gencode=arch=compute_90a,code=sm_90a", "-I."]
SOURCES = ["cuda/kernels/wgmma_part_0.cu", "cuda/kernels/wgmma_part_1.cu",
           "cuda/kernels/wgmma_part_2.cu", "cuda/kernels/wgmma_part_3.cu", "cuda/gemm.cu",
           "cuda/stage_rows.cu"]
ELF_MAGIC = b"\x7fELF"
SHOFF_AT, SHENT_AT = 0x28, 0x3A  # ELF64 header: section header offset; entsize, count, strndx
SECTION_HEADER = "<IIQQQQIIQQ"  # name, type, flags, addr, offset, size, link, info, align, entsize
TEXT_PREFIX = ".text."
# An anonymous namespace's name hashes the source path: two checkouts of one file differ there.
ANON_NAMESPACE = re.compile(r"_GLOBAL__N__[0-9a-f]+_")
DEFAULT_VALUES = ("false",)  # trailing template arguments taken for defaults


class BadInput(Exception):
    pass


def kernels(path):
    """Mangled kernel name -> its .text section bytes, from an ELF cubin."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}")
    if data[:4] != ELF_MAGIC or len(data) < SHENT_AT + 6:
        raise BadInput(f"{path}: not an ELF cubin")
    shoff = struct.unpack_from("<Q", data, SHOFF_AT)[0]
    entsize, count, strndx = struct.unpack_from("<HHH", data, SHENT_AT)
    try:
        headers = [struct.unpack_from(SECTION_HEADER, data, shoff + i * entsize)
                   for i in range(count)]
        names_at = headers[strndx][4]
        out = {}
        for h in headers:
            start = names_at + h[0]
            name = data[start:data.index(b"\0", start)].decode()
            if name.startswith(TEXT_PREFIX):
                out[ANON_NAMESPACE.sub("_GLOBAL__N_", name[len(TEXT_PREFIX):])] = \
                    data[h[4]:h[4] + h[5]]
        return out
    except (struct.error, IndexError, ValueError, UnicodeDecodeError):
        raise BadInput(f"{path}: malformed ELF section table")


def demangled(names):
    """Mangled -> demangled (c++filt; the name itself where c++filt is missing)."""
    names = list(names)
    if shutil.which("c++filt") is None:
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return dict(zip(names, out))


def defaulted_tail(values):
    """A run of trailing template arguments, each one of `values`, up to the closing '>'."""
    alternatives = "|".join(re.escape(v) for v in values)
    return re.compile(rf"(, (?:{alternatives}))+>")


def keyed(kernels_by_name, tail):
    """Comparison key -> (display name, bytes): the demangled name without defaulted tails (regex
    `tail`), or the exact name where two kernels of one side would share a key."""
    names = demangled(kernels_by_name)
    loose = {}
    for mangled, text in kernels_by_name.items():
        loose.setdefault(tail.sub(">", names[mangled]), []).append(mangled)
    out = {}
    for key, group in loose.items():
        for mangled in group:
            out[key if len(group) == 1 else names[mangled]] = (names[mangled], kernels_by_name[mangled])
    return out


def compare(old, new, default_values=DEFAULT_VALUES):
    """(identical, differing names, missing names, new names) of two {mangled: bytes} maps."""
    tail = defaulted_tail(default_values)
    a, b = keyed(old, tail), keyed(new, tail)
    identical = sum(1 for k, (_, t) in a.items() if k in b and b[k][1] == t)
    differing = sorted(a[k][0] for k in a if k in b and b[k][1] != a[k][1])
    missing = sorted(a[k][0] for k in a if k not in b)
    added = sorted(b[k][0] for k in b if k not in a)
    return identical, differing, missing, added


def compile_tree(root, out_dir, jobs):
    """Every SOURCES file of checkout `root` -> one cubin each in out_dir; {mangled: bytes}."""
    def one(src):
        cubin = os.path.join(out_dir, os.path.basename(src) + ".cubin")
        r = subprocess.run([NVCC, *NVCC_FLAGS, "-cubin", src, "-o", cubin], cwd=root,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise BadInput(f"nvcc {src} in {root}: {r.stderr.strip().splitlines()[-1:]}")
        return kernels(cubin)
    merged = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(one, SOURCES):
            merged.update(part)
    return merged


def tree_kernels(ref, jobs, scratch):
    """{mangled: bytes} of git ref `ref` and of the working tree."""
    old_root = os.path.join(scratch, "old")
    r = subprocess.run(["git", "worktree", "add", "--detach", "-q", old_root, ref],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise BadInput(f"git worktree add {ref}: {r.stderr.strip()}")
    try:
        os.makedirs(os.path.join(scratch, "a"))
        os.makedirs(os.path.join(scratch, "b"))
        return (compile_tree(old_root, os.path.join(scratch, "a"), jobs),
                compile_tree(os.getcwd(), os.path.join(scratch, "b"), jobs))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", old_root], capture_output=True)


def report(identical, differing, missing, added):
    print(f"kernels identical: {identical}; differing: {len(differing)}; missing: {len(missing)}; "
          f"new: {len(added)}")
    for label, names in (("DIFFERS", differing), ("MISSING", missing), ("new", added)):
        for n in names:
            print(f"{label}: {n}")
    return 1 if differing or missing else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cubins", nargs="*")
    ap.add_argument("--ref")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--defaulted", action="append", default=[], metavar="VALUE")
    args = ap.parse_args(argv)
    try:
        if args.ref is not None and not args.cubins:
            with tempfile.TemporaryDirectory() as scratch:
                old, new = tree_kernels(args.ref, max(1, args.jobs), scratch)
        elif args.ref is None and len(args.cubins) == 2:
            old, new = kernels(args.cubins[0]), kernels(args.cubins[1])
        else:
            raise BadInput("give OLD.cubin NEW.cubin, or --ref REF")
    except BadInput as e:
        print(f"cubin_diff: {e}", file=sys.stderr)
        return 2
    if any(not v.strip() or any(c in v for c in ",<>") for v in args.defaulted):
        print("cubin_diff: --defaulted takes one template argument's value", file=sys.stderr)
        return 2
    return report(*compare(old, new, DEFAULT_VALUES + tuple(v.strip() for v in args.defaulted)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
