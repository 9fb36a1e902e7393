"""TensorFlow 1's "Tensor ... is not an element of this graph", read by what the log shows
around it: a server's, a task queue's or a thread's frames or lines are the server's
concurrency model; a script's or a notebook's frames without them are a model kept across
graphs (a cleared session, a model loaded under a graph of its own); the line alone is both,
as warnings."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.servers import server_frame, server_line
from tfdoctor.findings import Severity

_SERVER = "server-concurrency-model-mismatch"
_GRAPH = "tensor-from-other-graph"

_ERROR = (
    'ValueError: Tensor Tensor("dense_4/Softmax:0", shape=(?, 3), dtype=float32) is not an '
    "element of this graph.\n"
)
#: The frames Keras' predict adds under TensorFlow 1, whoever calls it.
_KERAS = (
    '  File "/opt/py/lib/python3.7/site-packages/keras/engine/training.py", line 1462, in '
    "predict\n"
    '  File "/opt/py/lib/python3.7/site-packages/tensorflow/python/client/session.py", line '
    "1137, in _run\n"
)


def _traceback(*frames: str) -> str:
    return "Traceback (most recent call last):\n" + "".join(frames) + _KERAS + _ERROR


@pytest.mark.parametrize(
    "text",
    [
        _traceback(
            '  File "/srv/venv/lib/python3.7/site-packages/flask/app.py", line 2446, in wsgi_app\n',
            '  File "/srv/app/api.py", line 31, in predict\n',
        ),
        _traceback(
            '  File "/srv/venv/lib/python3.7/site-packages/django/core/handlers/base.py", line '
            "113, in _get_response\n",
            '  File "/srv/site/views.py", line 12, in classify\n',
        ),
        _traceback(
            '  File "/usr/lib/python3.7/concurrent/futures/thread.py", line 57, in run\n',
            '  File "worker.py", line 20, in score\n',
        ),
        _traceback(
            '  File "/usr/lib/python3.7/threading.py", line 926, in _bootstrap_inner\n',
            '  File "job.py", line 8, in loop\n',
        ),
        "[2020-02-11 09:12:44,101] ERROR in app: Exception on /predict [POST]\n"
        + _traceback('  File "api.py", line 31, in predict\n'),
        "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n" + _ERROR,
        "Exception in thread Thread-3:\n" + _traceback('  File "job.py", line 8, in loop\n'),
        "[2020-05-02 10:00:01 +0000] [7] [INFO] Booting worker with pid: 7\n" + _ERROR,
    ],
    ids=[
        "flask-frame",
        "django-frame",
        "thread-pool-frame",
        "threading-frame",
        "flask-log-line",
        "uvicorn-line",
        "thread-exception-line",
        "gunicorn-workers",
    ],
)
def test_a_server_or_thread_shown_is_the_servers_concurrency(text: str) -> None:
    report = explained(text)
    top = top_error(report)
    assert top.cause == _SERVER
    assert "threaded=False" in fix_text(top)
    # What showed the server is quoted.
    assert "runs the code: " in top.detail
    assert all(f.cause != _GRAPH for f in report.findings)


@pytest.mark.parametrize(
    "text",
    [
        # A script: its own frames and Keras', no server's and no thread's.
        _traceback('  File "train.py", line 52, in <module>\n'),
        # A callback calling a model a function loaded under a graph of its own.
        _traceback(
            '  File "train.py", line 80, in <module>\n',
            '  File "/opt/py/lib/python3.7/site-packages/keras/callbacks.py", line 79, in '
            "on_epoch_end\n",
            '  File "train.py", line 41, in on_epoch_end\n',
        ),
        # A notebook's cell after keras.backend.clear_session().
        "---------------------------------------------------------------------------\n"
        "ValueError                                Traceback (most recent call last)\n"
        "<ipython-input-7-3f1c> in <module>\n"
        "----> 1 model.predict(x_test)\n" + _ERROR,
    ],
    ids=["script", "callback", "notebook"],
)
def test_a_program_without_a_server_is_a_model_of_another_graph(text: str) -> None:
    report = explained(text)
    top = top_error(report)
    assert top.cause == _GRAPH
    fix = fix_text(top)
    assert "clear_session" in fix and "with graph.as_default():" in fix
    assert "eager" in fix and "threaded=False" not in fix
    assert all(f.cause != _SERVER for f in report.findings)


def test_the_line_alone_names_both_readings_as_warnings() -> None:
    report = explained(_ERROR)
    found = {f.cause: f for f in report.findings}
    assert found[_SERVER].severity is Severity.WARNING
    assert found[_GRAPH].severity is Severity.WARNING
    # Each with its own fix: the server's threads, the graph kept.
    assert "threaded=False" in fix_text(found[_SERVER])
    assert "clear_session" in fix_text(found[_GRAPH])
    assert fix_text(found[_SERVER]) != fix_text(found[_GRAPH])


@pytest.mark.parametrize(
    "text",
    [
        # The words in a sentence about graphs, without TensorFlow's Tensor(...) form.
        "this node is not an element of this graph in networkx\n",
        # A Flask app that failed otherwise: a server, and no tensor of another graph.
        "[2020-02-11 09:12:44,101] ERROR in app: Exception on /predict [POST]\nKeyError: 'image'\n",
    ],
    ids=["prose", "flask-other-error"],
)
def test_near_misses_are_neither_reading(text: str) -> None:
    assert all(f.cause not in (_SERVER, _GRAPH) for f in explained(text).findings)


@pytest.mark.parametrize(
    "path",
    [
        "/srv/venv/lib/python3.8/site-packages/werkzeug/serving.py",
        "C:\\Python38\\Lib\\site-packages\\gunicorn\\workers\\gthread.py",
        "/usr/lib/python3.8/socketserver.py",
    ],
)
def test_server_frames(path: str) -> None:
    assert server_frame(path)


@pytest.mark.parametrize(
    "path",
    [
        # A user's project directory named after a server is not its installed package.
        "/home/u/flask/app.py",
        "/home/u/threading_utils.py",
        "/opt/py/lib/python3.7/site-packages/keras/engine/training.py",
    ],
)
def test_not_server_frames(path: str) -> None:
    assert not server_frame(path)


@pytest.mark.parametrize(
    "text",
    [
        # Java's uncaught exception quotes the thread's name: not Python's threading.
        'Exception in thread "main" java.lang.NullPointerException\n',
        # A sentence about a server, not its line.
        "I tried running on http://localhost with the model\n",
    ],
    ids=["java-thread", "prose"],
)
def test_not_server_lines(text: str) -> None:
    assert server_line(text) == ""
