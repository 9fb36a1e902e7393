#!/bin/sh
# Container start-time pre-flight: run `tfdoctor check`, then become the user's command.
#
#   TFDOCTOR_REQUIRE_GPU=1  (default) fail the start unless TensorFlow can use a GPU;
#                           0 for CPU images: fail only on errors.
#   TFDOCTOR_SMOKE=1        also run the quick smoke test (`--smoke`): kernels on each device.
#   TFDOCTOR_ARGS="..."     more options for `tfdoctor check` (`--strict`, `--timeout 120`).
#   TFDOCTOR_SKIP=1         no check at all (debugging a container that does not start).
#
# The report goes to stderr so the command's stdout stays its own. On success the script
# `exec`s the command: it takes this process's PID (1 in a container) and receives the
# signals `docker stop` sends. On failure the container exits with tfdoctor's exit code
# (2 errors, 3 the doctor could not run) and the command never starts.
set -eu

if [ "${TFDOCTOR_SKIP:-0}" = 1 ]; then
    if [ "$#" -eq 0 ]; then
        exit 0
    fi
    exec "$@"
fi

# Globbing off: TFDOCTOR_ARGS is split into words below, and must not expand `*`.
set -f
flags="check"
if [ "${TFDOCTOR_REQUIRE_GPU:-1}" != 0 ]; then
    flags="$flags --require-gpu"
fi
if [ "${TFDOCTOR_SMOKE:-0}" = 1 ]; then
    flags="$flags --smoke"
fi
if [ -n "${TFDOCTOR_ARGS:-}" ]; then
    flags="$flags $TFDOCTOR_ARGS"
fi

child=""
on_signal() {
    # A stop request while the check runs: stop the check too, and never start the command.
    # The check runs in the background, where a non-interactive shell ignores SIGINT, so
    # TERM is what reaches it.
    # A signal may arrive between the fork and `child=$!`: then `jobs -p` knows the PID.
    pids="${child:-$(jobs -p)}"
    if [ -n "$pids" ]; then
        # shellcheck disable=SC2086 # one or more PIDs, split on purpose
        kill -TERM $pids 2>/dev/null || :
        # shellcheck disable=SC2086
        wait $pids 2>/dev/null || :
    fi
    exit "$1"
}
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# Run in the background and `wait`, so a signal interrupts the wait and reaches the trap
# now instead of after the check finishes. $flags is unquoted: it holds several words.
# shellcheck disable=SC2086
tfdoctor $flags >&2 &
child=$!
status=0
wait "$child" || status=$?
child=""
trap - HUP INT TERM

if [ "$status" -ne 0 ]; then
    echo "tfdoctor-entrypoint: pre-flight failed: 'tfdoctor $flags' exited $status;" \
        "not starting${*:+: $*}" >&2
    if [ "$status" -eq 127 ]; then
        echo "tfdoctor-entrypoint: tfdoctor is not on PATH" >&2
    fi
    exit "$status"
fi
echo "tfdoctor-entrypoint: pre-flight passed ('tfdoctor $flags')" >&2
if [ "$#" -eq 0 ]; then
    exit 0
fi
exec "$@"
