#!/bin/sh
# `make test-arm64`: cross-builds the test suite for arm64 in the sid root (setup.sh) and runs it
# on this machine under qemu-user: the kernel, render, storage, replay and CLI tests, and the
# arm64 `folio` under the host's headless Weston (a stroke, and a fold while Weston goes away).
# FOLIO_ARM64_TESTS overrides the modules, classes or tests run (comma separated).
#
# The tests start programs of their own (`folio`, and the test binary itself), so arm64 programs
# must run when executed: with-qemu.sh registers qemu with binfmt_misc in a user namespace of the
# tests' own, invisible to the rest of the machine.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/packaging/arm64/env.sh"
scratch="$root/.build-arm64"
# The CLI tests chosen each start folio for a path of its own (arguments, damaged input, replay,
# info and export, PDF, page turns, a second writer, the controls' layout); all of them take
# longer than CI's time when emulated.
cli=CLITests.CLITests
modules=${FOLIO_ARM64_TESTS:-PageRenderTests,FolioRenderTests,FolioShelfTests,ShelfViewTests,FolioVideoTests,FolioPixelsTests,FolioFilesTests,FolioSketchbookTests,FolioReplayTests,CLITests.InputCLITests,$cli/testBadArgumentsFailClearly,$cli/testADamagedBookIsReportedAndKept,$cli/testAMalformedTraceNamesItsLineAndLeavesTheBookAlone,$cli/testReplayPrintsTheSummary,$cli/testInfoAndExportReadWhatReplaySaved,$cli/testReplayTurnsPagesAndInfoCountsStrokesPerSheet,$cli/testThePDFHasAVectorPagePerSheetWithTheInkOfThePNGExport,$cli/testASecondWriterIsRefusedAndReadersStillRead,$cli/testControlsPrintsEveryControlWithItsColourOrWidth,CompositorTests.WestonTests,CompositorTests.VanishingWestonTests}

step() { printf '\n== test-arm64: %s (%s)\n' "$*" "$(date +%T)"; }

sh "$root/packaging/arm64/setup.sh"

step "cross-build the tests with Swift 6.2.3 (release, testable)"
sh "$root/packaging/arm64/swift-build.sh" --build-tests
bin="$scratch/$arm64_triple/release"
file -b "$bin/folio" | grep -q 'ARM aarch64' || { echo "test-arm64: $bin/folio is not an arm64 binary" >&2; exit 1; }

step "the tests under qemu-user ($("$arm64_qemu" --version | head -n 1))"
# Left out, each for the reason given (what emulation cannot do, or cannot do in time):
skipped='
CLITests.CLITests/testAFileSizeLimitFailsEveryOutputCleanly   qemu-user writes the /proc/self/maps it shows a program into a file, which a file-size limit cuts short: folio traps at start reading it
CLITests.CLITests/testAFailedExportKeepsTheExistingFile       the same file-size limit, under qemu-user
FolioVideoTests.TimelapseCLITests/testADiskThatFillsMidwayLeavesTheOldFileAndNoTemporary  the same file-size limit, under qemu-user
CLITests.CLITests/testBench                                   folio bench times seconds per figure: minutes each when emulated, and its figures mean nothing there
FolioReplayTests.SoakTests                                    two minutes of trace replayed and its memory sampled: far beyond the time budget when emulated
FolioVideoTests.MissingEncoderCLITests                        its preloaded library is built by the C compiler of the host, for x86-64: an arm64 folio cannot load it
'
# Every test of the chosen modules or classes (Module.Class/test, as XCTest's filter wants them).
tests=$("$arm64_qemu" -L "$arm64_sysroot" "$bin/FolioPackageTests.xctest" --list-tests | while read -r test; do
    for wanted in $(echo "$modules" | tr ',' ' '); do
        case "$test" in "$wanted" | "$wanted"/* | "$wanted".*) echo "$test"; break ;; esac
    done
done | while read -r test; do
    keep=yes
    for prefix in $(echo "$skipped" | cut -d' ' -f1); do
        case "$test" in "$prefix"*) keep="" ;; esac
    done
    [ -z "$keep" ] || echo "$test"
done)
[ -n "$tests" ] || { echo "test-arm64: no test matches $modules" >&2; exit 1; }
echo "$(echo "$tests" | wc -l) tests from $modules; left out:$skipped"

QEMU_LD_PREFIX="$arm64_sysroot" sh "$root/packaging/arm64/with-qemu.sh" \
    "$bin/FolioPackageTests.xctest" "$(echo "$tests" | paste -sd, -)"

step "passed"
