"""``BUILDERS``: each cause's candidate reader, from the area modules."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Callable

from tfdoctor import causes
from tfdoctor.explain.cluster import (
    _cluster_unreachable,
    _collective,
    _fleet_differs,
    _nccl_release,
)
from tfdoctor.explain.common import Builder, _floor, group
from tfdoctor.explain.containers import (
    _compat_refused,
    _container_no_gpu,
    _hit,
    _image_platform,
    _no_device,
    _platform_image,
    _unseen_gpu,
)
from tfdoctor.explain.drivers import (
    _driver_libraries,
    _driver_mismatch,
    _driver_not_loaded,
    _in_container,
    _wsl_driver,
)
from tfdoctor.explain.hosted import _tpu_build, _tpu_busy, _tpu_not_found, _tpu_version
from tfdoctor.explain.libraries import (
    _arch,
    _cuda_libs,
    _cudnn,
    _gpu_library_init,
    _gpu_out_of_memory,
    _no_tensorrt,
    _off_path,
    _ptx_jit,
    _shadowed,
)
from tfdoctor.explain.native import (
    _bazel,
    _custom_op,
    _filesystem_env,
    _host_compiler,
    _msvc_runtime,
    _native,
    _static_tls,
    _tf_incomplete,
)
from tfdoctor.explain.network import _ca_certs, _download_network, _host_cert
from tfdoctor.explain.notebooks import _kernel_package
from tfdoctor.explain.platform import (
    _cpu_avx,
    _few_cores,
    _glibc,
    _libstdcxx,
    _macos,
    _threads,
    _wrong_arch,
)
from tfdoctor.explain.scanning import Hits
from tfdoctor.explain.software import (
    _addon_tools,
    _api_removed,
    _companion,
    _dependency,
    _dependency_missing,
    _distro_part,
    _glob_extra,
    _graph_code,
    _graph_older,
    _import_crash,
    _keras,
    _keras3,
    _keras3_model,
    _keras_backend_row,
    _library_pin,
    _newer_model,
    _numpy_abi,
    _op_kernel,
    _op_unregistered,
    _protobuf,
    _simple,
    _tensorboard_duplicate,
    _tf_too_old,
    _too_old_for_code,
)
from tfdoctor.explain.wheels import (
    _api_default,
    _metadata_unsatisfiable,
    _no_wheel,
    _not_installed,
    _pip_old,
    _python_32bit,
    _release_not_for_python,
    _tf_distributions,
    _unpublished_pin,
)
from tfdoctor.explain.xla import _ptxas_new, _ptxas_old
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key
from tfdoctor.signatures import (
    BARE_INIT_ERROR,
    KFD_NODE,
    NUITKA_WORDS,
    PROFILING_COUNTERS,
    PROTO3_OPTIONAL,
)

#: Causes whose fix needs the machine alone: cause -> the catalogue's fix builder.
_SIMPLE: dict[causes.CauseId, Callable[[Machine], Fix]] = {
    causes.software.TF_KERAS_MISSING: causes.software.tf_keras_missing_fix,
    causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE: causes.software.tf_pin_conflict_fix,
    causes.software.NUMBA_LLVMLITE_MISMATCH: causes.software.numba_llvmlite_fix,
    causes.software.IMPORT_HANG: causes.software.import_hang_fix,
    # Transformers is the library whose words name this cause (_unrecognised_distribution,
    # which also knows the distribution the log lists).
    causes.software.TF_DISTRIBUTION_UNRECOGNISED: lambda m: (
        causes.software.unrecognised_distribution_fix(m, "transformers", None)
    ),
    causes.software.TF_GPU_PACKAGE_REMOVED: causes.software.tensorflow_gpu_removed_fix,
    causes.platform.METAL_NO_WHEEL_FOR_PYTHON: causes.platform.metal_python_fix,
    causes.gpu.CUINIT_UNKNOWN_ERROR: causes.gpu.cuinit_unknown_fix,
    causes.gpu.FABRIC_MANAGER_NOT_RUNNING: causes.gpu.fabric_manager_fix,
    causes.gpu.LIBCUDA_STUB: causes.gpu.libcuda_stub_fix,
    causes.xla.PTXAS_MISSING: causes.xla.ptxas_install_fix,
    causes.hosted.HOSTED_TF_LINE_DROPPED: causes.hosted.hosted_tf1_dropped_fix,
    causes.gpu.GPU_MEMORY_ERRORS: lambda m: causes.gpu.gpu_memory_errors_fix(0),
    causes.platform.EXTERNALLY_MANAGED: lambda m: causes.platform.venv_fix(),
    causes.platform.WINDOWS_LONG_PATHS: lambda m: causes.platform.long_paths_fix(),
    causes.platform.WINDOWS_NATIVE_GPU_ENDED: causes.platform.windows_gpu_fix,
    causes.runtime.GPU_WATCHDOG_TIMEOUT: causes.runtime.gpu_watchdog_fix,
    causes.runtime.GPU_CONFIG_TOO_LATE: causes.runtime.config_order_fix,
    causes.runtime.TF_RELEASE_KERNEL_BUG: causes.runtime.onednn_kernel_fix,
    # WSL 2's words only where the log shows WSL: NVML's refusal alone is a Hyper-V guest's
    # or a container's too (the other signatures of the cause read WSL's own paths or need
    # it shown).
    causes.software.TF_SHADOWED_MODULE: causes.software.source_tree_fix,
    causes.runtime.GPU_MEMORY_GROWTH_MIXED: lambda m: causes.runtime.memory_growth_all_fix(),
    causes.runtime.DISTRIBUTE_CONFIG_TOO_LATE: lambda m: causes.runtime.strategy_order_fix(),
    causes.runtime.STRATEGY_SCOPE_MISSING: lambda m: causes.runtime.strategy_scope_fix(),
    causes.cluster.CLUSTER_WORKER_FAILED: lambda m: causes.cluster.peer_failed_fix(),
    causes.cluster.CLUSTER_PORT_IN_USE: lambda m: causes.cluster.port_in_use_fix(),
    causes.container.NCCL_SHM_TOO_SMALL: lambda m: causes.container.nccl_shm_fix(),
    # The signatures read hwloc's frames (Open MPI's calls into TensorFlow's copy).
    causes.platform.TF_EXPORTED_SYMBOL_CLASH: lambda m: causes.platform.exported_symbol_fix(
        "hwloc", "Open MPI"
    ),
    causes.cluster.MPI_INTERFACE_UNPINNED: lambda m: causes.cluster.mpi_interfaces_fix(),
    causes.cluster.TF_CONFIG_INVALID_JSON: lambda m: causes.cluster.tf_config_json_fix(),
    causes.cluster.TF_CONFIG_TASK_INVALID: lambda m: causes.cluster.task_fix(),
    causes.cluster.TF_CONFIG_TASK_OUT_OF_RANGE: lambda m: causes.cluster.task_fix(),
    causes.cluster.TF_CONFIG_MASTER_TASK: lambda m: causes.cluster.master_task_fix(),
    causes.cluster.TF_CONFIG_UNKNOWN_JOB: lambda m: causes.cluster.unknown_job_fix(),
    causes.cluster.TF_CONFIG_ADDRESS_SCHEME: lambda m: causes.cluster.address_scheme_fix(),
    causes.cluster.DATASET_AUTOSHARD_MISMATCH: lambda m: causes.cluster.autoshard_fix(),
    causes.software.TENSORBOARD_NOT_INSTALLED: causes.software.tensorboard_fix,
    # Colab words it "runtime"; its menu is Runtime > Restart session.
    causes.notebook.KERNEL_RESTART_NEEDED: lambda m: causes.notebook.restart_fix(
        "Runtime > Restart session in Colab"
    ),
    causes.platform.PINNED_SDIST_UNBUILDABLE: causes.platform.old_sdist_build_fix,
    causes.platform.DEPENDENCY_SDIST_BUILD_FAILS: causes.platform.replaced_dependency_fix,
    causes.code.NUMPY2_BEHAVIOUR_CHANGE: causes.code.numpy2_copy_fix,
}

#: Cause -> the catalogue's fix builder, applied to the machine the log (and facts) show.
#: Keras 2's functional Model refusing a Keras 3 KerasTensor (signatures.yaml): the mix's
#: own sentence in its fix.
_KERAS3_INPUT = "keras2-functional-given-keras3-tensor"


BUILDERS: dict[str, Builder] = {
    causes.software.DISTUTILS_PACKAGE_UNREMOVABLE: lambda m, r, hits: (
        causes.software.DISTUTILS_PACKAGE_UNREMOVABLE,
        causes.software.unremovable_dependency_fix(
            m, group(hits, "dist"), group(hits, "installer")
        ),
    ),
    causes.runtime.TF_RELEASE_PLATFORM_BUG: lambda m, r, hits: (
        causes.runtime.TF_RELEASE_PLATFORM_BUG,
        causes.runtime.platform_build_fix(group(hits, "library"), group(hits, "symbol")),
    ),
    causes.runtime.IMPORT_ORDER_CONFLICT: lambda m, r, hits: (
        causes.runtime.IMPORT_ORDER_CONFLICT,
        causes.runtime.import_order_fix(r.imported_before),
    ),
    causes.notebook.KERNEL_PACKAGE_MISSING: lambda m, r, hits: _kernel_package(hits),
    # pip of the interpreter the shell ran (python3 where plain python is another or none).
    causes.software.TF_NOT_INSTALLED: _not_installed,
    causes.platform.PYENV_VERSION_UNAVAILABLE: lambda m, r, hits: (
        causes.platform.PYENV_VERSION_UNAVAILABLE,
        causes.platform.pyenv_fix(
            group(hits, "pyenv_version"), group(hits, "pyenv_origin"), group(hits, "command")
        ),
    ),
    causes.platform.VENV_BASE_PYTHON_MISSING: lambda m, r, hits: (
        causes.platform.VENV_BASE_PYTHON_MISSING,
        causes.platform.venv_base_fix(group(hits, "interpreter"), m.os == "windows"),
    ),
    causes.platform.PYTHON_COMMAND_MISSING: lambda m, r, hits: (
        causes.platform.PYTHON_COMMAND_MISSING,
        causes.platform.python_command_fix(group(hits, "command")),
    ),
    causes.conda.CONDA_ENV_NOT_FOUND: lambda m, r, hits: (
        causes.conda.CONDA_ENV_NOT_FOUND,
        causes.conda.conda_env_missing_fix(group(hits, "conda_env")),
    ),
    causes.conda.PIXI_PLATFORM_NOT_CONFIGURED: lambda m, r, hits: (
        causes.conda.PIXI_PLATFORM_NOT_CONFIGURED,
        causes.conda.pixi_platform_fix(group(hits, "conda_platform")),
    ),
    causes.conda.CONDA_SHELL_NOT_INITIALISED: lambda m, r, hits: (
        causes.conda.CONDA_SHELL_NOT_INITIALISED,
        causes.conda.conda_shell_fix(group(hits, "command") or "conda", r.os),
    ),
    causes.hosted.PLATFORM_IMAGE_UNAVAILABLE: _platform_image,
    causes.platform.CI_PYTHON_VERSION_UNAVAILABLE: lambda m, r, hits: (
        causes.platform.CI_PYTHON_VERSION_UNAVAILABLE,
        causes.platform.ci_python_fix(group(hits, "ci_python")),
    ),
    # Only a signature names this cause (the tracebacks' own reading builds its finding
    # itself): a stale file of another release, whose directory pip's uninstall leaves.
    causes.software.TF_INSTALL_INCOMPLETE: _tf_incomplete,
    causes.runtime.TF_ENV_FLAG_INVALID: lambda m, r, hits: (
        causes.runtime.TF_ENV_FLAG_INVALID,
        causes.runtime.malloc_async_fix(m)
        if any(h.signature.id == "cuda-malloc-async-unsupported" for h in hits)
        else causes.runtime.env_flag_fix(
            m, group(hits, "variable") or "", group(hits, "flag") or ""
        ),
    ),
    causes.network.PYTHON_CA_CERTS_MISSING: _ca_certs,
    causes.network.DOWNLOAD_HOST_CERT_UNVERIFIABLE: _host_cert,
    causes.network.NO_NETWORK_ACCESS: _download_network,
    causes.network.PROXY_NOT_CONFIGURED: _download_network,
    causes.network.DOWNLOAD_HOST_UNREACHABLE: _download_network,
    causes.gpu.CUDA_LIBS_MISSING: _cuda_libs,
    causes.gpu.CUDA_LIBS_OFF_PATH: _off_path,
    causes.software.TENSORBOARD_DUPLICATE_INSTALL: _tensorboard_duplicate,
    # The module the words name (its `module` group), fixed from its module table row: the
    # words alone show no importer (a traceback's frames do, and its reading answers those).
    causes.software.DEPENDENCY_API_REMOVED: lambda m, r, hits: (
        causes.software.DEPENDENCY_API_REMOVED,
        causes.software.removed_api_fix(m, group(hits, "module") or "", ""),
    ),
    causes.gpu.CUDNN_VERSION_MISMATCH: _cudnn,
    causes.gpu.GPU_ARCH_UNSUPPORTED: _arch,
    causes.gpu.GPU_PTX_JIT: _ptx_jit,
    causes.platform.GLIBC_TOO_OLD: _glibc,
    causes.software.TF_METADATA_UNSATISFIABLE: _metadata_unsatisfiable,
    causes.software.PINNED_RELEASE_NOT_PUBLISHED: _unpublished_pin,
    causes.software.FREEZER_TF_SUPPORT_OUTDATED: lambda m, r, hits: (
        causes.software.FREEZER_TF_SUPPORT_OUTDATED,
        causes.software.nuitka_path_magic_fix(m)
        if any(h.signature.id == "nuitka-tf-plugin-path-magic" for h in hits)
        else causes.software.freezer_fix(
            m,
            # Nuitka's own words name it; else the bundle the log shows, PyInstaller's the
            # most common.
            "nuitka"
            if any(NUITKA_WORDS in h.signature.tags for h in hits)
            else r.freezer or "pyinstaller",
        ),
    ),
    causes.runtime.TENSOR_FROM_OTHER_GRAPH: lambda m, r, hits: (
        causes.runtime.TENSOR_FROM_OTHER_GRAPH,
        causes.runtime.other_graph_fix(),
    ),
    causes.runtime.SERVER_CONCURRENCY_MODEL_MISMATCH: lambda m, r, hits: (
        causes.runtime.SERVER_CONCURRENCY_MODEL_MISMATCH,
        causes.runtime.server_concurrency_fix(
            any(h.signature.id == "gevent-thread-local-weakref" for h in hits),
            tf1=m.tf is not None and version_key(m.tf.version)[:1] == (1,),
        ),
    ),
    causes.gpu.TF_BUILD_WITHOUT_TENSORRT: _no_tensorrt,
    causes.runtime.SERVING_MODEL_VERSION_MISSING: lambda m, r, hits: (
        causes.runtime.SERVING_MODEL_VERSION_MISSING,
        causes.runtime.serving_version_fix(group(hits, "servable"), group(hits, "base_path")),
    ),
    causes.software.EDGETPU_DEVICE_UNAVAILABLE: lambda m, r, hits: (
        causes.software.EDGETPU_DEVICE_UNAVAILABLE,
        causes.software.edgetpu_device_fix(group(hits, "library"), _in_container(m, r)),
    ),
    causes.platform.MACOS_TOO_OLD: _macos,
    causes.platform.LIBSTDCXX_TOO_OLD: _libstdcxx,
    causes.software.KERAS_VERSION: _keras,
    causes.code.API_MOVED_TO_COMPAT_V1: _graph_code,
    causes.gpu.DRIVER_LIBRARIES_MISSING: _driver_libraries,
    causes.gpu.GPU_TOO_FEW_CORES: _few_cores,
    causes.gpu.CUDA_LIB_SHADOWED: _shadowed,
    causes.platform.SHELL_GLOB_EXTRA: _glob_extra,
    causes.software.MODEL_FROM_NEWER_KERAS: _newer_model,
    causes.software.GRAPH_FROM_OLDER_TENSORFLOW: _graph_older,
    causes.software.HDF5_LIBRARY_MISMATCH: lambda m, r, hits: (
        causes.software.HDF5_LIBRARY_MISMATCH,
        causes.software.hdf5_mismatch_fix(m, group(hits, "required"), group(hits, "loaded")),
    ),
    causes.software.MODEL_FILE_LFS_POINTER: lambda m, r, hits: (
        causes.software.MODEL_FILE_LFS_POINTER,
        causes.software.lfs_pointer_fix(),
    ),
    causes.software.HUB_CACHE_INCOMPLETE: lambda m, r, hits: (
        causes.software.HUB_CACHE_INCOMPLETE,
        causes.software.hub_cache_fix(m, group(hits, "cache_dir")),
    ),
    causes.software.HUB_MODEL_FORMAT_MISMATCH: lambda m, r, hits: (
        causes.software.HUB_MODEL_FORMAT_MISMATCH,
        causes.software.hub_format_fix(
            any(h.signature.id == "hub-tf1-format-not-trainable" for h in hits)
        ),
    ),
    causes.cluster.CLUSTER_TASK_UNREACHABLE: _cluster_unreachable,
    causes.software.HOROVOD_CONTROLLER_MISSING: lambda m, r, hits: (
        causes.software.HOROVOD_CONTROLLER_MISSING,
        causes.software.horovod_controller_fix(
            m,
            "MPI"
            if _hit(hits, "horovod-mpi-not-built")
            else "Gloo"
            if _hit(hits, "horovod-gloo-not-built")
            else None,
            mpi_absent=_hit(hits, "horovodrun-mpi-not-found"),
        ),
    ),
    causes.cluster.TF_CONFIG_UNRESOLVABLE: lambda m, r, hits: (
        causes.cluster.TF_CONFIG_UNRESOLVABLE,
        causes.cluster.unresolved_host_fix(group(hits, "host")),
    ),
    causes.cluster.FLEET_FACT_DIFFERS: _fleet_differs,
    causes.platform.WSL_DRIVER_BROKEN: _wsl_driver,
    causes.cluster.TF_CONFIG_MULTIPLE_CHIEFS: lambda m, r, hits: (
        causes.cluster.TF_CONFIG_MULTIPLE_CHIEFS,
        causes.cluster.one_task_fix(group(hits, "job")),
    ),
    causes.software.DEPENDENCY_MISSING: _dependency_missing,
    causes.platform.WHEEL_MISMATCH: _wrong_arch,
    causes.hosted.TPU_TF_WITHOUT_LIBTPU: _tpu_build,
    causes.hosted.TPU_NOT_FOUND: _tpu_not_found,
    causes.hosted.TPU_VERSION_MISMATCH: _tpu_version,
    causes.software.DEPENDENCY_OUT_OF_RANGE: _dependency,
    causes.code.KERAS3_BEHAVIOUR_CHANGE: _keras3,
    causes.software.KERAS3_MODEL_UNDER_KERAS2: _keras3_model,
    causes.software.KERAS_STANDALONE_MIXED_WITH_TF_KERAS: lambda m, r, hits: (
        causes.software.KERAS_STANDALONE_MIXED_WITH_TF_KERAS,
        causes.software.keras_mixed_fix(
            group(hits, "module"),
            m if any(h.signature.id == _KERAS3_INPUT for h in hits) else None,
        ),
    ),
    causes.gpu.DRIVER_NOT_LOADED: _driver_not_loaded,
    # nvidia-smi's "No devices were found": the one reading check's driver finding shares.
    causes.gpu.GPU_NOT_BOUND: lambda m, r, hits: causes.gpu.unbound_gpu(m),
    causes.software.PROTOBUF_INCOMPATIBLE: _protobuf,
    causes.platform.TF_NO_WHEEL_FOR_PYTHON: _no_wheel,
    causes.platform.PIP_TOO_OLD: _pip_old,
    causes.platform.PYTHON_32BIT: _python_32bit,
    causes.gpu.ROCM_VERSION_MISMATCH: lambda m, r, hits: (
        causes.gpu.ROCM_VERSION_MISMATCH,
        causes.gpu.rocm_match_fix(m, group(hits, "library")),
    ),
    causes.code.API_DEFAULT_CHANGED: _api_default,
    causes.platform.CPU_LACKS_AVX: _cpu_avx,
    causes.platform.MSVC_RUNTIME_MISSING: _msvc_runtime,
    causes.platform.BAZEL_VERSION_MISMATCH: _bazel,
    causes.platform.BUILD_HOST_COMPILER_UNSUPPORTED: _host_compiler,
    causes.platform.BUILD_CUDA_CONFIG_NOT_FOUND: lambda m, r, hits: (
        causes.platform.BUILD_CUDA_CONFIG_NOT_FOUND,
        causes.platform.cuda_config_fix(
            group(hits, "header") or "", group(hits, "required") or "", r.os
        )
        if group(hits, "header")
        else causes.platform.cuda_config_split_fix(),
    ),
    causes.platform.BUILD_PYTHON_HEADERS_MISSING: lambda m, r, h: (
        causes.platform.BUILD_PYTHON_HEADERS_MISSING,
        causes.platform.python_headers_fix(m),
    ),
    causes.platform.CPU_EMULATED: _cpu_avx,
    causes.runtime.OPEN_FILES_LIMIT_REACHED: lambda m, r, hits: (
        causes.runtime.OPEN_FILES_LIMIT_REACHED,
        causes.runtime.open_files_fix(),
    ),
    causes.runtime.HDF5_FILE_LOCK_FAILED: lambda m, r, hits: (
        causes.runtime.HDF5_FILE_LOCK_FAILED,
        causes.runtime.hdf5_lock_fix(m, any(h.signature.id == "hdf5-lock-held" for h in hits)),
    ),
    causes.runtime.SPAWN_MAIN_UNGUARDED: lambda m, r, hits: (
        causes.runtime.SPAWN_MAIN_UNGUARDED,
        causes.runtime.spawn_guard_fix(),
    ),
    causes.runtime.TF_INITIALISED_BEFORE_FORK: lambda m, r, hits: (
        causes.runtime.TF_INITIALISED_BEFORE_FORK,
        causes.runtime.fork_after_init_fix(),
    ),
    causes.platform.DISTRO_PYTHON_PART_MISSING: _distro_part,
    # A container's groups are set by its runtime: usermod inside it changes nothing.
    causes.gpu.DRIVER_NO_PERMISSION: lambda m, r, hits: (
        causes.gpu.DRIVER_NO_PERMISSION,
        causes.gpu.rocm_no_permission_fix(
            _in_container(m, r)
            or any(h.signature.id == "rocm-kfd-not-member-of-nogroup" for h in hits)
        )
        if all(KFD_NODE in h.signature.tags for h in hits)
        else causes.gpu.profiling_counters_fix()
        if all(PROFILING_COUNTERS in h.signature.tags for h in hits)
        else causes.gpu.no_permission_fix(_in_container(m, r)),
    ),
    causes.gpu.ROCM_LIBS_OFF_PATH: lambda m, r, hits: (
        causes.gpu.ROCM_LIBS_OFF_PATH,
        causes.gpu.rocm_libs_off_path_fix(
            group(hits, "library"),
            build=any(h.signature.id == "rocm-configure-library-not-found" for h in hits),
            release=m.rocm_release,
        ),
    ),
    causes.runtime.DISK_SPACE_EXHAUSTED: lambda m, r, hits: (
        causes.runtime.DISK_SPACE_EXHAUSTED,
        causes.runtime.disk_space_fix(m, r.os, docker=bool(r.container_tool or r.cuda_image)),
    ),
    causes.platform.TF_RELEASE_NOT_FOR_PYTHON: _release_not_for_python,
    causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE: lambda m, r, hits: (
        causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE,
        causes.platform.typing_python_fix(r.python),
    ),
    causes.software.PROTOC_TOO_OLD: lambda m, r, hits: (
        causes.software.PROTOC_TOO_OLD,
        causes.software.protoc_upgrade_fix(
            optional=any(PROTO3_OPTIONAL in h.signature.tags for h in hits),
            label_asked=any(h.signature.id == "protoc-label-expected" for h in hits),
            os=r.os,
        ),
    ),
    causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH: lambda m, r, hits: _virtual(m, hits),
    causes.gpu.DRIVER_TOO_OLD: lambda m, r, hits: (
        _compat_refused(m, r, hits)
        or (
            causes.gpu.DRIVER_TOO_OLD,
            causes.container.ngc_driver_fix(
                group(hits, "required"), group(hits, "driver_version") or r.driver_version
            )
            if any(h.signature.id == "ngc-container-driver-release" for h in hits)
            else causes.container.image_cuda_driver_fix(m, group(hits, "cuda_version"))
            if any(h.signature.id == "container-toolkit-cuda-requirement" for h in hits)
            else causes.gpu.driver_init_error_fix(m, _floor(m))
            if all(BARE_INIT_ERROR in h.signature.tags for h in hits)
            else causes.gpu.driver_too_old_fix(m, _floor(m)),
        )
    ),
    causes.software.IMPORT_CRASH: _import_crash,
    causes.gpu.TENSORRT_ENGINE_STALE: lambda m, r, hits: (
        causes.gpu.TENSORRT_ENGINE_STALE,
        causes.gpu.tensorrt_engine_fix(
            group(hits, "expected"),
            group(hits, "found"),
            any("incompatible device" in line for h in hits for _, line in h.citations),
            m.os,
        ),
    ),
    causes.gpu.TENSORRT_VERSION_MISMATCH: lambda m, r, hits: (
        causes.gpu.TENSORRT_VERSION_MISMATCH,
        causes.gpu.tensorrt_version_fix(group(hits, "required"), group(hits, "loaded")),
    ),
    causes.network.DOWNLOAD_HASH_MISMATCH: lambda m, r, hits: (
        causes.network.DOWNLOAD_HASH_MISMATCH,
        # Pipenv names its lock file in pip's words, or (later releases) passes them through
        # under its own exception's name: its lock file holds the hashes either way.
        causes.network.hash_mismatch_fix(
            m,
            any(
                "Pipfile.lock" in line or "pipenv.exceptions" in line
                for h in hits
                for _, line in h.citations
            ),
        ),
    ),
    causes.runtime.HOST_OUT_OF_MEMORY: lambda m, r, hits: (
        causes.runtime.HOST_OUT_OF_MEMORY,
        # The build service's own line says where the memory ran out, whatever else killed.
        causes.runtime.build_memory_fix(m)
        if any(h.signature.id == "build-killed-for-memory" for h in hits)
        else causes.runtime.compiler_memory_fix(m)
        if any(h.signature.id == "compiler-killed" for h in hits)
        else causes.runtime.host_memory_fix(m),
    ),
    causes.runtime.GPU_OUT_OF_MEMORY: _gpu_out_of_memory,
    causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING: _addon_tools,
    causes.runtime.GPU_LIBRARY_INIT_FAILED: _gpu_library_init,
    causes.gpu.DRIVER_VERSION_MISMATCH: _driver_mismatch,
    causes.xla.LIBDEVICE_MISSING: lambda m, r, hits: (
        causes.xla.LIBDEVICE_MISSING,
        causes.xla.libdevice_fix(m, r.xla_data_dir),
    ),
    causes.xla.PTXAS_TOO_OLD: _ptxas_old,
    causes.runtime.GPU_BUSY_OR_UNAVAILABLE: lambda m, r, hits: (
        causes.runtime.GPU_BUSY_OR_UNAVAILABLE,
        causes.runtime.gpu_busy_fix(m),
    ),
    causes.hosted.TPU_HELD_BY_ANOTHER_PROCESS: _tpu_busy,
    causes.runtime.THREADS_EXHAUSTED: _threads,
    causes.xla.PTXAS_TOO_NEW: _ptxas_new,
    causes.xla.XLA_CODE_UNCOMPILABLE: lambda m, r, hits: (
        causes.xla.XLA_CODE_UNCOMPILABLE,
        causes.xla.xla_code_fix({h.signature.id for h in hits}),
    ),
    causes.software.COMPANION_MISMATCH: _companion,
    causes.software.TF_MULTIPLE_DISTRIBUTIONS: _tf_distributions,
    causes.software.NUMPY_ABI: _numpy_abi,
    causes.software.CUSTOM_OP_BUILD_MISMATCH: _custom_op,
    causes.runtime.FILESYSTEM_ENV_MISCONFIGURED: _filesystem_env,
    causes.platform.NATIVE_LIBRARY_UNRESOLVED: _native,
    causes.platform.BINDING_PROCESS_NOT_64BIT: lambda m, r, hits: (
        causes.platform.BINDING_PROCESS_NOT_64BIT,
        causes.platform.binding_64bit_fix("java"),
    ),
    causes.code.API_REMOVED: _api_removed,
    causes.code.TF_TOO_OLD_FOR_CODE: _tf_too_old,
    causes.platform.STATIC_TLS_EXHAUSTED: _static_tls,
    causes.runtime.OP_KERNEL_MISSING: _op_kernel,
    causes.software.OP_NOT_REGISTERED: _op_unregistered,
    causes.container.CONTAINER_NO_GPU: _container_no_gpu,
    causes.container.CONTAINER_IMAGE_PLATFORM: _image_platform,
    causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN: _no_device,
    causes.gpu.GPU_UNSEEN_NO_REASON: _unseen_gpu,
    causes.cluster.CLUSTER_COLLECTIVE_FAILED: _collective,
    causes.gpu.NCCL_RELEASE_BUG: _nccl_release,
    causes.gpu.NCCL_CUDA_MISMATCH: lambda m, r, hits: (
        causes.gpu.NCCL_CUDA_MISMATCH,
        causes.gpu.nccl_cuda_fix(m, r.nccl_cuda),
    ),
    causes.software.LIBRARY_PIN_CONFLICTS: _library_pin,
    causes.code.DEPENDENCY_TOO_OLD_FOR_CODE: _too_old_for_code,
    causes.software.KERAS_BACKEND_VERSION_UNSUPPORTED: _keras_backend_row,
    **{cause: _simple(cause, build) for cause, build in _SIMPLE.items()},
}


#: A virtual package a solver's line names, with the version its builds ask for.
_VIRTUAL = re.compile(r"(__(?:cuda|osx|glibc))\b(?:[ \t]*>=?[ \t]*(\d+(?:\.\d+){0,2}))?")


def _virtual_package(hits: Sequence[Hits]) -> tuple[str, str]:
    """The virtual package the cited lines name (``__cuda`` first) and the lowest version
    they ask of it (empty where none is shown)."""
    named = [m for h in hits for _, line in h.citations for m in _VIRTUAL.finditer(line)]
    for package in ("__cuda", "__osx", "__glibc"):
        floors = sorted(
            {m.group(2) for m in named if m.group(1) == package and m.group(2)}, key=version_key
        )
        if any(m.group(1) == package for m in named):
            return package, floors[0] if floors else ""
    return "__cuda", ""


def _virtual(m: Machine, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A virtual package the solver lacks: declared where the machine has it; where the
    machine's own facts show an older glibc than the builds ask for, the system is too old."""
    package, floor = _virtual_package(hits)
    platform = m.facts.platform
    have = platform.libc_version if platform is not None and platform.libc == "glibc" else None
    if package == "__glibc" and floor and have and version_key(have) < version_key(floor):
        return causes.platform.GLIBC_TOO_OLD, causes.platform.glibc_fix(f"GLIBC_{floor}")
    return causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH, causes.conda.virtual_package_fix(
        package, floor, pixi=False, windows=m.os == "windows"
    )
