"""TensorFlow.js for Node's package as a log names it: an install line or a path under
node_modules (the lines are written for the test in npm's and Node's formats)."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.nodejs import read_tfjs_node_package


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("$ npm install @tensorflow/tfjs-node-gpu\n", "tfjs-node-gpu"),
        ("$ yarn add @tensorflow/tfjs-node@4.22.0\n", "tfjs-node"),
        (
            "Error: Cannot find module 'C:\\app\\node_modules\\@tensorflow\\tfjs-node-gpu\\lib"
            "\\napi-v8\\tfjs_binding.node'\n",
            "tfjs-node-gpu",
        ),
        ("    at /srv/app/node_modules/@tensorflow/tfjs-node/dist/index.js:49:24\n", "tfjs-node"),
        ("$ npm install @tensorflow/tfjs-node-canvas\n", None),
        ("$ npm install @tensorflow/tfjs\n", None),
    ],
    ids=["install-gpu", "install-cpu", "windows-path-gpu", "path-cpu", "another-package", "tfjs"],
)
def test_the_tfjs_node_package_the_log_names(text: str, package: Optional[str]) -> None:
    assert read_tfjs_node_package(text) == package
