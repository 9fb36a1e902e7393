"""A thread the process could not start, in the words of each pool a TensorFlow process runs:
TensorFlow's own (env.cc's ``Thread creation via pthread_create() failed``), OpenBLAS's
(``blas_thread_init: pthread_create failed for thread N of M: Resource temporarily
unavailable``, driver/others/blas_server.c), libgomp's OpenMP team (``libgomp: Thread creation
failed: Resource temporarily unavailable``, libgomp/team.c) and Python's (``RuntimeError: can't
start new thread``, Modules/_threadmodule.c). Each pool sizes itself by the CPUs it sees, so
many worker processes on one node reach the task limit together; the fix caps the pool whose
words the log shows. Only EAGAIN's words are read: OpenBLAS's ``Operation not permitted`` is a
seccomp profile refusing clone3, not a limit reached.

The logs below are written here, short and in the libraries' words.
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity


@pytest.mark.parametrize(
    ("log", "variable", "lacks"),
    [
        pytest.param(
            "$ python -c 'import numpy'\n"
            "OpenBLAS blas_thread_init: pthread_create failed for thread 27 of 128: Resource "
            "temporarily unavailable\n"
            "OpenBLAS blas_thread_init: RLIMIT_NPROC 4096 current, 4096 max\n"
            "Segmentation fault (core dumped)\n",
            "OPENBLAS_NUM_THREADS=1",
            "TF_NUM_INTRAOP_THREADS",
            id="openblas-numpy-import",
        ),
        pytest.param(
            "(pid=31337) libgomp: Thread creation failed: Resource temporarily unavailable\n",
            "OMP_NUM_THREADS=1",
            "TF_NUM_INTRAOP_THREADS",
            id="libgomp-in-a-worker",
        ),
        pytest.param(
            'Exception in thread "prefetch":\n'
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/threading.py", line 935, in start\n'
            "    _start_new_thread(self._bootstrap, ())\n"
            "RuntimeError: can't start new thread\n",
            "ulimit -a",
            "OPENBLAS_NUM_THREADS",
            id="python-threading",
        ),
        pytest.param(
            "OpenBLAS blas_thread_init: pthread_create failed for thread 3 of 64: Resource "
            "temporarily unavailable\n"
            "2022-08-16 09:45:27.881548: F tensorflow/core/platform/default/env.cc:73] Check "
            "failed: ret == 0 (11 vs. 0)Thread creation via pthread_create() failed.\n",
            "TF_NUM_INTRAOP_THREADS",
            "",
            id="tensorflow-beside-openblas",
        ),
    ],
)
def test_the_fix_caps_the_pool_that_could_not_start_a_thread(
    log: str, variable: str, lacks: str
) -> None:
    top = top_error(explained(log))
    assert top.cause == "threads-exhausted"
    text = fix_text(top)
    assert variable in text, text
    assert not lacks or lacks not in text, text


@pytest.mark.parametrize(
    ("log", "commands"),
    [
        pytest.param(
            "$ python train.py\n"
            "Epoch 1/2\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/threading.py", line 935, in start\n'
            "    _start_new_thread(self._bootstrap, ())\n"
            "RuntimeError: can't start new thread\n",
            ("ulimit -a; cat /sys/fs/cgroup/pids.max 2>/dev/null",),
            id="python-threading-linux",
        ),
        pytest.param(
            "PS C:\\Users\\me> python train.py\n"
            '  File "C:\\Python38\\lib\\threading.py", line 852, in start\n'
            "    _start_new_thread(self._bootstrap, ())\n"
            "RuntimeError: can't start new thread\n",
            (),
            id="python-threading-windows",
        ),
    ],
)
def test_python_threads_set_no_variable(log: str, commands: tuple[str, ...]) -> None:
    """Python's pool has no variable of its own: no bare ``export`` (which lists every
    variable) nor an empty line; on Windows no ulimit nor cgroup either."""
    top = top_error(explained(log))
    assert top.cause == "threads-exhausted"
    assert top.fix is not None
    assert top.fix.commands == commands
    if not commands:
        assert "ulimit" not in top.fix.text and "pids-limit" not in top.fix.text


def test_the_title_and_the_fix_name_the_same_pool() -> None:
    """OpenBLAS's line first, then TensorFlow's abort: the title names OpenBLAS, and the fix
    caps OpenBLAS's pool beside TensorFlow's."""
    top = top_error(
        explained(
            "OpenBLAS blas_thread_init: pthread_create failed for thread 13 of 64: Resource "
            "temporarily unavailable\n"
            "2021-01-01 10:00:00.000000: F tensorflow/core/platform/default/env.cc:73] Check "
            "failed: ret == 0 (11 vs. 0)Thread creation via pthread_create() failed.\n"
        )
    )
    assert top.summary.startswith("OpenBLAS could not start a thread")
    text = fix_text(top)
    assert "OPENBLAS_NUM_THREADS=1" in text and "TF_NUM_INTRAOP_THREADS" in text, text


def test_a_limit_of_memory_is_named_beside_the_tasks() -> None:
    """EAGAIN covers a refused stack too (``ulimit -v`` set below the pools' need): the fix
    names ``ulimit -a``, which shows both, and the title claims no limit of tasks alone."""
    top = top_error(
        explained(
            "$ ulimit -v 4000000\n"
            "$ python serve.py\n"
            '  File "/usr/lib/python3.8/threading.py", line 852, in start\n'
            "    _start_new_thread(self._bootstrap, ())\n"
            "RuntimeError: can't start new thread\n"
        )
    )
    assert "ulimit -a" in fix_text(top)
    assert "memory" in top.summary, top.summary


def test_openblas_refused_by_seccomp_is_no_limit_reached() -> None:
    report = explained(
        "OpenBLAS blas_thread_init: pthread_create failed for thread 52 of 64: Operation not "
        "permitted\n"
        "OpenBLAS blas_thread_init: RLIMIT_NPROC 1048576 current, 1048576 max\n"
    )
    assert all(f.cause != "threads-exhausted" for f in report.findings)


def test_a_thread_count_set_by_hand_is_quiet() -> None:
    report = explained(
        "$ export OMP_NUM_THREADS=4 OPENBLAS_NUM_THREADS=4\n"
        "$ python -c 'import numpy; numpy.show_config()'\n"
        "openblas_info:\n    libraries = ['openblas', 'openblas']\n"
    )
    assert all(f.severity.rank <= Severity.INFO.rank for f in report.findings)
