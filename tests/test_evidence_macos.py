"""dyld's own list of the paths it tried for a library it did not load."""

from __future__ import annotations

from tfdoctor.evidence.macos import dyld_tried


def test_the_paths_dyld_tried_are_read_in_its_order_once_each() -> None:
    text = (
        "OSError: dlopen(/Users/kim/env/lib/python3.12/site-packages/xgboost/lib/"
        "libxgboost.dylib, 0x0006): Library not loaded: @rpath/libomp.dylib\n"
        "  Reason: tried: '/opt/homebrew/opt/libomp/lib/libomp.dylib' (no such file), "
        "'/System/Volumes/Preboot/Cryptexes/OS/opt/homebrew/opt/libomp/lib/libomp.dylib' "
        "(no such file), '/opt/homebrew/opt/libomp/lib/libomp.dylib' (no such file)\n"
    )
    assert dyld_tried(text) == (
        "/opt/homebrew/opt/libomp/lib/libomp.dylib",
        "/System/Volumes/Preboot/Cryptexes/OS/opt/homebrew/opt/libomp/lib/libomp.dylib",
    )


def test_no_tried_list_reads_nothing() -> None:
    assert dyld_tried("Library not loaded: @rpath/libomp.dylib\n") == ()
