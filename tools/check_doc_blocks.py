#!/usr/bin/env python3
"""Runs the `$ tools/lastwave.sh ...` commands of Markdown files and checks what they print.

Each fenced block of a document that starts with `$ tools/lastwave.sh` is a transcript: command
lines (a trailing backslash continues one), each followed by the lines it printed (stderr, then
stdout; trailing blank lines left out). A line `...` ends a command's output early: the lines
before it must match, the rest is not checked. The commands of one document run in order in one scratch directory that links the
repository's `configs/` (a command may read a file an earlier one wrote); `tools/lastwave.sh`
becomes the `lastwave` binary given. Exit 0 when every block matches, 1 with a diff of each that
does not, 2 on bad input (one line).

Usage: check_doc_blocks.py --lastwave BIN --root REPO FILE.md...
"""
import argparse
import difflib
import os
import shlex
import subprocess
import sys
import tempfile

COMMAND = "$ tools/lastwave.sh"
ELLIPSIS = "..."
TIMEOUT_S = 300  # one documented command; the tour's run in well under a second each


def fenced_blocks(text):
    """Yields (first line number, lines) of each ``` block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            start = i + 1
            j = start
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield start + 1, lines[start:j]
            i = j + 1
        else:
            i += 1


def transcripts(block):
    """Splits a transcript block (its first line a command) into (command words, expected lines,
    output elided?)."""
    out = []
    i = 0
    while i < len(block):
        command = block[i][2:]  # the block starts with a command; output runs to the next
        while command.endswith("\\"):
            i += 1
            if i == len(block):
                raise ValueError(f"the block ends inside a continued command: {command}")
            command = command[:-1] + " " + block[i].strip()
        i += 1
        expected = []
        while i < len(block) and not block[i].startswith("$ "):
            expected.append(block[i])
            i += 1
        elided = ELLIPSIS in expected
        if elided:
            expected = expected[: expected.index(ELLIPSIS)]
        out.append((shlex.split(command), expected, elided))
    return out


def run(words, lastwave, cwd):
    if words[0] != "tools/lastwave.sh":
        raise ValueError(f"not a lastwave command: {' '.join(words)}")
    done = subprocess.run(
        [lastwave] + words[1:], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    printed = (done.stderr + done.stdout).splitlines()
    while printed and not printed[-1].strip():
        printed.pop()  # a transcript leaves out the trailing blank lines
    return printed, done.returncode


def check_document(path, lastwave, root):
    """Returns (the failures (strings), the commands run) of one document; raises ValueError on a
    malformed block."""
    failures = []
    commands = 0
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as scratch:
        os.symlink(os.path.join(root, "configs"), os.path.join(scratch, "configs"))
        for line_no, block in fenced_blocks(text):
            if not block or not block[0].startswith(COMMAND):
                continue
            for words, expected, elided in transcripts(block):
                commands += 1
                actual, rc = run(words, lastwave, scratch)
                if elided:
                    actual = actual[: len(expected)]
                if actual != expected:
                    diff = "\n".join(
                        difflib.unified_diff(expected, actual, "documented", "printed", lineterm="")
                    )
                    failures.append(f"{path}:{line_no}: {' '.join(words)} (exit {rc})\n{diff}")
    return failures, commands


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lastwave", required=True, help="the lastwave binary")
    parser.add_argument("--root", required=True, help="the repository root (its configs/)")
    parser.add_argument("docs", nargs="+", help="Markdown files")
    args = parser.parse_args()
    try:
        lastwave = os.path.abspath(args.lastwave)
        root = os.path.abspath(args.root)
        if not os.access(lastwave, os.X_OK):
            raise ValueError(f"{args.lastwave}: not an executable")
        failures = []
        commands = 0
        for doc in args.docs:
            doc_failures, doc_commands = check_document(doc, lastwave, root)
            failures += doc_failures
            commands += doc_commands
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"check_doc_blocks: {e}", file=sys.stderr)
        return 2
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"{commands} documented commands, {len(failures)} differ", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
