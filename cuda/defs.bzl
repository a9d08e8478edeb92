# cuda_library / cuda_binary: nvcc (-O3, sm_90a) compiles each .cu to one object, wrapped in a
# cc_library (alwayslink, linkstatic, + cuda_runtime); nvcc sees -I<root>, hdrs and deps' headers.

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

NVCC = "/usr/local/cuda/bin/nvcc"

NVCC_FLAGS = [
    "-std=c++17",
    "-O3",
    "-gencode=arch=compute_90a,code=sm_90a",
    "-Xcompiler",
    "-fPIC",
]

def _nvcc_compile_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    cc_ctx = cc_common.merge_cc_infos(
        cc_infos = [d[CcInfo] for d in ctx.attr.deps],
    ).compilation_context
    headers = depset(ctx.files.hdrs, transitive = [cc_ctx.headers])

    base = ["-I.", "-I" + ctx.bin_dir.path]
    for inc in cc_ctx.quote_includes.to_list():
        base.append("-I" + inc)
    for inc in cc_ctx.includes.to_list():
        base.append("-I" + inc)
    for inc in cc_ctx.system_includes.to_list():
        base += ["-isystem", inc]
    for d in cc_ctx.defines.to_list():
        base.append("-D" + d)

    objs = []
    for src in ctx.files.srcs:
        # bazel-bin/<package>/_nvcc/<target>/<src path in package>.pic.o: unique per target.
        rel = src.short_path[len(ctx.label.package) + 1:] if ctx.label.package else src.short_path
        stem = rel.rsplit(".", 1)[0]
        obj = ctx.actions.declare_file("_nvcc/%s/%s.pic.o" % (ctx.label.name, stem))
        args = ctx.actions.args()
        args.add_all(NVCC_FLAGS)
        args.add("-ccbin", cc_toolchain.compiler_executable)
        args.add_all(base)
        args.add_all(ctx.attr.copts)
        args.add("-c", src)
        args.add("-o", obj)
        ctx.actions.run(
            executable = NVCC,
            arguments = [args],
            inputs = depset([src], transitive = [headers, cc_toolchain.all_files]),
            outputs = [obj],
            mnemonic = "Nvcc",
            progress_message = "nvcc %s" % src.short_path,
            use_default_shell_env = True,
        )
        objs.append(obj)
    return [DefaultInfo(files = depset(objs))]

_nvcc_compile = rule(
    implementation = _nvcc_compile_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".cu"], mandatory = True),
        "hdrs": attr.label_list(allow_files = True),
        "deps": attr.label_list(providers = [CcInfo]),
        "copts": attr.string_list(),
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
)

def cuda_library(name, srcs, hdrs = [], textual_hdrs = [], deps = [], copts = [], **kwargs):
    """nvcc-compiles `srcs` (.cu); a cc_library `name` exports `hdrs` and links the objects.

        cuda_library(
            name = "kernel",
            srcs = ["kernel.cu"],        # one object per .cu; no -rdc, so no device link step
            hdrs = ["kernel.hpp"],       # host-facing API: exported, and visible to nvcc
            textual_hdrs = ["mma.cuh"],  # visible to nvcc only (device code included by the .cu)
            deps = ["//sim/decomp"],     # nvcc gets their headers, include dirs and defines
            copts = ["-lineinfo"],       # extra nvcc flags
        )

    Other kwargs (visibility, tags, testonly, ...) go to the cc_library.
    """
    _nvcc_compile(
        name = name + "_nvcc",
        srcs = srcs,
        hdrs = hdrs + textual_hdrs,
        deps = deps,
        copts = copts,
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags", []),
        testonly = kwargs.get("testonly", False),
    )
    native.cc_library(
        name = name,
        srcs = [":" + name + "_nvcc"],
        hdrs = hdrs,
        deps = deps + ["//third_party:cuda_runtime"],
        alwayslink = True,
        linkstatic = True,
        **kwargs
    )

def cuda_binary(name, srcs, hdrs = [], deps = [], copts = [], **kwargs):
    """A cc_binary whose main() may live in a .cu file; kwargs go to the cc_binary."""
    cuda_library(
        name = name + "_cu",
        srcs = srcs,
        hdrs = hdrs,
        deps = deps,
        copts = copts,
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags", []),
        testonly = kwargs.get("testonly", False),
    )
    native.cc_binary(
        name = name,
        deps = [":" + name + "_cu"],
        **kwargs
    )
