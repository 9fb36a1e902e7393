"""Node.js's error for a native addon it could not load on Windows, read as one line.

Node appends the addon's path to Windows' own message for the failure
(https://github.com/nodejs/node/blob/v22.3.0/src/node_binding.cc, DLOpen: "Windows needs to
add the filename into the error message"), and Windows' message (FormatMessage's text) ends
in a line break: the reason and the file arrive on two lines,

    Error: The specified module could not be found.
    \\\\?\\C:\\app\\node_modules\\@tensorflow\\tfjs-node\\lib\\napi-v8\\tfjs_binding.node

The signatures read one line at a time, so the file is appended to the reason's line; the
file's own line stays, so that every line keeps its number.
"""

from __future__ import annotations

import re
from typing import Optional

#: The namespaced path Node passes to the loader on Windows (path.toNamespacedPath).
_MARK = "\\\\?\\"
#: A line holding only such a path to an addon (``.node``).
_ADDON_PATH = re.compile(r"^\s*(\\\\\?\\[^\n]*?\.node)\s*$")


def rejoin_addon_paths(text: str) -> str:
    """``text`` with each line Node's addon path stands alone on appended to the line above
    it (Windows' reason), where that line is not empty and names no addon itself."""
    if _MARK not in text:
        return text
    lines = text.split("\n")
    for i in range(1, len(lines)):
        found = _ADDON_PATH.match(lines[i]) if _MARK in lines[i] else None
        above = lines[i - 1].rstrip()
        if found is not None and above.strip() and ".node" not in above:
            lines[i - 1] = f"{above} {found.group(1)}"
    return "\n".join(lines)


#: TensorFlow.js for Node's two packages as npm names them (@tensorflow/tfjs-node and its CUDA
#: build @tensorflow/tfjs-node-gpu, tfjs/tfjs-node and tfjs-node-gpu's package.json), in an
#: install line (``npm install @tensorflow/tfjs-node-gpu``) or a path under node_modules.
_TFJS_NODE_PACKAGE = re.compile(r"@tensorflow[/\\]+(tfjs-node(?:-gpu)?)(?![\w-])")


def read_tfjs_node_package(text: str) -> Optional[str]:
    """The TensorFlow.js for Node package ``text`` first names (``tfjs-node-gpu``), if any."""
    if "tfjs-node" not in text:
        return None
    found = _TFJS_NODE_PACKAGE.search(text)
    return found.group(1) if found is not None else None
