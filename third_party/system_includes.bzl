"""system_includes(name, dirs): a CcInfo carrying `-isystem <dir>` for absolute system directories.

cc_library's `includes` takes workspace-relative paths only and its copts do not reach dependents.
"""

def _system_includes_impl(ctx):
    return [CcInfo(compilation_context = cc_common.create_compilation_context(
        system_includes = depset(ctx.attr.dirs),
    ))]

system_includes = rule(
    implementation = _system_includes_impl,
    attrs = {"dirs": attr.string_list(mandatory = True)},
    provides = [CcInfo],
)
