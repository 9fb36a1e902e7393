"""TensorFlow code under a server's concurrency model it does not support: TensorFlow 1's
per-thread default graph under a threaded server, and gevent's patched thread-locals."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error

_CAUSE = "server-concurrency-model-mismatch"


@pytest.mark.parametrize(
    "line",
    [
        'ValueError: Tensor Tensor("dense_3/Sigmoid:0", shape=(?, 1), dtype=float32) is not an '
        "element of this graph.",
        'TypeError: Cannot interpret feed_dict key as Tensor: Tensor Tensor("input_2:0", '
        "shape=(?, 64), dtype=float32) is not an element of this graph.",
    ],
    ids=["keras-predict", "feed-dict"],
)
def test_a_tensor_of_another_graph_is_the_threads_default_graph(line: str) -> None:
    text = (
        '  File "/srv/app/venv/lib/python3.6/site-packages/flask/app.py", line 1813, in '
        "full_dispatch_request\n"
        f"{line}\n"
    )
    top = top_error(explained(text))
    assert top.cause == _CAUSE
    fix = fix_text(top)
    assert "graph.as_default()" in fix and "threaded=False" in fix


def test_gevent_thread_locals_get_a_worker_with_real_threads() -> None:
    text = (
        "[2021-03-02 10:11:12 +0000] [9] [INFO] Using worker: gevent\n"
        "TypeError: cannot create weak reference to 'gevent._local.local' object\n"
    )
    top = top_error(explained(text))
    assert top.cause == _CAUSE
    assert "--worker-class gthread" in fix_text(top)
    # Under TensorFlow 1 threads meet its per-thread graph: the sync class instead.
    tf1 = top_error(explained("tensorflow version: 1.15.5\n" + text))
    assert "--worker-class sync" in fix_text(tf1) and "--threads" not in fix_text(tf1)


@pytest.mark.parametrize(
    "text",
    [
        # Another object weakly referenced: not gevent's thread-local.
        "TypeError: cannot create weak reference to 'str' object\n",
        # An operation (not a tensor) of another graph is worded otherwise.
        'ValueError: Operation name: "init" op: "NoOp" is not an element of this graph.\n',
        # The words in a sentence about graphs, without TensorFlow's Tensor(...) form.
        "this node is not an element of this graph in networkx\n",
    ],
    ids=["other-weakref", "operation", "prose"],
)
def test_near_misses_are_not_the_servers_concurrency(text: str) -> None:
    assert all(f.cause != _CAUSE for f in explained(text).findings)
