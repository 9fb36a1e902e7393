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
            "ulimit -u",
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
