"""lw_fuzz_test(name, src, deps): a fuzz target and its smoke test.

`<name>` is the target binary: with --config=fuzz (clang) it links libFuzzer, otherwise the replay
driver, which runs the seed corpus once. The test `<name>_smoke` runs it on corpus/<name>/ (see
fuzz_smoke.sh), so `bazel test //...` replays the corpus and `--config=fuzz` fuzzes briefly.
"""

def lw_fuzz_test(name, src, deps):
    native.cc_binary(
        name = name,
        testonly = True,
        srcs = [src],
        linkopts = select({
            "//tests/fuzz:fuzzing": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        deps = deps + [":fuzz_util"] + select({
            "//tests/fuzz:fuzzing": [],
            "//conditions:default": [":replay_main"],
        }),
    )
    native.sh_test(
        name = name + "_smoke",
        size = "small",
        srcs = ["fuzz_smoke.sh"],
        args = [
            "$(location :%s)" % name,
            "tests/fuzz/corpus/" + name,
        ],
        data = [":" + name] + native.glob(["corpus/%s/**" % name]),
    )
