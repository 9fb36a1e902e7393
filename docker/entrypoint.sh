#!/bin/sh
# Container start-time pre-flight: run `tfdoctor check`, then become the user's command.
#
#   TFDOCTOR_REQUIRE_GPU=1  (default) fail the start unless TensorFlow can use a GPU;
#                           0 for CPU images: fail only on errors.
#   TFDOCTOR_SMOKE=1        also run the quick smoke test (`--smoke`): kernels on each device.
#   TFDOCTOR_ARGS="..."     more options for `tfdoctor check` (`--strict`, `--timeout 120`).
#   TFDOCTOR_SKIP=1         no check at all (debugging a container that does not start).
#
# A switch is off when it is 0, false, no or off (in any case), on for any other value;
# unset or empty, it keeps its default.
#
# The report goes to stderr so the command's stdout stays its own. On success the script
# `exec`s the command: it takes this process's PID (1 in a container) and receives the
# signals `docker stop` sends. On failure the container exits with tfdoctor's exit code
# (2 errors, 3 the doctor could not run) and the command never starts.
set -eu

# Whether a switch's value means on (see above).
is_on() {
    case "$1" in
        0 | [Ff][Aa][Ll][Ss][Ee] | [Nn][Oo] | [Oo][Ff][Ff]) return 1 ;;
        *) return 0 ;;
    esac
}

if is_on "${TFDOCTOR_SKIP:-0}"; then
    if [ "$#" -eq 0 ]; then
        exit 0
    fi
    exec "$@"
fi

# Globbing off: TFDOCTOR_ARGS is split into words below, and must not expand `*`.
set -f
flags="check"
if is_on "${TFDOCTOR_REQUIRE_GPU:-1}"; then
    flags="$flags --require-gpu"
fi
if is_on "${TFDOCTOR_SMOKE:-0}"; then
    flags="$flags --smoke"
fi
if [ -n "${TFDOCTOR_ARGS:-}" ]; then
    flags="$flags $TFDOCTOR_ARGS"
fi

child=""
pending=""
stop_check() {
    # TERM, because the check runs in the background, where a non-interactive shell ignores
    # SIGINT. It reaches tfdoctor only: a child tfdoctor runs (the TensorFlow import, the
    # smoke test) is in a session of its own and lives on until its own timeout, or until
    # this script exits as the container's PID 1, when the kernel ends every process left
    # in the container.
    kill -TERM "$child" 2>/dev/null || :
    wait "$child" 2>/dev/null || :
    exit "$1"
}
on_signal() {
    # A stop request while the check runs: stop the check too, and never start the command.
    if [ -z "$child" ]; then
        # Between the fork and `child=$!` the PID is not known (`jobs -p` lists nothing
        # there in dash): remember the signal, acted on as soon as the PID is known.
        pending="$1"
        return
    fi
    stop_check "$1"
}
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# Run in the background and `wait`, so a signal interrupts the wait and reaches the trap
# now instead of after the check finishes. $flags is unquoted: it holds several words.
# shellcheck disable=SC2086
tfdoctor $flags >&2 &
child=$!
if [ -n "$pending" ]; then
    stop_check "$pending"
fi
status=0
wait "$child" || status=$?
# The traps stay until `exec`, which resets them: a signal from here on still means the
# command never starts (the check has ended; killing it again is harmless).

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
