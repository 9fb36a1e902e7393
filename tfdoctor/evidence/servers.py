"""A server, a worker pool or a thread of its own, as a log shows one running the code.

TensorFlow 1 keeps its default graph per thread: the same "not an element of this graph"
is a server's request threads in a served program, and a model kept across graphs in a
script or a notebook. What the log shows around the line tells them apart:

- frames in a server's, a task queue's or a thread pool's own files (an installed
  ``flask/``, ``werkzeug/``, ``django/``, ``gunicorn/``, ``uvicorn/``, ``starlette/``,
  ``fastapi/``, ``celery/``, ``gevent/``, ``eventlet/``; Python's ``threading.py``,
  ``socketserver.py`` and ``concurrent/futures/thread.py``);
- the lines those programs print as they serve or fail: Flask's ``Exception on /path [POST]``
  (flask/app.py, log_exception), Werkzeug's `` * Running on http://`` (werkzeug/serving.py),
  Django's ``Internal Server Error: /path`` (django/utils/log.py, log_response), uvicorn's
  ``Exception in ASGI application`` (uvicorn/protocols/http/h11_impl.py) and ``Uvicorn
  running on``, gunicorn's ``[INFO] Listening at:`` (gunicorn/arbiter.py), uWSGI's ``***
  Starting uWSGI``, Celery's ``Task ... raised unexpected:`` (celery/app/trace.py) and
  Python's ``Exception in thread NAME:`` (Lib/threading.py).

The forked workers TensorFlow's signatures already read (gunicorn's "Booting worker",
Celery's ForkPoolWorker-N, uWSGI's workers) are the signatures' to say, not repeated here.
"""

from __future__ import annotations

import re

#: A frame in a server's or a pool's installed package, or in Python's own thread modules.
_FRAME = re.compile(
    r"(?:site|dist)-packages[/\\](?:flask|werkzeug|django|gunicorn|uvicorn|starlette|fastapi"
    r"|celery|gevent|eventlet)[/\\]"
    r"|[/\\](?:threading|socketserver)\.py$"
    r"|[/\\]concurrent[/\\]futures[/\\]thread\.py$"
)

#: The lines servers, task queues and threads print (sources in the module's docstring). A
#: Java thread's ``Exception in thread "main"`` quotes its name; Python's does not.
_LINE = re.compile(
    r"Exception on /[^\s\[\]]{0,300} \[(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\]"
    r"|^[ \t]*\* Running on https?://"
    r"|Internal Server Error: /"
    r"|Exception in ASGI application"
    r"|Uvicorn running on https?://"
    r"|\[INFO\] Listening at: "
    r"|\*\*\* Starting uWSGI"
    r"|Task [\w.]{1,200}\[[\w-]{1,100}\] raised unexpected: "
    r"|^Exception in thread [^\"\s][^\n]{0,200}:[ \t]*\r?$",
    re.MULTILINE,
)

#: Literals one of which every line :data:`_LINE` matches holds: the cheap test first.
_LINE_WORDS = (
    "Exception on /",
    "Running on http",
    "Internal Server Error: /",
    "Exception in ASGI application",
    "Uvicorn running on",
    "Listening at: ",
    "Starting uWSGI",
    "raised unexpected: ",
    "Exception in thread ",
)


def server_frame(path: str) -> bool:
    """Whether a traceback frame's ``path`` is a server's, a pool's or a thread's own file."""
    return _FRAME.search(path) is not None


def server_line(text: str) -> str:
    """The first line of ``text`` a server, task queue or thread printed as it served or
    failed, stripped ("" where there is none)."""
    if not any(word in text for word in _LINE_WORDS):
        return ""
    found = _LINE.search(text)
    if found is None:
        return ""
    start = text.rfind("\n", 0, found.start()) + 1
    end = text.find("\n", found.end())
    return text[start : end if end >= 0 else len(text)].strip()
