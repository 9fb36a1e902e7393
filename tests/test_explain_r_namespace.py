"""R's loadNamespace refusing a package older than the release a package it loads requires
(base R's namespace.R: "namespace %s %s is being loaded, but %s %s is required"): the package
R names is older than the code, and the fix is that package's release in R, CRAN's or, for a
development version (a fourth component of 9000 and up), its development repository's. The
lines are written here in R's words, both of sQuote's quotes.
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error

_HEAD = "Error in loadNamespace(i, c(lib.loc, .libPaths()), versionCheck = vI[[i]]) : \n"


@pytest.mark.parametrize(
    ("line", "package"),
    [
        (
            "  namespace \u2018reticulate\u2019 1.22 is being loaded, but >= 1.26 is required\n",
            "reticulate",
        ),
        ("  namespace 'Rcpp' 1.0.7 is being loaded, but >= 1.0.10 is required\n", "Rcpp"),
    ],
)
def test_an_r_package_older_than_required_is_that_packages_release(line: str, package: str) -> None:
    top = top_error(explained(_HEAD + line))
    assert top.cause == "dependency-too-old-for-code"
    assert top.fix is not None
    assert f'install.packages("{package}")' in top.fix.commands
    text = fix_text(top)
    assert "development version" not in text
    assert "pip install" not in text  # an R package, not a Python one


def test_a_development_version_required_points_at_the_development_repository() -> None:
    top = top_error(
        explained(
            _HEAD + "  namespace 'tfruns' 1.4 is being loaded, but >= 1.4.0.9002 is required\n"
        )
    )
    assert top.cause == "dependency-too-old-for-code"
    assert top.fix is not None
    assert 'packageDescription("tfruns")$URL' in top.fix.commands
    assert "1.4.0.9002 is a development version" in fix_text(top)


@pytest.mark.parametrize("op", ["==", "<", "!="])
def test_a_requirement_that_is_no_lower_bound_is_not_an_old_package(op: str) -> None:
    # "== 1.0" refuses 1.2 as well as 0.9: the line does not say the package is older.
    text = _HEAD + f"  namespace 'Rcpp' 1.0.12 is being loaded, but {op} 1.0.10 is required\n"
    assert "dependency-too-old-for-code" not in {f.cause for f in explained(text).findings}


def test_a_development_version_with_a_dash_is_one() -> None:
    # R's versions take "." or "-" between components (R's numeric_version): 1.4-0.9002.
    text = _HEAD + "  namespace 'tfruns' 1.4 is being loaded, but >= 1.4-0.9002 is required\n"
    assert "1.4-0.9002 is a development version" in fix_text(top_error(explained(text)))
