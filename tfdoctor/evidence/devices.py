"""What a session printed when it asked TensorFlow for its devices: the GPUs it listed.

Users paste the answers to the questions TensorFlow's install guide asks
(https://www.tensorflow.org/install/pip, "Verify the GPU setup"):
``tf.config.list_physical_devices('GPU')`` and its ``[]``, ``print("Num GPUs Available: ",
len(...))``, ``device_lib.list_local_devices()`` with its ``device_type: "CPU"`` blocks,
``tf.test.is_gpu_available()`` and ``tf.test.is_built_with_cuda()`` with their ``True`` or
``False``. Each is an observation of what TensorFlow itself listed, kept apart from any
inference about why.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Optional

from tfdoctor.records import Record, record

#: Listings kept per log.
MAX_LISTINGS = 20


@record
class DeviceListing(Record):
    """One answer TensorFlow gave about its devices (observed), with the line that shows it."""

    #: The log line (1-based, in the block read) and its text.
    line: int
    text: str
    #: How many GPUs the answer lists (0: none); None where it does not count them.
    gpus: Optional[int] = None
    #: ``tf.test.is_built_with_cuda()``'s answer, where printed.
    built_with_cuda: Optional[bool] = None
    #: XLA's own GPU devices (``XLA_GPU``, TensorFlow 2.0-2.3) listed beside the real ones: the
    #: CUDA driver answered, the GPU device itself was not registered.
    xla_gpus: int = 0
    #: A session's device mapping (``log_device_placement``), printed whatever the program
    #: asks: an answer about GPUs only where the log otherwise shows one meant.
    placement: bool = False
    #: An answer of the devices the program chose to use, not of those TensorFlow found:
    #: ``list_logical_devices``/``get_visible_devices``, which
    #: ``tf.config.set_visible_devices([], 'GPU')`` empties in the process that found a GPU,
    #: and a session's device mapping, which a session's ``device_count={'GPU': 0}`` does.
    chosen: bool = False


# Literal strings one of the forms below always holds: only lines with one are read, so a
# long log is searched with ``str.find`` and few of its lines reach a regular expression.
_LITERALS = (
    "Device(",  # PhysicalDevice(...), LogicalDevice(...)
    'device_type: "',  # device_lib's listing
    "[]",
    "pus",  # Num GPUs Available, gpus found
    "vailable",  # GPU available: False, is_gpu_available
    "uilt",  # is_built_with_cuda, Built with CUDA
    "gpu_device_name",
    "GPU device not found",
    "GPU version of TF",
    "GPU Device:",
    "Registered devices: [",
    "no known devices",
)
_DEVICE_REPR = re.compile(
    r"(?:Physical|Logical)Device\(name='[^']*', device_type='(?P<type>\w+)'\)"
)
#: device_lib's ``device_type: "GPU"`` line; a kernel's definition as the kernel registry logs
#: it (``OpKernel ('op: "X" device_type: "CPU"') for unknown op``, op_kernel.cc) names one
#: kernel's device, not the process's, and is left out.
_DEVICE_LIB = re.compile(r'^(?![^\n]*\bop: ")[^\n]*?device_type: "(?P<type>\w+)"')
#: The devices of the process, as TensorFlow lists them where no kernel of an op fits one
#: (op_kernel.cc / placer: "No OpKernel was registered to support Op 'X' ... Registered
#: devices: [CPU], Registered kernels: ..."): observed, a GPU registered or not.
_REGISTERED = re.compile(r"Registered devices: \[(?P<types>[\w, ]{1,200})\]")
#: DirectSession's device mapping where ``log_device_placement`` is on, printed with no
#: device that has a physical description (a GPU's "device: 0, name: ..."): the session
#: has the CPU alone. direct_session.cc: ``if (mapping_str.empty()) printf("Device mapping:
#: no known devices.\n")``; later releases log the same words (``LOG(INFO) << msg``, the
#: line then carries the file's name: ``direct_session.cc:382] Device mapping: no known
#: devices.``).
#: https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/core/common_runtime/direct_session.cc
_NO_KNOWN_DEVICES = re.compile(r"\bDevice mapping: no known devices\.")
#: A query for GPUs whose printed answer (``[]``) is on the same line or the next ones.
_GPU_QUERY = re.compile(
    r"(list_physical_devices|list_logical_devices|get_visible_devices)\(\s*"
    r"(?:device_type\s*=\s*)?['\"](?:GPU|gpu)['\"]"
)
_EMPTY_ANSWER = re.compile(r"(?:^|[\s:=>)])\[\]\s*$")
_COUNT = re.compile(
    r"(?i)\b(?:num(?:ber)?(?: of)? gpus?(?: available)?|gpus? (?:available|found|detected|count))"
    r"\s*[:=]?\s*(?P<n>\d+)\b"
)
_LABELLED_EMPTY = re.compile(r"(?i)\bgpus?(?: devices?| available| found)?\s*[:=]\s*\[\]")
_BOOL_ANSWER = re.compile(
    r"(?i)(?P<what>is_gpu_available|gpu (?:is )?available|is_built_with_cuda|built with cuda)"
    r"[^\n]{0,200}?(?P<value>\bTrue|\bFalse)\s*$"
)
_BARE_BOOL = re.compile(r"^\s*(?:Out\[\d+\]:\s*)?(?P<value>True|False)\s*$")
_EMPTY_NAME = re.compile(r"^\s*(?:Out\[\d+\]:\s*)?(?:''|\"\")\s*$")
#: The exception a program raises when ``tf.test.gpu_device_name()`` named no GPU (the check
#: TensorFlow's GPU notebooks run: ``if device_name != '/device:GPU:0': raise
#: SystemError('GPU device not found')``), as Python prints it.
_NOT_FOUND_RAISED = re.compile(r"^\s*(?:\w+Error|Exception): GPU device not found\s*$")


#: The printed answers of the GPU check many scripts copy (``if tf.test.gpu_device_name():
#: print('Default GPU Device: {}'.format(tf.test.gpu_device_name())) else: print("Please
#: install GPU version of TF")``): its else branch's line, or its first line with no name after
#: it, each as the whole line (the script's own source, pasted, holds them inside print()).
_NAMED_NO_GPU = re.compile(r"^\s*(?:Please install GPU version of TF|Default GPU Device\s*:)\s*$")


def read_device_listings(text: str, first_line: int = 1) -> list[DeviceListing]:
    """Every answer about devices in ``text`` (one block of a log), in order."""
    starts = _candidate_lines(text)
    if not starts:
        return []
    out: list[DeviceListing] = []
    block: list[tuple[int, str]] = []  # device_lib's device_type lines of one listing
    last, number, counted = -2, 0, 0
    for start in starts:
        end = text.find("\n", start)
        line = text[start : end if end >= 0 else len(text)].strip()
        number += text.count("\n", counted, start)  # the starts are in order: count once
        counted = start
        if block and (not _DEVICE_LIB.search(line) or number - last > 12):
            # device_lib prints each device in a dozen lines or fewer: a gap ends the listing.
            out.append(_device_lib_listing(block))
            block = []
        if _DEVICE_LIB.search(line):
            block.append((first_line + number, line))
            last = number
            continue
        found = _listing(line, text, start, first_line + number)
        if found is not None:
            out.append(found)
        if len(out) >= MAX_LISTINGS:
            return out
    if block:
        out.append(_device_lib_listing(block))
    return out[:MAX_LISTINGS]


def _candidate_lines(text: str) -> list[int]:
    """The starts of the lines that hold one of the literals, in order."""
    found: set[int] = set()
    for literal in _LITERALS:
        if literal not in text:
            continue  # asked first: a block's ``in`` answers from its lines' shapes
        i = text.find(literal)
        while i >= 0 and len(found) < 10 * MAX_LISTINGS:
            start = text.rfind("\n", 0, i) + 1
            found.add(start)
            end = text.find("\n", i)
            if end < 0:
                break
            i = text.find(literal, end)
            if literal in ("vailable", "uilt", "gpu_device_name") and end >= 0:
                found.add(end + 1)  # the answer printed on the line below the question
    return sorted(s for s in found if s < len(text))


def _device_lib_listing(block: list[tuple[int, str]]) -> DeviceListing:
    """``device_lib.list_local_devices()``'s devices, as one listing."""
    types = [m.group("type") for _, line in block for m in [_DEVICE_LIB.search(line)] if m]
    return DeviceListing(
        block[0][0],
        block[0][1],
        gpus=types.count("GPU"),
        xla_gpus=types.count("XLA_GPU"),
    )


def _listing(line: str, text: str, start: int, where: int) -> Optional[DeviceListing]:
    """The answer one line gives, if it gives one (``text``/``start``: the lines above it)."""
    types = _DEVICE_REPR.findall(line)
    if types:
        if line.endswith("]") and line.lstrip().startswith("["):
            return DeviceListing(where, line, gpus=types.count("GPU"))
        return None
    if _NO_KNOWN_DEVICES.search(line):
        return DeviceListing(where, line, gpus=0, placement=True, chosen=True)
    registered = _REGISTERED.search(line)
    if registered is not None:
        kinds = [k.strip() for k in registered.group("types").split(",")]
        return DeviceListing(where, line, gpus=kinds.count("GPU"))
    above = _lines_above(text, start, 3)
    if "[]" in line and _LABELLED_EMPTY.search(line):
        return DeviceListing(where, line, gpus=0)
    query = next((q for x in (line, *above) for q in [_GPU_QUERY.search(x)] if q), None)
    if "[]" in line and _EMPTY_ANSWER.search(line) and query is not None:
        return DeviceListing(where, line, gpus=0, chosen=query.group(1) != "list_physical_devices")
    match = _COUNT.search(line)
    if match is not None:
        return DeviceListing(where, line, gpus=int(match.group("n")))
    answer = _BOOL_ANSWER.search(line)
    if answer is None and above and _BARE_BOOL.match(line):
        # The question on one line (``>>> tf.test.is_gpu_available()``), its answer below.
        answer = _BOOL_ANSWER.search(above[0].rstrip() + " " + line)
    if answer is not None:
        value = answer.group("value").lower() == "true"
        what = answer.group("what").lower()
        if "cuda" in what:
            return DeviceListing(where, line, built_with_cuda=value)
        return DeviceListing(where, line, gpus=None if value else 0)
    if _NAMED_NO_GPU.match(line):
        # tf.test.gpu_device_name() named no GPU: the check's own answer.
        return DeviceListing(where, line, gpus=0)
    if _EMPTY_NAME.match(line) and above and "gpu_device_name" in above[0]:
        return DeviceListing(where, line, gpus=0)
    if _NOT_FOUND_RAISED.match(line) and any(
        "gpu_device_name" in x for x in _lines_above(text, start, 8)
    ):
        # The check's own raise, below the lines that show what it asked (a traceback's
        # source, a notebook's cell): TensorFlow named no GPU device.
        return DeviceListing(where, line, gpus=0)
    return None


def _lines_above(text: str, start: int, count: int) -> list[str]:
    """Up to ``count`` lines above the line starting at ``start``, nearest first."""
    out: list[str] = []
    end = start - 1
    while end > 0 and len(out) < count:
        begin = text.rfind("\n", 0, end) + 1
        out.append(text[begin:end])
        end = begin - 1
    return out


#: A Unix shell's prompt (``user@host:~/dir$``, ``(venv) user@host dir %``): not native
#: Windows, whose shells show a drive (``C:\\>``, ``PS C:\\>``). Its parts are named: the
#: host, the directory after a colon (``path``, bash's ``\\u@\\h:\\w``) or after a space
#: (``dir``, zsh's ``%n@%m %1~``), and the prompt's last character (``sigil``).
_UNIX_PROMPT = re.compile(
    r"(?m)^(?:\([\w.-]+\)\s*)?[\w.-]+@(?P<host>[\w.-]+)"
    r"(?::(?P<path>[~/][^\s$#%]*)| (?P<dir>[~\w./-]+)) ?(?P<sigil>[$#%]) "
)


def unix_prompt(text: str) -> Optional[str]:
    """The first Unix shell prompt in ``text``, if any."""
    match = _UNIX_PROMPT.search(text)
    return match.group(0).strip() if match else None


def unix_prompts(text: str) -> Iterator[re.Match[str]]:
    """Each Unix shell prompt in ``text``, its parts named as :data:`_UNIX_PROMPT` names
    them."""
    return _UNIX_PROMPT.finditer(text)


#: An environment variable set where the log shows it: a shell's assignment (``export X=2``,
#: ``X=2 python ...``, IPython's ``%env X=2``) or Python's (``os.environ["X"] = "2"``), by the
#: variable's name. "=" and not "==" (a comparison reads the variable); the whole value, quoted
#: or up to the end of the word (a value read from another variable, "$X" or ${X}, is not
#: shown); GPU UUIDs (GPU-8932f937-...) whole.
_ASSIGNMENT = (
    r"\b{name}(?:['\"]\])?[ \t]*=(?!=)[ \t]*"
    r"(?:(?P<quote>['\"])(?P<quoted>-?[\w,-]*)(?P=quote)|(?P<value>-?[\w,-]*)(?![^\s;&|)]))"
)


#: Where a command starts: a line's start, after a shell's or an interpreter's prompt
#: (``$``, ``#``, ``user@host:~$``, ``(venv) $``, ``>>>``, ``In [3]:``, PowerShell's ``PS C:\\>``),
#: or after ``;``, ``&&`` or ``||``. Prose and a comment (``# never unset X``) start no command.
_COMMAND_START = (
    r"(?:^[ \t]*(?:(?:\([^()\n]*\)[ \t]*)?[\w@:~/.-]*[$#%][ \t]+|>>>[ \t]*|In \[\d+\]:[ \t]*"
    r"|PS[ \t][^\n>]{{0,200}}>[ \t]*)?|[;&|][ \t]*)"
)
#: The variable removed where the log shows it, as a command: the shell's ``unset X`` (bash's
#: builtin, which takes several names and -v) and ``export -n X``, Python's ``del
#: os.environ["X"]`` and ``os.environ.pop("X")``, PowerShell's ``Remove-Item Env:X``. Not
#: ``env -u X cmd`` (it runs that one command without X, the shell keeps it) nor
#: ``os.unsetenv("X")`` (os.environ, which the process's own readers see, keeps it).
#: https://www.gnu.org/software/bash/manual/html_node/Bourne-Shell-Builtins.html#index-unset
#: https://docs.python.org/3/library/os.html#os.unsetenv
_UNSETTING = (
    _COMMAND_START + r"(?:(?:unset(?:[ \t]+-v)?|export[ \t]+-n)(?:[ \t]+\w+){{0,20}}?[ \t]+{name}\b"
    r"|del[ \t]+os\.environ\[['\"]{name}['\"]\]"
    r"|(?:\w+[ \t]*=[ \t]*)?os\.environ\.pop\([ \t]*['\"]{name}['\"]"
    r"|Remove-Item[ \t]+Env:\\?{name}\b)"
)


@functools.lru_cache(maxsize=8)
def _assignment(name: str) -> re.Pattern[str]:
    return re.compile(_ASSIGNMENT.format(name=re.escape(name)))


@functools.lru_cache(maxsize=8)
def _unsetting(name: str) -> re.Pattern[str]:
    return re.compile(_UNSETTING.format(name=re.escape(name)), re.MULTILINE)


def variable_set(text: str, name: str) -> Optional[str]:
    """The value environment variable ``name`` is set to where ``text`` shows it set ('' for an
    empty one), by its last assignment there; None where it is not set in it, or only echoed
    (``X=$X``), or where a removal follows that assignment (``unset X`` after ``export X=1``:
    the later command runs without it)."""
    # The pattern opens with a word boundary, which keeps the engine from looking for the
    # name as a literal: it would try every place of a long head. The name's own search says
    # first whether it is there at all (a block's shapes answer, where the text is a block's).
    if name not in text:
        return None
    match = _assignment(name).search(text)
    if match is None:
        return None
    # Commands run in the order shown: the last assignment stands, unless a removal follows
    # it, which leaves the variable unset for what follows.
    for later in _assignment(name).finditer(text, match.end()):
        if later.group(0):
            match = later
    if _unsetting(name).search(text, match.end()) is not None:
        return None
    return match.group("quoted") if match.group("quote") else match.group("value")


def visible_hides_gpus(value: Optional[str]) -> bool:
    """Whether CUDA_VISIBLE_DEVICES set to ``value`` (as a log shows it; None: not shown) may
    hide every GPU: CUDA lists none for -1 or an empty value, and none from the first entry
    the machine does not have; a first entry of index 0 names a GPU wherever there is one."""
    return value is not None and value.split(",")[0].strip() != "0"


def visible_devices_set(text: str) -> Optional[str]:
    """The value CUDA_VISIBLE_DEVICES is set to where ``text`` shows it set (:func:`variable_set`).
    CUDA lists only the devices of the indices named, up to the first invalid one, and none for
    ``-1`` or an empty value (the CUDA C++ Programming Guide, "CUDA Environment Variables")."""
    return variable_set(text, "CUDA_VISIBLE_DEVICES")


#: op_kernel.cc's kernel look-up (CreateOpKernel, FindKernelDef) where the op has a kernel for
#: the device type and none of them takes the attributes asked: "No registered 'X' OpKernel
#: for 'GPU' devices compatible with node {{node X}}" then "(OpKernel was found, but attributes
#: didn't match) Requested Attributes: ...".
_ATTRS_MISMATCH = "(OpKernel was found, but attributes didn't match)"
#: One kernel of an op, as KernelsRegisteredForOp lists them after a refusal ("Registered
#: kernels:", then "  device='GPU'; T in [DT_FLOAT]" a line; "  <no registered kernels>").
_KERNEL_OF = re.compile(r"^[ \t]+device='(?P<type>\w+)'")


def kernel_refused_attrs(text: str) -> bool:
    """Whether a kernel look-up in ``text`` found a kernel of the op registered for a device
    type of the process, none of them taking the attributes asked (observed): op_kernel.cc
    says so, or the refusal lists the process's devices ("Registered devices: [CPU, GPU]",
    placer.cc and graph_execution_state.cc) and, below, a kernel for one of them. Otherwise the
    op has no kernel for any device the process registered."""
    if _ATTRS_MISMATCH in text:
        return True
    if "Registered devices: [" not in text:
        return False
    for match in _REGISTERED.finditer(text):
        types = {k.strip() for k in match.group("types").split(",")}
        # Its kernels follow, one a line, after "Registered kernels:" (on its line in 1.x).
        below = text[match.end() : match.end() + 4096].split("\n")[1:]
        if below and below[0].strip() == "Registered kernels:":
            below = below[1:]
        for line in below:
            kernel = _KERNEL_OF.match(line)
            if kernel is None:
                break
            if kernel.group("type") in types:
                return True
    return False


def gpus_listed(listings: list[DeviceListing]) -> Optional[int]:
    """The most GPUs any answer lists; 0 when every counting answer lists none; None when no
    answer counts them."""
    counts = [x.gpus for x in listings if x.gpus is not None]
    return max(counts) if counts else None


def built_with_cuda(listings: list[DeviceListing]) -> Optional[bool]:
    """What ``tf.test.is_built_with_cuda()`` answered, where printed."""
    answers = [x.built_with_cuda for x in listings if x.built_with_cuda is not None]
    return answers[0] if answers else None


#: Apptainer's (Singularity's) commands that start a container from an image, whose flags say
#: what the container gets: ``exec``, ``run``, ``shell``, ``instance start`` and ``instance
#: run`` (https://apptainer.org/docs/user/main/cli.html); the one reader of both this and
#: :func:`apptainer_shown`.
_HPC_COMMAND = (
    r"(?P<hpc>apptainer|singularity)[ \t]+(?:exec|run|shell|instance[ \t]+(?:start|run))\b"
)

#: ``docker run`` (or ``podman run``, or Apptainer's and Singularity's ``exec``, ``run``,
#: ``shell`` and ``instance start``, also behind Slurm's or MPI's launcher) as a command a
#: user ran: at a line's start, behind a shell prompt (``$``, ``#``, ``%``, ``>``) or
#: ``sudo``; and the flags that hand the container a GPU: docker's ``--gpus`` (19.03), the
#: NVIDIA runtime of nvidia-docker 2 (``--runtime=nvidia``), a CDI device (``--device
#: nvidia.com/gpu=all``), the device nodes passed one by one (``--device /dev/nvidia0``, with
#: ``/dev/nvidiactl`` and ``/dev/nvidia-uvm``: how GPUs were handed over before the NVIDIA
#: runtime; ROCm's ``--device /dev/kfd``, https://rocm.docs.amd.com/projects/install-on-linux/
#: en/latest/how-to/docker.html) or the variable the NVIDIA runtime reads; Apptainer's ``--nv`` (the
#: host driver's libraries and devices bound in) or ``--nvccli`` (through the NVIDIA
#: Container Toolkit), and ``--rocm`` for AMD's
#: (https://apptainer.org/docs/user/main/gpu.html). ``nvidia-docker run`` adds the runtime
#: itself (not matched).
_CONTAINER_RUN = re.compile(
    r"^(?:[^\n]{0,80}?[#$%>][ \t]*)?[ \t]*(?:sudo[ \t]+)?"
    r"(?:(?:srun|mpirun|mpiexec)\b[^\n]{0,120}?[ \t])?"
    rf"(?P<cmd>(?P<tool>docker|podman) run\b[^\n]{{0,2000}}|{_HPC_COMMAND}[^\n]{{0,2000}})",
    re.MULTILINE,
)
_GPU_FLAGS = re.compile(
    r"--gpus\b|--runtime[= ]nvidia|nvidia\.com/gpu|NVIDIA_VISIBLE_DEVICES|--nv(?:ccli)?\b|--rocm\b"
    r"|--device[= ][ \t]*/dev/(?:nvidia|kfd)"
)
#: How Apptainer's ``exec``, ``run`` and ``shell`` name a running instance instead of an image
#: (``apptainer exec instance://NAME ...``): the instance got its GPU flags, or none, when
#: ``instance start`` (or ``instance run``) created it (the action commands' image formats:
#: "instance://* A local running instance of a container", apptainer-instance-start(1)), so
#: the command into it says nothing of the GPU; its ``instance start``, where shown, is read
#: as a command of its own.
_INSTANCE_IMAGE = "instance://"
#: A shell line continued on the next (``\`` at its end).
_CONTINUED = re.compile(r"\\[ \t]*\r?\n[ \t]*")


def container_run_without_gpu(text: str) -> Optional[tuple[str, str]]:
    """The first ``docker run``, ``podman run`` or Apptainer (Singularity) command ``text``
    shows a user running that hands the container no GPU, as (``docker``, ``podman``,
    ``apptainer`` or ``singularity``, the command's first 200 characters, its continued lines
    joined); None where none is shown or each hands one over."""
    if " run" not in text and "apptainer " not in text and "singularity " not in text:
        return None
    for match in _run_commands(text):
        if _GPU_FLAGS.search(match.group("cmd")) or _INSTANCE_IMAGE in match.group("cmd"):
            continue
        return match.group("tool") or match.group("hpc"), match.group("cmd").strip()[:200]
    return None


#: nvidia-docker's own run command at a line's start, behind a shell prompt or sudo: the
#: wrapper of nvidia-docker 1 and 2 adds the NVIDIA runtime to the container it starts.
_NVIDIA_DOCKER_COMMAND = re.compile(
    r"^(?:[^\n]{0,80}?[#$%>][ \t]*)?[ \t]*(?:sudo[ \t]+)?(?P<cmd>nvidia-docker run\b[^\n]{0,2000})",
    re.MULTILINE,
)


#: A start that asks NVIDIA's container runtime for GPUs by itself: Docker's ``--gpus`` (a
#: device request the NVIDIA Container Toolkit serves), Kubernetes' ``nvidia.com/gpu`` limit.
_GPU_REQUEST = re.compile(r"--gpus\b|nvidia\.com/gpu")
#: The NVIDIA runtime named outright, as nvidia-docker 2's wrapper adds it (``--runtime=nvidia``).
_NVIDIA_RUNTIME = re.compile(r"--runtime[= ][ \t]*nvidia\b")
#: The devices a command hands the NVIDIA runtime (``-e NVIDIA_VISIBLE_DEVICES=all``).
_VISIBLE_DEVICES = re.compile(r"NVIDIA_VISIBLE_DEVICES=[\"']?(?P<value>[^\s\"']*)")
#: The driver features a command asks the NVIDIA runtime to mount
#: (``-e NVIDIA_DRIVER_CAPABILITIES=compute,utility``).
_CAPABILITIES = re.compile(r"NVIDIA_DRIVER_CAPABILITIES=[\"']?(?P<value>[^\s\"']*)")


def _mounts_driver(command: str, wrapper: bool) -> bool:
    """Whether the NVIDIA runtime mounts the host driver's libraries into the container
    ``command`` starts (``wrapper``: through ``nvidia-docker``). ``--gpus`` asks for GPUs
    itself; the runtime named outright (nvidia-docker 2's wrapper adds only
    ``--runtime=nvidia``: NVIDIA/nvidia-docker's ``nvidia-docker`` script) exposes nothing
    unless NVIDIA_VISIBLE_DEVICES is set, by the command or by the image (NVIDIA's CUDA images
    set it): "void or empty or unset: nvidia-container-runtime will have the same behavior as
    runc (i.e. neither GPUs nor capabilities are exposed)"
    (https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html);
    nvidia-docker 1 mounted its driver volume only for an image labelled
    com.nvidia.volumes.needed, as NVIDIA's CUDA images are (its 1.0 branch's
    src/nvidia-docker/main.go, VolumesNeeded). Devices passed by hand (``--device
    /dev/nvidia0``) and AMD's flags mount no driver library. Nor does a start that narrows
    the driver's capabilities mount them all: NVML and nvidia-smi come with ``utility``, libcuda
    with ``compute`` (the same page's NVIDIA_DRIVER_CAPABILITIES), so a start without both
    (or ``all``) leaves some out by its own setting."""
    visible = _VISIBLE_DEVICES.search(command)
    if visible is not None and visible.group("value") in ("", "void"):
        return False
    capabilities = _CAPABILITIES.search(command)
    if capabilities is not None and capabilities.group("value"):  # empty: the default
        asked = set(capabilities.group("value").split(","))
        if "all" not in asked and not {"utility", "compute"} <= asked:
            return False
    if _GPU_REQUEST.search(command):
        return True
    if not (wrapper or _NVIDIA_RUNTIME.search(command)):
        return False
    return visible is not None or runs_gpu_image(command)


def container_run_with_gpu(text: str) -> Optional[tuple[int, str]]:
    """The last command ``text`` shows a user running that starts a Docker or Podman container
    through NVIDIA's runtime with GPUs handed over (:func:`_mounts_driver`: ``--gpus``, or
    ``nvidia-docker run`` or ``--runtime=nvidia`` with NVIDIA_VISIBLE_DEVICES or a GPU image),
    as where its line starts in ``text`` and its first 200 characters with continued lines
    joined; None where none is shown. The
    runtime mounts the host driver's user-space libraries (libcuda, libnvidia-ml) into such a
    container. Apptainer's ``--nv`` is not one: it binds what the host's loader cache lists,
    nothing where the host has no driver."""
    if " run" not in text:
        return None
    joined = _CONTINUED.sub(" ", text) if "\\\n" in text or "\\\r\n" in text else text
    found = [
        (m.start(), m.group("cmd").strip())
        for m in _run_commands(text)
        if m.group("tool") and _mounts_driver(m.group("cmd"), False)
    ]
    found += [
        (m.start(), m.group("cmd").strip())
        for m in _NVIDIA_DOCKER_COMMAND.finditer(joined)
        if _mounts_driver(m.group("cmd"), True)
    ]
    if not found:
        return None
    at, command = max(found)
    return _unjoined(text, at), command[:200]


def _unjoined(text: str, at: int) -> int:
    """Where in ``text`` the place ``at`` of its copy with continued lines joined
    (:data:`_CONTINUED`, each run made one space) lies."""
    shift = 0
    for run in _CONTINUED.finditer(text):
        if run.start() - shift >= at:
            break
        shift += len(run.group()) - 1
    return at + shift


#: An image built to use a GPU: TensorFlow's GPU images (a tag holding ``gpu``:
#: https://www.tensorflow.org/install/docker), NVIDIA's CUDA images (``nvidia/cuda:``,
#: https://hub.docker.com/r/nvidia/cuda; untagged too, as nvidia-docker 1.0's README tests it:
#: ``nvidia-docker run --rm nvidia/cuda nvidia-smi``,
#: https://github.com/NVIDIA/nvidia-docker/blob/01d2c9436620d7dde4672e414698afe6da4a282f/README.md)
#: and NGC's framework images (``nvcr.io/nvidia/``,
#: https://docs.nvidia.com/deeplearning/frameworks/user-guide/index.html), each named alone,
#: behind ``docker.io/`` or behind Apptainer's ``docker://``.
_GPU_IMAGE = re.compile(
    r"(?:^|[\s/])(?:docker\.io/)?"
    r"(?:tensorflow/tensorflow:[\w.-]{0,60}?gpu|nvidia/cuda(?::|(?=[\s\"']|$)))"
    r"|(?:^|[\s/])nvcr\.io/nvidia/"
)


def runs_gpu_image(command: str) -> bool:
    """Whether a container command (as :func:`container_run_without_gpu` gives it) starts an
    image built to use a GPU (:data:`_GPU_IMAGE`): the user meant the GPU."""
    return _GPU_IMAGE.search(command) is not None


def container_run_tool(text: str) -> Optional[str]:
    """The tool of the first ``docker run`` or ``podman run`` command ``text`` shows a user
    running, with or without a GPU flag (``docker`` or ``podman``), or None."""
    if "docker run" not in text and "podman run" not in text:
        return None
    return next((m.group("tool") for m in _run_commands(text) if m.group("tool")), None)


#: A package manager's command a user ran (at a line's start, behind a shell prompt or sudo),
#: or dnf's own notice (dnf/cli/cli.py: "Last metadata expiration check: %s ago on %s."): the
#: host's packages are Debian's (apt), RPM's (dnf, yum) or SUSE's (zypper).
_PACKAGER = re.compile(
    r"^(?:[^\n]{0,80}?[#$%>][ \t]*)?[ \t]*(?:sudo[ \t]+)?"
    r"(?P<tool>apt-get|apt|dnf|yum|zypper)[ \t]+(?:-\S+[ \t]+)*"
    r"(?:install|upgrade|update|remove|in|up)\b"
    r"|^(?P<dnf>Last metadata expiration check: )",
    re.MULTILINE,
)


def host_packager(text: str) -> Optional[str]:
    """The package manager ``text`` shows the host's packages installed with (``apt``,
    ``dnf``, ``yum``, ``zypper``: the first a user ran, or dnf's own notice), or None."""
    found = _PACKAGER.search(text)
    if found is None:
        return None
    tool = found.group("tool") or "dnf"
    return "apt" if tool == "apt-get" else tool


#: TensorFlow's own Docker image named in a ``docker run``/``podman run`` command, with its tag
#: (none is ``latest``): https://www.tensorflow.org/install/docker lists its tags, the GPU
#: images' holding ``gpu`` (``latest-gpu``, ``2.15.0-gpu``, ``latest-gpu-jupyter``).
_TF_IMAGE = re.compile(
    r"(?:^|[\s/])(?:docker\.io/)?tensorflow/tensorflow(?::(?P<tag>[\w.-]{1,60}))?(?=\s|$)"
)


#: A release in the tag of TensorFlow's image (``2.16.1``, ``2.16.1-gpu``, ``1.15.5-gpu-py3``):
#: the image carries that TensorFlow release.
_TF_IMAGE_RELEASE = re.compile(r"(?P<version>\d+\.\d+\.\d+)(?:-|$)")


def _run_commands(text: str) -> Iterator[re.Match[str]]:
    """The container commands (``docker run``, ``podman run``, Apptainer's) ``text`` shows a
    user running, their continued lines joined."""
    joined = _CONTINUED.sub(" ", text) if "\\\n" in text or "\\\r\n" in text else text
    return _CONTAINER_RUN.finditer(joined)


def _tf_image_tag(text: str) -> Optional[str]:
    """The tag (``latest`` where none) of TensorFlow's image that the first ``docker run`` or
    ``podman run`` command ``text`` shows running TensorFlow's image starts, or None."""
    if "tensorflow/tensorflow" not in text:
        return None
    for match in _run_commands(text):
        image = _TF_IMAGE.search(match.group("cmd")) if match.group("tool") else None
        if image is not None:
            return image.group("tag") or "latest"
    return None


def tf_image_release(text: str) -> Optional[str]:
    """The TensorFlow release of the image (``tensorflow/tensorflow:X.Y.Z...``) the first
    container command running TensorFlow's image in ``text`` starts, or None (no such
    command, or a tag without a release: ``latest``, ``nightly``)."""
    release = _TF_IMAGE_RELEASE.match(_tf_image_tag(text) or "")
    return release.group("version") if release is not None else None


def tf_nightly_gpu_image(text: str) -> Optional[str]:
    """TensorFlow's nightly GPU image (``tensorflow/tensorflow:nightly-gpu``: a tag that begins
    with ``nightly`` and holds ``gpu``, https://www.tensorflow.org/install/docker) the first
    container command running TensorFlow's image in ``text`` starts, or None. The CPU images
    carry no CUDA libraries at all (:func:`tf_cpu_image`)."""
    tag = _tf_image_tag(text)
    if tag is None or not tag.startswith("nightly") or "gpu" not in tag:
        return None
    return f"tensorflow/tensorflow:{tag}"


def tf_cpu_image(text: str) -> Optional[str]:
    """TensorFlow's CPU image (``tensorflow/tensorflow:TAG``, no ``gpu`` in its tag) the first
    container command running TensorFlow's image in ``text`` starts, or None."""
    tag = _tf_image_tag(text)
    return None if tag is None or "gpu" in tag else f"tensorflow/tensorflow:{tag}"


#: What of the host's Python a ``docker run``/``podman run`` command passes into the container:
#: a bind mount of a home directory (``-v $HOME:$HOME``, ``-v ~/:/root``, ``-v /home/ann:...``,
#: ``--mount type=bind,source=$HOME,...``), whose ``.local`` holds the user site-packages
#: Python searches there (PEP 370), or the host's PYTHONPATH (``-e PYTHONPATH=$PYTHONPATH``,
#: or ``-e PYTHONPATH`` alone, which passes the host's value). The home is the host's side of
#: the bind (before ``-v``'s first colon, ``--mount``'s source): ``-v $PWD:/root`` binds none;
#: a PYTHONPATH the command sets to the image's own directories (``-e PYTHONPATH=/app``) is
#: not the host's.
_SHARES_HOST_PYTHON = re.compile(
    r"(?:(?:-v|--volume)[= ][\"']?|--mount[= ][^\s]*?(?:source|src)=)"
    r"(?:\$HOME|\$\{HOME\}|~|/home/[^/:\s,]+|/root)(?:/\.local)?/?[\"']?[:,\s]"
    r"|(?:-e|--env)[= ]PYTHONPATH(?:=[^\s]*\$\{?PYTHONPATH\b[^\s]*)?(?=\s|$)"
)


def container_shares_host_python(text: str) -> Optional[tuple[str, str]]:
    """The first ``docker run`` or ``podman run`` command ``text`` shows that binds a home
    directory into the container or passes PYTHONPATH into it, as (``docker`` or ``podman``,
    the command's first 200 characters); None where none does."""
    if " run" not in text or (
        "-v" not in text and "--mount" not in text and "PYTHONPATH" not in text
    ):
        return None
    for match in _run_commands(text):
        if match.group("tool") and _SHARES_HOST_PYTHON.search(match.group("cmd")):
            return match.group("tool"), match.group("cmd").strip()[:200]
    return None


#: A program's output read from a container or a pod: ``kubectl logs`` (a pod's container),
#: ``docker logs``/``docker exec``, ``podman logs``/``exec`` (a ``run`` is
#: :func:`container_run_without_gpu`'s, which reads its GPU flags).
_CONTAINER_OUTPUT = re.compile(
    r"^(?:[^\n]{0,80}?[#$%>][ \t]*)?[ \t]*(?:sudo[ \t]+)?"
    r"(?:(?P<kube>kubectl)\b[^\n]{0,200}?\b(?:logs|exec)\b"
    r"|(?P<tool>docker|podman)[ \t]+(?:logs|exec|container[ \t]+(?:logs|exec))\b)",
    re.MULTILINE,
)


def container_shown(text: str) -> Optional[str]:
    """The container tool whose command ``text`` shows running the program or reading its
    output (``kubernetes``, ``docker``, ``podman``), or None."""
    if "kubectl" not in text and "docker" not in text and "podman" not in text:
        return None
    found = _CONTAINER_OUTPUT.search(text)
    if found is None:
        return None
    return "kubernetes" if found.group("kube") else found.group("tool")


#: A Docker container's default hostname, the first 12 hex digits of its ID
#: (https://docs.docker.com/engine/network/#ip-address-and-hostname), where a program prints
#: it: TensorFlow's CUDA diagnostics (cuda_diagnostics.cc: ``hostname: ...``) or a shell's
#: prompt (``root@6b9e3874a772:/workspace#``).
_CONTAINER_HOSTNAME = re.compile(
    r"(?:cuda_diagnostics\.cc:\d+\] hostname: |^[ \t]*[\w.-]{1,32}@)"
    r"(?P<id>[0-9a-f]{12})(?=[:\s]|$)",
    re.MULTILINE,
)


def container_hostname(text: str) -> Optional[str]:
    """The line ``text`` prints a Docker container's default hostname on (its ID's first 12
    hex digits, holding a letter and a digit: a word or a number is a machine's own name), or
    None."""
    if "hostname: " not in text and "@" not in text:
        return None
    for match in _CONTAINER_HOSTNAME.finditer(text):
        name = match.group("id")
        if any(c.isalpha() for c in name) and any(c.isdigit() for c in name):
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            return text[start : end if end >= 0 else len(text)].strip()[:200]
    return None


#: A Cloud TPU VM's hostname, ``t1v-n-<8 hex>-w-<worker>``: the shell prompt
#: ``gcloud compute tpus tpu-vm ssh`` opens on it and the worker TensorFlow's errors name
#: ("binary running on t1v-n-1234abcd-w-0"; https://cloud.google.com/tpu/docs/managing-tpus-tpu-vm).
_TPU_VM_HOSTNAME = re.compile(r"\bt1v-n-[0-9a-f]{8}-w-\d{1,4}\b")


def tpu_vm_hostname(text: str) -> Optional[str]:
    """The line of ``text`` that names a Cloud TPU VM's hostname, or None."""
    if "t1v-n-" not in text:
        return None
    return _line_of(text, _TPU_VM_HOSTNAME.search(text))


def _line_of(text: str, match: Optional[re.Match[str]]) -> Optional[str]:
    """The line of ``text`` that holds ``match``, stripped and cut to 200 characters; None
    for no match."""
    if match is None:
        return None
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return text[start : end if end >= 0 else len(text)].strip()[:200]


#: A TPU reached over the network, as TensorFlow logs it: the master address its TPU system is
#: initialised at (tpu_strategy_util.py's "Initializing the TPU system: %s", the resolver's
#: ``grpc://10.0.0.2:8470``), or a TPU device of a worker job in the system it found
#: (tpu_system_metadata.py's "*** Available Device: %s", ``/job:worker/.../device:TPU:0``). Such
#: a TPU host runs its own TensorFlow (Cloud TPU nodes, Colab's TPU runtimes before TPU VMs),
#: which validates the client's graph against its own ops. A TPU VM's TPU is in the process.
_REMOTE_TPU = re.compile(
    r"Initializing the TPU system: grpc://[\w.:-]{1,100}"
    r"|\*\*\* Available Device: _DeviceAttributes\(/job:(?!localhost\b)\w+/[^\n]{0,100}?"
    r"device:TPU:\d"
)


def remote_tpu_shown(text: str) -> Optional[str]:
    """The line of ``text`` that shows TensorFlow using a TPU on another host, or None."""
    if "TPU" not in text:
        return None
    return _line_of(text, _REMOTE_TPU.search(text))


#: A SageMaker instance type (``ml.m5.xlarge``).
_ML_INSTANCE = r"(?P<type>ml\.[a-z0-9-]{1,20}\.[a-z0-9]{1,20})"
#: The instance type the job itself ran on: the training toolkit's "Training Env" JSON
#: ("current_instance_type": "ml.m5.xlarge") and its environment (SM_CURRENT_INSTANCE_TYPE)
#: (aws/sagemaker-training-toolkit, src/sagemaker_training/environment.py).
_SAGEMAKER_CURRENT_INSTANCE = re.compile(
    r"""(?:"current_instance_type"\s*:\s*"|SM_CURRENT_INSTANCE_TYPE=['"]?)""" + _ML_INSTANCE
)
#: The SDK's instance_type argument in the code a log quotes: an estimator's, a processor's,
#: or an endpoint's (``deploy(instance_type=...)``), so only where it names one type.
_SAGEMAKER_SDK_INSTANCE = re.compile(r"""instance_type\s*=\s*['"]""" + _ML_INSTANCE)


#: SageMaker's word that a job or endpoint failed on its instance: the SDK's
#: UnexpectedStatusException ("Error for {job_type} {job_name}: {status}. Reason: {reason}",
#: "Error hosting endpoint {}: {}. Reason: {}. {}"; src/sagemaker/session.py,
#: _check_job_status and the endpoint's wait) and the service's reason for an endpoint whose
#: container failed its health check ("The primary container for production variant
#: AllTraffic did not pass the ping health check", the variant the SDK's production_variant
#: names by default; the reason as aws/sagemaker-python-sdk#787 quotes it).
_SAGEMAKER_FAILED_THERE = re.compile(
    r"\bError for \w+ job \S+: Failed\. Reason:|\bError hosting endpoint \S+: Failed\. Reason:"
    r"|\bThe primary container for production variant \S+ did not pass the ping health check"
)


def sagemaker_job_instance_type(text: str) -> Optional[str]:
    """The instance type ``text`` shows its own failing lines ran on, or None: the training
    toolkit's word on its job (printed inside it), or the one type the code passes the SDK
    where SageMaker says the job or endpoint failed there. The SDK's argument alone does not:
    the code that launches a job runs wherever its user is (a laptop, a CI runner)."""
    there = "ml." in text and (
        _SAGEMAKER_CURRENT_INSTANCE.search(text) or _SAGEMAKER_FAILED_THERE.search(text)
    )
    return sagemaker_instance_type(text) if there else None


def sagemaker_instance_type(text: str) -> Optional[str]:
    """The SageMaker instance type (``ml.m5.xlarge``) ``text`` shows a job or endpoint on, or
    None: the toolkit's own word on the job, else the one type the code passes the SDK (code
    naming several, a job's and an endpoint's, does not say which one ran)."""
    if "ml." not in text:
        return None
    current = _SAGEMAKER_CURRENT_INSTANCE.search(text)
    if current is not None:
        return current.group("type")
    named = {m.group("type") for m in _SAGEMAKER_SDK_INSTANCE.finditer(text)}
    return named.pop() if len(named) == 1 else None


#: What WSL 1 shows of itself: the kernel release it reports (``uname -r``, ``/proc/version``,
#: ``platform.platform()``), a fixed ``4.4.0-<Windows build>-Microsoft`` with a capital M
#: (WSL 2's kernels are ``...-microsoft-standard-WSL2``,
#: https://learn.microsoft.com/windows/wsl/compare-versions), and ``wsl -l -v``'s row for the
#: default distribution (starred) with VERSION 1.
_WSL1_KERNEL = re.compile(r"\b4\.4\.0-\d{4,5}-Microsoft\b")
_WSL1_ROW = re.compile(r"^[ \t]*\*[ \t]*\S+[ \t]+[A-Z][a-z]+[ \t]+1[ \t]*\r?$", re.M)
#: A row of ``wsl -l -v`` at VERSION 2, starred or not: the default distribution's version
#: then does not show which one ran (``wsl -d NAME`` runs another than the default).
_WSL2_ROW = re.compile(r"^[ \t]*\*?[ \t]*\S+[ \t]+[A-Z][a-z]+[ \t]+2[ \t]*\r?$", re.M)


def wsl1_shown(text: str) -> Optional[str]:
    """The line ``text`` shows WSL 1 on (its kernel release, or ``wsl -l -v``'s default
    distribution at version 1 where no distribution of the list is at version 2), or None."""
    if "Microsoft" not in text and "VERSION" not in text:
        return None
    found = _WSL1_KERNEL.search(text) or (
        _WSL1_ROW.search(text) if "VERSION" in text and _WSL2_ROW.search(text) is None else None
    )
    if found is None:
        return None
    start = text.rfind("\n", 0, found.start()) + 1
    end = text.find("\n", found.end())
    return text[start : end if end >= 0 else len(text)].strip()[:200]


#: Apptainer's (Singularity's) command running an image (:data:`_HPC_COMMAND`, anywhere in a
#: line), and its own log lines' prefix (``INFO:    Converting SIF file to temporary
#: sandbox...``, ``WARNING: ...``, padded to nine characters by its logger): the program ran
#: in such a container.
_APPTAINER_RUN = re.compile(
    rf"\b{_HPC_COMMAND}"
    r"|^(?:INFO|WARNING|ERROR|FATAL): {1,4}\S[^\n]{0,200}?\b(?:SIF|sandbox|image|bind)\b",
    re.MULTILINE,
)


def apptainer_shown(text: str) -> Optional[str]:
    """The container tool (``apptainer``, ``singularity``) ``text`` shows running the
    program, or None; ``apptainer`` where only its log lines show it."""
    if "pptainer" not in text and "ingularity" not in text and "SIF" not in text:
        return None
    found = _APPTAINER_RUN.search(text)
    if found is None:
        return None
    return found.group("hpc") or "apptainer"


#: NVIDIA's CUDA and NGC images' start-up check (nvidia_entrypoint.sh; its refusals are the
#: signatures tagged ``image-check``) naming a GPU it found and does not support
#: (checkSMVER.sh's line before its refusal, with the name deviceQuery reports: "WARNING:
#: Detected NVIDIA GeForce RTX 4060 GPU, which is not yet supported in this version of the
#: container", "ERROR: Detected Tesla K80 GPU, which is not supported by this container";
#: older scripts put "NVIDIA " before the name): the container has that GPU.
#: https://docs.nvidia.com/deeplearning/frameworks/user-guide/index.html
_IMAGE_CHECK_NAMES_GPU = re.compile(r"Detected [^\n]{1,160}? GPU, which is not\b")
#: A step of an image build running a command: BuildKit's step header (``#8 [2/4] RUN ...``,
#: Compose's ``[svc 3/8] RUN``, a stage's name before the numbers), its summary of a failed
#: step (`` > [2/4] RUN``), the classic builder's ``Step 3/8 : RUN``. A build step runs its
#: command in a container without GPU access and without the image's entrypoint.
#: https://docs.docker.com/reference/dockerfile/#run
_BUILD_STEP = re.compile(
    r"^[^\n]{0,40}?\[(?:[\w.-]+ )?\d{1,4}/\d{1,4}\] RUN\b|^Step \d{1,4}/\d{1,4} : RUN\b",
    re.MULTILINE,
)
#: TensorFlow creating a GPU device (gpu_device.cc's ``Created device
#: /job:localhost/replica:0/task:0/device:GPU:0 with 9000 MB memory``, older releases'
#: ``Created TensorFlow device (...)``): the driver answered; a pluggable device's line
#: (:data:`PLUGGABLE_DEVICE_CREATED`) matches too, a GPU reached through its plugin.
GPU_DEVICE_CREATED = re.compile(r"Created (?:TensorFlow )?device [^\n]{0,300}?device:GPU:\d")
#: A pluggable device's GPU (tensorflow-metal's, DirectML's): pluggable_device_factory.cc
#: logs ``Created TensorFlow device (... device:GPU:0 ...) -> physical PluggableDevice (device:
#: 0, name: METAL, ...)``. TensorFlow reached a GPU, but not through CUDA or the NVIDIA driver.
#: https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/core/common_runtime/pluggable_device/pluggable_device_factory.cc
PLUGGABLE_DEVICE_CREATED = re.compile(
    r"Created TensorFlow device [^\n]{0,300}?device:GPU:\d[^\n]{0,300}?physical PluggableDevice\b"
)
#: nvidia-docker's own run, which adds the NVIDIA runtime itself (:data:`_CONTAINER_RUN` does
#: not read it as a run without a GPU flag).
_NVIDIA_DOCKER_RUN = re.compile(r"\bnvidia-docker run\b")
#: nvidia-smi's table header, printed only where it lists a GPU.
_SMI_TABLE = re.compile(r"Driver Version: \d+\.\d+[^\n]{0,40}CUDA Version: \d+\.\d+")


@record
class ImageCheck(Record):
    """NVIDIA's image's start-up check refusing to find a GPU (observed), with what the log
    shows against that reading of the run."""

    #: The check's line, stripped and cut to 200 characters.
    line: str
    #: The container command the log shows run before it without a GPU flag (the last such
    #: command before the check), where it shows one and nothing speaks against it.
    run: Optional[str] = None
    #: What the log shows against a container run without a GPU, as a phrase (the check named
    #: a GPU, the line is an image build's step, the run shown has a GPU flag, a GPU reached
    #: after it); None where nothing does.
    against: Optional[str] = None


def image_check(text: str, said: str) -> Optional[ImageCheck]:
    """NVIDIA's image's start-up check finding no GPU, its line ``said`` as a signature tagged
    ``image-check`` cited it, with what ``text`` shows against a container started without
    GPU access; None where ``text`` does not hold that line."""
    start = text.find(said) if said else -1
    if start < 0:
        return None
    line = said[:200]
    before, after = text[:start], text[start + len(said) :]
    named = _IMAGE_CHECK_NAMES_GPU.search(text)
    if named is not None:
        found_gpu = _line_of(text, named)
        return ImageCheck(line, against=f"the check names a GPU it found ('{found_gpu}')")
    joined = _CONTINUED.sub(" ", before)
    step = max((m.start() for m in _BUILD_STEP.finditer(joined)), default=-1)
    last = next(reversed(list(_CONTAINER_RUN.finditer(joined))), None)
    if step > (last.start() if last is not None else -1):
        return ImageCheck(line, against="the line is printed in an image build's step")
    wrapper = next(reversed(list(_NVIDIA_DOCKER_RUN.finditer(joined))), None)
    if wrapper is not None and wrapper.start() > (last.start() if last is not None else -1):
        # The container the line is of was started by nvidia-docker, after any plain run.
        return ImageCheck(
            line,
            against=f"the container was started by nvidia-docker ('{_line_of(joined, wrapper)}')",
        )
    command = last.group("cmd").strip()[:200] if last is not None else None
    if command is not None and _GPU_FLAGS.search(command):
        # The flag hands the container the driver's files. Older images' check looked for
        # /dev/nvidiactl alone, which WSL 2 lacks (its GPU is /dev/dxg, which the check in
        # entrypoint.d's 50-gpu-driver-check.sh also accepts): the line there is the check's.
        return ImageCheck(
            line, against=f"the container was started with a GPU flag ('{command[:120]}')"
        )
    reached = GPU_DEVICE_CREATED.search(after) or _SMI_TABLE.search(after)
    if reached is not None:
        return ImageCheck(line, against=f"a GPU is reached after it ('{_line_of(after, reached)}')")
    if gpus_listed(read_device_listings(after)):
        return ImageCheck(line, against="TensorFlow lists a GPU after it")
    return ImageCheck(line, run=command)
