"""Causes in the installed packages: TensorFlow itself, its declared ranges, Keras, companions."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from shlex import quote as shlex_quote
from typing import Final, Literal, NamedTuple, Optional

from tfdoctor.c_api import c_function
from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import (
    INTERPRETER_CHECK,
    KERAS_FILE_METADATA,
    PLATFORM_CHECK,
    RESOLVER_NAMES,
    TF_IMPORT_FAULTHANDLER,
    TF_KERAS_OF_MINOR,
    TF_PIP_GUIDE,
    add_command,
    companion_install,
    conda_installed_note,
    declared_range_fix,
    import_after_commands,
    install_fix,
    joint_range,
    legacy_keras_switch,
    list_file_command,
    owner_of_package_command,
    package_named,
    package_upgrade,
    pypi_files_command,
    pypi_files_page,
    pypi_releases_command,
    range_fix,
    tensorflow_move_fix,
    unset_env,
    unset_env_lines,
)
from tfdoctor.causes.platform import WHEEL_MISMATCH, python_64bit_fix
from tfdoctor.compat import (
    Verdict,
    best_of,
    first_keras3_line,
    install_requirement,
    line_releases,
    verdicts,
)
from tfdoctor.evidence.traceback import is_branch_archive
from tfdoctor.facts import (
    TENSORBOARD_DISTRIBUTIONS,
    TF_DISTRIBUTIONS,
    PackageFacts,
    normalize_name,
    requirement_name,
)
from tfdoctor.findings import Fix
from tfdoctor.machine import NEW_VENV, Machine, applicable_requirements
from tfdoctor.matrix import (
    PLATFORMS,
    Companion,
    CompanionRelease,
    TFLine,
    above_range,
    admits_below,
    spec_contains,
    version_key,
)
from tfdoctor.modules import AddedApi, InstallStep, RemovedApi, RemovedApiUser, modules
from tfdoctor.wheel_index import ReleaseWheels, platform_words, releases_of, system_name

#: The ids of this area's causes, as checks, explain and scan name them.
TF_NOT_INSTALLED: Final = CauseId("tf-not-installed")
TF_MULTIPLE_DISTRIBUTIONS: Final = CauseId("tf-multiple-distributions")
TF_GPU_PACKAGE_REMOVED: Final = CauseId("tf-gpu-package-removed")
TF_SHADOWED_MODULE: Final = CauseId("tf-shadowed-module")
NUMPY_ABI: Final = CauseId("numpy-abi")
DEPENDENCY_OUT_OF_RANGE: Final = CauseId("dependency-out-of-range")
DEPENDENCY_MISSING: Final = CauseId("dependency-missing")
PROTOBUF_INCOMPATIBLE: Final = CauseId("protobuf-incompatible")
KERAS_VERSION: Final = CauseId("keras-version")
KERAS_BACKEND_VERSION_UNSUPPORTED: Final = CauseId("keras-backend-version-unsupported")
TF_KERAS_MISSING: Final = CauseId("tf-keras-missing")
TF_KERAS_MISMATCH: Final = CauseId("tf-keras-mismatch")
COMPANION_MISMATCH: Final = CauseId("companion-mismatch")
CUSTOM_OP_BUILD_MISMATCH: Final = CauseId("custom-op-build-mismatch")
LIBRARY_PIN_CONFLICTS: Final = CauseId("library-pin-conflicts")
TF_PIN_CONFLICTS_WITH_PACKAGE: Final = CauseId("tf-pin-conflicts-with-package")
NUMBA_LLVMLITE_MISMATCH: Final = CauseId("numba-llvmlite-mismatch")
IMPORT_FAILED_UNKNOWN: Final = CauseId("import-failed-unknown")
IMPORT_CRASH: Final = CauseId("import-crash")
IMPORT_HANG: Final = CauseId("import-hang")
KERAS3_MODEL_UNDER_KERAS2: Final = CauseId("keras3-model-under-keras2")
KERAS_STANDALONE_MIXED_WITH_TF_KERAS: Final = CauseId("keras-standalone-mixed-with-tf-keras")
TENSORBOARD_NOT_INSTALLED: Final = CauseId("tensorboard-not-installed")
TENSORBOARD_DUPLICATE_INSTALL: Final = CauseId("tensorboard-duplicate-install")
DEPENDENCY_API_REMOVED: Final = CauseId("dependency-api-removed")
PACKAGE_NOT_INSTALLED: Final = CauseId("package-not-installed")
OP_NOT_REGISTERED: Final = CauseId("op-not-registered")
TF_INSTALL_INCOMPLETE: Final = CauseId("tf-install-incomplete")
MODEL_FROM_NEWER_KERAS: Final = CauseId("model-from-newer-keras")
GRAPH_FROM_OLDER_TENSORFLOW: Final = CauseId("graph-from-older-tensorflow")
HUB_MODEL_FORMAT_MISMATCH: Final = CauseId("hub-model-format-mismatch")
HUB_CACHE_INCOMPLETE: Final = CauseId("hub-cache-incomplete")
MODEL_BYTECODE_OTHER_PYTHON: Final = CauseId("model-bytecode-other-python")
HDF5_LIBRARY_MISMATCH: Final = CauseId("hdf5-library-mismatch")
MODEL_FILE_LFS_POINTER: Final = CauseId("model-file-lfs-pointer")
PROTOS_NOT_COMPILED: Final = CauseId("protos-not-compiled")
PROTOC_TOO_OLD: Final = CauseId("protoc-too-old")
TF_DISTRIBUTION_UNRECOGNISED: Final = CauseId("tf-distribution-unrecognised")
FREEZER_TF_SUPPORT_OUTDATED: Final = CauseId("freezer-tf-support-outdated")
TF_METADATA_UNSATISFIABLE: Final = CauseId("tf-metadata-unsatisfiable")
PINNED_RELEASE_NOT_PUBLISHED: Final = CauseId("pinned-release-not-published")
DISTUTILS_PACKAGE_UNREMOVABLE: Final = CauseId("distutils-package-unremovable")
EDGETPU_DEVICE_UNAVAILABLE: Final = CauseId("edgetpu-device-unavailable")
HOROVOD_CONTROLLER_MISSING: Final = CauseId("horovod-controller-missing")

#: Causes in the installed packages.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            TF_NOT_INSTALLED,
            "TensorFlow is not installed",
            "No distribution that provides `import tensorflow` is installed in this environment.",
            TF_PIP_GUIDE,
        ),
        define(
            TF_MULTIPLE_DISTRIBUTIONS,
            "Several TensorFlow distributions installed",
            "Each writes the same `tensorflow/` package; the last one installed won file by file,"
            " so the import may mix releases. Uninstalling one also deletes files the other "
            "needs: remove all, then install one.",
        ),
        define(
            TF_GPU_PACKAGE_REMOVED,
            "The removed tensorflow-gpu package",
            "tensorflow-gpu ended with 2.11; GPU support on Linux comes with the plain "
            "`tensorflow` wheel.",
            "https://pypi.org/project/tensorflow-gpu/",
        ),
        define(
            TF_SHADOWED_MODULE,
            "`import tensorflow` loads another module",
            "A `tensorflow` folder or `tensorflow.py` earlier on sys.path (the working directory,"
            " PYTHONPATH, a .pth entry or the user site) is imported instead of the installed "
            "distribution.",
            "https://docs.python.org/3/library/sys_path_init.html",
        ),
        define(
            NUMPY_ABI,
            "NumPy 2 under a TensorFlow built for NumPy 1",
            "NumPy 2 changed its C ABI: TensorFlow releases whose declared range excludes NumPy 2"
            " were compiled against NumPy 1.x and fail to import ('compiled using NumPy 1.x "
            "cannot be run in NumPy 2').",
            "https://numpy.org/devdocs/numpy_2_0_migration_guide.html",
        ),
        define(
            DEPENDENCY_OUT_OF_RANGE,
            "A dependency outside TensorFlow's declared range",
            "The installed version is outside the range TensorFlow's wheel declares (`pip check` "
            "reports it too).",
        ),
        define(
            PINNED_RELEASE_NOT_PUBLISHED,
            "The requirements pin a release the index does not have",
            "The project asks for a release (or a range) of a package that no version on the "
            "index matches: a pin written ahead of the release's upload, or a version mistyped. "
            "Resolvers that tell it apart from a release without files for this Python or "
            "platform (uv's `there is no version of`, Poetry's `which doesn't match any "
            "versions`) say so; another Python changes nothing, a release the index has does.",
            "https://docs.astral.sh/uv/concepts/resolution/",
            "https://python-poetry.org/docs/dependency-specification/",
        ),
        define(
            LIBRARY_PIN_CONFLICTS,
            "A library on TensorFlow pins a dependency the environment holds at another version",
            "A library written against TensorFlow declares one exact release of a shared "
            "dependency (deepctr 0.9.3: h5py==3.7.0), and the environment holds another (the one "
            "TensorFlow and this Python take); pip reports the clash after every install, and "
            "the library's code may not run with the other release. A release of the library "
            "with a wider range ends it.",
            "https://pip.pypa.io/en/stable/topics/dependency-resolution/",
        ),
        define(
            TF_PIN_CONFLICTS_WITH_PACKAGE,
            "TensorFlow's range on a shared dependency holds it below another package's need",
            "TensorFlow declares a range on the dependencies it shares with other packages. "
            "Where its range stops below the release another installed package needs "
            "(TensorFlow 2.12.1 and 2.13 declare typing-extensions<4.6.0, 2.4 ~=3.7.4; newer "
            "FastAPI and pydantic releases import names typing-extensions added after that), "
            "installing "
            "TensorFlow keeps or moves the dependency back, and the other package fails on "
            "import. A TensorFlow release whose range admits the newer dependency ends it.",
            "https://github.com/tensorflow/tensorflow/blob/v2.13.0/tensorflow/tools/pip_package/setup.py",
            "https://github.com/tensorflow/tensorflow/blob/v2.14.0/tensorflow/tools/pip_package/setup.py",
        ),
        define(
            NUMBA_LLVMLITE_MISMATCH,
            "numba and llvmlite are not releases made for each other",
            "Each numba release requires the llvmlite line built with it (numba 0.55: "
            "llvmlite>=0.38,<0.39) and refuses an older one as it imports ('Numba requires at "
            "least version ... of llvmlite'); a package that pins llvmlite (or numba) alone "
            "leaves the pair apart. librosa, spleeter and other audio and data packages beside "
            "TensorFlow bring numba in.",
            "https://github.com/numba/numba/blob/0.55.2/numba/__init__.py",
            "https://numba.readthedocs.io/en/stable/user/installing.html#version-support-information",
        ),
        define(
            DEPENDENCY_MISSING,
            "A package TensorFlow requires is not installed",
            "TensorFlow's metadata requires it; one that `import tensorflow` imports before "
            "anything else runs fails the import with ModuleNotFoundError, another fails the "
            "feature that uses it. `pip install --no-deps`, a partial copy of site-packages or "
            "an uninstall leaves it out (`pip check` reports it too).",
        ),
        define(
            PROTOBUF_INCOMPATIBLE,
            "protobuf outside the range the installed generated code needs",
            "TensorFlow and the packages of its ecosystem (TensorBoard, tensorflow-metadata, "
            "tensorflow-datasets) ship code protoc generated for the protobuf runtime range each "
            "declares; a newer protobuf fails on older code with 'Descriptors cannot be created "
            "directly', an older one lacks what newer code imports.",
            "https://protobuf.dev/news/2022-05-06/#python-updates",
        ),
        define(
            KERAS_VERSION,
            "Keras does not match TensorFlow",
            "Keras 3 serves tf.keras only from TensorFlow 2.16 on; older TensorFlow needs Keras 2"
            " of its own line, and Keras 2 code under 2.16+ needs tf-keras.",
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
        ),
        define(
            KERAS_BACKEND_VERSION_UNSUPPORTED,
            "The JAX or PyTorch under Keras 3 is not a release its backend supports",
            "Keras 3 runs on JAX, PyTorch or TensorFlow, and each Keras release calls its "
            "backend's API as that backend's releases of the day have it: a backend older than "
            "that lacks a function Keras imports (jax.nn.dot_product_attention before JAX "
            "0.4.31), one newer than Keras was tested with may break what Keras relies on. Keras "
            "declares no range on its backends, so pip installs whichever the environment asks "
            "for.",
            "https://keras.io/getting_started/#installing-keras-3",
            "https://github.com/keras-team/keras/blob/v3.8.0/requirements-jax-cuda.txt",
        ),
        define(
            TF_KERAS_MISSING,
            "Keras 2 (tf-keras) is needed but not installed",
            "From TensorFlow 2.16 tf.keras is Keras 3; Keras 2 is the separate tf-keras "
            "package. With TF_USE_LEGACY_KERAS=1 tf.keras is served by tf-keras, and libraries "
            "written for Keras 2 (transformers' TensorFlow models, among others) import it or "
            "refuse Keras 3: without tf-keras both fail.",
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
        ),
        define(
            TF_KERAS_MISMATCH,
            "tf-keras of another TensorFlow line",
            "tf-keras is released in step with TensorFlow; another line's tf-keras may not import.",
            "https://pypi.org/project/tf-keras/",
        ),
        define(
            COMPANION_MISMATCH,
            "A companion package built for another TensorFlow",
            "Packages released with TensorFlow (tensorflow-text, tensorflow-io, "
            "tensorflow-decision-forests, TensorFlow Addons) declare the TensorFlow they were "
            "built against; with another, their compiled ops fail to load ('undefined symbol: "
            "_ZN10tensorflow...' in their .so: TensorFlow's C++ symbols change between minor "
            "releases) or their Python code calls what is not there. A library built on "
            "TensorFlow or Keras (Transformers, Intel's extension, segmentation_models) "
            "imports the modules of the releases it was written for: its own code fails on a "
            "module or name a later (or earlier) release does not have.",
            "https://github.com/tensorflow/text#compatibility",
            "https://github.com/tensorflow/io#tensorflow-version-compatibility",
        ),
        define(
            CUSTOM_OP_BUILD_MISMATCH,
            "A project's own op library is built with flags that do not fit the installed "
            "TensorFlow",
            "A project that ships its own TensorFlow ops (warp-ctc, KPConv, StyleGAN's CUDA "
            "plugins compiled at run time) builds them against the installed TensorFlow's "
            "headers and framework library with flags its Makefile, setup.py or build script "
            "wrote for one release. Another release moves what those flags assume: the include "
            "directories (nsync's headers under include/external/), the C++ standard and "
            "compiler its headers need, the C++ ABI of its std::string "
            "(_GLIBCXX_USE_CXX11_ABI: 0 in the wheels before 2.9, 1 since), the framework "
            "library's name (libtensorflow_framework.so.1 for 1.x, .so.2 for 2.x). The "
            "compiler or linker then fails, or the library loads and misses one of "
            "TensorFlow's C++ symbols ('undefined symbol: _ZN10tensorflow...'). "
            "tf.sysconfig.get_compile_flags() and get_link_flags() print the flags of the "
            "installed release.",
            "https://www.tensorflow.org/guide/create_op#compile_the_op_using_your_system_compiler",
            "https://github.com/tensorflow/tensorflow/blob/v2.9.0/tensorflow/python/platform/"
            "sysconfig.py",
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.9.0",
        ),
        define(
            TF_DISTRIBUTION_UNRECOGNISED,
            "A library does not recognise the installed TensorFlow distribution",
            "Transformers decides whether TensorFlow is there by asking for the version of each "
            "distribution name on a list (tensorflow, tensorflow-cpu, tf-nightly, ...); "
            "TensorFlow installed under a name its release's list lacks (tf-nightly before "
            "4.2.1, tensorflow-rocm, tensorflow-macos or intel-tensorflow before later "
            "releases added them) counts as absent, although `import tensorflow` works: its "
            "TF classes are placeholders that raise 'requires the TensorFlow library but it "
            "was not found'.",
            "https://github.com/huggingface/transformers/blob/v4.30.0/src/transformers/utils/import_utils.py",
            "https://github.com/huggingface/transformers/blob/v4.2.1/src/transformers/file_utils.py",
        ),
        define(
            MODEL_FROM_NEWER_KERAS,
            "A model saved by a newer Keras than the one loading it",
            "A saved model's configuration names the arguments of the Keras that wrote it; an "
            "older Keras refuses the ones it does not have (ragged, groups, ...). The model "
            "loads with the release that saved it or a newer one.",
            "https://www.tensorflow.org/guide/keras/serialization_and_saving",
        ),
        define(
            GRAPH_FROM_OLDER_TENSORFLOW,
            "A graph written by an older TensorFlow than the code that reads it",
            "Between releases an op may gain an attribute, with a default so that older graphs "
            "stay valid: TensorFlow fills the default in as it imports a graph, but code that "
            "reads a node as the file holds it (a converter of frozen graphs, TF-TRT's among "
            "them) finds the attribute missing ('No attr named ... in NodeDef'). Importing the "
            "graph with the installed TensorFlow and writing it again adds every default.",
            "https://www.tensorflow.org/guide/versions#compatibility_of_graphs_and_checkpoints",
            "https://github.com/tensorflow/tensorflow/blob/v1.10.1/tensorflow/core/framework/"
            "node_def_util.cc",
            "https://github.com/tensorflow/tensorflow/blob/v1.10.1/tensorflow/core/graph/"
            "graph_constructor.cc",
        ),
        define(
            HUB_MODEL_FORMAT_MISMATCH,
            "A TF Hub model of another format than the code's use of it needs",
            "TF Hub publishes models in two formats: the legacy TF1 Hub format (hub.Module, "
            "TensorFlow 1's graphs) and TensorFlow 2's SavedModel. hub.KerasLayer loads both, "
            "but fine-tunes (trainable=True) only a TF2 SavedModel, and calls a SavedModel "
            "without a callable object (one exported by TensorFlow 1's APIs) only through a "
            "named signature.",
            "https://www.tensorflow.org/hub/model_formats",
            "https://github.com/tensorflow/hub/blob/v0.16.1/tensorflow_hub/keras_layer.py",
        ),
        define(
            MODEL_BYTECODE_OTHER_PYTHON,
            "A model's Lambda layer holds the bytecode of another Python than the one loading it",
            "Keras saves the Python function of a Lambda layer (a lambda, or a function it "
            "cannot name) as the bytecode of the Python that saved it, marshal's format, in "
            "every format it writes (HDF5, SavedModel's Keras metadata, `.keras`), and "
            "un-marshals it as it loads. That format is the Python minor's own: another minor "
            "refuses the data ('bad marshal data', 'marshal data too short') or runs an opcode "
            "it does not have ('unknown opcode'). The weights are not at fault; the function "
            "is. A function pickled by value (cloudpickle, dill) carries its bytecode too, which "
            "another minor refuses or cannot run.",
            "https://docs.python.org/3/library/marshal.html",
            "https://github.com/keras-team/keras/blob/v3.12.0/keras/src/utils/python_utils.py",
            "https://github.com/keras-team/keras/blob/v2.11.0/keras/utils/generic_utils.py",
        ),
        define(
            HDF5_LIBRARY_MISMATCH,
            "h5py (or another HDF5 user) was built against other HDF5 headers than the "
            "libhdf5 the process loaded",
            "A program built on HDF5 (h5py, which Keras saves .h5 files through; PyTables; "
            "netCDF4) checks at start that the libhdf5 it runs with is the release whose "
            "headers it was compiled against, and HDF5 aborts the process where it is not "
            "('HDF5 library version mismatched error', 'Headers are X, library is Y'). The "
            "two come from different installers: pip's h5py beside conda's hdf5, a package "
            "of one channel beside another's, LD_LIBRARY_PATH pointing at a system libhdf5. "
            "HDF5_DISABLE_VERSION_CHECK only silences the check; the files are not at fault.",
            "https://github.com/HDFGroup/hdf5/blob/hdf5-1_14_3/src/H5.c",
            "https://docs.h5py.org/en/stable/build.html",
        ),
        define(
            MODEL_FILE_LFS_POINTER,
            "The model file is a Git LFS pointer, not the model",
            "A repository that keeps its large files (models, weights) in Git LFS holds in Git "
            "only a pointer, a small text file that begins 'version "
            "https://git-lfs.github.com/spec/v1'; a clone made without Git LFS installed, or a "
            "ZIP download of the repository, has the pointer where the model should be, and "
            "every reader refuses it as its format (TensorFlow Lite reads 'ion ' where its "
            "'TFL3' identifier should be). The model and the code are not at fault.",
            "https://github.com/git-lfs/git-lfs/blob/v3.4.0/docs/spec.md",
            "https://github.com/tensorflow/tensorflow/blob/v2.10.0/tensorflow/lite/model_builder.cc",
        ),
        define(
            HUB_CACHE_INCOMPLETE,
            "TF Hub's cache holds the model's directory without its SavedModel",
            "tensorflow_hub downloads a model once, into a directory of its cache named by the "
            "SHA-1 of the handle (TFHUB_CACHE_DIR, by default tfhub_modules under the system's "
            "temporary directory), and from then on takes any directory there that is not empty "
            "for the model. A cleaner of the temporary directory that removed some of its files, "
            "a download cut short or a copy of the cache in part leaves the directory without "
            "saved_model.pb, and every later load fails on it until it is removed. The model "
            "and the code are not at fault.",
            "https://github.com/tensorflow/hub/blob/v0.16.1/tensorflow_hub/resolver.py",
            "https://github.com/tensorflow/hub/blob/v0.16.1/tensorflow_hub/module_v2.py",
            "https://www.tensorflow.org/hub/caching",
        ),
        define(
            TF_INSTALL_INCOMPLETE,
            "TensorFlow's own files are incomplete",
            "TensorFlow's code fails to import one of its own modules: the package on disk is "
            "partial, as an install that stopped part way leaves it (Windows' 260-character "
            "path limit, a full disk, an interrupted pip) or the uninstall of another "
            "distribution that shared its files. Remove every TensorFlow distribution, then "
            "install one.",
            "https://pip.pypa.io/en/stable/cli/pip_install/#cmdoption-force-reinstall",
            "https://learn.microsoft.com/en-us/windows/win32/fileio/maximum-file-path-limitation",
        ),
        define(
            IMPORT_FAILED_UNKNOWN,
            "TensorFlow fails to import",
            "The import failed with an error this tfdoctor does not recognise; the log shows "
            "where.",
        ),
        define(
            IMPORT_CRASH,
            "Importing TensorFlow crashed the interpreter",
            "Native code crashed during import; the evidence below says what is known.",
        ),
        define(
            IMPORT_HANG,
            "Importing TensorFlow hangs",
            "The import did not finish in time; the evidence below says what is known.",
        ),
        define(
            KERAS3_MODEL_UNDER_KERAS2,
            "A model saved by Keras 3 loaded by Keras 2",
            "Keras 3 (tf.keras from TensorFlow 2.16) writes configs that name its own modules "
            "(keras.src.models.functional) and arguments (batch_shape); Keras 2 (TensorFlow 2.15 "
            "or older, or tf-keras with TF_USE_LEGACY_KERAS=1) cannot rebuild the model from "
            "them.",
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
            "https://github.com/tensorflow/tensorflow/issues/70866",
        ),
        define(
            KERAS_STANDALONE_MIXED_WITH_TF_KERAS,
            "Objects of two Keras packages in one model",
            "The standalone keras package and tensorflow.keras (from TensorFlow 2.16 on, the "
            "keras package, Keras 3, and tf-keras, Keras 2) each have their own Layer class: "
            "a model of one refuses a layer built on the other (a library's layer built on "
            "tensorflow.keras added to a standalone keras Sequential, or the reverse), as "
            "Keras' Sequential.add does with 'The added layer must be an instance of class "
            "Layer'. Both Kerases are installed and work; the code mixes their names.",
            "https://github.com/keras-team/keras/blob/2.3.1/keras/engine/sequential.py",
            "https://github.com/tensorflow/tensorflow/blob/v2.3.0/tensorflow/python/keras/"
            "engine/sequential.py",
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
        ),
        define(
            TENSORBOARD_NOT_INSTALLED,
            "TensorBoard summaries without the tensorboard package",
            "TensorFlow 2.21 no longer installs tensorboard; tf.summary's scalar, histogram, "
            "image, audio and text ops and the Keras TensorBoard callback import it when used "
            "and fail without it.",
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.21.0",
        ),
        define(
            TENSORBOARD_DUPLICATE_INSTALL,
            "More than one TensorBoard is installed in one environment",
            "tensorboard, tb-nightly and the old tensorflow-tensorboard (TensorFlow 1.3-1.5) all "
            "install the one `tensorboard` package: two of them in one environment overwrite "
            "each other's files and register every plugin twice, which TensorBoard refuses "
            "('Duplicate plugins for name projector'), or leave the `tensorboard` script of one "
            "importing the other's modules. A pip uninstall that was interrupted leaves a "
            "half-removed copy renamed with a leading '~' (`~ensorboard`), which pip lists as "
            "the invalid distribution '-ensorboard' and which still counts as an installation.",
            "https://github.com/tensorflow/tensorboard/blob/2.20.0/tensorboard/backend/application.py",
            "https://github.com/tensorflow/tensorboard/blob/2.20.0/README.md",
        ),
        define(
            DEPENDENCY_API_REMOVED,
            "A dependency's installed release lacks a module or name a package still uses",
            "A package that declares a dependency without an upper bound gets the dependency's "
            "newest release, and fails where that release removed a module or name the "
            "package still uses: setuptools 82.0.0 removed pkg_resources, which TensorBoard "
            "up to 2.20 imports at start (TensorBoard 2.21 moved to importlib.metadata). pip "
            "reports no conflict: the declared range admits the release. The other way round, "
            "a package's newer release asks an older dependency for what only a later one "
            "brought.",
            # Each reading adds the sources of its own removal (the module table's rows, the
            # signature's); `pip check` names a declared range the installed release is
            # outside (`pip show` lists only the names a package requires).
            "https://pip.pypa.io/en/stable/cli/pip_check/",
        ),
        define(
            PACKAGE_NOT_INSTALLED,
            "A package the code imports is not installed in the Python that ran it",
            "The import found no module of that name on the interpreter's path: the "
            "distribution that provides it is not installed there (it may be installed for "
            "another Python: a notebook kernel, a conda environment, a virtual environment "
            "not activated). The distribution's name is not always the module's (cv2 is "
            "opencv-python, sklearn scikit-learn).",
            "https://packaging.python.org/en/latest/tutorials/installing-packages/",
        ),
        define(
            OP_NOT_REGISTERED,
            "A graph uses an op this process has not registered",
            "A saved model or graph names each op it runs; TensorFlow finds the op only if "
            "its library is loaded: an add-on's ops (tensorflow-text, -io, -addons, decision "
            "forests) exist once that package is imported, and an op added in a newer "
            "TensorFlow does not exist in an older one that loads the model.",
            "https://www.tensorflow.org/guide/create_op#use_the_op_in_python",
        ),
        define(
            PROTOS_NOT_COMPILED,
            "A project's protobuf modules were never generated",
            "Projects that describe their configuration in .proto files (the Object Detection "
            "API's object_detection/protos, and others of the same shape) keep only the .proto "
            "files in their source tree: the `_pb2.py` modules their code imports are written "
            "by protoc, a step of installing the project. Until it has run, importing one "
            "fails, whatever TensorFlow or protobuf is installed.",
            "https://github.com/tensorflow/models/blob/master/research/object_detection/g3doc/tf2.md",
            "https://protobuf.dev/getting-started/pythontutorial/#compiling-protocol-buffers",
        ),
        define(
            PROTOC_TOO_OLD,
            "protoc is older than the .proto files it compiles",
            "Each protoc release parses the .proto syntax of its time: protoc 2.x knows neither "
            "proto3 files nor `map` fields (nor `oneof` before 2.6), and protoc before 3.15 "
            "refuses proto3's `optional` fields. A Linux distribution's packaged protoc is often "
            "that old, so the project's .proto files fail to parse and no `_pb2` module is "
            "written.",
            "https://github.com/protocolbuffers/protobuf/releases",
            "https://github.com/protocolbuffers/protobuf/releases/tag/v3.15.0",
        ),
        define(
            FREEZER_TF_SUPPORT_OUTDATED,
            "The tool that freezes or compiles the program does not support this TensorFlow",
            "Tools that turn a Python program into an executable (Nuitka, PyInstaller with "
            "its pyinstaller-hooks-contrib hooks) carry their own configuration for "
            "TensorFlow and its companions: which modules and data to take, what to leave out. "
            "A TensorFlow newer than that configuration, or a configuration the tool's release "
            "reads wrongly, stops the build ('anti-bloat: Error, condition ... for module "
            "'tensorflow'') or the frozen program, while plain Python runs the same script. A "
            "release of the tool (or its hooks) that supports the installed TensorFlow is the "
            "fix, not another TensorFlow.",
            "https://github.com/Nuitka/Nuitka/blob/develop/nuitka/plugins/PluginBase.py",
            "https://github.com/pyinstaller/pyinstaller-hooks-contrib",
        ),
        define(
            TF_METADATA_UNSATISFIABLE,
            "TensorFlow's own metadata requires a companion no resolver can find",
            "A TensorFlow release declares its companion distributions (tensorflow-intel on "
            "Windows, tensorflow-cpu-aws on Linux Arm, tensorflow-estimator, tensorboard) in its "
            "wheels' Requires-Dist. Where that requirement names a version the index never "
            "published, or spells a pre-release the resolver does not take, every lock of that "
            "TensorFlow fails whatever the project itself pins. A resolver that locks for every "
            "platform at once (uv's universal lock, Poetry) reads one wheel's metadata for all of "
            "them, so a requirement meant for another platform fails it too, while pip on one "
            "platform installs the same release.",
            "https://github.com/tensorflow/tensorflow/issues/75415",
            "https://github.com/tensorflow/tensorflow/pull/94854",
            "https://docs.astral.sh/uv/concepts/resolution/#limited-resolution-environments",
        ),
        define(
            DISTUTILS_PACKAGE_UNREMOVABLE,
            "pip cannot remove an installed copy of a dependency it must replace",
            "To install a release of a dependency (wrapt, PyYAML, six, blinker, ...) pip first "
            "uninstalls the copy in place, from the record of its files that an install by pip "
            "leaves. A copy put there by distutils (`setup.py install`, as Anaconda's base "
            "environment shipped wrapt and PyYAML) or by the system's package manager (a "
            "Debian or Ubuntu python3-* package) has no such record, so pip refuses ('Cannot "
            "uninstall X. It is a distutils installed project', 'no RECORD file was found') and "
            "the whole install stops, TensorFlow included. Installing over the copy without "
            "uninstalling it, or letting the tool that installed it replace it, mends it; "
            "another Python or TensorFlow release does not.",
            "https://github.com/pypa/pip/blob/10.0.0/src/pip/_internal/req/req_uninstall.py",
            "https://github.com/pypa/pip/blob/23.1/src/pip/_internal/exceptions.py",
            "https://pip.pypa.io/en/stable/cli/pip_install/#cmdoption-I",
        ),
        define(
            EDGETPU_DEVICE_UNAVAILABLE,
            "The Edge TPU runtime opened no Edge TPU",
            "TFLite's load_delegate loads the Edge TPU runtime (libedgetpu) and asks it for a "
            "delegate; the runtime gives none where it can open no Edge TPU: the accelerator "
            "is not attached or not enumerated (a USB Accelerator on a port or hub without "
            "enough power), this user may not open it (the runtime package's udev rules, "
            "which take effect once it is plugged in again; the M.2 and PCIe cards' apex "
            "driver and group), a container not given the device, or another process holds "
            "it. Python then reports only "
            "'Failed to load delegate from libedgetpu.so.1'; a runtime that is not installed "
            "fails earlier, in the loader. Another TensorFlow release does not change it.",
            "https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/lite/python/interpreter.py",
            "https://coral.ai/docs/accelerator/get-started/",
            "https://coral.ai/docs/m2/get-started/",
            "https://github.com/google-coral/tflite/issues/3",
        ),
        define(
            HOROVOD_CONTROLLER_MISSING,
            "horovodrun has no controller to start the job with",
            "horovodrun starts the workers through MPI or Gloo. Horovod's install builds each "
            "only where it can (MPI where an MPI is installed, Gloo where CMake is) and "
            "silently leaves out the others, so a Horovod installed without them refuses to "
            "launch ('Neither MPI nor Gloo support has been built', 'MPI support has not been "
            "built'); with MPI built, horovodrun still needs an MPI (its mpirun) on this "
            "machine ('does not find an installed MPI').",
            "https://github.com/horovod/horovod/blob/v0.28.1/horovod/runner/launch.py",
            "https://github.com/horovod/horovod/blob/v0.28.1/horovod/runner/mpi_run.py",
            "https://github.com/horovod/horovod/blob/v0.28.1/docs/install.rst",
        ),
    )
)


def unremovable_dependency_fix(m: Machine, dist: Optional[str], installer: Optional[str]) -> Fix:
    """The dependency pip could not uninstall (``dist``, from its refusal) installed over
    rather than replaced, or replaced by the tool that installed it: conda inside a conda
    environment, the system's package manager (``installer``, pip's hint: ``debian``) by a
    virtual environment that leaves the system's packages alone. pip's hint naming conda
    (the INSTALLER file conda writes) is a conda environment's copy, not the system's."""
    name = dist or "<the package pip could not uninstall>"
    text = (
        f"pip refused to uninstall {name}: the copy in place was not installed by pip and has "
        f"no record of its files. Install {name} over it without uninstalling "
        f"(`--ignore-installed`), then run the install that stopped again."
    )
    commands: tuple[str, ...] = m.pip(f"install --ignore-installed {name}")
    if m.in_conda or installer == "conda":
        update = m.conda_update(name)
        tool = "pixi" if m.installer == "pixi" else "conda"
        text = (
            f"pip refused to uninstall {name}: the conda environment's copy was installed "
            f"without pip's record of its files. Let {tool} replace it first (`{update}`), "
            f"then run the install that stopped again; where {tool} has no newer release, "
            "install over it with pip's `--ignore-installed`."
        )
        commands = (update, *commands)
    elif installer:
        text += (
            f" The copy belongs to the system's packages (pip says {installer} installed it): "
            "a virtual environment (`python3 -m venv`), where pip never touches them, avoids "
            "the clash for good."
        )
    return Fix(text, commands)


#: The freezers :func:`tfdoctor.evidence.frozen.freezer_of` tells apart, by the names their
#: users know them by (and pip installs them by).
FREEZER_NAMES: Final = {
    "pyinstaller": "PyInstaller",
    "nuitka": "Nuitka",
    "py2app": "py2app",
    "cx_freeze": "cx_Freeze",
}
#: Freezers that copy a package by their recipes or hooks, and the option that copies one
#: whole: where the copy goes, that option, and the build command. py2app's tensorflow recipe
#: (0.24) copies the package whole
#: (https://github.com/ronaldoussoren/py2app/blob/master/docs/changelog.rst); cx_Freeze's
#: build_exe `packages` option (https://cx-freeze.readthedocs.io/en/stable/setup_script.html).
_COPYING_FREEZERS = {
    "py2app": ("the app bundle", "the setup's py2app `packages` option", "python setup.py py2app"),
    "cx_freeze": (
        "the frozen program (its library.zip and lib folder)",
        "build_exe's `packages` option",
        "python setup.py build",
    ),
}


def freezer_fix(m: Machine, tool: str) -> Fix:
    """A release of the freezing tool (``tool``: nuitka, pyinstaller, py2app or cx_freeze)
    whose configuration for TensorFlow fits the installed release, then the program built
    again."""
    copying = _COPYING_FREEZERS.get(tool)
    if copying is not None:
        name = FREEZER_NAMES[tool]
        bundle, option, build = copying
        return Fix(
            f"{name} copied only part of TensorFlow into {bundle}: a {name} whose recipes or "
            f"hooks predate this TensorFlow leaves modules or libraries out. Upgrade {name}, "
            f"or name tensorflow in {option} so it is copied whole; then build again.",
            (*m.pip(f"install --upgrade {name}"), build),
        )
    if tool == "nuitka":
        return Fix(
            "Nuitka's handling of TensorFlow (its plugins' and anti-bloat configuration for the "
            "package, the code it compiles from it) does not fit the installed release: upgrade "
            "Nuitka to its newest release, then compile again; the installed TensorFlow stays. "
            "Where the newest release still stops, its develop branch may hold the fix (pip "
            "install https://github.com/Nuitka/Nuitka/archive/develop.zip).",
            m.pip("install --upgrade nuitka"),
        )
    return Fix(
        "PyInstaller's hooks for TensorFlow (in pyinstaller-hooks-contrib) do not fit the "
        "installed release: upgrade PyInstaller and its hooks, then build again from a clean "
        "state; the installed TensorFlow stays.",
        (
            *m.pip("install --upgrade pyinstaller pyinstaller-hooks-contrib"),
            "pyinstaller --clean --noconfirm YOUR.spec",
        ),
    )


def nuitka_path_magic_fix(m: Machine) -> Fix:
    """Nuitka's tensorflow plugin found no ``_running_from_pip_package`` in TensorFlow's
    ``__init__`` to patch (nuitka/plugins/standard/TensorflowPlugin.py, onModuleSourceCode):
    the plugin is written for TensorFlow 2's ``__init__``; a TensorFlow 1.x's can lack it
    (1.15's ``tensorflow`` is a shim over tensorflow_core)."""
    tf1 = m.tf is not None and version_key(m.tf.version)[:1] == (1,)
    return Fix(
        "Nuitka's tensorflow plugin patches a function of the `tensorflow` package's own "
        "__init__ (_running_from_pip_package), as TensorFlow 2 writes it, and stops where the "
        "installed TensorFlow's __init__ lacks it, as a TensorFlow 1.x's can (1.15's "
        "`tensorflow` is a shim over tensorflow_core): "
        + (
            "the installed TensorFlow is a 1.x. Move the program to TensorFlow 2, then "
            "compile again."
            if tf1
            else "with a TensorFlow 1.x, move the program to TensorFlow 2; with a TensorFlow 2, "
            "upgrade Nuitka to a release whose plugin fits it. Then compile again."
        ),
        (*m.pip("show tensorflow nuitka"), *m.pip("install --upgrade nuitka")),
    )


def numpy_abi_fix(m: Machine, module: str = "", dist: str = "") -> Fix:
    """NumPy inside TensorFlow's range, or a TensorFlow built for NumPy 2. Where the
    extension NumPy refused is another package's (``module``, its distribution ``dist`` where
    the module table knows it, as the traceback's frames name it), that package is named with
    its own way out: a release of it built for NumPy 2."""
    # The range the build runs with (range_fix reads it: a floor-only range of 2.7-2.11 with
    # NumPy 1's cap, Machine.numpy_runs_with); its words say when the cap is added.
    fix = range_fix(m, "numpy")
    declared = m.declared_range("numpy")
    # A range that refuses NumPy 2 itself (<2.0.0,>=1.23.5 of 2.14-2.17) needs no second cap.
    capped = declared is not None and spec_contains("2.0.0", declared) is False
    spec: tuple[str, ...] = ()
    if fix is not None and m.numpy_runs_with() != declared:
        what = "a NumPy 1.x release (numpy<2) inside the range TensorFlow declares"
    elif fix is not None or capped:
        spec = () if fix is not None else (f"numpy{declared}",)
        what = "the NumPy range TensorFlow declares"
    elif declared:
        spec = (f"numpy<2,{declared}",)
        what = "a NumPy 1.x release (numpy<2) inside the range TensorFlow declares"
    else:
        spec = ("numpy<2",)
        what = "a NumPy 1.x release (numpy<2)"
    text = f"Install {what} (or upgrade TensorFlow to a release built for NumPy 2)."
    text += conda_installed_note(m, "numpy")
    commands = fix.commands if fix is not None else m.install(*spec)
    if not module:
        return Fix(text, commands)
    named = package_named(module, dist)
    upgrade = package_upgrade(m, module, dist)
    # The last command is the upgrade itself (pip's: an externally managed Python's first creates
    # a venv; conda's update where conda installed it).
    how = f"`{upgrade[-1]}`" if dist else f"`{upgrade[-1]}` names its distribution"
    # In words only: an upgrade of the package run after the command may bring a NumPy 2 that
    # the TensorFlow installed cannot load.
    return Fix(
        f"{text} The extension NumPy refused belongs to {named}, built for NumPy 1: where NumPy 2 "
        f"is to stay (a TensorFlow that runs with it), upgrade {named} to a release built for "
        f"NumPy 2 instead ({how}).",
        commands,
    )


#: Dependencies whose range in TensorFlow's metadata had a cap that a later line dropped: the
#: first line without it (setup.py of v2.13.0: typing_extensions>=3.6.6,<4.6.0; of v2.14.0:
#: typing_extensions>=3.6.6). Not every earlier line capped it: 2.11.1's metadata declares
#: typing-extensions>=3.6.6, 2.12.1's <4.6.0,>=3.6.6, 2.4.4's ~=3.7.4.
UNCAPPED_FROM: Final[Mapping[str, str]] = {"typing-extensions": "2.14"}


def tf_pin_conflict_fix(
    m: Machine,
    dist: str = "typing-extensions",
    user: str = "",
    installer: str = "",
    admitting: Optional[tuple[TFLine, str, str, str]] = None,
    stated: tuple[str, str] = ("", ""),
) -> Fix:
    """A TensorFlow whose range admits the newer ``dist`` ``user`` needs, installed with it so
    pip resolves both; or the two kept apart. ``installer``: the resolver that reported the
    clash (pip where empty). ``admitting``: the matrix line whose declared range on ``dist``
    meets ``user``'s need, with that need, the TensorFlow release whose range does not, and
    the requirement that installs the line (``tensorflow==2.18.1``): that line is the fix,
    or a release of ``user`` that takes TensorFlow's range. Without it, where ``installer``
    is set, the resolver reported TensorFlow's range on ``dist`` against ``user`` without
    ``user``'s own range: which way the two miss is not known, so either side may move, each
    named with its releases. ``stated``: the TensorFlow release and its range on ``dist`` as
    the resolver stated them (``2.14.0``, ``>=1.11.0,<1.15``), which the installed one's
    need not be."""
    who = user or "the other package"
    spec = m.declared_range(dist)
    declared = f" (the installed TensorFlow declares {dist}{spec})" if spec else ""
    line = UNCAPPED_FROM.get(dist)
    tf = m.tf_name or "tensorflow"
    if admitting is not None:
        best, need, release, wanted = admitting
        add = add_command(installer, wanted, user) if installer not in ("", "pip") else None
        return Fix(
            f"Require TensorFlow {best.line} (its {dist} range, {best.declared(dist)}, meets "
            f"{who}'s {dist}{need}; from the matrix), or a release of {who} whose {dist} range "
            f"admits TensorFlow {release}'s.",
            m.pip_install(wanted, who) if installer in ("", "pip") else (add,) if add else (),
        )
    if installer:
        version = stated[0] or (m.tf.version if m.tf is not None else "")
        release = f"TensorFlow {version}" if version else "TensorFlow"
        # The installed TensorFlow's range stands in only where the resolver named no release.
        spec = stated[1] or (None if stated[0] else spec)
        ranged = f"{release}'s {dist} range ({spec})" if spec else f"{release}'s {dist} range"
        return Fix(
            f"{ranged} shuts out {who}: the resolver ({installer}) finds no {dist} that both "
            f"take (the {dist} range {who} brings, its own or a dependency's, is in the part of "
            "its report not shown). Install a "
            f"TensorFlow release whose {dist} range admits {who}'s, or a release of {who} "
            f"whose {dist} range admits TensorFlow's (the commands list their releases, and "
            "each release's requirements name its range), or keep the two in separate "
            "environments.",
            (
                (*m.list_releases(tf), *m.list_releases(who))
                if installer == "pip"
                else (releases_command(installer, tf), releases_command(installer, who))
            ),
        )
    if line is None:
        return Fix(
            f"{who} needs a newer {dist} than TensorFlow's range admits{declared}: install the "
            f"TensorFlow release whose range admits it together with {dist}, so pip resolves "
            f"both (`pip index versions {tf}` lists them), or keep {who} and TensorFlow in "
            "separate environments.",
            (*m.list_releases(tf), *m.pip(f"show {tf}")),
        )
    return Fix(
        f"{who} needs a newer {dist} than the installed one, and TensorFlow's range holds it "
        f"back{declared}: TensorFlow {line} and later declare {dist} without a cap. Install "
        f"such a TensorFlow together with {dist}, so pip resolves both (`pip check` then "
        f"reports nothing on {dist}), or keep {who} and TensorFlow in separate environments.",
        (*m.pip(f'install --upgrade "{tf}>={line}" "{dist}"'), *m.pip_after_install("check")),
    )


def numba_llvmlite_fix(m: Machine, numba: str = "", spec: str = "") -> Fix:
    """The llvmlite ``numba`` (its version, where shown) declares (``spec``), or numba and
    llvmlite moved together to a pair."""
    if spec:
        who = f"numba {numba}" if numba else "numba"
        return Fix(
            f"Install the llvmlite {who} declares (llvmlite{spec}); where another package pins "
            "llvmlite outside it (pip's output names it), install instead the numba release "
            "made for that llvmlite, or a release of that package whose range admits this one.",
            m.install(f"llvmlite{spec}"),
        )
    return Fix(
        "Install numba and llvmlite together, so pip picks a numba and the llvmlite made for "
        "it (each numba release declares its llvmlite line); where a package pins one of "
        "them, keep its pin and let pip choose the other.",
        m.pip('install --upgrade "numba" "llvmlite"'),
    )


def numpy_c_api_fix(m: Machine, module: str = "", dist: str = "", older: bool = False) -> Fix:
    """NumPy's C API not the build's, direction unknown (``older``: a NumPy older than the
    build's, as the NumPy 1 the log shows under TensorFlow's own refusal says): TensorFlow's
    declared range, which settles both; without it, the candidates and the command that tells
    them apart. Where the extension NumPy refused is another package's (``module``, its
    distribution ``dist`` where the module table knows it, as the traceback's frames name it),
    that package is named with the way out that holds in either direction: rebuilt against
    the installed NumPy."""
    fix = range_fix(m, "numpy") or (
        Fix(
            "The installed NumPy is older than the one TensorFlow was built against: upgrade "
            "NumPy into the range TensorFlow declares, which the command shows.",
            m.pip("show tensorflow numpy"),
        )
        if older
        else Fix(
            "An extension was built against another NumPy than the one installed: most often "
            "an older NumPy than the build's (upgrade NumPy into the range TensorFlow "
            "declares, shown by the first command); or NumPy 2 under a TensorFlow before 2.16 "
            '(install "numpy<2").',
            (*m.pip("show tensorflow numpy"), *m.pip('install --upgrade "numpy<2"')),
        )
    )
    if not module:
        return fix
    named = package_named(module, dist)
    # NumPy's side is what runs; the rebuild (a compile, long for a large extension) is the
    # way where NumPy has to stay, in words, as where NumPy's check names the release.
    rebuild = _numpy_rebuild(m, module, dist)[-1]
    how = f"(`{rebuild}`)" if dist else f"(`{rebuild}` prints which distribution)"
    return Fix(
        f"{fix.text} The extension NumPy refused belongs to {named}, not to TensorFlow: where "
        f"NumPy has to stay as it is, rebuild {named} against it instead {how}.",
        fix.commands,
    )


def _numpy_rebuild(m: Machine, module: str, dist: str) -> tuple[str, ...]:
    """The commands that compile the distribution ``dist`` (of import package ``module``)
    against the NumPy installed; where ``dist`` is not known, the command that names it."""
    # pip's cache can hold a wheel built against another NumPy: --no-cache-dir and
    # --no-binary compile it against the NumPy installed (--no-build-isolation: not a NumPy
    # pip fetches into an isolated build environment).
    if not dist:
        return (owner_of_package_command(module),)
    return m.pip(
        "install --force-reinstall --no-deps --no-build-isolation --no-cache-dir "
        f"--no-binary {dist} {dist}"
    )


def numpy_newer_build_fix(
    m: Machine, floor: Optional[str] = None, module: str = "", dist: str = ""
) -> Fix:
    """An extension compiled against a newer NumPy than the one installed (NumPy's C API
    check, ``floor`` the first release of the C API it was built for; Cython's type-size
    check, where the release is not known). Both ways, within TensorFlow's declared range:
    NumPy up to the build's, or the package whose extension it is (``module``, its
    distribution ``dist`` where the module table knows it, as its frames name it) rebuilt
    against the installed NumPy."""
    # Where pip already lists a newer NumPy, an older copy is found first: a system package
    # (apt's python3-numpy) or another site-packages earlier on sys.path.
    shadow = (
        " If pip already lists a newer NumPy, an older copy is imported first (a system "
        "package such as apt's python3-numpy, or another site-packages earlier on sys.path): "
        "the numpy.__file__ command shows which file is imported; remove that copy."
    )
    # A TensorFlow compiled against NumPy 1.x whose range admits NumPy 2 (a floor only) runs
    # with NumPy 1 only: the upgrade keeps its cap.
    runs_with = m.numpy_runs_with()
    cap = ",<2" if runs_with != m.declared_range("numpy") else ""
    if floor is not None:
        upgrade = declared_range_fix(
            m,
            "numpy",
            f"numpy>={floor}" + (cap if version_key(floor)[:1] < (2,) else ""),
            f"Upgrade NumPy to {floor} or later, the release the module was built against "
            "(within the range TensorFlow declares).",
        )
        text = upgrade.text + shadow
        commands = (
            'python -c "import numpy; print(numpy.__version__, numpy.__file__)"',
            *upgrade.commands,
        )
    else:
        # Upgraded within TensorFlow's own range only: an unbounded upgrade can bring a
        # NumPy 2 under a TensorFlow built for NumPy 1. Where the range is not known, the
        # command shows it.
        spec = runs_with
        text = (
            "Upgrade NumPy to the release the package was built for (within the range "
            "TensorFlow declares: `pip show tensorflow` lists it)."
        )
        commands = m.pip(f'install --upgrade "numpy{spec}"') if spec else m.pip("show tensorflow")
    if not module:
        return Fix(
            text + " Or rebuild the package whose extension it is (the traceback's frames "
            "name it) against the installed NumPy: pip install --force-reinstall "
            "--no-cache-dir --no-binary <it> <it>.",
            commands,
        )
    named = package_named(module, dist)
    rebuild = _numpy_rebuild(m, module, dist)
    if floor is not None:
        # NumPy's own check named the release: the upgrade is the fix, the rebuild (a
        # compile, long for a large extension) the way where NumPy has to stay, in words.
        how = f"(`{rebuild[-1]}`)" if dist else f"(`{rebuild[-1]}` prints which distribution)"
        return Fix(
            f"{text} The module belongs to {named}: where NumPy has to stay, rebuild it "
            f"against that NumPy instead {how}.",
            commands,
        )
    how = (
        "(the last command compiles it from source)"
        if dist
        else "(the last command prints which distribution installed it; reinstall that one "
        "with pip install --force-reinstall --no-cache-dir --no-binary <it> <it>)"
    )
    return Fix(
        f"{text} Or rebuild {named}, whose extension it is, against the installed NumPy {how}.",
        (*commands, *rebuild),
    )


#: The TensorFlow distributions Transformers' newest check looks for, in its order
#: (src/transformers/utils/import_utils.py, ``candidates``): a distribution outside it is one
#: no Transformers release recognises.
TRANSFORMERS_TF_CANDIDATES: Final = (
    "tensorflow",
    "tensorflow-cpu",
    "tensorflow-gpu",
    "tf-nightly",
    "tf-nightly-cpu",
    "tf-nightly-gpu",
    "tf-nightly-rocm",
    "intel-tensorflow",
    "intel-tensorflow-avx512",
    "tensorflow-rocm",
    "tensorflow-macos",
    "tensorflow-aarch64",
)


#: Libraries whose later releases dropped their TensorFlow code, with the first such release:
#: an upgrade stays below it. Transformers 5 removed its TensorFlow classes
#: (https://github.com/huggingface/transformers/blob/main/MIGRATION_GUIDE_V5.md, "Removal of
#: TensorFlow and Jax"; huggingface/transformers#40760).
TENSORFLOW_DROPPED_IN: Final[Mapping[str, str]] = {"transformers": "5"}


def library_upgrade(m: Machine, dist: str) -> tuple[str, ...]:
    """``pip install --upgrade`` of ``dist`` to its newest release that still has TensorFlow
    code (below :data:`TENSORFLOW_DROPPED_IN`'s release where it dropped it)."""
    dropped = TENSORFLOW_DROPPED_IN.get(normalize_name(dist))
    return m.pip(
        f'install --upgrade "{dist}<{dropped}"' if dropped else f"install --upgrade {dist}"
    )


def _still_with_tensorflow(dist: str) -> str:
    """`` (one before 5: transformers 5 has no TensorFlow code)`` where ``dist`` dropped it."""
    dropped = TENSORFLOW_DROPPED_IN.get(normalize_name(dist))
    return f" (one before {dropped}: {dist} {dropped} has no TensorFlow code)" if dropped else ""


#: The environment markers of each platform key a TensorFlow wrapper is required on, as
#: ``tensorflow``'s own requirement of the wrapper states them (PEP 508's platform_system and
#: platform_machine: tensorflow/tools/pip_package/setup.py, and the wheels' METADATA, e.g.
#: ``tensorflow-intel ==2.16.2 ; platform_system == "Windows"``).
_WRAPPER_MARKERS = {
    "macos-arm64": 'platform_system == "Darwin" and platform_machine == "arm64"',
    "windows-x86_64": 'platform_system == "Windows"',
    "linux-aarch64": (
        'platform_system == "Linux" and (platform_machine == "arm64" or '
        'platform_machine == "aarch64")'
    ),
}


def locked_wrapper_fix(installer: str, version: str, wrapper: str, platform: str) -> Fix:
    """Add the distribution ``tensorflow`` ``version`` requires on ``platform`` (a matrix
    line's ``wrappers``: tensorflow-macos on Apple silicon), pinned to the same release and
    marked for that platform, to the project ``installer`` (``uv``, ``poetry``) locks: its
    lock, read from another platform's wheel, left it out."""
    marker = _WRAPPER_MARKERS.get(platform, "")
    requirement = f"{wrapper}=={version}" + (f"; {marker}" if marker else "")
    if installer == "poetry":
        entry = f'{wrapper} = {{ version = "{version}"' + (
            f", markers = '{marker}' }}" if marker else " }"
        )
        return Fix(
            f"tensorflow {version}'s wheel for {platform_words((platform,))} holds no "
            f"TensorFlow code: it requires {wrapper}=={version}, which Poetry's lock left out. "
            f"Add it under [tool.poetry.dependencies] in pyproject.toml ({entry}), then lock "
            "and install again.",
            ("poetry lock", "poetry install"),
        )
    return Fix(
        f"tensorflow {version}'s wheel for {platform_words((platform,))} holds no TensorFlow "
        f"code: it requires {wrapper}=={version}, which {installer}'s lock left out. Add it to "
        "the project for that platform, then import TensorFlow again.",
        (f"{installer} add {shlex_quote(requirement)}",),
    )


def required_by_name_fix(m: Machine, library: str, first_arm64: str) -> Fix:
    """``library`` requires the distribution named ``tensorflow`` where TensorFlow is Apple's
    ``tensorflow-macos`` (Apple silicon, before ``first_arm64``, the first line whose
    ``tensorflow`` has macOS arm64 wheels): the library installed without its dependencies
    beside it, or TensorFlow moved to a line whose ``tensorflow`` installs there."""
    return Fix(
        f"{library} requires the distribution named tensorflow, which tensorflow-macos does not "
        f"satisfy: install {library} with --no-deps, keeping tensorflow-macos, then the other "
        f"requirements `pip check` still lists for it. Or move to TensorFlow {first_arm64} or "
        "later, whose tensorflow distribution installs on Apple silicon (uninstall "
        "tensorflow-macos first: both write the same tensorflow/ package).",
        (*m.pip(f"install --no-deps {library}"), *m.pip_after_install("check")),
    )


def unrecognised_distribution_fix(
    m: Machine, library: str, dist: Optional[str], version: str = ""
) -> Fix:
    """``library`` (a distribution) reported no TensorFlow beside ``dist``, the TensorFlow
    distribution the log shows installed at ``version`` (None where only TensorFlow's own
    lines show it): a release of the library that knows that name, or TensorFlow under a name
    it knows, of the same line (where the name is not shown, how to read it first)."""
    upgrade = library_upgrade(m, library)
    if dist is not None and normalize_name(dist) not in TRANSFORMERS_TF_CANDIDATES:
        # No release's list has it: only TensorFlow under a listed name is seen. The same
        # line, not the newest TensorFlow (which may bring Keras 3 and another CUDA).
        line = ".".join(map(str, version_key(version)[:2])) if version else ""
        return Fix(
            f"{library} looks TensorFlow up by distribution name, and no {library} release "
            f"lists {dist}: install TensorFlow as the `tensorflow` distribution in its place "
            f"(uninstall {dist} first: both write the same tensorflow/ package).",
            (
                *m.pip(f"uninstall -y {dist}"),
                *m.pip_install(f"tensorflow~={line}.0" if line else "tensorflow"),
            ),
        )
    if dist is None:
        # Which distribution provides `import tensorflow` is not shown: pip's list says, and
        # what to do after depends on it (no command runs a step the listing may rule out).
        return Fix(
            f"List the TensorFlow distribution installed (the command). If it is TensorFlow 2 "
            f"under another name than `tensorflow`, upgrade {library} to a release that looks "
            f"that name up ({' '.join(upgrade)}), or install TensorFlow as `tensorflow` in its "
            f"place (uninstall it first: both write the same tensorflow/ package); a "
            f"TensorFlow 1.x is one {library} refuses for its version: it needs TensorFlow 2.",
            m.pip_look("list", ' 2>/dev/null | grep -i -E "tensorflow|tf-nightly"'),
        )
    alternative = (
        f", or install TensorFlow as the `tensorflow` distribution in place of {dist} "
        f"(uninstall {dist} first: both write the same tensorflow/ package)"
        if normalize_name(dist) != "tensorflow"
        else ""
    )
    return Fix(
        f"TensorFlow is installed as {dist}, a name the installed {library} release does not "
        f"look for: upgrade {library} to a release that recognises it"
        f"{_still_with_tensorflow(library)}{alternative}.",
        (*upgrade, *m.pip(f"show {library}")),
    )


def library_release_fix(
    m: Machine, dist: str, known: bool = True, module: Optional[str] = None
) -> Fix:
    """An installed library (``dist``) whose own code asks TensorFlow or Keras for what the
    installed release lacks: its release for the installed one, or the TensorFlow it was
    written for. ``known``:
    ``dist`` is a distribution's name, not only an import name as pip normalises it (then
    what to upgrade is found first: no command installs a name PyPI may give another).
    ``module``: the import package its file lies in where a namespace root's subpackage
    (``nvidia.dali``), whose root no distribution is named after."""
    if not known:
        # Not a distribution's name: the import package's name as pip normalises it
        # (explain.packages.library_dist), hyphens for its underscores, in lower case. The
        # folder its files lie in, which the last command looks for, is the import name
        # (keras_contrib/): an import name has no hyphen (Python's grammar), so the
        # underscores come back, but not its case (GraphKit/), which the look-up folds.
        folder = module or dist.replace("-", "_")
        asked = (
            "the last command prints it"
            if module
            else f"pip show {dist} shows it where it has that name; the last command prints "
            "it whatever its name"
        )
        return Fix(
            f"The code of {package_named(folder)} does not fit the installed TensorFlow or "
            f"Keras. Find the distribution that installed it ({asked}) and upgrade it to "
            "a release made for them, or install the TensorFlow (and Keras) it was written "
            "for; where it is your own code installed into site-packages, update its imports "
            "and reinstall it.",
            (
                *m.pip(f"show {'' if module else f'{dist} '}tensorflow keras"),
                owner_of_package_command(folder, folded=True),
            ),
        )
    installed = m.facts.package(dist)
    # The release the log shows installed (a listing, an egg's folder), where it shows one.
    release = f" ({installed.version})" if installed is not None and installed.version else ""
    return Fix(
        f"The code of this {dist} release{release} does not fit the installed TensorFlow or "
        f"Keras: upgrade {dist} to a release made for them{_still_with_tensorflow(dist)}. Or "
        f"install the TensorFlow (and Keras) release this {dist} release was written for (its "
        "release notes or requirements say which).",
        (*library_upgrade(m, dist), *m.pip(f"show {dist} tensorflow keras")),
    )


def unshown_caller_fix(
    m: Machine, name: str, tf1: bool = False, pairing: Sequence[str] = ()
) -> Fix:
    """The other candidate for a TensorFlow or Keras name (``name``) the installed release
    lacks, where the traceback shows no frame, so not whose code asked: an installed library
    written for another release. How to tell (the full traceback's paths), then the library's
    release for the installed TensorFlow, or the TensorFlow to pair with it: the last 1.x line
    for TensorFlow 1 API (``tf1``), else ``pairing``, the commands that install a TensorFlow
    that has the name, where the reading of the name gave them."""
    text = (
        f"The traceback shows no frame, so not whose code asks for `{name}`. If the full "
        "traceback's last frames lie in an installed library (a path under site-packages or "
        "dist-packages, an .egg, a library's source checkout) rather than your own files, "
        "that library's release was written for another TensorFlow (or Keras) release than "
        "the installed one: install the library's release made for the installed TensorFlow "
        "(`pip show LIBRARY` names its release; its README, requirements or release notes "
        "pair its releases with TensorFlow's)"
    )
    commands: tuple[str, ...] = m.pip("list")
    last = last_tf1_line(m)
    if tf1 and last is not None:
        # TensorFlow 1 API (moved under tf.compat.v1 or gone with tf.contrib): the library's
        # release of that era runs unchanged on the last 1.x line (as scan's fix for that API says).
        pythons = sorted({p for ps in last.python.values() for p in ps}, key=version_key)
        within = f", in an environment of Python {pythons[0]} to {pythons[-1]}" if pythons else ""
        text += (
            f", or keep that release and run it on TensorFlow {last.line}, the last 1.x line"
            f"{within}."
        )
        release = m.release_of_line(last) if m.python_version else last.latest_patch
        if release is None:
            text += f" TensorFlow {last.line} has no wheel for Python {m.python_version} here."
        else:
            if release != last.latest_patch:
                # Its latest patch has no wheel for this Python, an earlier one does (the
                # matrix's row for that patch): 1.15.0 for Python 2.7.
                text += (
                    f" For Python {m.python_version} that is {release}, the last {last.line} "
                    "release with wheels for it."
                )
            commands += m.pip(f'install "tensorflow=={release}"')
    elif pairing:
        text += ", or install the TensorFlow that has the name, as the commands do."
        commands += tuple(pairing)
    else:
        text += (
            ", or install the TensorFlow (and Keras) release that library's release was "
            "written for (its requirements say which)."
        )
    return Fix(text, commands)


def library_newer_fix(
    m: Machine,
    dist: str,
    tf: Optional[str],
    span: str,
    first: str,
    since: str,
    known: bool = True,
    basis: str = "",
) -> Fix:
    """An installed library (``dist``) whose code asks TensorFlow for a name only the
    releases ``span`` have (in words, the oldest ``first``; ``since``: from when, in words
    that say where no source dates ``first``: :class:`tfdoctor.scan.api.NameReleases`), under
    the older TensorFlow ``tf`` the log shows: the library's release is newer than that
    TensorFlow, and upgrading the library moves it further away. TensorFlow of a line that has
    the name (its install command where the log's Python has that line's wheels, as the matrix
    says), or the library's release for ``tf``. ``known``: ``dist`` is a distribution's name,
    not only an import name (then the fix names "the package that provides" it, as
    :func:`library_release_fix` does). ``tf`` None: the log shows no TensorFlow release,
    ``basis`` says what places it below ``first``, and no line is installed blind."""
    named = dist if known else package_named(dist)
    shown = f"TensorFlow {tf}" if tf else "the installed TensorFlow"
    text = (
        f"The release of {named} is newer than {shown}{basis}: what it asks for is in "
        f"TensorFlow {span} only. Upgrade TensorFlow to one of those lines, {since} (one that "
        "release supports: its requirements or release notes say which), or install the older "
        f"release of {named} made for {shown}."
    )
    # Without a release shown, the line to move to is the user's pick from the words (the
    # first line with the name may be of another major than the code was written for).
    moved = line_install(m, first) if tf else ()
    return Fix(text, (*m.pip(f"show {dist} tensorflow"), *moved))


def line_install(m: Machine, line: str, last: str = "") -> tuple[str, ...]:
    """The command that installs the newest release of ``line`` here, by the distribution
    that line publishes for this machine (``tensorflow-gpu`` ended with 2.11); where the
    Python is known and ``line`` has no wheel for it, the first later line of the same major
    (up to ``last``, where the reading has a newest line) that has one, or a patch of such a
    line the matrix says has one (:meth:`Machine.release_of_line`), else an environment of a
    Python ``line`` has wheels for (for a line older than the matrix's, the newest of those
    lines: its wheels are known)."""
    lines = sorted(m.matrix.lines, key=lambda x: version_key(x.line)) if m.matrix else []
    major = version_key(line)[:1]
    # Another major is another API: code that needs 1.x is not served by a 2.x line.
    later = [
        x
        for x in lines
        if version_key(x.line) >= version_key(line)
        and version_key(x.line)[:1] == major
        and (not last or version_key(x.line)[:2] <= version_key(last)[:2])
        and not x.pre_release
    ]
    fits = [x for x in later if m.line_fits(x, "")]
    if fits:
        return m.pip_install(install_requirement(fits[0], m.target))
    for x in later:
        # No line's latest patch has this Python's wheel: an earlier patch whose own row of
        # the matrix names it (1.15.4 for Python 3.5, whose wheels 1.15.5 lacks).
        release = m.release_of_line(x)
        if release is not None:
            return m.pip_install(install_requirement(x, m.target, release))
    if not m.python_version:
        return m.pip(f'install "tensorflow=={line}.*"')
    # A line older than the matrix's (1.4, from the release notes) stands for the newest of its
    # major the matrix has: the wheels of that one are known.
    asked = next((x for x in lines if x.line == line), None) or (later[-1] if later else None)
    pythons = asked.pythons_on() if asked is not None else ()
    if asked is None or not pythons:
        return m.pip(f'install "tensorflow=={line}.*"')
    install = f'python -m pip install "tensorflow=={asked.line}.*"'
    # This Python has no wheel of the line: an environment of the newest Python it has.
    python, env = pythons[-1], f"tf{asked.line}"
    if m.in_conda:
        return (f"conda create -n {env} python={python}", f"conda activate {env}", install)
    if m.os == "windows":
        # The Python launcher picks the installed Python by version (docs.python.org, "Using
        # Python on Windows").
        return (f"py -{python} -m venv .venv-{env}", rf".venv-{env}\Scripts\activate", install)
    return (f"python{python} -m venv .venv-{env}", f". .venv-{env}/bin/activate", install)


def keyword_release_fix(
    m: Machine, dist: str, api: str, keyword: str, since: str, known: bool = True
) -> Fix:
    """A library's call passing ``keyword`` to TensorFlow's ``api``, which takes it from the
    line ``since`` on (the API table), refused by an older TensorFlow: the library's release
    was written for TensorFlow ``since`` or later. TensorFlow of that line or later, or the
    library's release made for the installed one. ``dist``: the library's distribution ("" where
    the log does not show whose code called; ``known`` as for :func:`library_release_fix`)."""
    who = (
        (dist if known else package_named(dist))
        if dist
        else "the library that made the call (the full traceback's last frame under "
        "site-packages or dist-packages names it)"
    )
    shown = f"TensorFlow {m.tf.version}" if m.tf is not None else "the TensorFlow that refused it"
    text = (
        f"`{api}` takes `{keyword}` from TensorFlow {since} on, and {shown} is older: the "
        f"release of {who} was written for TensorFlow {since} or later. Upgrade TensorFlow to "
        f"{since} or a later line that release supports (its requirements or release notes say "
        f"which), or keep this TensorFlow and install the release of {dist or 'that library'} "
        "made for it."
    )
    listed = m.pip(f"show {dist} tensorflow") if dist else m.pip("list")
    return Fix(text, (*listed, *line_install(m, since)))


def checkout_release_fix(m: Machine, package: str, checkout: str) -> Fix:
    """A library run from a source checkout (``checkout``, the directory holding its import
    package ``package``) whose code does not fit the installed TensorFlow or Keras: the
    checkout moved to a revision made for them, or the TensorFlow it was written for. pip's
    release of the library would not help: the checkout comes first on the path. The
    commands show the installed releases and update a git clone to its branch's newest
    revision (``git -C`` works in the directory given, double-quoted for every shell); a
    folder named as GitHub's branch archive unpacks (:func:`is_branch_archive`) is no clone, and
    git refuses it."""
    pull = () if is_branch_archive(checkout) else (f'git -C "{checkout}" pull',)
    return Fix(
        f"{package} runs from a source checkout ({checkout}), whose code does not fit the "
        "installed TensorFlow or Keras: update the checkout to a revision made for them "
        "(`git pull` in a git clone; a downloaded archive is replaced by a newer one), or "
        "install the TensorFlow (and Keras) release it was written for (its requirements "
        "file or README says which), in a virtual environment of its own.",
        (*m.pip("show tensorflow keras"), *pull),
    )


def tensorflow_install_fix(m: Machine, python: str = "python") -> Fix:
    """Install the newest TensorFlow that fits this machine (with its CUDA libraries where a
    GPU is here and the release has the extra), the rule ``tensorflow.python`` also uses
    (``python``: the interpreter command that ran the code, where a log shows it)."""
    from tfdoctor.compat import install_requirement, newest_fit  # noqa: PLC0415

    if m.facts.python is None or m.platform is None:
        # The interpreter and its platform unseen (a pasted log: its CPU is never read): no
        # release "fits" a machine unseen, and the commonest reason TensorFlow is missing after
        # an install is that another interpreter ran than the one pip installed into (a bare
        # `pip` of another Python than `python3`).
        return Fix(
            f"Install TensorFlow with the pip of the Python that ran the code (`{python} -m "
            f"pip`, with that same `{python}`). If it was installed already, that went into "
            "another interpreter: compare the one that runs (sys.executable) with the one pip "
            "installs into (`pip -V`); in a conda environment, `conda activate` it first; in a "
            "notebook or IDE, pick the kernel or interpreter of that environment.",
            (
                f'{python} -c "import sys; print(sys.executable)"',
                f"{python} -m pip -V",
                f"{python} -m pip install tensorflow",
            ),
        )
    if m.facts.python.bits != 64:
        # TensorFlow's wheels are 64-bit only: pip of this interpreter finds none, whatever
        # the release (the matrix's targets are 64-bit), so the install goes to a 64-bit one.
        return python_64bit_fix(m)
    verdict = newest_fit(m.matrix, m.target) if m.matrix is not None else None
    if verdict is None:
        fix = install_fix(m, "Install TensorFlow into this environment.", "tensorflow")
    else:
        fix = _companions_keep(m, verdict) or install_fix(
            m,
            f"Install TensorFlow {verdict.line.latest_patch}, the newest that fits this machine.",
            install_requirement(verdict.line, m.target),
        )
    if m.conda_outside is None:
        return fix
    # conda is installed (its condabin on PATH) and this interpreter is none of its
    # environments: a TensorFlow installed into one is there, not here.
    return Fix(
        f"conda is installed ({m.conda_outside} is on PATH), but this Python is not one of "
        "its environments: if TensorFlow was installed into a conda environment, activate it "
        "(`conda activate NAME`; `conda env list` lists them) and run its python. Otherwise: "
        + fix.text,
        ("conda env list", *fix.commands),
    )


def _keras_moves_tensorflow(
    m: Machine, comp: PackageFacts, target: str, spec: str, own: str
) -> Optional[Fix]:
    """A companion's Keras range (``spec`` on ``target``, keras or tf-keras) that no release
    in TensorFlow's own range (``own``) meets: a companion requiring Keras 3 (keras>=3.5)
    under a TensorFlow whose wheel requires the Keras of its line (keras<2.16,>=2.15.0 on
    2.15; the 2.16 wheel requires keras>=3.0.0: the matrix's pins, from wheel metadata). pip
    finds no Keras for both; the newest TensorFlow that fits this machine and whose declared
    range meets the companion's is the move, the companion's release made for this
    TensorFlow's Keras the other. None where a Keras meets both, or no line does."""
    if joint_range((spec, own)) is not None or m.matrix is None or m.tf is None:
        return None
    field = "tf_keras" if target == "tf-keras" else "keras"

    def meets(verdict: Verdict) -> Optional[str]:
        pinned = getattr(verdict.line.pins, field, None)
        if not isinstance(pinned, str):
            return None
        return joint_range((spec, pinned.removeprefix("tf-keras")))

    fits = best_of([v for v in verdicts(m.matrix, m.target) if meets(v) is not None])
    joint = meets(fits) if fits is not None else None
    if fits is None or joint is None:
        return None
    return install_fix(
        m,
        f"{comp.name} {comp.version} requires {target}{spec}, and TensorFlow {m.tf.version} "
        f"requires {target}{own}: no {target} release meets both, so pip finds none. Install "
        f"TensorFlow {fits.line.latest_patch}, the newest that fits this machine and whose "
        f"{target} range meets {comp.name}'s, with that {target}; or keep TensorFlow "
        f"{m.tf.version} and install the {comp.name} release made for its Keras.",
        install_requirement(fits.line, m.target),
        f"{target}{joint}",
    )


def _companions_keep(m: Machine, newest: Verdict) -> Optional[Fix]:
    """Where installed companions need another TensorFlow than the newest that fits this
    machine (TensorFlow Addons 0.23.0 declares tensorflow<2.16.0,>=2.13.0; a release of
    tensorflow-probability imports under the TensorFlow its row names), the newest release
    that fits both (a line's earlier patch where a companion pins one: tensorflow-decision-
    forests 1.10.0, tensorflow==2.17.0), so that installing TensorFlow does not leave them
    built for another one. None where the newest fits them all, or none is wanted."""
    wanted = m.tensorflow_wanted
    if not wanted:
        return None
    assert m.matrix is not None  # newest came from it
    matrix = m.matrix

    def kept(verdict: Verdict) -> Optional[str]:
        """The newest release of the verdict's line that every wanted range admits."""
        line = verdict.line
        tried = (line.latest_patch,) if line.pre_release else line_releases(matrix, line)[::-1]
        return next((v for v in tried if all(spec_contains(v, s) for _, s in wanted)), None)

    latest = newest.line.latest_patch
    if kept(newest) == latest:
        return None
    # Named: those the newest would leave behind.
    names = ", ".join(
        dict.fromkeys(
            f"{p.name} {p.version} (tensorflow{s})"
            for p, s in wanted
            if not spec_contains(latest, s)
        )
    )
    both = best_of([v for v in verdicts(matrix, m.target) if kept(v) is not None])
    release = kept(both) if both is not None else None
    if both is None or release is None:
        return install_fix(
            m,
            f"Install TensorFlow {latest}, the newest that fits this machine; no release of "
            "the lines that fit it also fits what the installed companions need: "
            f"{names}. Install their releases for that TensorFlow after it (`tfdoctor check` "
            "names them).",
            install_requirement(newest.line, m.target),
        )
    return install_fix(
        m,
        f"Install TensorFlow {release}, the newest that fits this machine and what the "
        f"installed companions need: {names}. The newest for the machine alone, {latest}, "
        "would leave them built for another TensorFlow.",
        install_requirement(both.line, m.target, release),
    )


def incomplete_install_fix(m: Machine) -> Fix:
    """Every TensorFlow distribution out, one back in (files rewritten from the wheel); by
    the installer that wrote TensorFlow where it is not pip (:func:`reinstall_by_installer`)."""
    other = reinstall_by_installer(m, "so that its files are written whole")
    if other is not None:
        return other
    return reinstall_tf_fix(
        m,
        "Remove every TensorFlow distribution and install one again, so that its files are "
        "written whole (on Windows, with long paths enabled where pip reported a path it "
        "could not write).",
    )


#: What each installer other than pip does to write TensorFlow's files again, and how:
#: conda's ``install --force-reinstall`` (https://docs.conda.io/projects/conda/en/stable/
#: commands/install.html), the package manager of a Debian package (dpkg -S names the package
#: that owns a file; apt-get's ``install --reinstall``, apt-get(8)), and a source build's wheel
#: built again (TensorFlow's "Build from source": the build_pip_package target up to 2.16, the
#: ``wheel`` target after, https://www.tensorflow.org/install/source).
def reinstall_by_installer(m: Machine, why: str, clear: bool = False) -> Optional[Fix]:
    """TensorFlow installed again by the installer that wrote it (:attr:`Machine.tf_installer`:
    conda, a Debian package, a source build), ``why`` saying what for; None for pip's, whose
    fix is the caller's. pip over another installer's files mixes two installs in one
    folder. ``clear``: files that no package lists (another release's) are in TensorFlow's
    folder; a reinstall writes only the files its package lists, so the folder is deleted
    first (:data:`TF_FOLDER_COMMAND` prints it)."""
    fix = _reinstall_by_installer(m, why)
    if fix is None or not clear:
        return fix
    return Fix(
        "Files that no package lists stay through a reinstall: first delete the tensorflow "
        "directory the find_spec command prints, then write it again. " + fix.text,
        (TF_FOLDER_COMMAND, *fix.commands),
    )


def _reinstall_by_installer(m: Machine, why: str) -> Optional[Fix]:
    """:func:`reinstall_by_installer`'s fix, the folder left as it is."""
    tf = m.tf
    installer = m.tf_installer
    if installer == "conda":
        pkg = m.conda_tensorflow
        version = pkg.version if pkg is not None else (tf.version if tf is not None else "")
        # Both channels put the files in tensorflow-base, the tensorflow package being its
        # metapackage: a forced reinstall rewrites only the packages it names.
        names = dict.fromkeys((pkg.name if pkg is not None else "tensorflow", "tensorflow-base"))
        # Unpinned, a forced reinstall is a solve like any other, free to take a newer release
        # or build (conda/conda issue 14372): the release installed is named, or asked of
        # conda list where neither the facts nor the log give it.
        if m.installer == "pixi":
            # A pixi workspace's environment is its lock's: pixi reinstall writes the releases
            # the lock records again (pixi's CLI reference, "pixi reinstall", 0.43.0), so no
            # release is named and conda's listing is not asked.
            return Fix(
                "TensorFlow came from a conda channel into this pixi workspace: reinstall its "
                f"packages with pixi, {why} (pip would write PyPI's files over the conda "
                "package).",
                m.conda_install(*names, options=("--force-reinstall",)),
            )
        specs = [f'"{n}={version or "VERSION"}"' for n in names]
        text = (
            f"TensorFlow came from a conda channel: install the same packages again with conda, "
            f"{why} (pip would write PyPI's files over conda's package)."
        )
        if version:
            return Fix(text, m.conda_install(*specs, options=("--force-reinstall",)))
        return Fix(
            f"{text} VERSION is the release `conda list tensorflow` shows installed, so that "
            "conda writes that one again rather than a newer one.",
            ("conda list tensorflow", *m.conda_install(*specs, options=("--force-reinstall",))),
        )
    if installer == "distro":
        return Fix(
            "TensorFlow lies in /usr/lib/python3/dist-packages, the folder of the system's own "
            f"packages: reinstall the package that owns it with the system's package manager, "
            f"{why} (dpkg -S names it).",
            (
                "dpkg -S /usr/lib/python3/dist-packages/tensorflow",
                "sudo apt-get install --reinstall PACKAGE  # the package dpkg -S names",
            ),
        )
    if installer == "source":
        return Fix(
            "TensorFlow was built from source (its files lie in Bazel's output tree): build "
            f"the wheel again from that tree and install it over the one there, {why} (the "
            "target is build_pip_package up to TensorFlow 2.16, `wheel` after it).",
            (
                "bazel build //tensorflow/tools/pip_package:build_pip_package",
                "./bazel-bin/tensorflow/tools/pip_package/build_pip_package /tmp/tensorflow_pkg",
                *m.pip("install --force-reinstall --no-deps /tmp/tensorflow_pkg/tensorflow-*.whl"),
            ),
        )
    return None


def tf_leftover_fix(m: Machine, site_packages: Optional[str], leftover: Optional[str]) -> Fix:
    """Delete the ``~``-prefixed folders an interrupted uninstall of TensorFlow left in
    ``site_packages`` (named from pip's ``leftover``: ``-ensorflow-gpu`` is tensorflow-gpu's),
    then write the installed TensorFlow's files again over what is there."""
    # pip renames a directory it is removing with a leading '~' in place of its first letter
    # (pip/_internal/req/req_uninstall.py, AdjacentTempDirectory) and lists the renamed
    # .dist-info with '-' or '~': the package folder is ~ensorflow whichever distribution it
    # was, the metadata ~ensorflow_gpu-X.Y.Z.dist-info or ~f_nightly-... .
    named = leftover[1:] if leftover and leftover[0] in "-~" else "ensorflow"
    dist = "t" + named
    stems = ("~ensorflow",) + (("~f_nightly",) if named.startswith("f-nightly") else ())
    if site_packages is None:
        where = "the environment's site-packages directory (the first command prints it)"
        clean: tuple[str, ...] = (
            "python -c \"import sysconfig; print(sysconfig.get_path('purelib'))\"",
        )
    elif "\\" in site_packages or m.os == "windows":
        where = site_packages
        clean = tuple(f'Remove-Item -Recurse -Force "{site_packages}\\{x}*"' for x in stems)
    else:
        where = site_packages
        clean = tuple(f"rm -rf {shlex_quote(site_packages)}/{x}*" for x in stems)
    keep = m.tf
    # Where the installed `tensorflow` is a wrapper (the line's `wrappers`: tensorflow-intel on
    # Windows), the files are its platform build's: --no-deps rewrites only what is named.
    # The platform is the machine's, or the one its OS has only (Windows: x86-64).
    line = m.matrix.line_for(keep.version) if keep and m.matrix is not None else None
    of_os = [plat for plat, os_name in PLATFORMS.items() if os_name == m.os]
    here = m.platform or (of_os[0] if len(of_os) == 1 else None)
    inner = sorted(
        {
            build
            for plat, build in (line.wrappers.items() if line is not None else ())
            if build != keep.name and (build == dist or plat == here)
        }
        if keep
        else ()
    )
    again = (
        m.pip(
            "install --force-reinstall --no-deps "
            + " ".join(f'"{name}=={keep.version}"' for name in (keep.name, *inner))
        )
        if keep
        else ()
    )
    return Fix(
        f"An uninstall or upgrade of {dist} stopped half way: pip renamed its folders in {where} "
        "with a leading '~' in place of their first letter and never deleted them, and the "
        "TensorFlow installed beside them may lack files. Delete the folders whose names start "
        f"with {' or '.join(f'`{x}`' for x in stems)}, then install the TensorFlow that is "
        "there again over its files"
        + (
            ""
            if keep
            else " (`pip install --force-reinstall --no-deps tensorflow==VERSION`, with the "
            "distribution and VERSION `pip show` prints; on Windows from 2.11 the "
            "tensorflow-intel of that VERSION too)"
        )
        + ".",
        (*clean, *m.pip("show tensorflow"), *again),
    )


#: The folder of the package ``tensorflow`` (find_spec locates it without running its broken
#: ``__init__``).
TF_FOLDER_COMMAND = (
    'python -c "import importlib.util; '
    "print(importlib.util.find_spec('tensorflow').submodule_search_locations)\""
)


def stale_files_fix(m: Machine) -> Fix:
    """Every TensorFlow distribution out, the directory they leave behind deleted, one back in:
    files of another release that pip's uninstall does not list stay until deleted."""
    other = reinstall_by_installer(m, "so that files of one release only are there", clear=True)
    if other is not None:
        return other
    keep = m.tf
    names = " ".join(p.name for p in m.tf_providers) or (keep.name if keep else "tensorflow")
    spec = f"{keep.name}=={keep.version}" if keep else "tensorflow"
    return Fix(
        "Files of two TensorFlow releases share one installation (an install over another "
        "release, or two TensorFlow distributions in one site-packages): uninstall every "
        "TensorFlow distribution, delete the tensorflow directory left behind (the find_spec "
        "command prints it, if one is), then install one release; or create a new virtual "
        "environment.",
        (*m.pip(f"uninstall -y {names}"), TF_FOLDER_COMMAND, *m.pip_install(spec)),
    )


def own_symbol_fix(m: Machine, library: str, symbol: str, macos: bool) -> Fix:
    """TensorFlow's own extension ``library`` needs ``symbol`` of TensorFlow's namespaces,
    which the framework library the loader gave it does not define: the wheel builds the two
    together, so they are of two releases. Either an older framework library is found first
    (the loader takes LD_LIBRARY_PATH, or DYLD_LIBRARY_PATH, before the wheel's own run-path:
    a libtensorflow C library's libtensorflow_framework there) or the package folder holds
    files of two releases. ``macos``: dyld's words (its variable, its own line naming the
    file)."""
    stale = stale_files_fix(m)
    name = library.replace(chr(92), "/").rsplit("/", 1)[-1]
    if macos:
        # otool -L prints the install names the file records (@rpath/...), not the file dyld
        # takes; dyld's error names that file on its "Expected in:" line (dyld 3 and 4; dyld
        # 2 wrote it too), where the symbol was looked up in one library.
        shown = (
            'dyld\'s "Expected in:" line below the error, where it prints one, names the '
            "libtensorflow_framework it gave it"
        )
        commands: tuple[str, ...] = ("echo $DYLD_LIBRARY_PATH", *stale.commands)
        path_var, listed = "DYLD_LIBRARY_PATH", "the first command"
    else:
        shown = "The first command shows which libtensorflow_framework the loader gives it"
        commands = (f"ldd {shlex_quote(library)}", "echo $LD_LIBRARY_PATH", *stale.commands)
        path_var, listed = "LD_LIBRARY_PATH", "the second command"
    return Fix(
        f"TensorFlow's own {name} needs {symbol}, which the framework library the loader gave "
        "it does not define: the wheel builds the two together, so they are of two releases. "
        f"{shown}: one in a folder {listed} lists comes from {path_var} (a libtensorflow C "
        "library's folder): take that folder off it. Otherwise: " + stale.text,
        commands,
    )


def reinstall_tf_fix(m: Machine, text: str) -> Fix:
    """Remove every TensorFlow distribution, then install the one wanted."""
    keep = m.tf
    names = " ".join(p.name for p in m.tf_providers) or (keep.name if keep else "tensorflow")
    spec = f"{keep.name}=={keep.version}" if keep else "tensorflow"
    return Fix(text, (*m.pip(f"uninstall -y {names}"), *m.pip_install(spec)))


#: Names of google.protobuf that generated code uses, and the first release with each: the
#: descriptors' keyword arguments `syntax` (protoc 3 gencode; 2.6.1's descriptor.py has none,
#: 3.0.0's has it) and `serialized_options` (3.6.0's descriptor.py has it, 3.5.1's none),
#: `descriptor._internal_create_key` (protoc 3.12 gencode passes it as `create_key=`; 3.11's
#: python/google/protobuf/descriptor.py has none, 3.12.0's has it), `internal.builder`
#: (protoc 3.20 gencode, https://github.com/protocolbuffers/protobuf/issues/9778) and
#: `runtime_version` (protoc 27 gencode, protobuf 5.27 for Python, checks the runtime with it:
#: python/google/protobuf/runtime_version.py is first in the v27.0 tag, absent from v26.1;
#: https://protobuf.dev/support/cross-version-runtime-guarantee/).
PROTOBUF_GENCODE_MODULES = {
    "syntax": "3.0",
    "serialized_options": "3.6",
    "_internal_create_key": "3.12",
    "builder": "3.20",
    "runtime_version": "5.27",
}

#: Methods of protobuf's repeated message fields that code calls, and the first release with
#: each: ``append`` and ``insert`` (v3.7.1's python/google/protobuf/pyext/
#: repeated_composite_container.cc gives add, extend, pop, remove, sort and MergeFrom, and
#: internal/containers.py's RepeatedCompositeFieldContainer the same; v3.8.0's both add
#: append and insert, from protocolbuffers/protobuf@d8c2501, whose first tag is v3.8.0).
PROTOBUF_CONTAINER_METHODS = {"append": "3.8", "insert": "3.8"}


class ProtobufRemoval(NamedTuple):
    """A name a protobuf release removed: that release, and who uses the name, code protoc
    generated (generated again with a current protoc, it no longer asks for it) or a
    library's own code (only a release of that library written for the newer protobuf no
    longer calls it)."""

    release: str
    generated: bool


#: Names of google.protobuf that a release removed: `service`, the generic RPC interfaces
#: code generated with py_generic_services imports (python/google/protobuf/service.py is in
#: the v29.0 tag, protobuf 5.29 for Python, and gone from v30.0, 6.30: "Breaking Change:
#: Remove deprecated Python RPC Service Interfaces"); and `GetPrototype`, the message
#: factory's method older libraries call, no generated code (v29.0's
#: python/google/protobuf/message_factory.py keeps it with a warning that MessageFactory
#: "will be removed after 2024"; https://protobuf.dev/news/v30/ lists the removal).
PROTOBUF_REMOVED = {
    "service": ProtobufRemoval("6.30", generated=True),
    "GetPrototype": ProtobufRemoval("6.30", generated=False),
}


def protobuf_removed_fix(m: Machine, name: str) -> Fix:
    """The code uses ``name``, which a protobuf release removed (PROTOBUF_REMOVED): the
    installed runtime is newer than the code. A protobuf before that release inside
    TensorFlow's own range, where the range admits one; else the code generated again (a
    name generated code imports) or the library that calls it upgraded (a library's call)."""
    removal = PROTOBUF_REMOVED[name]
    removed = removal.release
    if removal.generated:
        who = "the code (generated by an older protoc) imports"
        remedy = "generate it again with a current protoc"
        otherwise = "generate the code again"
    else:
        who = "a library written for an older protobuf calls (the traceback's frame names it)"
        remedy = f"upgrade the library that calls it to a release written for protobuf {removed}"
        otherwise = "upgrade the library that calls it"
    text = (
        f"protobuf {removed} removed `{name}`, which {who}: {remedy}, or install a protobuf "
        f"older than {removed}"
    )
    declared = m.declared_range("protobuf")
    if declared is not None and not admits_below(declared, removed):
        return Fix(
            f"{text}. TensorFlow's own range ({declared}) starts at {removed} or later: no "
            f"protobuf serves both, so {otherwise}.",
            m.pip("show protobuf tensorflow"),
        )
    within = " inside TensorFlow's range" if declared else ""
    return install_fix(
        m, f"{text}{within}.", f"protobuf<{removed}" + (f",{declared}" if declared else "")
    )


def _admits_from(spec: str, floor: str) -> bool:
    """Whether ``spec`` admits some release at ``floor`` or later: each upper bound
    (``<X``, ``<=X``) lies above it."""
    bound = version_key(floor)
    for clause in spec.split(","):
        match = re.match(r"\s*(<=?)\s*(\d+(?:\.\d+)*)", clause)
        if match is None:
            continue
        top = version_key(match.group(2))
        if top < bound or (top == bound and match.group(1) == "<"):
            return False
    return True


#: The first NumPy with the ``numpy._core`` package NumPy 2 moved its core into: 1.26.1 ships
#: stubs of it (numpy/_core/ in the v1.26.1 tag, absent from v1.26.0), so that what NumPy 2
#: pickled (``numpy._core.multiarray._reconstruct``) loads under NumPy 1 too.
NUMPY_CORE_STUBS_FROM: Final = "1.26.1"
#: The oldest Python NumPy 1.26.1 installs on (its pyproject.toml's requires-python,
#: ">=3.9,<3.13", in the v1.26.1 tag): an older Python has no NumPy with numpy._core.
NUMPY_CORE_STUBS_PYTHON: Final = "3.9"


def numpy_core_module_fix(m: Machine) -> Fix:
    """``No module named 'numpy._core'``: something written under NumPy 2 (a pickled array, a
    saved model's pickle, code importing ``numpy._core``) read by a NumPy before 1.26.1. The
    floor joins TensorFlow's own range, never an unbounded upgrade that would bring NumPy 2
    under a TensorFlow built for NumPy 1."""
    floor = NUMPY_CORE_STUBS_FROM
    intro = (
        "What failed was written under NumPy 2 (a pickled array or object refers to "
        "numpy._core, the package NumPy 2 moved its core into), and the installed NumPy is "
        f"older than {floor}, the first with numpy._core."
    )
    python = m.python_version
    if python and version_key(python)[:2] < version_key(NUMPY_CORE_STUBS_PYTHON)[:2]:
        return Fix(
            f"{intro} NumPy {floor} needs Python {NUMPY_CORE_STUBS_PYTHON} or later, and this "
            f"is Python {python}: write the file again where NumPy 1 is installed (or, where it "
            "was written, in a form that pickles no NumPy objects: np.save of plain numeric "
            f"arrays), or read it with Python {NUMPY_CORE_STUBS_PYTHON} or later.",
            m.pip("show numpy"),
        )
    declared = m.numpy_runs_with()
    if declared is not None and _admits_from(declared, floor):
        return install_fix(
            m,
            f"{intro} Upgrade NumPy to {floor} or later inside TensorFlow's range "
            f"({declared}), which reads it.",
            f"numpy>={floor},{declared}",
        )
    if declared is not None:
        return Fix(
            f"{intro} TensorFlow's own range ({declared}) stops below {floor}: write the "
            "file again where NumPy 1 is installed (or, where it was written, in a form that "
            "pickles no NumPy objects: np.save of plain numeric arrays), or move to a "
            f"TensorFlow whose range admits NumPy {floor} or later.",
            m.pip("show tensorflow numpy"),
        )
    return Fix(
        f"{intro} Upgrade NumPy to {floor} or later, and before 2.0 unless the TensorFlow "
        "here supports NumPy 2 (`pip show tensorflow` shows its release; 2.18 and later "
        f"declare NumPy 2); where TensorFlow's range stops below {floor}, write the file again "
        "where NumPy 1 is installed instead.",
        (*m.pip("show tensorflow numpy"), *m.install(f"numpy>={floor},<2")),
    )


def protobuf_breaks_generated_code(version: str, spec: str) -> bool:
    """protobuf 4.21+ refuses code generated by protoc older than 3.19 ("Descriptors cannot
    be created directly"; https://protobuf.dev/news/2022-05-06/): a TensorFlow that caps
    protobuf below 4 was generated so, and its import fails under such a runtime."""
    if version_key(version)[:2] < (4, 21):
        return False
    bound = _cap(spec)
    return bound is not None and bound <= (4, 0, 0)


def _cap(spec: str) -> Optional[tuple[int, ...]]:
    """The upper bound of ``spec`` (``<3.20``, ``<5.0.0dev``), three parts long; None where it
    has none."""
    part = _upper_part(spec)
    if part is None:
        return None
    bound = version_key(part.lstrip("<=").split("dev")[0].rstrip("."))
    return (*bound, 0, 0, 0)[:3]


def _upper_part(spec: str) -> Optional[str]:
    """The upper bound of ``spec`` as written (``<3.20``); None where it has none."""
    return next((p.strip() for p in spec.split(",") if p.strip().startswith("<")), None)


def protobuf_above_cap_loads(version: str, spec: str) -> bool:
    """``version`` is above the cap of ``spec`` but of a major the range admits and short of
    the runtime that refuses old generated code (:func:`protobuf_breaks_generated_code`):
    protobuf loads code generated by older protoc releases of its major, so only pip's
    notice is left (3.20.3 under ``<3.20``). A major the range excludes (5 under
    ``<5.0.0dev``) is not judged safe."""
    bound = _cap(spec)
    if bound is None or not above_range(version, spec):
        return False
    admitted = bound[0] if bound[1:] != (0, 0) else bound[0] - 1
    return version_key(version)[0] <= admitted and not protobuf_breaks_generated_code(version, spec)


def protobuf_runtime_fix(required: str, loaded: str) -> Fix:
    """Two C++ protobuf runtimes in one process: the older one, loaded first by a library
    imported before TensorFlow, serves TensorFlow's code built for the newer."""
    return Fix(
        f"TensorFlow's code was built for protobuf {required}, and the process had already "
        f"loaded protobuf {loaded}'s C++ runtime, brought by a library imported before "
        "TensorFlow (one process keeps the first libprotobuf it loads). Import tensorflow "
        "before the other libraries, or upgrade (or leave out) the library that brings the "
        "older runtime; `pip list` does not show it, as it is compiled into that library. "
        "In a conda environment, TensorFlow may link conda's shared libprotobuf instead: "
        "`conda list libprotobuf` shows it, and it must be the version TensorFlow was built "
        f"for ({required}).",
    )


def protobuf_clash_fix(
    m: Machine, proto: Optional[str], imported_before: Sequence[str] = ()
) -> Fix:
    """Generated code of one .proto (or of two protobuf releases) in two native libraries of one
    process: protobuf's C++ descriptor database holds each file once (descriptor_database.cc),
    so the second library to load aborts. No protobuf from pip changes it (the copies are
    compiled into the libraries): the releases built together, or separate processes."""
    from tfdoctor.modules import distribution_of  # noqa: PLC0415 - the module table, on demand

    owner = distribution_of(proto.split("/", 1)[0]) if proto else None
    what = f"{proto} (of {owner})" if proto and owner else (proto or "a generated .proto file")
    ahead = (
        f" The log shows {', '.join(imported_before)} imported before TensorFlow."
        if imported_before
        else ""
    )
    tf = m.tf
    made_for = f" (TensorFlow {tf.version} here)" if tf is not None and tf.version else ""
    return Fix(
        f"protobuf's C++ runtime refused to register {what} a second time (or descriptor data "
        "written by another protobuf release): two native libraries loaded into this process "
        "each carry protoc's generated code for it, built apart. Usually one is TensorFlow's "
        "and the other a package with its own copy of TensorFlow's or XLA's protos, or of "
        "protobuf: another framework (jaxlib, onnx, PyTorch, a Flink or Spark runtime) or an "
        "extension, custom op or companion built for another TensorFlow release. Install the "
        "release of that package built for the installed TensorFlow"
        f"{made_for}, or the TensorFlow release it was built for; where both are needed at "
        "once and no such pair exists, run them in separate processes. `pip install protobuf` "
        f"does not change it: the copies are compiled into the libraries.{ahead}",
        m.pip("list"),
    )


def protobuf_runtime_newer_fix(m: Machine, compiled: str, loaded: str) -> Fix:
    """Two C++ protobuf runtimes in one process, the other way round: the newer one, loaded
    first, serves code compiled against older headers than it accepts (VerifyVersion's
    "compiled against version X ... not compatible with the installed version (Y)"). conda's
    listing only where the interpreter is a conda environment's."""
    conda = ("conda list libprotobuf",) if m.in_conda else ()
    return Fix(
        f"The code whose version check failed (the file the message names at its end) was "
        f"compiled against protobuf {compiled}, and the process had already loaded protobuf "
        f"{loaded}'s C++ runtime, which no longer accepts code built so old (one process keeps "
        "the first libprotobuf it loads). Where the file is TensorFlow's, another library "
        "imported before it brought the newer runtime: import tensorflow first, or install the "
        "release of that library built for the same protobuf as TensorFlow. Where the file is "
        "another library's, that library is older than the TensorFlow beside it: upgrade it "
        "to a release built for TensorFlow's protobuf. In a conda environment a shared "
        "libprotobuf may be loaded instead (`conda list libprotobuf` shows which one is "
        "installed).",
        (*conda, *m.pip("list")),
    )


#: The distribution that ships the generated code of Google's common .proto trees (each
#: generated module sits beside its .proto's path: google/rpc/status_pb2.py); other trees are
#: named by their package (tensorflow/, tensorboard/) through the module table.
_GOOGLE_PROTOS = ("google/rpc/", "google/api/", "google/type/", "google/longrunning/")


def protobuf_gencode_fix(
    m: Machine, gencode: Optional[str], runtime: Optional[str], proto: Optional[str]
) -> Fix:
    """Generated code newer than the protobuf runtime (protobuf 5.27's check): a runtime as
    new as the code where TensorFlow's range admits it, else the release of the package that
    ships the code generated by a protobuf no newer than the runtime."""
    from tfdoctor.modules import distribution_of  # noqa: PLC0415 - the module table, on demand

    top = proto.split("/", 1)[0] if proto else ""
    owner = (
        "googleapis-common-protos"
        if proto and proto.startswith(_GOOGLE_PROTOS)
        else distribution_of(top)
        if top
        else None
    )
    shipped = f"{owner} (it ships {proto})" if owner and proto else (proto or "a package")
    made = f" by protobuf {gencode}" if gencode else ""
    installed = f"protobuf {runtime}" if runtime else "the installed protobuf"
    intro = (
        f"The code of {shipped} was generated{made}, and {installed} is older: a runtime "
        "loads only code generated by its own protobuf or an older one."
    )
    tf_range = m.declared_range("protobuf")
    older = f"protobuf {runtime} or older" if runtime else "the installed protobuf"
    who = owner or "that package"
    downgrade = f"install the release of {who} generated by {older} (a release before this one)"
    looks = (
        (*m.list_releases(owner), *m.pip(f"show protobuf {owner} tensorflow"))
        if owner
        else m.pip("show protobuf tensorflow")
    )
    if gencode and tf_range and spec_contains(gencode, tf_range):
        return Fix(
            f"{intro} Upgrade protobuf to {gencode} or newer (TensorFlow's range admits it).",
            m.install(f"protobuf>={gencode},{tf_range.lstrip(',')}"),
        )
    if tf_range:
        return Fix(
            f"{intro} TensorFlow's range (protobuf{tf_range}) holds the runtime below it: "
            f"{downgrade}.",
            looks,
        )
    return Fix(
        f"{intro} Where TensorFlow's protobuf range admits {gencode or 'that protobuf'} "
        "(`pip show tensorflow` lists its requirements), "
        f"upgrade protobuf to it; otherwise {downgrade}.",
        looks,
    )


def protobuf_fix(m: Machine, too_old: bool = False, missing: str = "builder") -> Fix:
    """TensorFlow's declared protobuf range; without it, away from the side that failed.

    ``too_old``: the runtime lacks ``missing`` (a module generated code imports, see
    PROTOBUF_GENCODE_MODULES, or a method of its repeated message fields,
    PROTOBUF_CONTAINER_METHODS); an upper bound would leave such a protobuf in place.
    """
    if too_old:
        method = PROTOBUF_CONTAINER_METHODS.get(missing)
        floor = method or PROTOBUF_GENCODE_MODULES.get(missing)
        if floor is None:
            return range_fix(m, "protobuf") or install_fix(
                m,
                f"Upgrade protobuf: the code uses `{missing}`, which the installed runtime lacks.",
                "protobuf",
            )
        # The floor and TensorFlow's own range in one specifier: an upgrade past TensorFlow's
        # upper bound would fix the generated code and break TensorFlow.
        declared = m.declared_range("protobuf")
        shared = declared is None or _admits_from(declared, floor)
        text = (
            f"Upgrade protobuf to {floor} or newer: the code calls `{missing}` on a repeated "
            "message field, which older releases' containers lack."
            if method
            else f"Upgrade protobuf to {floor} or newer: the generated code uses `{missing}`, "
            "which older runtimes lack."
        )
        if not shared:
            # No command installs the floor: it would leave TensorFlow's own range.
            text += (
                f" TensorFlow's own range ({declared}) stops below {floor}: no protobuf serves "
                "both; "
                + (
                    "move TensorFlow, or use the code's release written for that protobuf."
                    if method
                    else "regenerate that code with an older protoc, or move TensorFlow."
                )
            )
            return Fix(text, m.pip("show protobuf tensorflow"))
        return install_fix(m, text, f"protobuf>={floor}" + (f",{declared}" if declared else ""))
    return range_fix(m, "protobuf") or _old_gencode_fix(m)


def _old_gencode_fix(m: Machine) -> Fix:
    """A runtime newer than the generated code where TensorFlow's range does not answer (its
    release not shown, or the installed protobuf inside that range): below the cap the
    TensorFlow lines whose generated code protobuf 4.21 refuses declare (:func:`old_gencode_cap`),
    inside TensorFlow's own range where the log shows it. protobuf's message also names the
    pure-Python implementation (https://protobuf.dev/news/2022-05-06/#python-updates): a
    workaround that runs every message slower, left out of the fix as the project's own cases
    ask (tests/data/real_failures, the protobuf cases' fix_excludes)."""
    found = old_gencode_cap(m)
    if found is None:
        return Fix(
            "Install the protobuf release TensorFlow's range admits below the runtime that "
            "refused the generated code (`pip show tensorflow` lists its requirements).",
            m.pip("show tensorflow protobuf"),
        )
    bound, lines, admitted = found
    stated = (
        f"TensorFlow {lines} declare protobuf{bound}"
        if " " in lines
        else f"TensorFlow {lines} declares protobuf{bound}"
    )
    declared = m.declared_range("protobuf")
    joint = joint_range((bound, declared)) if declared is not None else bound
    if joint is None:
        # TensorFlow's range admits the installed runtime and nothing below the cap: its own
        # code loads under it, so the refused code is another package's, older than it.
        return Fix(
            f"TensorFlow's range (protobuf{declared}) admits the installed protobuf and no "
            f"release below {bound[1:]}: the generated code that failed is another package's, "
            "made for an older protobuf. Install that package's release made for this "
            "TensorFlow (`pip check` names the range each installed package declares).",
            m.pip("check"),
        )
    text = (
        f"Install a protobuf older than {bound[1:]}: {stated}"
        + (", and the lines before them admit it too" if admitted else "")
        + "."
    )
    return install_fix(m, text, f"protobuf{joint}")


def old_gencode_cap(m: Machine) -> Optional[tuple[str, str, bool]]:
    """The lowest protobuf cap (``<3.20``) among the TensorFlow lines whose generated code
    protobuf 4.21's runtime refuses (those capping protobuf below 4, as
    :func:`protobuf_breaks_generated_code` reads them), with those lines in words (``2.6 to
    2.11``), and whether every older line's range admits a release below it too; None where
    the matrix has none. Read from the lines' declared ranges (the matrix's ``pins``), so that
    pip installs a release every such line admits: a cap above one of theirs (3.20.3 under
    ``<3.20``) leaves TensorFlow's range. Only the lines with wheels for the log's Python
    count (every line where it shows none): TensorFlow 2.12 on, the only lines for Python
    3.11 and later, declare ``>=3.20.3``, which a cap below it would leave."""
    if m.matrix is None:
        return None
    # On any platform: tensorflow-macos, the arm64 Mac's package before tensorflow's own
    # arm64 wheels (2.13), declares its line's range too.
    here = [x for x in m.matrix.lines if x.has_wheels_for(m.python_version)]
    capped: list[tuple[tuple[int, ...], str, TFLine]] = []
    for line in here:
        pin = line.declared("protobuf")
        part = _upper_part(pin) if pin is not None else None
        bound = _cap(part) if part is not None else None
        if part is not None and bound is not None and bound <= (4, 0, 0):
            capped.append((bound, part, line))
    if not capped:
        return None
    lowest = min(bound for bound, _, _ in capped)
    part = next(p for bound, p, _ in capped if bound == lowest)
    lines = sorted((x for bound, _, x in capped if bound == lowest), key=lambda x: x.key)
    older = [x for x in here if x.key < lines[0].key]
    # The older lines declare a floor only (before the upb runtime existed): each must lie
    # below the cap for them to admit it.
    admitted = all(admits_below(x.declared("protobuf") or "", part[1:].lstrip("=")) for x in older)
    # "2.6 to 2.11" only where no line between them states another range.
    between = [x for x in here if lines[0].key <= x.key <= lines[-1].key]
    words = (
        f"{lines[0].line} to {lines[-1].line}"
        if len(lines) > 2 and len(between) == len(lines)
        else " and ".join(x.line for x in lines)
    )
    return part, words, admitted


def tensorflow_requirer_cause(dist: str) -> CauseId:
    """The cause of a distribution that requires another TensorFlow than the installed one:
    tf-keras and keras are TensorFlow's own front end, released with its lines, so theirs is
    a Keras of another release; any other is a companion built for another TensorFlow."""
    name = normalize_name(dist)
    if name == "tf-keras":
        return TF_KERAS_MISMATCH
    return KERAS_VERSION if name == "keras" else COMPANION_MISMATCH


def keras_history_fix(m: Machine) -> Fix:
    """A tensor without ``_keras_history``: one Keras, of the code's release, builds the model.
    The candidates, most likely first, each with what tells it apart (Keras 2's functional
    API asks the layer that made each tensor for it)."""
    matched = keras_match_fix(m)
    return Fix(
        "A tensor reached a Keras model that no layer of this Keras made. Most likely first: "
        "1. the Keras installed is another release than the code was written for (its "
        "requirements name it; `pip show tensorflow keras` shows what is installed): install "
        "that release. 2. the code mixes the standalone keras package with tf.keras (`import "
        "keras` in one file, `from tensorflow import keras` in another): import every Keras "
        "name from one of them. 3. a raw TensorFlow op's output is passed to the model (the "
        "standalone Keras before 2.4 does not wrap it in a layer): wrap the op in a Lambda "
        f"layer. {matched.text}",
        matched.commands,
    )


def keras_package_fix(m: Machine) -> Fix:
    """TensorFlow 2.16+ without an importable keras package: the Keras 3 it declares, or
    tf-keras of its line behind TF_USE_LEGACY_KERAS."""
    spec = m.declared_range("keras")
    legacy = f"`{m.tf_keras_spec}`" if m.tf_keras_spec else TF_KERAS_OF_MINOR
    keras = m.facts.package("keras")
    if keras is not None and keras.version and spec_contains(keras.version, spec or ">=3.0.0"):
        # The log shows that keras installed, in the range: installing it again changes
        # nothing. Its own import failed (the loader catches any ImportError of `import
        # keras`), and that error is the one to fix.
        return Fix(
            f"keras {keras.version}, the release TensorFlow declares, is installed, and "
            "`import keras` failed inside it: fix the error that import raises (the traceback "
            "above, or the command below), usually a module keras needs. For Keras 2 instead, "
            f"install {legacy} and set TF_USE_LEGACY_KERAS=1.",
            ('python -c "import keras"',),
        )
    return Fix(
        "TensorFlow 2.16 and later serve tf.keras from the keras package (Keras 3), and "
        "`import keras` failed: install the keras release TensorFlow declares. Where the "
        "traceback above shows keras itself failing on a module it needs, that error is the "
        f"one to fix. For Keras 2 instead, install {legacy} and set TF_USE_LEGACY_KERAS=1.",
        m.install(f"keras{spec}" if spec else "keras>=3.0.0"),
    )


def keras_match_fix(m: Machine, module: str = "", dist: str = "") -> Fix:
    """The Keras of the installed TensorFlow's line (Keras 2 before 2.16). Where a library's
    code imported the standalone keras package (``module``, its distribution ``dist`` where
    the module table knows it, as the traceback's frames name it), that library is named: a
    release of it written for the installed TensorFlow is the other way."""
    fix = _keras_match_fix(m)
    if not module:
        return fix
    named = package_named(module, dist)
    upgrade = package_upgrade(m, module, dist)
    # The last command is the upgrade itself (pip's: an externally managed Python's first creates
    # a venv; conda's update where conda installed it).
    how = f"`{upgrade[-1]}`" if dist else f"`{upgrade[-1]}` names its distribution"
    return Fix(
        f"{fix.text} The standalone keras package was imported by the code of {named}: "
        "where it has a release written for the installed TensorFlow (one that imports Keras "
        f"from TensorFlow), upgrading it is the other way ({how}).",
        fix.commands,
    )


def _keras_match_fix(m: Machine) -> Fix:
    """The Keras of the installed TensorFlow's line, whoever imported it."""
    # range_fix installs the range the build runs with (Machine.runs_with): under 2.6's
    # `keras~=2.6`, keras 2.6, not the newest Keras 2 that range admits.
    fix = range_fix(m, "keras")
    if fix is not None:
        return fix
    if m.tf is not None and m.line is not None and m.line.keras_in_step:
        return install_fix(
            m, f"Install the Keras of TensorFlow {m.line.line}.", f"keras=={m.line.line}.*"
        )
    table = m.companion_table.standalone_keras
    row = table.release_for(m.tf.version) if table is not None and m.tf is not None else None
    if row is not None and m.tf is not None:
        # Before TensorFlow required a Keras of its own: the standalone release that works
        # with it (the companion table's standalone_keras rows).
        return install_fix(
            m,
            f"Install keras {row.release}, the standalone Keras release that works with "
            f"TensorFlow {m.tf.version} (it needs tensorflow{row.tensorflow}); or import Keras "
            "from TensorFlow instead (`from tensorflow import keras`), which always matches it.",
            row.requirement("keras"),
        )
    return Fix(
        "Install the Keras release of your TensorFlow line (keras==2.X.* for TensorFlow 2.X "
        "from 2.6 to 2.15; Keras 3 from 2.16); before 2.6 the standalone keras package is "
        "another project: use tf.keras (from tensorflow import keras), or upgrade TensorFlow.",
        m.pip("show tensorflow keras"),
    )


def keras_release_fix(m: Machine, release: str, wanted: str) -> Fix:
    """Code written for standalone Keras ``release`` (``wanted``: what of that release it
    needs, in words) under another Keras: that release from the companion table's
    standalone_keras rows (with the TensorFlow it runs on), or, where the TensorFlow shown is
    outside that row, the pair to run it with, named rather than installed over it."""
    table = m.companion_table.standalone_keras
    row = next((r for r in table.releases if r.release == release), None) if table else None
    if row is None:
        return Fix(
            f"Install keras {release}, the release the code was written for ({wanted}), in "
            "step with the TensorFlow beside it.",
            m.pip("show tensorflow keras"),
        )
    if m.tf is not None and not row.admits(m.tf.version):
        return Fix(
            f"The code was written for keras {release} ({wanted}), which needs "
            f"tensorflow{row.tensorflow}, and TensorFlow {m.tf.version} is installed: run it "
            f"in an environment with a TensorFlow in that range and keras {release}, or port "
            "the code to tf.keras of the installed TensorFlow.",
            m.pip("show tensorflow keras"),
        )
    return install_fix(
        m,
        f"Install keras {release}, the standalone Keras release the code was written for "
        f"({wanted}); it runs on tensorflow{row.tensorflow}.",
        row.requirement("keras"),
    )


def keras_device_names_fix(m: Machine) -> Fix:
    """A Keras older than TensorFlow's device names (``/device:GPU:0`` from TensorFlow 1.4):
    a Keras release that reads them, still of TensorFlow 1's Keras."""
    # keras-team/keras 2.0.8 utils/training_utils.py compared the names as listed; the next
    # release normalises them (_normalize_device_name drops "device:"). Keras 2.2.4 calls
    # TensorFlow 1.5's tf.nn.softmax(axis=...), hence the upper bound for a TensorFlow 1.4.
    return Fix(
        "The GPUs are there: TensorFlow lists them as '/device:GPU:N', and the installed Keras "
        "looks for '/gpu:N', the names of TensorFlow before 1.4, so it is older than the "
        "TensorFlow beside it. Upgrade Keras to 2.0.9 or later, which reads both names (a 2.1 "
        "release keeps it one that TensorFlow 1.4 runs).",
        m.install("keras>=2.0.9,<2.2"),
    )


def keras_shared_fix(m: Machine, dists: Sequence[str], wanted: Optional[str]) -> Fix:
    """The keras folder two distributions wrote into (``dists``): uninstall them all and
    reinstall the one TensorFlow requires (``wanted``, its requirement); where that is not
    known, the Keras of TensorFlow's line, and nothing uninstalled that cannot be put back."""
    if wanted:
        return Fix(
            "Uninstall every distribution that installs the keras package, then install the "
            f"one TensorFlow requires ({wanted}).",
            (
                *m.pip("uninstall -y " + " ".join(dists)),
                *m.pip(f'install --force-reinstall --no-deps "{wanted}"'),
            ),
        )
    match = keras_match_fix(m)
    reinstall = [c for c in match.commands if " install " in f" {c} "]
    return Fix(
        "Uninstall every distribution that installs the keras package ("
        + ", ".join(dists)
        + "), then install the one Keras the installed TensorFlow requires (`pip show "
        "tensorflow` lists its requirements).",
        (*m.pip("uninstall -y " + " ".join(dists)), *reinstall)
        if reinstall
        else m.pip("show tensorflow keras keras-nightly"),
    )


#: The distributions that install the one ``keras`` package (keras-nightly is Keras'
#: nightly of the same tree, https://pypi.org/project/keras-nightly/).
KERAS_PACKAGE_DISTRIBUTIONS: Final = ("keras", "keras-nightly")


def keras_copies_fix(m: Machine, dists: Sequence[str] = KERAS_PACKAGE_DISTRIBUTIONS) -> Fix:
    """Two Keras copies (``dists``, the distributions shown or the two that write the keras
    folder): every one out, the Keras the installed TensorFlow requires back in."""
    wanted = next(
        (
            r.split(";")[0].strip()
            for r in (m.tf.requires if m.tf is not None else ())
            if normalize_name(requirement_name(r)) in KERAS_PACKAGE_DISTRIBUTIONS
        ),
        None,
    )
    return keras_shared_fix(m, dists, wanted)


def bytecode_python_fix(m: Machine, lambda_shown: bool = True) -> Fix:
    """The model loaded by the Python minor that saved it, or rebuilt in code with only its
    weights loaded (weights hold no bytecode); where no Keras frame shows a model
    (``lambda_shown`` False), a function pickled by value under another Python likewise."""
    here = f" (this one is Python {m.python_version})" if m.python_version else ""
    other = (
        ""
        if lambda_shown
        else " A function pickled by value (cloudpickle, dill) or marshalled under another "
        "Python is the same: load it with that Python minor, or pickle it again from its "
        "source under this one."
    )
    return Fix(
        "Load the model with the Python minor that saved it, in an environment of that Python "
        f"with the same TensorFlow and Keras{here}; or build the model in code, with the "
        "Lambda's function defined there, and load only its weights (model.load_weights on "
        "the same file, or the weights saved from the old environment), which hold no "
        f"bytecode.{other}",
        ('python -c "import sys; print(sys.version)"',),
    )


def hdf5_mismatch_fix(m: Machine, headers: Optional[str], library: Optional[str]) -> Fix:
    """h5py and libhdf5 from one installer: conda's pair in a conda environment, else pip's
    wheel, which carries its own libhdf5 (``headers``/``library``: the releases HDF5 named)."""
    shown = f" (headers {headers}, library {library})" if headers and library else ""
    if m.in_conda:
        # The channel h5py (else libhdf5) came from, where the facts or the log's `conda
        # list` show it: conda-forge's pair into an environment of the default channels would
        # pull conda-forge's builds of their dependencies in as well. None shown, or one of
        # the defaults (an empty column, pkgs/main): conda's configured channels.
        channel = m.conda_channel("h5py")
        channel = m.conda_channel("hdf5") if channel is None else channel
        default = not channel or channel == "defaults" or channel.startswith("pkgs/")
        if m.installer == "pixi":
            # pixi reinstall writes the lock's releases again, the mismatched pair included:
            # one `pixi add` of both solves a matching pair into the manifest and the lock.
            return Fix(
                f"h5py and the libhdf5 it loads come from different installers{shown}: in "
                "this pixi workspace add both from its channels in one solve, and leave no "
                "other libhdf5 on LD_LIBRARY_PATH. Where `pixi list h5py` shows h5py from "
                "PyPI, remove that one first, so that the conda package's h5py is imported.",
                ("pixi list h5py", *m.conda_install("h5py", "hdf5")),
            )
        return Fix(
            f"h5py and the libhdf5 it loads come from different installers{shown}: in this "
            "conda environment install both again from one channel, and leave no other "
            "libhdf5 on LD_LIBRARY_PATH. Where `conda list` shows h5py from pypi, run `pip "
            "uninstall h5py` first, so that conda's h5py is the one imported.",
            (
                "conda list h5py",
                *m.conda_install(
                    "h5py",
                    "hdf5",
                    channel="" if default or channel is None else channel,
                    options=("--force-reinstall",),
                ),
            ),
        )
    return Fix(
        f"h5py and the libhdf5 it loads come from different builds{shown}: reinstall h5py's "
        "wheel, which carries the libhdf5 it was built with, and leave no other libhdf5 on "
        "LD_LIBRARY_PATH (a system or conda HDF5 loaded first wins).",
        # --no-deps: a forced reinstall would install the newest release of every requirement
        # too (NumPy among them), past the ones TensorFlow declares; --only-binary: a build
        # from source links the system's libhdf5 again.
        m.pip("install --force-reinstall --no-deps --no-cache-dir --only-binary h5py h5py"),
    )


def lfs_pointer_fix() -> Fix:
    """The files Git LFS keeps fetched into the clone, in place of their pointers."""
    return Fix(
        "Fetch the files Git LFS keeps: install Git LFS (its package, or "
        "https://git-lfs.com), then in the clone run the commands, which replace each pointer "
        "with its file; a ZIP download of the repository holds the pointers too, so clone it "
        "or download the model file itself.",
        ("git lfs install", "git lfs pull"),
    )


def hub_cache_fix(m: Machine, cache_dir: Optional[str]) -> Fix:
    """The incomplete directory of TF Hub's cache removed (``cache_dir``: the one the message
    names), so that the next load downloads the model again."""
    where = cache_dir or "TFHUB_CACHE_DIR/<sha1 of the handle>"
    if cache_dir is None:
        remove: tuple[str, ...] = ()
    elif "\\" in cache_dir or m.os == "windows":
        # -LiteralPath in single quotes: PowerShell reads no wildcard ([, *, ?) in the path and
        # expands no $variable or backtick, so the command removes that directory alone
        # (about_Quoting_Rules; Remove-Item's -LiteralPath).
        literal = cache_dir.replace("'", "''")
        remove = (f"Remove-Item -LiteralPath '{literal}' -Recurse -Force",)
    else:
        remove = (f"rm -rf -- {shlex_quote(cache_dir)}",)
    return Fix(
        f"Remove the model's directory from TF Hub's cache ({where}); the next load downloads "
        "the model again. Where the cache is under the temporary directory (tfhub_modules, "
        "the default), set TFHUB_CACHE_DIR to a directory the system does not clean, so that "
        "it does not happen again.",
        remove,
    )


#: The forms a model from a newer Keras arrives in, and what each records of the release that
#: wrote it: an HDF5 file its keras_version attribute (Keras 2's hdf5_format.py
#: save_model_to_hdf5), a SavedModel directory its saved_model.pb's
#: meta_info_def.tensorflow_version (tensorflow/python/saved_model/builder_impl.py), a `.keras`
#: zip its metadata.json (keras/src/saving/saving_lib.py, Keras 2.13 and later, Keras 3).
NewerModelFormat = Literal["h5", "savedmodel", "keras-zip"]


def newer_keras_model_fix(
    fmt: NewerModelFormat, argument: Optional[str] = None, os_name: Optional[str] = None
) -> Fix:
    """A model (``fmt``: HDF5 file, SavedModel or `.keras` zip) written by a newer Keras than
    the one loading it: load it with the release the file records, or move its weights
    through that release (``argument``: the configuration's argument the loader refused;
    ``os_name``: the machine's, for the command listing a file)."""
    what = f"`{argument}`" if argument else "an argument"
    again = (
        "load it with that TensorFlow (Keras) release or a newer one, or, in that release, "
        "save the weights only and rebuild the model in code here."
    )
    if fmt == "h5":
        return Fix(
            f"The model's configuration carries {what}, which the Keras loading it does not "
            "have: it was saved by a newer Keras. The HDF5 file records that release in its "
            f"keras_version attribute (the command prints it): {again}",
            (
                "python -c \"import h5py; f = h5py.File('MODEL.h5', 'r'); "
                "print(f.attrs.get('keras_version'), f.attrs.get('backend'))\"",
            ),
        )
    if fmt == "savedmodel":
        return Fix(
            f"The SavedModel's Keras layers carry {what}, which the tf.keras loading them does "
            "not have: it was saved by a newer TensorFlow. Its saved_model.pb records that "
            f"release (the command prints it): {again}",
            (
                'python -c "from tensorflow.core.protobuf import saved_model_pb2; '
                "m = saved_model_pb2.SavedModel(); "
                "m.ParseFromString(open('MODEL_DIR/saved_model.pb', 'rb').read()); "
                'print(m.meta_graphs[0].meta_info_def.tensorflow_version)"',
            ),
        )
    listing = list_file_command("MODEL.keras", os_name)
    return Fix(
        "This Keras (before 2.12) reads a `.keras` path as an HDF5 file or a SavedModel "
        "directory, and finds neither there. Check that the path exists from where the "
        "program runs; if it does, it is the zip archive Keras 2.13 and later and Keras 3 "
        "write, which Keras reads from 2.12 on: its metadata.json records the Keras that "
        "saved it (the second command prints it). Load it with a TensorFlow of that Keras "
        "(2.16 or newer for a Keras 3 file), or save the model there again as `.h5`, which "
        "this Keras reads.",
        (
            listing,
            "python -c \"import zipfile; print(zipfile.ZipFile('MODEL.keras')"
            ".read('metadata.json'))\"",
        ),
    )


#: Keras' Glorot, He and LeCun initializers as classes: tf.keras (TensorFlow's init_ops and
#: Keras 2.4 on, which is tf.keras) writes these names into a saved configuration;
#: multi-backend Keras up to 2.3.1 defines them only as functions (glorot_uniform), and
#: TensorFlow.js' layers API learnt the class names in a later release than its first.
KERAS_INITIALIZER_CLASSES: Final = (
    "GlorotUniform",
    "GlorotNormal",
    "HeUniform",
    "HeNormal",
    "LecunUniform",
    "LecunNormal",
)


def tfjs_unknown_class_fix(what: str, saved_by: str = "") -> Fix:
    """A model converted from tf.keras whose configuration names a class (``what``, as the
    text says it) that the TensorFlow.js layers API loading it does not know: a TensorFlow.js
    that has it, or a conversion matched to the TensorFlow.js that loads it. ``saved_by``: the
    sentence that says which tf.keras writes that class, where it is known."""
    return Fix(
        f"The model was saved by tf.keras, whose configuration names {what} as a class; "
        f"this TensorFlow.js release's layers API does not know that name.{saved_by} Load it "
        "with a current TensorFlow.js (update the @tensorflow/tfjs package, or the version in "
        "the script tag's URL), or convert the model again with the tensorflowjs converter of "
        "the same release as the TensorFlow.js that loads it, from a model saved by a "
        "TensorFlow whose Keras writes classes that release knows.",
        ("npm install @tensorflow/tfjs@latest", "npm ls @tensorflow/tfjs"),
    )


#: Class names tf.keras wrote in place of its own (TensorFlow 1.13's HDF5 writer, and some 2.0
#: pre-releases), with the class they stand for: no TensorFlow.js release registers them, and the
#: tensorflowjs converter renames them when it converts an HDF5 file (tfjs-converter/python/
#: tensorflowjs/converters/keras_h5_conversion.py, _CLASS_NAME_MAP; tfjs-converter PR 334,
#: March 2019); standalone Keras has none of them, and tf.keras's layer table maps them back
#: (tensorflow/python/keras/layers/serialization.py; Keras 2's keras/layers/serialization.py,
#: populate_deserializable_objects).
TF_KERAS_MISNAMED_CLASSES: Final = {"BatchNormalizationV1": "BatchNormalization"}


def tfjs_converter_rename_fix(name: str, renamed: str) -> Fix:
    """A model.json naming a class that tf.keras wrote by mistake (``name``) and that the
    tensorflowjs converter now writes as ``renamed``: no TensorFlow.js loads it, so the model
    is converted again with a current converter."""
    return Fix(
        f"The model's configuration names `{name}`, the name TensorFlow 1.13's tf.keras (and "
        f"some 2.0 pre-releases) wrote into HDF5 files for {renamed}; no TensorFlow.js release "
        "registers it, so updating TensorFlow.js does not help. The tensorflowjs converter "
        f"renames it to {renamed} (since March 2019): convert the HDF5 file again with a "
        "current converter and load the new model.json.",
        (
            "pip install -U tensorflowjs",
            "tensorflowjs_converter --input_format keras MODEL.h5 MODEL_DIR",
        ),
    )


def tf_keras_misnamed_class_fix(name: str, renamed: str) -> Fix:
    """An HDF5 file naming a class tf.keras wrote by mistake (``name``, standing for
    ``renamed``), read by a Keras that has no such class: tf.keras reads it, or the loader is
    told what it stands for. No newer Keras is needed."""
    return Fix(
        f"The model's configuration names `{name}`, the name TensorFlow 1.13's tf.keras (and "
        f"some 2.0 pre-releases) wrote into HDF5 files for {renamed}: no newer Keras is needed, "
        "but one that knows the name. Load it with tf.keras (TensorFlow 1.13 and later, Keras "
        f"2), whose layer table maps it to {renamed}, or tell the Keras loading it what the "
        f"name stands for: custom_objects={{'{name}': keras.layers.{renamed}}}.",
        (
            'python -c "import keras; keras.models.load_model('
            f"'MODEL.h5', custom_objects={{'{name}': keras.layers.{renamed}}})\"",
        ),
    )


def initializer_class_fix(name: Optional[str], tfjs: bool) -> Fix:
    """A saved configuration naming a Keras initializer class (``name``) the loader does not
    know: load it with a Keras (or TensorFlow.js) that has the class."""
    what = f"`{name}`" if name else "an initializer class"
    if tfjs:
        return tfjs_unknown_class_fix(what)
    return Fix(
        f"The model's configuration names {what}, an initializer class that tf.keras "
        "(TensorFlow's Keras, and Keras 2.4 and later) writes and the Keras loading it does not "
        "have: multi-backend Keras up to 2.3.1 knows it only as a function (glorot_uniform). "
        "Load the model with tf.keras (tf.keras.models.load_model), the Keras that saved it "
        "(an HDF5 file records its keras_version), or, in that release, save the weights "
        "only and rebuild the model in code here. Where tf.keras itself refused it, the "
        "configuration or the custom_objects given come from the other Keras package (a "
        "library built on standalone Keras, loaded through tf.keras): use one Keras for both "
        "(such libraries often have a setting that makes them use tf.keras).",
        (
            "python -c \"import h5py; f = h5py.File('MODEL.h5', 'r'); "
            "print(f.attrs.get('keras_version'), f.attrs.get('backend'))\"",
            "python -c \"import tensorflow as tf; tf.keras.models.load_model('MODEL.h5')\"",
        ),
    )


def hub_format_fix(trainable: bool) -> Fix:
    """A TF Hub model used as its format does not allow: the model's TF2 SavedModel, or the
    use its format allows (``trainable``: fine-tuning refused; else a signature needed)."""
    if trainable:
        return Fix(
            "The model is in the legacy TF1 Hub format, which hub.KerasLayer runs but cannot "
            "fine-tune: use the model's TF2 SavedModel version (its page on the model hub "
            "lists the formats; most TF1 models have one), or keep it frozen "
            "(trainable=False) and train the layers on top.",
            (
                'python -c "import tensorflow_hub as hub; '
                "print(hub.resolve('HANDLE'))\"  # ls it: tfhub_module.pb is the TF1 format",
            ),
        )
    return Fix(
        "The SavedModel has no callable object (TensorFlow 1's APIs exported it, or it is a "
        "TF1 Hub model's SavedModel): call it through a signature, "
        "hub.KerasLayer(HANDLE, signature='serving_default', signature_outputs_as_dict=True) "
        "or with output_key naming one output; saved_model_cli lists its signatures. Or use "
        "the model's TF2 SavedModel version.",
        ("saved_model_cli show --dir MODEL_DIR --all",),
    )


def graph_from_older_tf_fix(attr: Optional[str]) -> Fix:
    """A graph whose node lacks an attribute the installed TensorFlow's code reads: import it
    with this TensorFlow and write it again (defaults filled in), or freeze it again."""
    # graph_constructor.cc adds each op's default attributes to the nodes it imports
    # (AddDefaultsToNodeDef); a graph written back from the imported one carries them.
    what = f"`{attr}`" if attr else "an attribute"
    return Fix(
        f"A node of the graph lacks {what}, which the installed TensorFlow's op has and its "
        "code reads: the graph was written by an older TensorFlow, before the op gained it. "
        "Import the graph with the installed TensorFlow and write it again (importing adds "
        "every default attribute), or freeze or export it again from its checkpoint with this "
        "TensorFlow; else run it with the TensorFlow release that wrote it.",
        (
            "python -c \"import tensorflow as tf; v1 = getattr(tf.compat, 'v1', tf); "
            "g = v1.GraphDef(); g.ParseFromString(open('MODEL.pb', 'rb').read()); "
            "G = tf.Graph(); G.as_default().__enter__(); v1.import_graph_def(g, name=''); "
            "open('MODEL-reexported.pb', 'wb').write(G.as_graph_def().SerializeToString())\"",
        ),
    )


def keras3_model_fix(m: Machine) -> Fix:
    """Load a Keras 3 model with Keras 3: a TensorFlow whose tf.keras is Keras 3 (the
    matrix's first such line on), without legacy Keras."""
    since, commands = _keras3_install(m)
    text = (
        f"The model was saved by Keras 3, which Keras 2 cannot read: load it with Keras 3 "
        f"({since}, TF_USE_LEGACY_KERAS unset), or save it again with the Keras that will "
        "load it."
    )
    return Fix(text, commands)


def keras_mixed_fix(layer_package: Optional[str], keras3_input: Optional[Machine] = None) -> Fix:
    """One model built of two Kerases' objects (``layer_package``: the import package of the
    refused layer's class where the message shows it, else None): every Keras name from the
    Keras the layer's library is built on, or that library's release for the other Keras.
    Nothing is reinstalled: both Kerases work, the code mixes them. ``keras3_input``, the
    machine where Keras 2's functional Model refused a Keras 3 KerasTensor (a ``keras.Input``
    of Keras 3 given to a ``Model`` of Keras 2): Input and Model from one Keras."""
    if keras3_input is not None:
        return Fix(
            "The model's input is a KerasTensor of Keras 3 (a `keras.Input` of the keras "
            "package, 3.x) and the Model taking it is Keras 2's (tf_keras, or tf.keras under "
            "TF_USE_LEGACY_KERAS): import Input and Model from the same Keras, "
            "`from tf_keras import Input, Model` (with `import tf_keras as keras` for the "
            "layers) to stay on Keras 2, or `from keras import Input, Model` alone, with "
            "TF_USE_LEGACY_KERAS unset, for Keras 3. The command shows which Keras each name "
            "comes from.",
            keras3_input.pip("show keras tf-keras"),
        )
    dist = modules().distribution(layer_package) if layer_package else None
    library = (
        f"the refused layer is {dist or layer_package}'s (the message shows its class): "
        if layer_package
        else ""
    )
    return Fix(
        f"The model and the layer added to it come from two Keras packages: {library}import "
        "every Keras name the model uses (Sequential, Model, layers, Input) from the Keras "
        "the layer's library is built on: `from tensorflow.keras import ...` for a library "
        "built on tensorflow.keras (tf.keras), `from keras import ...` for one built on the "
        "standalone keras package. From TensorFlow 2.16 on, tensorflow.keras is Keras 3, the keras "
        "package itself, and Keras 2 is the tf-keras package: a library built on Keras 2 "
        "takes `from tf_keras import ...`. Or install the library's release made for the "
        "Keras the code imports (its release notes say which Keras each release is built "
        "on). Reinstalling TensorFlow or Keras changes nothing: both are installed and work.",
        (),
    )


def keras3_weights_fix(m: Machine) -> Fix:
    """A `.keras` file whose weights Keras 2 finds laid out otherwise than its layers: a file
    Keras 3 wrote (metadata.json records which Keras did), or one this Keras wrote for a layer
    that builds other variables now. Only the file says which, so the one command reads it;
    moving to Keras 3 is in the words, for the Keras 3 case."""
    since, commands = _keras3_install(m)
    return Fix(
        "Read the Keras that wrote the file (metadata.json's keras_version; the command prints "
        f"it). A file of Keras 3 loads with Keras 3 ({since}, TF_USE_LEGACY_KERAS unset: "
        + "; ".join(f"`{c}`" for c in commands)
        + "), or save it again with the Keras that will load it. Where this Keras wrote the "
        "file, the layer builds other variables than when it was saved: create a custom "
        "layer's weights in build(), and build the model before saving it.",
        (KERAS_FILE_METADATA,),
    )


def keras3_code_fix(m: Machine, module: str) -> Fix:
    """Run code written for Keras 3 (it imports ``module``, which only Keras 3 has) with
    Keras 3, or use the release of that code written for the installed Keras 2."""
    since, commands = _keras3_install(m)
    text = (
        f"The code imports {module}, which only Keras 3 has: run it with Keras 3 ({since}, "
        "TF_USE_LEGACY_KERAS unset), or install the release of the package that imports it "
        "written for Keras 2 (its changelog says which)."
    )
    return Fix(text, commands)


def _keras3_install(m: Machine) -> tuple[str, tuple[str, ...]]:
    """Which TensorFlow serves Keras 3 (the matrix's first such line on), and the commands
    that get it here without legacy Keras."""
    first = first_keras3_line(m.matrix) if m.matrix is not None else None
    since = f"TensorFlow {first.line} or newer" if first else "a TensorFlow served by Keras 3"
    if first is None or m.keras3_is_tf_keras:
        # The installed line already serves Keras 3: only the legacy switch stands between.
        return since, unset_env(m, "TF_USE_LEGACY_KERAS")
    # The installed distribution's own name (tensorflow-cpu stays tensorflow-cpu).
    dist = m.tf_name if m.tf is not None and not m.is_nightly else "tensorflow"
    return since, (*m.pip_install(f"{dist}>={first.line}"), *unset_env(m, "TF_USE_LEGACY_KERAS"))


def _asks_prerelease(spec: str) -> bool:
    """Whether specifier ``spec`` names a pre-release (``==2.3.0-rc0``), which a resolver
    takes only when asked (PEP 440, packaging's SpecifierSet)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415

    try:
        return bool(SpecifierSet(spec).prereleases)
    except InvalidSpecifier:
        return False


def is_prerelease(version: str) -> bool:
    """``2.22.0rc0`` and the like (PEP 440), which pip installs only when asked by name."""
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415 - 40 ms import

    try:
        return Version(version).is_prerelease
    except InvalidVersion:
        return False


def own_module_fix(origin: str, module: str = "tensorflow") -> Fix:
    """Rename the user's own file or package named like ``module``, which the import found
    before the installed distribution (Python's compiled copy beside it goes too). A Windows
    path is renamed with ``ren``, which cmd has and PowerShell aliases to Rename-Item (both
    take the new name alone); cmd has no ``mv`` and no ``#`` comment."""
    if "\\" in origin and "/" not in origin:
        name = origin.rstrip("\\").rsplit("\\", 1)[-1]
        command = f'ren "{origin}" "{name}.bak"'
    else:
        command = f'mv "{origin}" "{origin}.bak"  # rename your own module'
    return Fix(
        f"Rename or remove that module (and its __pycache__), so `import {module}` loads the "
        "installed distribution.",
        (command,),
    )


def pip_of_python_fix(pip_python: str, python: str) -> Fix:
    """The ``pip`` command runs in Python ``pip_python`` while ``python`` is Python
    ``python``: install with the pip of the Python that runs the code (``python -m pip``),
    which always installs for the interpreter that runs it; then show it is that one."""
    return Fix(
        f"Install with the pip of the Python that runs the code: `python -m pip install ...` "
        f"in place of `pip install ...` (the `pip` command found first on PATH is Python "
        f"{pip_python}'s, and `python` is Python {python}). In a Dockerfile, write the "
        "installs as `python -m pip install` (or make `pip` the same Python's); the last "
        "command shows the pip `python` uses.",
        ("python -m pip install PACKAGE", "python -m pip --version"),
    )


def other_python_path_fix(site: str, python: str) -> Fix:
    """Take another Python's site-packages (``site``) off the path of Python ``python``, which
    imported TensorFlow from it, then show whether this Python has a TensorFlow of its own:
    the traceback cannot say (PYTHONPATH's entries come before site-packages on sys.path, so
    the other copy is imported even beside one), so nothing is installed blind."""
    windows = "\\" in site
    # Windows' shells have no unset and cmd no comment after a command: cmd's `set NAME=`
    # and PowerShell's Remove-Item Env:NAME, each labelled, as common.unset_env gives them.
    cleared = (
        "cmd's `set PYTHONPATH=` (the second command) or PowerShell's `Remove-Item "
        "Env:PYTHONPATH` (the third), in the shell that runs the code"
        if windows
        else "the second command, in the shell that runs the code"
    )
    return Fix(
        f"{site} belongs to another Python release, and this Python ({python}) has it on its "
        "path: most often PYTHONPATH names it (or a .pth file, or code that appends it to "
        "sys.path). Packages with compiled code, TensorFlow first, are built for one Python "
        f"release: remove {site} from PYTHONPATH (the first command shows where the path "
        f"comes from; {cleared} clears it), then the last shows whether this Python has a "
        "TensorFlow of its own: where pip finds none, install it with this Python's pip "
        "(`python -m pip install tensorflow`).",
        (
            "python -c \"import os, sys; print(os.environ.get('PYTHONPATH')); print(sys.path)\"",
            *(
                unset_env_lines("PYTHONPATH", True)
                if windows
                else (f"unset PYTHONPATH  # or remove {site} from it",)
            ),
            "python -m pip show tensorflow",
        ),
    )


def unshown_shadow_fix() -> Fix:
    """Find and rename a ``tensorflow.py`` or ``tensorflow/`` of the user's own that the
    traceback does not show (no frame of it): Python prints which file ``import tensorflow``
    loaded, run from the directory the code ran in (the current directory comes first on
    sys.path), and the user renames it."""
    return Fix(
        "From the directory the code ran in, print which file `import tensorflow` loads: if "
        "it is not inside site-packages (a tensorflow.py or a tensorflow/ folder of your own, "
        "in that directory or on PYTHONPATH), rename it and delete its __pycache__, so the "
        "import finds the installed TensorFlow.",
        ("python -c \"import tensorflow as tf; print(tf.__file__, getattr(tf, '__path__', ''))\"",),
    )


def source_tree_fix(m: Machine) -> Fix:
    """Leave the TensorFlow source checkout whose tensorflow/ directory the import found:
    to the user's home folder (``cd ~`` in sh and PowerShell; cmd reads no ``~``, its
    ``cd /d "%USERPROFILE%"`` on Windows), then the import checked with double quotes, which
    sh, cmd and PowerShell all pass to Python as one argument."""
    windows = m.os == "windows"
    return Fix(
        "Start Python outside the TensorFlow source tree: its tensorflow/ directory is found "
        "before the installed package (the current directory comes first on sys.path). Change "
        "to another directory and run again (or install the wheel you built and use that)"
        + (" (PowerShell: `cd ~`)." if windows else "."),
        (
            'cd /d "%USERPROFILE%"' if windows else "cd ~",
            f'{m.python_exe} -c "import tensorflow as tf; print(tf.__file__)"',
        ),
    )


def user_site_fix(
    m: Machine, site: str, names: Sequence[str] = ("tensorflow",), *, kept: bool = False
) -> Fix:
    """Remove the TensorFlow a per-user site-packages (``site``) holds (``names``: its
    distributions, where known), which the environment's Python imports before its own, then
    install TensorFlow into the environment; ``kept``: the facts show the environment's own
    copy, which then stays and is imported: nothing is installed beside it. Where pip changes
    nothing in this Python (PEP 668) nothing is uninstalled: the words and the commands are a
    new environment's, which reads no user site. The import is checked with the examined
    interpreter (or the new environment's), not whichever ``python`` a shell finds first."""
    dists = " ".join(names)
    removal = m.pip(f"uninstall -y {dists}")
    look = '-c "import tensorflow as tf; print(tf.__file__)"'
    if not removal:
        # PEP 668: pip changes nothing in this Python, so the commands build a new virtual
        # environment (Machine.pip), which reads no user site, and check its import there.
        return Fix(
            f"Python imported TensorFlow from the per-user site-packages ({site}), which this "
            "Python reads before its environment's own: that copy mixes with the environment's "
            "packages. pip changes nothing in this Python (it is externally managed, PEP 668), "
            "so the commands install TensorFlow into a new virtual environment, which reads "
            "no user site, and check where its import comes from there; PYTHONNOUSERSITE=1 "
            "keeps the user site out of this Python meanwhile.",
            (*m.pip("install tensorflow"), f"{NEW_VENV}/bin/python {look}"),
        )
    after = (
        "check that TensorFlow now comes from the environment's own copy"
        if kept
        else "check where TensorFlow now comes from, and install it into the environment if "
        "none is left"
    )
    return Fix(
        f"Python imported TensorFlow from the per-user site-packages ({site}), which this "
        "Python reads before its environment's own (conda's Pythons do; a venv does not): that "
        "copy, installed with pip --user or by another Python of the same version, mixes with "
        "the environment's packages. Uninstall it with this Python (pip removes the copy found "
        f"first, the user site's), {after}; PYTHONNOUSERSITE=1 keeps any user site out.",
        (
            *removal,
            # The examined interpreter, whose import is the one in question.
            f"{m.python_exe} {look}",
            *(() if kept else m.pip("install tensorflow")),
        ),
    )


def model_garden_path_fix(root: str, windows: bool) -> Fix:
    """Put the TensorFlow Model Garden clone at ``root`` (the folder holding ``official/`` and
    ``research/``) first on the path, so its research code imports the clone's ``official``
    package; ``windows``: the path is Windows' (cmd's ``set``, ``;`` between entries)."""
    research = f"{root}\\research" if windows else f"{root}/research"
    command = (
        f"set PYTHONPATH={root};{research};%PYTHONPATH%"
        if windows
        else f'export PYTHONPATH="{root}:{research}:$PYTHONPATH"'
    )
    return Fix(
        "The Model Garden's research code imports its `official` package, which lives at the "
        f"clone's root ({root}), beside research/; that folder is not on the Python path (or "
        "another `official`, such as an older tf-models-official, is found first). Put the "
        "clone's root and its research folder first on PYTHONPATH in the shell that runs the "
        "code (or install the tf-models-official release of your TensorFlow's line).",
        (command, 'python -c "import official; print(official.__path__)"'),
    )


def protos_compile_fix(
    package: str, module: str, root: Optional[str], installed: bool, windows: bool
) -> Fix:
    """Run protoc on the .proto files of ``package`` (``object_detection.protos``) from the
    directory its imports are rooted at (``root``, where a path shows it), then import
    ``module`` again; reinstall the project where an installed copy (``installed``) lacked
    them. ``windows``: the paths are Windows', whose shells do not expand protoc's wildcard."""
    folder = package.replace(".", "/")
    top = package.split(".", 1)[0]
    where = f"in {root}, " if root else f"in the directory that holds {top}/, "
    if windows:
        # The Object Detection API's installation guide: on Windows protoc 3.5 and later may
        # not expand *.proto, so PowerShell hands it one file at a time
        # (https://github.com/tensorflow/models/blob/v1.13.0/research/object_detection/g3doc/installation.md).
        compile_ = (
            f'Get-ChildItem {folder}/*.proto | foreach {{protoc "{folder}/$($_.Name)" '
            "--python_out=.}"
        )
    else:
        compile_ = f"protoc {folder}/*.proto --python_out=."
    cd = (f'cd "{root}"',) if root else ()
    return Fix(
        f"Generate the project's `_pb2` modules: run protoc on {folder}/*.proto {where}"
        f"the directory the imports are rooted at ({package} is {folder}/ there), so each "
        "module is written beside its .proto file"
        + (
            ", then reinstall the project from that tree as its installation guide does (the "
            "installed copy was built without them)"
            if installed
            else ""
        )
        + ", and run again. Another TensorFlow or protobuf does not write them. protoc must "
        "be new enough for the files (`protoc --version`; a release from "
        "https://github.com/protocolbuffers/protobuf/releases if the system's is older).",
        (*cd, "protoc --version", compile_, f'python -c "import {module}"'),
    )


def protoc_upgrade_fix(optional: bool, label_asked: bool = False, os: Optional[str] = None) -> Fix:
    """A protoc new enough for the .proto files (3.15 or later where proto3's ``optional``
    is refused, ``optional``), of the protobuf runtime's own release, then compile again.
    ``label_asked``: protoc asked for a field label, which protoc 3 also asks of a proto2
    file's own unlabelled field; no other refusal is protoc 3's. ``os``: the system the log
    shows; the download commands are Linux x86-64's, so another system gets the steps only."""
    linux = os in (None, "linux")
    need = "3.15 or later (it accepts proto3 `optional` fields)" if optional else "3 or later"
    # protobuf's cross-version guarantee: generated code runs on a runtime of its own release
    # or newer, never older (https://protobuf.dev/support/cross-version-runtime-guarantee/),
    # so the protoc to use is the installed runtime's: 3.x.y for 3.x.y, 21.x for 4.21.x.
    version = (
        "V=$(python -c \"import google.protobuf as p; v = p.__version__.split('.'); "
        "print('.'.join(v[1:] if int(v[0]) >= 4 else v))\")"
    )
    zip_ = "protoc-$V-linux-x86_64.zip"
    return Fix(
        f"The protoc on PATH is too old for these .proto files: use protoc {need} and compile "
        "again. A Linux distribution's packaged protoc (protobuf-compiler) is often older. Take "
        "the protoc of the installed protobuf runtime's release (code from a newer protoc does "
        "not load on an older runtime): runtime 3.x.y is protoc 3.x.y, runtime 4.21.x protoc "
        "21.x; a release's zip from https://github.com/protocolbuffers/protobuf/releases "
        + (
            "(the commands fetch Linux x86-64's; other systems' zips are named alike)"
            if linux
            else f"(the one for {system_name(os or '')}; `python -c` below prints the runtime's "
            "release)"
        )
        + ", its bin/ first on PATH, then run the same protoc command again (a runtime older "
        "than the protoc needed is upgraded first, within the range TensorFlow declares)."
        + (
            ""
            if optional or not label_asked
            else " If `protoc --version` already prints 3 or later, the .proto file itself has a "
            "field without a label under proto2 syntax (or no `syntax` line): fix the file "
            "instead."
        ),
        (
            (
                "protoc --version",
                version,
                f'curl -LO "https://github.com/protocolbuffers/protobuf/releases/download/v$V/'
                f'{zip_}"',
                f'unzip -o "{zip_}" -d "$HOME/.local"',
                'export PATH="$HOME/.local/bin:$PATH"',
                "protoc --version",
            )
            if linux
            else (
                "protoc --version",
                'python -c "import google.protobuf; print(google.protobuf.__version__)"',
            )
        ),
    )


def h5py_bytes_fix(m: Machine, library: Optional[str] = None) -> Fix:
    """An h5py before 3.0 for a Keras HDF5 loader that decodes h5py 2's bytes (TensorFlow
    before 2.5, standalone Keras before 2.4), or a loader that reads h5py 3's strings; for an
    installed ``library``'s own code that decodes an HDF5 attribute, that library's release
    that reads them. The older h5py is asked inside TensorFlow's own range, where that range
    is known; a range that starts at h5py 3 leaves only the loader's other way out."""
    if library is None:
        ranged = range_fix(m, "h5py")
        if ranged is not None:
            return ranged
    declared = m.declared_range("h5py")
    # TensorFlow's own range starts at h5py 3: an older h5py breaks TensorFlow.
    excluded = declared is not None and not admits_below(declared, "3.0.0")
    if library is not None:
        who, subject = f"{library}'s code", f"The code of {library}"
        other = (
            f"upgrade {library} to a release that reads h5py 3's strings (its release notes say "
            "which)"
        )
    elif excluded:
        # The installed TensorFlow declares h5py 3: the loader is another Keras than its own.
        who, subject = "this loader", "This loader"
        other = "load the model with tf.keras of TensorFlow 2.5 or later, which reads them"
    else:
        who, subject = "this loader", "This loader"
        other = "upgrade to TensorFlow 2.5 or later, whose loader reads h5py 3's strings"
    if excluded:
        return Fix(
            f"{subject} decodes the bytes h5py 2 returned, and TensorFlow's own range "
            f"({declared}) starts at h5py 3.0 or later: an older h5py breaks TensorFlow, so "
            f"{other}.",
            m.pip("show h5py tensorflow"),
        )
    within = " inside TensorFlow's own range" if declared else ""
    return install_fix(
        m,
        f"Install an h5py before 3.0{within}, which returns the bytes {who} decodes, or {other}.",
        "h5py<3.0.0" + (f",{declared}" if declared else ""),
    )


def graph_code_fix(port: str, tf1: Optional[str] = None) -> Fix:
    """TensorFlow 1 graph code under eager execution: turn eager execution off for the
    tf.compat.v1 route, or port it (``port``: scan's words for the API). ``tf1``: the
    TensorFlow 1 release the log shows, which builds graphs unless the program turns eager
    execution on (tf.enable_eager_execution, tf.compat.v1.enable_v2_behavior): the
    words are of that call, not of TensorFlow 2."""
    if tf1 is not None:
        # TensorFlow 1.x runs eagerly only where the program asked it to
        # (https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/python/framework/ops.py,
        # enable_eager_execution; .../python/compat/v2_compat.py, enable_v2_behavior).
        return Fix(
            f"This is TensorFlow 1 graph code, and TensorFlow {tf1} builds graphs unless the "
            "program turns eager execution on (tf.enable_eager_execution() or "
            "tf.compat.v1.enable_v2_behavior(), for one): remove that call where this code "
            "runs, or port the code to eager execution."
        )
    return Fix(
        "This is TensorFlow 1 graph code, and TensorFlow 2 runs eagerly: call "
        "tf.compat.v1.disable_eager_execution() at the start of the program and use the "
        f"tf.compat.v1 names; or port it to TensorFlow 2. {port}".rstrip(),
    )


def last_tf1_line(m: Machine) -> Optional[TFLine]:
    """The matrix's last TensorFlow 1 line (1.15, :attr:`Matrix.last_tf1_line`), which
    multi-backend Keras' code runs on; None without a matrix."""
    return m.matrix.last_tf1_line if m.matrix is not None else None


def keras_session_fix(m: Machine, api: Optional[str]) -> Fix:
    """Multi-backend Keras 2.3 refusing TensorFlow 1's session (``api``: get_session or
    set_session) under TensorFlow 2: port the code to tf.keras with tf.compat.v1's session, or
    run it as written on the last TensorFlow 1 line with the standalone Keras of that line (the
    matrix's and the companion table's rows), installed only where the log's Python and
    platform have that line's wheels."""
    name = api or "get_session"
    port = (
        "This is TensorFlow 1 code written for multi-backend Keras (`import keras`), which has "
        f"no session under TensorFlow 2. Port it to tf.keras: `from tensorflow import keras`, "
        f"and tf.compat.v1.keras.backend.{name} where it calls K.{name}, with "
        "tf.compat.v1.disable_eager_execution() at the start of the program for its graph code."
    )
    tf1 = last_tf1_line(m)
    table = m.companion_table.standalone_keras
    row = table.release_for(tf1.latest_patch) if table is not None and tf1 is not None else None
    if tf1 is None or row is None:
        return Fix(port)
    pythons = sorted({p for ps in tf1.python.values() for p in ps}, key=version_key)
    span = f"Python {pythons[0]} to {pythons[-1]}" if pythons else "a Python it supports"
    as_written = (
        f" Or run it as written with TensorFlow {tf1.line} and keras {row.release} (the "
        f"multi-backend Keras of that line), on {span}"
    )
    python = m.python_version
    if python is None:
        # Which Python runs is not shown: said, not run (it replaces the TensorFlow 2 there).
        return Fix(f"{port}{as_written} (check `python -V` first).")
    if not m.line_fits(tf1):
        return Fix(
            f"{port}{as_written}: TensorFlow {tf1.line} has no wheel for Python {python} here."
        )
    return Fix(
        f"{port}{as_written}.",
        m.pip_install(f"tensorflow=={tf1.latest_patch}", row.requirement("keras")),
    )


def _best_python(row: ReleaseWheels, python: Optional[str]) -> Optional[str]:
    """The Python to use for ``row``'s wheels: the nearest one it has to ``python`` (the newest
    below a Python too new, the oldest above one too old), else its newest."""
    if row.pure:
        majors = sorted(p[2:] for p in row.pythons if p.startswith("py"))
        return "2.7" if majors == ["2"] else None
    pythons = sorted((p for p in row.pythons if p[0].isdigit()), key=version_key)
    if not pythons:
        return None
    if python is not None:
        here = version_key(".".join(python.split(".")[:2]))
        older = [p for p in pythons if version_key(p) < here]
        newer = [p for p in pythons if version_key(p) > here]
        if newer and not older:
            return newer[0]
        if older:
            return older[-1]
    return pythons[-1]


def _nearest_with(
    rows: Sequence[ReleaseWheels], asked: ReleaseWheels, os: str, arch: Optional[str]
) -> str:
    """Words for the release nearest to ``asked`` that has a wheel for ``os``: the first after
    it, else the last before it (tflite-runtime's last Windows wheels are 2.5.0's); empty where
    none has one."""
    later = [
        r
        for r in rows
        if version_key(r.version) > version_key(asked.version) and r.platform_fits(os, arch)
    ]
    if later:
        return f"the first later release with one is {later[0].version} ({later[0].describe()})"
    earlier = [r for r in rows if r.platform_fits(os, arch)]
    if earlier:
        return f"the last release with one is {earlier[-1].version} ({earlier[-1].describe()})"
    return ""


def wheels_for_system(m: Machine, dist: str, spec: str = "") -> Optional[bool]:
    """Whether some release of ``dist`` that ``spec`` admits publishes a wheel for this
    machine's system (the bundled index of PyPI's files); None where the system is not known
    or the index has no such release."""
    rows = [r for r in releases_of(dist) if not spec or spec_contains(r.version, spec)]
    if m.os is None or not rows:
        return None
    return any(r.platform_fits(m.os) for r in rows)


def releases_published(dist: str, spec: str) -> bool:
    """Whether the bundled index of PyPI's files lists a release of ``dist`` that ``spec``
    admits (False where it does not list ``dist``)."""
    return any(spec_contains(row.version, spec) for row in releases_of(dist))


def unpublished_here(m: Machine) -> tuple[tuple[PackageFacts, ReleaseWheels], ...]:
    """The installed releases (not editable) that the bundled index of PyPI's files lists with
    compiled wheels, none for this machine's system and architecture: what is installed is no
    wheel pip would choose here. A package a conda channel built (conda lists it from another
    channel than ``pypi``) is no PyPI wheel: not judged. Empty where the platform is unknown."""
    if m.platform is None or m.os is None:
        return ()
    arch = m.platform.split("-", 1)[1]
    conda = m.facts.conda
    built = (
        {normalize_name(c.name) for c in conda.packages if c.channel != "pypi"}
        if conda is not None
        else set()
    )
    found = []
    for pkg in m.facts.packages or ():
        name = normalize_name(pkg.name)
        row = next((r for r in releases_of(name) if r.version == pkg.version), None)
        if pkg.editable or name in built or row is None or row.pure:
            continue
        if row.platform_fits(m.os, arch):
            continue
        found.append((pkg, row))
    return tuple(found)


def unpublished_fix(m: Machine, found: Sequence[tuple[PackageFacts, ReleaseWheels]]) -> Fix:
    """Remove the releases PyPI publishes no wheel of for this machine; they install only
    where they have wheels, or built from source here."""
    names = ", ".join(f"{p.name} {p.version} ({r.describe()})" for p, r in found)
    return Fix(
        f"PyPI publishes no wheel of these releases for this machine: {names}. Unless it "
        "was built from source here, what is installed was built for another machine (a "
        "copied environment, or a forced --platform install) and its compiled code does not "
        "load here: uninstall it, then run it on a platform its wheels are built for, or "
        "build it from source on this machine.",
        m.pip("uninstall -y " + " ".join(p.name for p, _ in found)),
    )


def published_wheels(
    m: Machine, dist: str, spec: str = "", platform_only: bool = False, manylinux_arch: str = ""
) -> Optional[str]:
    """What the releases of ``dist`` that ``spec`` admits (every release where empty) publish,
    from the bundled index of PyPI's files, against this machine's Python and system where
    known: the Python, the platform or the release that has a wheel here. None where the index
    does not list ``dist``. ``platform_only``: the installer's words say the platform tag, not
    the Python, matched no wheel (uv's IncompatibleTag::Platform), so no Python is offered;
    ``manylinux_arch``: the architecture of the interpreter's own manylinux tag the installer
    named (``aarch64`` of ``manylinux_2_35_aarch64``)."""
    rows = releases_of(dist)
    if not rows:
        return None
    asked = [r for r in rows if not spec or spec_contains(r.version, spec)]
    if not asked:
        return (
            f"No release of {dist} on PyPI matches {spec} (its releases run from "
            f"{rows[0].version} to {rows[-1].version})."
        )
    newest = asked[-1]
    python = m.python_version
    minor = ".".join(python.split(".")[:2]) if python else None
    os = m.os
    arch = m.arch
    named = f"{dist} {newest.version}" if spec else f"{dist}'s newest release ({newest.version})"
    words = [f"{named} publishes {newest.describe()}."]
    on_os = [r for r in asked if r.platform_fits(os, arch)]
    system = platform_words(tuple(p for p in newest.platforms if p.startswith(f"{os}-"))) or os
    if os is not None and not on_os:
        where = system_name(os)
        other = _nearest_with(rows, newest, os, arch)
        words.append(
            f"No release {spec or ''} has a wheel for {where}".replace("  ", " ")
            + (
                f"; {other}."
                if other
                else f": run it where its wheels are ({platform_words(newest.platforms)}"
                + ("; WSL2 or a Linux container on Windows)." if os == "windows" else ").")
            )
        )
        return " ".join(words)
    if os is None and spec:
        # The system is not known: name the systems the release lacks that later ones have
        # (tensorflow-text's first Windows wheels came with 2.4.1).
        for key, where in (("windows", "Windows"), ("macos", "macOS"), ("linux", "Linux")):
            if newest.platform_fits(key):
                continue
            other = _nearest_with(rows, newest, key, None)
            if other:
                # On Windows the Linux wheels install under WSL2 (or in a Linux container).
                linux = key == "windows" and newest.platform_fits("linux")
                words.append(
                    f"It has no {where} wheel: {other}"
                    + ("; on Windows, WSL2 runs its Linux wheels." if linux else ".")
                )
    if os is not None and not newest.platform_fits(os, arch):
        # Only older releases have a wheel for this system (tflite-runtime's last Windows
        # wheels are 2.5.0's).
        last = on_os[-1]
        where = system_name(os)
        words.append(
            f"The last release with a {where} wheel is {last.version} ({last.describe()}); "
            f"later ones have none: use that release, or run the newest where its wheels are "
            f"({platform_words(newest.platforms)}"
            + ("; WSL2 or a Linux container on Windows)." if os == "windows" else ").")
        )
        return " ".join(words)
    # The architecture the interpreter's manylinux tag names (a glibc interpreter's).
    glibc_arch = manylinux_arch or (arch if m.non_glibc_libc is None else None)
    if platform_only and os == "linux" and glibc_arch and newest.platform_fits(os, glibc_arch):
        # Wheels for this system and architecture, refused by their tag: a wheel's
        # manylinux_X_Y tag names the oldest glibc it runs on (PEP 600), newer than this one.
        words.append(
            "The installer's words say the platform tag, not the Python, matched no wheel, and "
            f"the release has {platform_words((f'linux-{glibc_arch}',))} wheels: they need a "
            "glibc at least as new as the wheels' manylinux_X_Y tags name (`ldd --version` "
            "prints the machine's); with an older one, use a release built for it or a newer "
            "Linux distribution (a container of one)."
        )
        return " ".join(words)
    if platform_only:
        # The interpreter's platform tag is what no wheel matched: an older macOS than the
        # wheels' macosx_X_Y tags, an interpreter of another architecture, another system.
        words.append(
            "The installer's words say the platform tag, not the Python, matched no wheel: run "
            f"it on a platform those wheels are for ({platform_words(newest.platforms)}), with "
            "an interpreter of the machine's own architecture, and on macOS a macOS at least "
            "as new as the one the wheels' macosx_X_Y tags name."
        )
        return " ".join(words)
    if python is None:
        best = _best_python(newest, None)
        if best is not None:
            words.append(f"Use one of those Pythons (Python {best} is the newest).")
        return " ".join(words)
    if any(r.python_fits(python) for r in on_os):
        fit = [r for r in on_os if r.python_fits(python)][-1]
        if os is None:
            # The system is not known: the release's wheels are for some platforms only, and
            # "here" would claim this machine is one of them.
            words.append(
                f"{dist} {fit.version} has a wheel for Python {minor} on "
                f"{platform_words(fit.platforms)}: on one of those, what pip refused is the "
                "interpreter (a 32-bit Python) or its own age (a pip too old to read the "
                "wheels' tags); on another platform that release has no wheel."
            )
            return " ".join(words)
        words.append(
            f"{dist} {fit.version} has a wheel for Python {minor} here, so what pip refused is "
            "the interpreter (a 32-bit Python) or its own age (a pip too old to read the "
            "wheels' tags)."
        )
        return " ".join(words)
    best = _best_python(on_os[-1] if on_os else newest, python)
    there = f" on {system}" if os is not None and system else ""
    words.append(
        f"None {'of them ' if spec else ''}has a wheel for Python {minor}{there}"
        + (f": use Python {best} (a new virtual environment)" if best else "")
    )
    # No other release is offered: the one asked for is what the requirement (often another
    # package's) names, and a release for another TensorFlow would not fit it.
    words[-1] += "."
    return " ".join(words)


def pinned_companion_fix(m: Machine, dist: str, spec: str, listed: Sequence[str]) -> Fix:
    """pip lists releases of ``dist`` but none ``spec`` admits: the pinned release has no wheel
    for this Python and platform (usually a Python newer or older than it was built for)."""
    shown = ", ".join(listed[-4:])
    known = published_wheels(m, dist, spec)
    rows = releases_of(dist)
    if (
        known is not None
        and listed
        and all(version_key(v) < version_key(rows[0].version) for v in listed)
    ):
        # Every release pip lists is older than any the index of the package's maker lists
        # (pycoral's own index has 1.0 to 2.0; PyPI's project of that name is another one's
        # 0.0.x): relaxing the pin to one of them installs another project. Releases newer
        # than the index's are the package's own, published after the index was read.
        return Fix(
            f"pip lists {dist} {shown} here but no release {spec} admits: the release asked "
            f"for has no wheel for this Python and platform. {known} The releases pip lists "
            f"are none of those {dist}'s own index publishes: they are another project's of "
            "the same name, so keep the pin and use a Python and platform its wheels are for.",
            (*m.list_releases(dist), "python --version"),
        )
    if known is not None:
        return Fix(
            f"pip lists {dist} {shown} here but no release {spec} admits: the release asked "
            f"for has no wheel for this Python and platform. {known} Else relax the pin to a "
            "release pip lists here, with the packages that pinned it (its files: "
            f"{pypi_files_page(dist)}).",
            (*m.list_releases(dist), "python --version"),
        )
    table = modules()
    # Pure Python only where the module table says so: a distribution it does not know
    # (pycoral, with its native library) may have platform wheels.
    if dist in table.dists.values() and dist not in table.native:
        return Fix(
            f"pip lists {dist} {shown} here but no release {spec} admits. {dist} is pure "
            "Python (its wheels install on any platform), so the release asked for requires "
            "another Python (its Requires-Python) or does not exist: use a Python it supports "
            "(a new virtual environment), or relax the pin to a release pip lists here.",
            (*m.list_releases(dist), "python --version"),
        )
    return Fix(
        f"pip lists {dist} {shown} here but no release {spec} admits: the release asked for "
        "publishes no wheel for this Python and platform (most often the Python is newer or "
        "older than it was built for; its PyPI files list its Pythons: "
        f"{pypi_files_page(dist)}). Use a Python that release supports (a new "
        "virtual environment), or relax the pin to a release pip lists here, with the "
        "packages that pinned it.",
        (*m.list_releases(dist), "python --version"),
    )


def _python2_era(m: Machine, dist: str) -> str:
    """Why pip on Python 3 listed no release of ``dist`` at all, where its oldest releases
    publish wheels for Python 2 only and the next one the first for Python 3 (with no
    Requires-Python): pip on Python 3 lists that one and every later one it admits, so an
    empty list was read while only the Python 2 releases were out. "" otherwise."""
    if m.python_version is not None and not m.python_version.startswith("3"):
        return ""
    rows = releases_of(dist)
    count = 0
    # Python 2 only: a pure wheel tagged py2, or platform wheels of CPython 2.x minors.
    while count < len(rows) and all(p == "py2" or p.startswith("2.") for p in rows[count].pythons):
        count += 1
    if count == 0 or count == len(rows):
        return ""
    first, last, then = rows[0], rows[count - 1], rows[count]
    if then.requires_python or not then.python_fits("3"):
        return ""
    return (
        f" {dist} {first.version} to {last.version} publish wheels for Python 2 only; its "
        f"first Python 3 wheel came with {then.version}, so pip on Python 3 listing no "
        f"release at all dates from before it. Install {dist} {last.version} or older into "
        f"a Python 2.7 environment, or use {dist} {then.version} or later on Python 3."
    )


def companion_no_wheel_fix(
    m: Machine,
    dist: str,
    listed: tuple[str, ...],
    shown: bool = True,
    spec: str = "",
    installer: str = "pip",
    unworded: bool = False,
    platform_only: bool = False,
    manylinux_arch: str = "",
) -> Fix:
    """pip (or ``installer``: uv, Poetry) saw no wheel of the companion ``dist`` (or none past
    ``listed``) for this Python and platform: its successor where the project renamed it, else
    where its wheels exist; a pure-Python package's refusal is the Python's version or a
    release that does not exist. ``shown``: whether the log shows pip's list of versions;
    ``unworded``: whether pip wrote its empty list as nothing (a pip before 19.1);
    ``platform_only``: the installer said the platform tag matched no wheel (no Python helps);
    ``manylinux_arch``: the architecture of the interpreter's manylinux tag it named."""
    if listed:
        seen = f"{installer} lists {dist} releases up to {listed[-1]} for this Python and platform"
    elif shown:
        seen = f"{installer} lists no {dist} release for this Python and platform"
    else:
        seen = f"{installer} finds no {dist} release that matches the requirement here"
    table = modules()
    # uv and Poetry resolve without pip (a uv environment has none unless seeded): the
    # files PyPI lists for the release say its Pythons and platforms, whatever the installer.
    chosen = spec[2:] if spec.startswith("==") else None
    index = m.list_releases(dist) if installer == "pip" else (pypi_files_command(dist, chosen),)
    base = dist.removesuffix("-nightly")
    if (
        base != dist
        and not releases_of(dist)
        and releases_of(base)
        and not any(r.pure for r in releases_of(base))
    ):
        # A project's nightly distribution (dm-reverb-nightly) is built as its releases are,
        # which the bundled index lists: the platforms they cover are the nightlies' too (its
        # Pythons moved with the dates, so none is named).
        platforms = tuple(sorted({p for r in releases_of(base) for p in r.platforms}))
        return Fix(
            f"{seen}. {dist} is the nightly build of {base}, made like its releases, whose "
            f"wheels are for {platform_words(platforms)} only: run it there (a Linux container "
            "or WSL2 on another system) with a Python the nightly of that date was built for "
            f"(its files: {pypi_files_page(dist)}).",
            (
                *index,
                PLATFORM_CHECK,
            ),
        )
    known = published_wheels(m, dist, spec, platform_only, manylinux_arch)
    if known is not None and not (m.os != "windows" and table.successors.get(dist)):
        if not listed and shown and unworded and not spec:
            # An empty list written as nothing is a pip before 19.1 (April 2019); "none" is a
            # later pip's, which ran after the first Python 3 wheels the index dates so
            # (tensorflow-serving-api 1.9.0 and tensorflow-probability 0.2.0, July 2018).
            known += _python2_era(m, dist)
        return Fix(
            f"{seen}. {known} (Its files: {pypi_files_page(dist)}.)",
            (
                *index,
                PLATFORM_CHECK,
            ),
        )
    if dist not in table.native and dist not in table.dists.values():
        # A distribution the module table does not know: nothing says what its wheels are.
        return Fix(
            f"{seen}: the release asked for has no wheel for this Python and platform, or "
            f"does not exist. Compare the releases pip lists (`pip index versions {dist}`) with "
            "the one asked for, and check the Python's version and platform against the "
            f"files its releases publish ({pypi_files_page(dist)}).",
            (
                *index,
                PLATFORM_CHECK,
            ),
        )
    if dist not in table.native:
        return Fix(
            f"{seen}. {dist} is pure Python (its wheels install on any platform), so what pip "
            "refuses is the Python's version (each release's Requires-Python) or a release "
            "that does not exist: compare the releases pip lists with the one asked for, and "
            "use a Python the wanted release supports.",
            (*index, "python --version"),
        )
    successor = table.successors.get(dist)
    if successor is not None and m.os != "windows":
        module = table.module_of(successor) or successor.replace("-", "_")
        return Fix(
            f"{seen}. {dist} is now published as {successor} (import {module}): install it "
            f"instead and change the imports, where its files list this platform (`pip index "
            f"versions {successor}`).",
            (*m.list_releases(successor), *m.pip_install(successor)),
        )
    where = "WSL2 with the Linux wheels" if m.os == "windows" else "Linux, or WSL2 on Windows"
    return Fix(
        f"{seen}: {dist} publishes wheels for fewer Pythons and platforms than TensorFlow "
        f"(its PyPI page lists each release's: {pypi_files_page(dist)}), and "
        "no wheel of the release asked for fits this machine. Run it where its wheels exist "
        f"({where}, or a Linux container) with a Python its newest release supports; a "
        "release pip does list here goes with the TensorFlow it was built for.",
        (
            *index,
            PLATFORM_CHECK,
        ),
    )


def unpublished_release_fix(m: Machine, dist: str, version: str) -> Fix:
    """A pin of a release of the companion ``dist`` that the bundled index of PyPI's files
    does not list, while it lists others: PyPI has no wheel of that release for any Python or
    platform (a release published as a source archive only would be built, not refused), so
    the release is what to change, not the interpreter. The newest release with a wheel for
    each system (the machine's only, where known), and the successor where the project renamed
    its distribution."""
    rows = releases_of(dist)
    newest: dict[str, str] = {}
    for row in rows:  # oldest first: the last release seen for a platform is its newest
        for platform in row.platforms:
            newest[platform] = row.version
    os = m.os
    by_release: dict[str, list[str]] = {}
    for platform, release in sorted(newest.items()):
        if os is None or platform.startswith(f"{os}-") or platform == "any":
            by_release.setdefault(release, []).append(platform)
    offers = "; ".join(
        f"{release} for {platform_words(tuple(platforms))}"
        for release, platforms in sorted(
            by_release.items(), key=lambda item: version_key(item[0]), reverse=True
        )
    )
    successor = modules().successors.get(dist)
    later = f" Its later releases are published as {successor}." if successor is not None else ""
    return Fix(
        f"PyPI has no wheel of {dist} {version}: the releases its files list run from "
        f"{rows[0].version} to {rows[-1].version}, so pip finds none for any Python or "
        f"platform (an older build came from another index, such as the vendor's own). Pin a "
        f"release PyPI has, the newest with a wheel for each system being "
        f"{offers or rows[-1].version}, or install {version} from the index that published "
        f"it (--extra-index-url).{later}",
        (*m.list_releases(dist),),
    )


def unknown_package(dist: str) -> bool:
    """Whether nothing bundled says what ``dist``'s wheels are: outside TensorFlow's family
    and its companions (the module table's ``family`` rows), and not in the index of PyPI's
    files (an application or library around TensorFlow, such as deepspeech, jaxlib or tfx,
    whose Pythons and platforms only its own PyPI files say). A project's nightly
    distribution (dm-reverb-nightly) is described by its releases' rows."""
    table = modules()
    family = {table.dists[module] for module in table.family}
    return not any(
        releases_of(name) or name in TF_DISTRIBUTIONS or name in family
        for name in {dist, dist.removesuffix("-nightly")}
    )


def _python_here(python: Optional[str], stated: bool) -> str:
    """The interpreter's version, as the words of a fix say it: stated by the log, or implied
    by its paths (``lib/python3.9/``); empty where unknown."""
    if not python:
        return ""
    return f" (the log shows Python {python})" if stated else f" (its paths imply Python {python})"


def package_no_wheel_fix(
    m: Machine,
    dist: str,
    spec: str = "",
    shown: bool = True,
    required_by: str = "",
    alone: bool = False,
    installer: str = "pip",
    stated: bool = True,
) -> Fix:
    """pip (or ``installer``: uv, Poetry) saw no release of ``dist``, a distribution nothing
    bundled describes, for this Python and platform: how to read the Pythons and platforms its
    releases publish wheels for (its PyPI files' tags) and what to change, never a Python
    guessed for it. ``shown``: whether pip's list ("from versions: none") is in the log;
    ``required_by``: the package whose requirement it is; ``alone``: the log shows nothing
    else (no Python, system or dependant), where a name PyPI does not have reads the same;
    ``stated``: whether the log states the Python (else its paths imply it)."""
    asked = f"{dist}{spec}"
    if shown:
        seen = f"{installer} lists no release of {dist} at all for this Python and platform"
    else:
        seen = f"{installer} finds no release of {asked} for this Python and platform"
    here = _python_here(m.python_version, stated)
    words = [
        f"{seen}{here}"
        + (f"; {required_by} requires it" if required_by else "")
        + (
            f": no release of {dist} publishes a wheel this interpreter can install."
            if shown or not spec
            # Only pip's last line: the releases the specifier admits, which may not exist.
            else f": the release asked for ({spec}) publishes none this interpreter can "
            "install, or does not exist."
        )
        + " Most often the Python is newer (or older) than any of its releases supports, "
        "else the platform (macOS on Apple silicon, Windows, aarch64, a 32-bit Python) has "
        "none. The tags of its files on PyPI say which (cp310: CPython 3.10; win_amd64, "
        "macosx_11_0_arm64, manylinux_2_17_x86_64: the platforms; "
        f"{pypi_files_page(dist)}): "
        "create a virtual environment with a Python they list, or run it on a platform they "
        "list."
    ]
    if required_by:
        words.append(
            f"Or install a release of {required_by} that does not require {dist} (its "
            "changelog), or leave its extra that asks for it out."
        )
    if alone:
        words.append(
            f"If PyPI has no project named {dist} at all (its page answers 404), the name is "
            "misspelt: pip's words are the same."
        )
    return Fix(" ".join(words), (pypi_files_command(dist), INTERPRETER_CHECK))


def releases_command(resolver: str, dist: str) -> str:
    """A command that lists the releases of ``dist`` where ``resolver`` (not pip: the
    machine's ``pip index versions``) finds them: conda's channels (``conda search``), else
    PyPI's."""
    if resolver == "conda":
        return f"conda search {dist}"
    return pypi_releases_command(dist)


def stale_build_fix(
    m: Machine,
    name: str,
    version: str,
    fixed_in: str,
    tool: str,
    installer: str,
    asked: tuple[str, str, str] = ("", "", ""),
) -> Fix:
    """``name`` ``version``, a release before ``fixed_in`` whose build script the current
    build tools break (``tool``, the module table's words for the tool and the release of it
    that broke them: ``Cython 3.0``): the requirement that asked for it raised (asked for
    beside its requirer, the resolver chooses a release of the requirer that admits
    ``fixed_in`` or names the one that refuses it); with pip, else the old release built with
    the tools of its time outside build isolation. ``asked``: the range pip collected it under,
    the distribution whose requirement that was and the release of it pip chose (empty where
    the log shows none)."""
    spec, requirer, release = asked
    words = RESOLVER_NAMES.get(installer, installer)
    wanted = f"{name}>={fixed_in}"
    head = (
        f"A requirement below {fixed_in} made {words} take {name} "
        f"{version or 'of an older release'}"
    )
    capped = bool(spec) and spec_contains(fixed_in, spec) is False
    raise_it: tuple[str, ...] = ()
    if requirer and capped:
        head += (
            f": {requirer}{f' {release}' if release else ''} requires {name}{spec}, which admits "
            f"no {name} {fixed_in} or later, so asking for {wanted} beside it only makes the "
            f"resolver refuse. Install a release of {requirer} whose range admits {name} "
            f"{fixed_in} (its release notes or `pip index versions {requirer}` list them)."
        )
    elif requirer:
        pinned = f"{requirer}=={release}" if release else requirer
        head += (
            f", {requirer}'s requirement {name}{spec}. Asking for {wanted} beside {requirer} "
            f"makes the resolver choose a {name} that builds, or a release of {requirer} that "
            "admits one, or say which requirement refuses it."
        )
        raise_it = m.pip(f'install "{pinned}" "{wanted}"')
    elif spec:
        head += (
            f", the requirement {name}{spec} the install itself asked for: raise it to {wanted} "
            "where it is written (the requirements file or the command line)."
        )
    else:
        head += (
            f" (the project's own pin, or a package's): raise it to {wanted} where it is "
            "written, or upgrade the package that sets it to a release whose range admits "
            f"{name} {fixed_in} or later."
        )
    if installer == "uv":
        # Which of uv's interfaces ran is not in its build error: a project's (`uv add`,
        # `uv sync`) or its pip interface (`uv pip install`).
        return Fix(
            head + f' With uv: `uv add "{wanted}"` in a project, `uv pip install "{wanted}"` '
            "with the rest of the requirements outside one."
        )
    if installer != "pip":
        added = add_command(installer, wanted)
        return Fix(head, (added,) if added else ())
    # The tool before the release that broke the build, as the row names it (Cython 3.0 ->
    # cython<3.0): the old release builds with it outside build isolation.
    tool_name, _, broke_in = tool.rpartition(" ")
    return Fix(
        head + " Where the requirement cannot move, build the old release with the tools it was "
        f"written for ({tool_name} below {broke_in}, setuptools and wheel installed) without "
        "build isolation.",
        (
            *raise_it,
            *m.pip(f'install "{tool_name.lower()}<{broke_in}" setuptools wheel'),
            *(m.pip(f'install --no-build-isolation "{name}=={version}"') if version else ()),
        ),
    )


def unpublished_pin_fix(
    dist: str, spec: str, resolver: str, known: Sequence[str], python: str = ""
) -> Fix:
    """``resolver`` (``uv pip``, ``uv``, ``poetry``) found no version of ``dist`` matching
    ``spec`` on the index at all: the release is not published (yet). ``known``: the
    releases of ``dist`` this package knows were published with a wheel for the log's Python
    ``python`` (empty: not shown), oldest first (the matrix's, the bundled wheel index's),
    whose newest the fix pins; where none is known, PyPI's list."""
    who = RESOLVER_NAMES.get(resolver, resolver)
    newest = known[-1] if known else ""
    on = f" with wheels for Python {python}" if python else ""
    text = (
        f"{who} finds no version of {dist} matching {spec} on the index: that release is not "
        f"published (a pin written before its upload, or a mistyped version), which no other "
        f"Python or platform changes. Pin a release of {dist} the index has"
        + (f" ({newest} is the newest this tool knows of{on})" if newest else "")
        + ", or wait for the release to be published."
    )
    if python and not newest:
        # No release the tool knows of installs on this Python: a pin alone cannot help.
        text += (
            f" No release of {dist} this tool knows of publishes a wheel for Python {python}: "
            "pin one in a virtual environment with a Python its files list."
        )
    command = add_command(resolver, f"{dist}=={newest}") if newest else None
    return Fix(text, (command,) if command else (pypi_releases_command(dist),))


def mistyped_pin_fix(m: Machine, dist: str, spec: str, release: str) -> Fix:
    """A requirement ``dist`` ``spec`` (``==0.21.2/``) whose version ends in characters no
    version holds, where pip's own list shows ``release``: the pin written as that release.
    pip compares the text after ``==`` with each release and finds none equal; no Python,
    platform or index changes that."""
    return Fix(
        f"The requirement {dist}{spec} names no release: `{spec.lstrip('=')}` ends in "
        "characters no "
        f"version number holds (a slip in the requirements or environment file), while pip's "
        f"own list of {dist} shows {release}. Write the pin as {dist}=={release} where the "
        "requirement is written, and install again.",
        m.pip_install(f"{dist}=={release}"),
    )


def set_aside_pin_fix(dist: str, spec: str, resolver: str, reason: str, index: str) -> Fix:
    """uv (``resolver``: ``uv pip`` or ``uv``, a project) found no version of ``dist``
    matching ``spec`` among those it considered, and its hint says why others were set aside
    (``reason``: ``index``, ``exclude-newer``, ``pre-release``; ``index``: the index it found
    ``dist`` on): uv's own option takes them in (its hints' words, crates/uv-resolver/src/
    pubgrub/report.rs)."""
    project = resolver == "uv"
    wanted = f"{dist}{spec}"
    if reason == "index":
        text = (
            f"uv found {dist} on {index or 'an earlier index'} without {spec} and, to avoid "
            "dependency confusion, looks no further than the first index that has a package: "
            f"the release may be on a later index (PyPI). Where every index is trusted, let uv "
            "consider them all (`--index-strategy unsafe-best-match`"
            + (', or `index-strategy = "unsafe-best-match"` under [tool.uv]' if project else "")
            + f"), or take {dist} from its own index by name."
        )
        option = "--index-strategy unsafe-best-match"
    elif reason == "exclude-newer":
        text = (
            f"uv set aside the releases of {dist} uploaded after its exclude-newer cutoff (the "
            "`--exclude-newer` option, or `exclude-newer` in pyproject.toml or uv.toml): move "
            f"the cutoff past the upload of {wanted}, or pin a release uploaded before it."
        )
        return Fix(text, ())
    else:
        text = (
            f"Only pre-releases of {dist} match {spec}, and uv takes a pre-release only where "
            "asked: allow them for this package (uv's hint: `--prerelease=allow`), or pin a "
            f"final release of {dist}."
        )
        option = "--prerelease=allow"
    command = f"uv lock {option}" if project else f'uv pip install {option} "{wanted}"'
    return Fix(text, (command,))


def pinned_package_fix(
    m: Machine,
    dist: str,
    spec: str,
    asked: Optional[str],
    listed: Sequence[str],
    required_by: str = "",
    stated: bool = True,
) -> Fix:
    """pip lists releases of ``dist`` (a distribution nothing bundled describes) but none
    ``spec`` admits: the pinned release (``asked``, where ``spec`` pins one) publishes no
    wheel for this Python and platform while others do. Its own files' tags say which Python
    it needs; a dependant's pin (``required_by``) moves with a release of that dependant, not
    by installing another. ``stated``: whether the log states the Python."""
    shown = ", ".join(listed[-4:])
    here = _python_here(m.python_version, stated)
    who = f", which {required_by} requires" if required_by else ""
    if "+" in spec:
        # A local version label ("==1.4.0+cpu"): PyPI refuses uploads of local versions (PEP
        # 440 keeps them off public indexes), so only the project's own index serves it.
        return Fix(
            f"pip lists {dist} {shown} here but not {spec.lstrip('=')}{who}: a local version "
            "(the part after '+') is never on PyPI, which accepts no local versions; only the "
            f"index of {dist}'s own builds serves it. Add that index as {dist}'s install "
            "page names it (pip's --extra-index-url or -f), or pin a release pip lists here.",
            m.pip("config list"),
        )
    wanted = f"not {asked}" if asked else f"no release {spec} admits"
    later = bool(asked) and all(version_key(v) > version_key(asked or "") for v in listed)
    # Only where every release listed is newer is the Python likely the newer one.
    why = (
        "while later ones do (most often the Python is newer than the release was built for)"
        if later
        else "while other releases do (it was built for other Pythons or platforms)"
    )
    text = (
        f"pip lists {dist} {shown} here{here} but {wanted}{who}: "
        + ("that release" if asked else "the release asked for")
        + f" publishes no wheel for this Python and platform, {why}, or does not exist (pip's "
        f"words are the same). The tags of its files on "
        f"PyPI say which Pythons and platforms it has (cp310: CPython 3.10; "
        f"{pypi_files_page(dist)}): create a virtual environment with one of "
        "them"
        + (
            f", or install a release of {required_by} that requires a {dist} pip lists here."
            if required_by
            else f", or pin a release of {dist} pip lists here."
        )
    )
    commands = (
        pypi_files_command(dist, asked) if asked else pypi_files_command(dist),
        INTERPRETER_CHECK,
    )
    return Fix(text, commands)


def yanked_placeholder_fix(m: Machine, dist: str, version: str) -> Fix:
    """pip installed ``version`` of ``dist``, a yanked release whose wheel is pure Python,
    where the distribution's releases are native: a resolver takes a yanked release only where
    no other matches (PEP 592), so no real release has a wheel for this Python and platform.
    What the releases publish, from the bundled index of PyPI's files, else where to read it."""
    known = published_wheels(m, dist) or (
        f"Its PyPI page lists the Pythons and platforms of each release's wheels "
        f"({pypi_files_page(dist)})."
    )
    return Fix(
        f"pip installed {dist} {version}, a yanked release whose wheel is pure Python, not a "
        f"build of {dist}'s compiled code: pip takes a yanked release only where no other "
        f"release matches, so no release of {dist} has a wheel for this Python and platform. "
        f"{known} Remove it, then install {dist} with a Python and on a platform its wheels "
        "are for (a new virtual environment of that Python).",
        (
            *m.pip(f"uninstall -y {dist}"),
            *m.list_releases(dist),
            PLATFORM_CHECK,
        ),
    )


def op_library_major_fix(
    m: Machine, major: str, installed: Optional[str], package: Optional[str] = None
) -> Fix:
    """A package's op library built for TensorFlow ``major``.x, loaded by another TensorFlow
    (``installed`` where known): its release for the installed TensorFlow, or that major.
    ``package``: the distribution (or words naming the import package) whose op it is, where
    the log shows it."""
    have = f"TensorFlow {installed}" if installed else "the installed TensorFlow"
    if package is not None:
        return Fix(
            f"The compiled ops of {package} (loaded with tf.load_op_library) link TensorFlow "
            f"{major}.x's own library, which {have} does not have: the installed release of "
            f"{package} was built for TensorFlow {major}.x. Install the release of {package} "
            "built for the installed TensorFlow (its compatibility table or release notes say "
            "which; one built from source as it installed is rebuilt by installing it again "
            "with this TensorFlow in place, without pip's cache), or use it with a TensorFlow "
            f"{major}.x in an environment of its own.",
            (*m.pip("show tensorflow"), *m.pip("list")),
        )
    return Fix(
        f"A package's compiled ops (loaded with tf.load_op_library) link TensorFlow {major}.x's "
        f"own library, which {have} does not have: the package was built for TensorFlow "
        f"{major}.x. Install its release built for the installed TensorFlow (its "
        "compatibility table, or `pip index versions PACKAGE`), or use it with a TensorFlow "
        f"{major}.x in an environment of its own.",
        (*m.pip("show tensorflow"), *m.pip("list")),
    )


#: std::string in the old C++ ABI's mangling: the standard substitution ``Ss`` after a name,
#: a pointer, reference or cv-qualifier, or ending the symbol.
_OLD_ABI_STRING = re.compile(r"(?<=[0-9A-Z_])Ss(?=[A-Z0-9_]|$)")


def cxx_abi_of(symbol: str) -> Optional[str]:
    """The C++ ABI a missing mangled symbol was asked for in: ``cxx11`` where it names the
    C++11 ABI's types (``std::__cxx11``, ``[abi:cxx11]``), ``old`` where it takes the old
    ABI's std::string (``Ss``), None where it shows neither (GCC's dual ABI:
    https://gcc.gnu.org/onlinedocs/libstdc++/manual/using_dual_abi.html)."""
    if "cxx11" in symbol:
        return "cxx11"
    return "old" if _OLD_ABI_STRING.search(symbol) else None


#: TensorFlow's own compile and link flags for an op built against it (tf.sysconfig; its
#: compile flags carry -D_GLIBCXX_USE_CXX11_ABI as this TensorFlow was built:
#: https://www.tensorflow.org/guide/create_op).
TF_OP_FLAGS_COMMAND = (
    "python -c \"import tensorflow as tf; print(' '.join(tf.sysconfig.get_compile_flags() + "
    'tf.sysconfig.get_link_flags()))"'
)


# TensorFlow's wheels are compiled with _GLIBCXX_USE_CXX11_ABI=1 since 2.9 (its release notes:
# https://github.com/tensorflow/tensorflow/releases/tag/v2.9.0), with 0 before.
def _abi_sentence(abi: Optional[str], what: str) -> str:
    """What the missing symbol's ABI says of ``what`` (the library that asked for it)."""
    if abi == "cxx11":
        return (
            " The missing symbol is the C++11 ABI's (std::__cxx11), which a TensorFlow "
            f"compiled with _GLIBCXX_USE_CXX11_ABI=0 lacks: {what} was compiled with the "
            "other ABI than this TensorFlow, or against another release."
        )
    if abi == "old":
        return (
            " The missing symbol takes the old ABI's std::string (Ss), which a TensorFlow "
            "compiled with _GLIBCXX_USE_CXX11_ABI=1 lacks (TensorFlow's own wheels since 2.9, "
            f"builds from source with a current GCC): {what} was compiled with "
            "-D_GLIBCXX_USE_CXX11_ABI=0, or against another release."
        )
    return ""


#: A mangled name inside TensorFlow's own namespace (N10tensorflow..., 10tensorflow8OpKernel).
_TF_NAMESPACE = re.compile(r"(?<!\d)10tensorflow\d")
# Since TensorFlow 1.4 its framework code lives in libtensorflow_framework, which an op
# library must link (its release notes; the guide's link line -L$TF_LIB -ltensorflow_framework,
# which tf.sysconfig.get_link_flags() gives): a TensorFlow symbol of no C++ ABI of its own
# (OpKernel's typeinfo, a kernel's vtable) undefined says that link is missing, unless the
# op was built against a release whose API differs.
_FRAMEWORK_SENTENCE = (
    " The missing symbol is TensorFlow's own and names no std::string, so no ABI choice "
    "explains it: the op was not linked against TensorFlow's framework library "
    "(libtensorflow_framework, since TensorFlow 1.4), or was compiled against a release "
    "whose API differs. Link it with the flags tf.sysconfig.get_link_flags() prints "
    "(-L<TensorFlow's directory> -ltensorflow_framework, or -l:libtensorflow_framework.so.N "
    "by the file the release ships)."
)


def _absl_sentence(symbol: str) -> str:
    """What an Abseil release namespace in the missing symbol says (:data:`_ABSL_LTS`: TensorFlow's
    headers carry the Abseil of their own release, so a missing symbol naming one says which
    headers an op was compiled against), or ""."""
    found = _ABSL_LTS.search(symbol)
    if found is None:
        return ""
    return (
        f" The missing symbol names Abseil's release namespace (absl::lts_{found.group('date')}), "
        "which TensorFlow's headers fix per release: the op was compiled against the headers "
        "of another TensorFlow release than the installed one, which no link or ABI flag "
        "mends."
    )


def custom_op_fix(library: str, symbol: str, installed: Optional[str] = None) -> Fix:
    """A project's own op library (built by its script, or shipped prebuilt) that misses one
    of TensorFlow's C++ symbols: rebuilt against the installed TensorFlow with its flags
    (``symbol``: the missing one, "" where the log shows none; ``installed``: the release the
    log shows, whose own build then says the ABI, so the symbol's is named only without it)."""
    what = library or "The op library tf.load_op_library loads"
    abi = cxx_abi_of(symbol)
    # Releases before 1.4 have no framework library to link.
    absl = _absl_sentence(symbol)
    framework = (
        abi is None
        and not absl
        and _TF_NAMESPACE.search(symbol) is not None
        and (installed is None or version_key(installed)[:2] >= (1, 4))
    )
    return Fix(
        f"{what} is the project's own build, compiled against another TensorFlow or with "
        "other flags than the installed one."
        + (_abi_sentence(abi, "it") if installed is None else "")
        + (_FRAMEWORK_SENTENCE if framework else "")
        + absl
        + " Rebuild it against the installed TensorFlow with the compile and link flags it "
        "reports (they carry its -D_GLIBCXX_USE_CXX11_ABI value: a build script that sets "
        "_GLIBCXX_USE_CXX11_ABI itself must use TensorFlow's), then run again; or install "
        "the TensorFlow release the project's build script was written for.",
        (TF_OP_FLAGS_COMMAND,),
    )


#: Where nsync's headers lie in the wheel's include directory: TensorFlow 1.x's guide to
#: adding an op compiled with ``-I$TF_INC -I$TF_INC/external/nsync/public``
#: (https://github.com/tensorflow/tensorflow/blob/r1.4/tensorflow/docs_src/extend/adding_an_op.md).
_NSYNC_INCLUDE_COMMAND = (
    'python -c "import os, tensorflow as tf; '
    "print(os.path.join(tf.sysconfig.get_include(), 'external', 'nsync', 'public'))\""
)


def custom_op_compile_fix(header: Optional[str], plugin: bool = False) -> Fix:
    """A project's own op whose compiler run fails against the installed TensorFlow's headers
    (``header``: the one not found, None where the compiler refused what a header holds;
    ``plugin``: an op the project compiles with nvcc as it runs, StyleGAN's custom_ops.py)."""
    nsync = header is not None and header.startswith("nsync")
    missing = (
        f"{header} is nsync's, which the wheel keeps under its include directory's "
        "external/nsync/public: add that directory (-I) beside TensorFlow's own flags. "
        if nsync
        else f"The compiler did not find {header} where the build looks for TensorFlow's "
        "headers: they are under the installed release's include directory, whose layout "
        "moves between releases. "
        if header
        else ""
    )
    # StyleGAN2's dnnlib/tflib/custom_ops.py passes nvcc "-D_GLIBCXX_USE_CXX11_ABI=0" and
    # TensorFlow's include paths of its own (https://github.com/NVlabs/stylegan2).
    where = (
        "The project compiles its CUDA plugin with nvcc as it runs, with include paths and "
        "a -D_GLIBCXX_USE_CXX11_ABI value written into its build code for one TensorFlow "
        "(StyleGAN's custom_ops.py sets 0): where the installed TensorFlow reports the other "
        "value, change it there; the output below the failure says which step failed. "
        if plugin
        else ""
    )
    return Fix(
        where + missing + "Build the op with the flags the installed TensorFlow reports "
        "(tf.sysconfig.get_compile_flags(): its include directory, the C++ standard and the "
        "-D_GLIBCXX_USE_CXX11_ABI value it was built with; get_link_flags(): its framework "
        "library by the file it ships), not the ones the Makefile, setup.py or build script "
        "writes, and with a gcc the release's headers and, for CUDA code, the CUDA "
        "toolkit's nvcc accept (TensorFlow's tested build configurations list the GCC of "
        "each release; NVIDIA's installation guide the host compilers of each toolkit). "
        "Or install the TensorFlow release the project's build was written for.",
        (
            TF_OP_FLAGS_COMMAND,
            *((_NSYNC_INCLUDE_COMMAND,) if nsync else ()),
            "gcc --version",
            *(("nvcc --version",) if plugin else ()),
        ),
    )


def custom_op_link_fix(m: Machine, library: Optional[str], installed: Optional[str]) -> Fix:
    """A project's own op linked, or loaded, by a framework library name the installed
    TensorFlow does not ship (``library``: the name asked for, where shown; ``installed``:
    the release the log shows): TensorFlow's own link flags, the op rebuilt; before 1.4,
    which has none (https://github.com/tensorflow/tensorflow/blob/v1.4.0/RELEASE.md), the
    link without it."""
    named = f" ({library})" if library else ""
    have = f"TensorFlow {installed}" if installed else "the installed TensorFlow"
    if installed and version_key(installed)[:2] < (1, 4):
        # TensorFlow 1.4's release notes: custom op libraries must link against
        # libtensorflow_framework.so from then on; the releases before have no such library.
        return Fix(
            f"{have} has no framework library at all: TensorFlow 1.4 brought "
            "libtensorflow_framework.so, which the op's build links. Remove "
            "-ltensorflow_framework (and its -L) from the build's link line for this release, "
            "or install TensorFlow 1.4 or later, the releases the build was written for, and "
            "build with the flags it reports.",
            (TF_OP_FLAGS_COMMAND, *m.pip("show tensorflow")),
        )
    return Fix(
        f"The op was linked against a TensorFlow framework library{named} that the linker or "
        f"loader does not find by that name where it looks, for {have}: the wheels name the "
        "file by the release's major (libtensorflow_framework.so.1 for 1.x's versioned "
        "names, .so.2 for 2.x; on macOS libtensorflow_framework.N.dylib) in TensorFlow's own "
        "directory. Rebuild the op with the flags the installed TensorFlow reports "
        "(tf.sysconfig.get_link_flags(): that directory (-L) and its library, "
        "-l:libtensorflow_framework.so.N), not the name the build script writes, or install "
        "the TensorFlow release the project's build was written for.",
        (TF_OP_FLAGS_COMMAND,),
    )


#: A mangled function of the global namespace: _Z, its name's length, the name.
_GLOBAL_FUNCTION = re.compile(r"^_Z(?P<length>[1-9]\d{0,2})(?P<rest>[A-Za-z_]\w*)$")


def global_function_name(symbol: str) -> Optional[str]:
    """The name of a mangled function of the global namespace (``_Z21query_ball_point_gpuii``:
    ``query_ball_point_gpu``; the Itanium C++ ABI's <source-name>, its length first), or
    None for any other symbol."""
    found = _GLOBAL_FUNCTION.match(symbol)
    if found is None:
        return None
    length, rest = int(found.group("length")), found.group("rest")
    return rest[:length] if len(rest) >= length else None


def custom_op_cudart_fix(library: Optional[str], symbol: str) -> Fix:
    """A project's CUDA op whose host code, from a newer nvcc, calls an entry point the CUDA
    runtime it links lacks (``symbol``: __cudaPushCallConfiguration from CUDA 9.2,
    __cudaRegisterFatBinaryEnd from 10.1, clang's Cuda.cpp): one toolkit for both."""
    what = library or "The op library"
    since = "10.1" if symbol == "__cudaRegisterFatBinaryEnd" else "9.2"
    return Fix(
        f"{what} was compiled by an nvcc of CUDA {since} or later, whose code calls {symbol} "
        "in the CUDA runtime, but it is linked with (or loads) an older libcudart, or none. "
        "Compile its .cu files and link the library with one CUDA toolkit: that toolkit's "
        "nvcc, and -L<its lib64> -lcudart on the link line (the build script's CUDA path), "
        "the toolkit of the CUDA release the installed TensorFlow is built for; then "
        "rebuild the op.",
        ("nvcc --version", TF_OP_FLAGS_COMMAND),
    )


def custom_op_cuda_unfound_fix(library: str) -> Fix:
    """A project's op library linking a CUDA library (``library``, its soname) the loader
    does not find: the op rebuilt with the CUDA toolkit here, the one TensorFlow uses."""
    what = library or "a CUDA library"
    return Fix(
        f"The op library tf.load_op_library loads links {what}, a CUDA release the loader "
        "does not find here: the op was built against another CUDA toolkit than the one "
        "this machine has (or the installed TensorFlow uses). Rebuild the op with the "
        "toolkit installed here (its nvcc, -L<its lib64> -lcudart) and TensorFlow's flags, "
        "or install that CUDA release's libraries and put their directory on "
        "LD_LIBRARY_PATH.",
        ("nvcc --version", "ldconfig -p | grep libcudart", TF_OP_FLAGS_COMMAND),
    )


def custom_op_unbuilt_fix(library: Optional[str]) -> Fix:
    """A project's own op library that is not where the code loads it: built first."""
    what = library or "The op library"
    return Fix(
        f"{what} does not exist: the project's op was not built on this machine (its build "
        "step, a Makefile or compile script, was not run or failed), or the code loads it "
        "from another directory than the build writes to. Run the project's build of its "
        "ops against the installed TensorFlow (with the flags tf.sysconfig reports), check "
        "that step ends without errors, and that the file appears where the code loads it.",
        (TF_OP_FLAGS_COMMAND,),
    )


def custom_op_windows_fix(library: Optional[str]) -> Fix:
    """A project's own op library Windows did not load (TensorFlow words every LoadLibraryExW
    failure "<file> not found"): there, built on and for Windows, its DLLs found."""
    what = library or "The op library"
    return Fix(
        f"Windows did not load {what}; TensorFlow says 'not found' whatever Windows' reason: "
        "the file is not there (the op was never built on this machine), it was built on "
        "another system (a .so compiled on Linux does not load on Windows), or a DLL it "
        "links (TensorFlow's _pywrap_tensorflow_internal, CUDA's) is not found. Build the op "
        "on this machine against the installed TensorFlow (MSVC, with the include directory "
        "and library tf.sysconfig reports) and check it exists where the code loads it, or "
        "run the project on Linux or WSL2, where its build scripts were written for.",
        (TF_OP_FLAGS_COMMAND,),
    )


def custom_op_unlinked_fix(library: Optional[str], symbol: str) -> Fix:
    """A project's op library missing a function of its own (``symbol``, of the global
    namespace): the object that defines it, the CUDA kernels' nvcc output as a rule, left out
    of its link."""
    what = library or "The op library"
    name = global_function_name(symbol)
    shown = f"`{name}` ({symbol})" if name else symbol
    return Fix(
        f"{what} lacks {shown}, a function of the project's own code: the object that "
        "defines it was left out of the library's link. In an op with CUDA kernels that is "
        "the .cu.o nvcc compiles (an nvcc step that failed or was skipped, or a link line "
        "without it): rebuild the op with every object on the link line, after its nvcc "
        "step has run without errors, using the flags the installed TensorFlow reports.",
        ("nvcc --version", TF_OP_FLAGS_COMMAND),
    )


def custom_op_macos_link_fix(m: Machine, flag: Optional[str], installed: Optional[str]) -> Fix:
    """A project's own op linked on macOS by a framework library flag Apple's linker refuses
    (``flag``: the -l flag shown; ``installed``: the release the log shows). Apple's ld has no
    GNU -l:FILE form; tf.sysconfig.get_link_flags() gives macOS -ltensorflow_framework.N
    (https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/python/platform/sysconfig.py),
    where TensorFlow 1.14's gave the -l: form (https://github.com/horovod/horovod/issues/1468:
    mended in 1.15)."""
    if flag is None or not flag.startswith("-l:"):
        return custom_op_link_fix(m, flag, installed)
    old = installed is None or version_key(installed)[:2] < (1, 15)
    return Fix(
        f"Apple's linker has no GNU ld -l:FILE form, so {flag} never resolves on macOS. Link "
        "TensorFlow's framework library as -ltensorflow_framework.N (N: the release's major) "
        "with -L and TensorFlow's own directory, the flags tf.sysconfig.get_link_flags() "
        "prints on macOS"
        + (
            " from TensorFlow 1.15 on; TensorFlow 1.14's printed the -l: form itself, so a "
            "build that takes its flags (Horovod's, a custom op's setup.py) needs TensorFlow "
            "1.15 or later, or that flag written into the build instead."
            if old
            else "; the -l: flag comes from the project's own build script: change it there."
        ),
        (TF_OP_FLAGS_COMMAND,),
    )


#: tensorflow/addons' README, "C++ Custom Op Compatibility" (at the tag v0.13.0): custom ops
#: built against PyPI's TensorFlow work with a pip-installed TensorFlow, "but will have issues
#: when TensorFlow is compiled differently. A typical example of this would be conda-installed
#: TensorFlow."
CUSTOM_OP_PIP_ONLY = (
    "https://github.com/tensorflow/addons/blob/v0.13.0/README.md#c-custom-op-compatibility"
)


def links_pypi_tensorflow(dist: str) -> bool:
    """``dist`` is a TensorFlow companion whose wheels carry compiled code linked against
    PyPI's TensorFlow (the module table: native, and of TensorFlow's family or written on its
    API), not TensorFlow itself nor a runtime of its own (tflite-runtime)."""
    table = modules()
    name = normalize_name(dist)
    module = table.module_of(name)
    return (
        name in table.native
        and module is not None
        and (module in table.family or module in table.on_tensorflow)
        and name not in TF_DISTRIBUTIONS
    )


def conda_pypi_companion_fix(
    m: Machine, tf_version: str, conda_names: Sequence[str], gpu: bool = False
) -> Fix:
    """Replace conda's TensorFlow build (``conda_names``, its packages here; ``gpu``: a GPU
    build) with PyPI's of the same version, which PyPI's companion wheels are built against.
    A GPU build is the matrix's GPU distribution of the release (the separate tensorflow-gpu
    before 2.1, whose plain wheel carries GPU support: https://www.tensorflow.org/install/pip).
    A plain install, not ``--force-reinstall``: once conda removed its build pip sees no
    TensorFlow, and the forced form would reinstall every dependency as well (pip's
    --force-reinstall: "Reinstall all packages even if they are already up-to-date"),
    replacing conda's NumPy, h5py and protobuf with PyPI's newest in range."""
    gpu_dist = m.matrix.gpu_distribution(tf_version) if gpu and m.matrix is not None else None
    dist = gpu_dist or "tensorflow"
    return Fix(
        f"Install TensorFlow {tf_version} from PyPI in place of conda's build, in this "
        "environment: the companion's wheel is built against PyPI's TensorFlow, and conda's "
        "own build of the same version is compiled differently (tensorflow/addons' custom-op "
        "compatibility note), so its compiled ops fail to load. Or install the companion "
        "from the same conda channel as TensorFlow, where one is published there.",
        (
            *m.conda_remove(*conda_names, force=True),
            *m.pip_install(f"{dist}=={tf_version}"),
        ),
    )


def conda_pip_duplicate_fix(
    m: Machine,
    conda_rows: Sequence[tuple[str, str, str]],
    pip_rows: Sequence[tuple[str, str]],
) -> Fix:
    """TensorFlow installed twice into one conda environment: conda's packages
    (``conda_rows``: name, version, the channel conda list shows; tensorflow-base holds the
    files) and pip's wheels (``pip_rows``, conda list's ``pypi`` rows) write the same
    ``tensorflow/`` folder of its site-packages, and neither installer knows of the other's
    files. Both out, the newest final release back with the installer, and from conda the
    channel, that had it: a package of conda-forge's build comes back from conda-forge, not
    from whichever channel the configuration puts first (``conda install -c CHANNEL``:
    https://docs.conda.io/projects/conda/en/stable/commands/install.html)."""
    rows = [(n, v, "pip", "") for n, v in pip_rows] + [
        (n, v, "conda", channel) for n, v, channel in conda_rows
    ]
    finals = [r for r in rows if re.fullmatch(r"\d+(?:\.\d+)*", r[1]) and r[0] != "tensorflow-base"]
    name, version, installer, channel = max(finals or rows, key=lambda r: version_key(r[1]))
    conda_names = sorted({n for n, _, _ in conda_rows})
    pip_names = sorted({n for n, _ in pip_rows})
    # conda list's channel column names a channel (conda-forge, defaults, anaconda, a URL);
    # an empty one is the configured default, installed from without -c.
    from_channel = channel if channel and channel != "pypi" else ""
    again = (
        m.pip_install(f"{name}=={version}")
        if installer == "pip"
        else m.conda_install(f"{name}={version}", channel=from_channel, yes=True)
    )
    return Fix(
        "conda list shows TensorFlow from both installers in this environment: conda's "
        + ", ".join(f"{n} {v}" for n, v, _ in conda_rows)
        + " and pip's "
        + ", ".join(f"{n} {v}" for n, v in pip_rows)
        + " (channel pypi). Both write the same tensorflow/ folder, so the import runs a mix "
        "of two releases' files, and removing either with its own installer deletes files the "
        f"other needs. Remove both, then install one (the commands keep {name} {version} "
        f"from {installer}{f' ({channel})' if from_channel else ''}, the newest shown).",
        (
            *m.conda_remove(*conda_names, force=True),
            *m.pip(f"uninstall -y {' '.join(pip_names)}"),
            *again,
        ),
    )


def protobuf_copies_fix(
    m: Machine,
    conda_rows: Sequence[tuple[str, str]],
    pip_versions: Sequence[str],
    shown: str = "The listing shows",
) -> Fix:
    """protobuf installed more than once into one environment, as a listing (or the
    environment's own records: ``shown`` says which) shows it:
    ``conda_rows`` (version, channel) are conda's packages, ``pip_versions`` pip's copies
    (conda list's ``pypi`` or ``<pip>`` rows). Every copy writes the one ``google/protobuf/``
    folder, so its Python code and its compiled part may come from different releases.
    Each copy out with the installer that put it there (pip's uninstall removes the first
    copy it finds, so once a copy), then one back: conda's release from its channel where
    conda had one (conda's solver chose it for the environment's other packages), else the
    newest pip copy shown."""
    removal = (
        *(m.conda_remove("protobuf", force=True) if conda_rows else ()),
        *(command for _ in pip_versions for command in m.pip("uninstall -y protobuf")),
    )
    copies = [f"conda's {v}{f' ({c})' if c and c != 'pypi' else ''}" for v, c in conda_rows]
    copies += [f"pip's {v}" for v in pip_versions]
    if conda_rows:
        version, channel = conda_rows[0]
        again = m.conda_install(
            f"protobuf={version}", channel=channel if channel != "pypi" else "", yes=True
        )
        kept = f"protobuf {version} from conda, the release conda had installed"
    else:
        # The newest copy TensorFlow's range admits: the newest shown may be one TensorFlow
        # does not load (protobuf 4 under TensorFlow 2.10's protobuf<3.20).
        spec = m.runs_with("protobuf")
        fits = [v for v in pip_versions if spec is None or spec_contains(v, spec)]
        version = max(fits or pip_versions, key=version_key)
        if fits or spec is None:
            again = m.pip_install(f"protobuf=={version}")
            kept = f"protobuf {version} from pip, the newest shown" + (
                f" that TensorFlow's protobuf{spec} admits" if spec else ""
            )
        else:
            again = m.pip_install(f"protobuf{spec}")
            kept = f"protobuf{spec} from pip, TensorFlow's range, which no copy shown meets"
    return Fix(
        f"{shown} protobuf {len(copies)} times ({', '.join(copies)}): every copy "
        "writes the same google/protobuf/ folder, so the import runs parts of several "
        "releases. Remove every copy, each with the installer that put it there (pip's "
        f"uninstall once a copy), then install one ({kept}).",
        (*removal, *again),
    )


def protobuf_reinstall_fix(m: Machine) -> Fix:
    """protobuf's Python files and its compiled module of two releases, no listing showing
    how many copies wrote them: protobuf installed again over its files (a plain install sees
    the release installed and does nothing), in TensorFlow's range where one is known, so one
    release writes every file of ``google/protobuf/``."""
    installed = m.facts.package("protobuf")
    spec = m.runs_with("protobuf") or (f"=={installed.version}" if installed else "")
    return Fix(
        "Install protobuf again over its files, so that its Python code and its compiled "
        "module are of one release (a plain install sees protobuf installed and changes "
        "nothing). Where `pip list` or `conda list` still shows protobuf more than once, "
        "remove each copy with the installer that put it there, then install one.",
        m.reinstall(f"protobuf{spec}"),
    )


def library_pin_detail(library: str, target: str, capped: bool = False) -> str:
    """Why an exact pin of ``library`` on ``target`` (``capped``: a cap below a release
    TensorFlow requires) is reported while another release is installed: the one sentence
    check and explain give it."""
    if capped:
        return (
            f"{library}'s cap on {target} is older than the {target} installed, a package "
            f"TensorFlow requires: moving {target} back below the cap would take it out of the "
            f"range TensorFlow declares, so {library} is what moves."
        )
    return (
        f"An exact pin leaves {library} one release of {target}; the environment holds "
        "another, which pip reports (`pip check`, and after every install) until one of the "
        "two moves."
    )


def library_pin_fix(
    m: Machine,
    library: str = "",
    target: str = "",
    pin: str = "",
    have: str = "",
    move_back: bool = True,
) -> Fix:
    """A release of ``library`` whose requirement on ``target`` admits the installed ``have``:
    how to find it (the releases pip can install here) and what to look for. No table holds
    a library's requirements per release, so no release is named, and no blind upgrade is
    run: it may keep the pin, or move TensorFlow's own dependencies. ``move_back``: also the
    other way, ``target`` moved to the pin (not for a cap below what TensorFlow requires)."""
    name = library or "<library>"
    dep = target or "<dependency>"
    held = f"{dep} {have}" if have else f"the installed {dep}"
    back = (
        f" Or install {dep}{pin} where that release publishes a wheel for this Python and "
        "TensorFlow's own range admits it;"
        if move_back
        else f" Keep {held}: TensorFlow requires {dep}, and {name}'s range stops below it;"
    )
    # A cap is named as the library's range, not as a requirement one could paste: the fix
    # is not to install it.
    said = f"{name} pins {dep}{pin}" if move_back else f"{name}'s {dep} range ({pin}) caps it"
    return Fix(
        f"{said}, and the environment holds {held}. Install the release of {name} whose {dep} "
        f"requirement admits {held}: the commands list the releases pip can install here, and "
        f"each release's requirements on {dep} are on its project page (a newer release often "
        f"relaxes {'an exact pin' if move_back else 'an old cap'}).{back} `pip check` shows "
        "what is left.",
        (*m.list_releases(name), *m.pip("check")),
    )


def keras_submodules_fix(m: Machine) -> Fix:
    """A standalone Keras 2.2.0-2.2.2 beside a keras_applications without the hook it calls:
    Keras 2.2.4, which passes its submodules per call, or the keras_applications it pinned."""
    # Keras 2.2.0-2.2.2's keras/applications/__init__.py calls
    # keras_applications.set_keras_submodules on import; from 2.2.3 it calls it only where
    # keras_applications lacks get_submodules_from_kwargs (1.0.6 on), and keras_applications
    # 1.0.8 dropped the deprecated hook.
    return Fix(
        "The installed standalone Keras is older than its keras_applications: Keras 2.2.0 to "
        "2.2.2 call keras_applications.set_keras_submodules on import, which newer "
        "keras_applications releases no longer have. Install Keras 2.2.4, which passes its "
        "submodules to keras_applications per call, or keep keras_applications at the "
        "release that Keras pins (keras_applications<1.0.8).",
        m.install("keras==2.2.4"),
    )


def numba_numpy_fix(m: Machine, bound: str, upper: bool) -> Fix:
    """NumPy inside the range the installed numba states at import (``bound`` or less where
    ``upper``, else ``bound`` or greater), or the numba release for the installed NumPy."""
    # numba/__init__.py's _ensure_critical_deps compares NumPy's (major, minor) with the
    # range the numba release supports: "1.21 or less" admits every 1.21.x.
    major, _, minor = bound.partition(".")
    spec = f"numpy<{major}.{int(minor) + 1}" if upper and minor.isdigit() else f"numpy>={bound}"
    said = f"NumPy {bound} or less" if upper else f"NumPy {bound} or greater"
    return Fix(
        f"The installed numba supports {said} and refuses to import with the NumPy this "
        f"environment holds. Install NumPy in numba's range ({spec}, where it also fits "
        "TensorFlow's and the other packages' ranges), or upgrade numba to a release that "
        "supports the installed NumPy; `pip check` shows what is left.",
        (*m.install(spec), *m.upgrade("numba"), *m.pip_after_install("check")),
    )


def companion_keras_words(
    m: Machine, comp: PackageFacts, own: CompanionRelease, metadata: bool
) -> tuple[str, str, Fix]:
    """The summary, detail and fix of a companion (or a library built on TensorFlow) ``comp``
    whose release's row ``own`` names the standalone Keras its code works with, beside an
    installed keras outside it (:attr:`Machine.companions_off_keras`), for ``check`` and
    ``explain`` alike. ``metadata``: ``comp``'s declared requirements were read (a machine),
    so that they admit the keras is known."""
    keras = m.facts.package("keras")
    installed = keras.version if keras is not None else "?"
    specs = m.declared_keras(comp)
    said = f" (keras{','.join(specs)})" if specs else ""
    admits = (
        f"; its metadata admits keras {installed}{said}, so neither pip nor `pip check` reports it."
        if metadata
        else "."
    )
    return (
        f"{comp.name} {comp.version} is written for keras{own.keras}, beside keras {installed}",
        f"Its release {own.release}'s code works with keras{own.keras} (the companion table, "
        f"from {', '.join(m.companion_urls(comp.name, own))}), which its project narrowed to "
        f"after Keras' API changes: with keras {installed} what it builds on Keras can "
        f"fail{admits}",
        companion_keras_fix(m, comp.name, comp.version, own.keras),
    )


def companion_keras_fix(m: Machine, name: str, version: str, keras: str) -> Fix:
    """A companion (or a library built on TensorFlow) ``name`` ``version`` whose release's
    code works with the standalone Keras ``keras`` only (the companion table's row), beside a
    keras outside it: that Keras, or the library's release written for the installed one."""
    return install_fix(
        m,
        f"Install a keras that {name} {version}'s code works with (keras{keras}), or a "
        f"release of {name} written for the installed Keras.",
        f"keras{keras}",
    )


def companion_fix(
    m: Machine,
    name: Optional[str],
    comp: Optional[PackageFacts] = None,
    target: str = "tensorflow",
    spec: str = "",
    abi: Optional[str] = None,
) -> Fix:
    """Align a companion (``name``; ``comp`` where its facts are known, declaring ``spec`` on
    ``target``) with the installed TensorFlow, the side that changes least: its release for
    this TensorFlow (the companion table), else the ``target`` range it declares, and only
    where no release fits, TensorFlow moved to the companion's range, said so. Known by name
    alone (a log's library path), without a table row or TensorFlow's version: how to find it.
    ``abi``: the C++ ABI the missing symbol was asked for in (:func:`cxx_abi_of`), where one
    shows: a TensorFlow built apart from PyPI's (from source, conda, a vendor's image) is
    then the other candidate, named after the release's fix.
    """
    fix = _companion_release_fix(m, name, comp, target, spec)
    if abi is None:
        return fix
    shown = name or "the add-on"
    return Fix(
        fix.text
        + _abi_sentence(abi, f"{shown}'s library")
        + f" Where this TensorFlow was built apart from PyPI's (from source, by conda, in a "
        f"vendor's image) with another C++ ABI, no PyPI wheel of {shown} links it: build "
        f"{shown} from source against it, or install TensorFlow from PyPI.",
        (*fix.commands, TF_OP_FLAGS_COMMAND),
    )


#: abseil's inline namespace names the LTS release a build compiled (absl/base/options.h,
#: ABSL_OPTION_INLINE_NAMESPACE_NAME: ``lts_2020_02_25`` at the LTS commit df3ea785,
#: ``lts_2020_09_23`` at 6f9d96a1; https://github.com/abseil/abseil-cpp/blob/df3ea785d8c30a9503321a3d35ee7d35808f190d/absl/base/options.h),
#: so a symbol of it (``_ZN4absl14lts_2020_02_25...``) dates the TensorFlow a compiled
#: companion was built against: TensorFlow pins abseil by commit, and a companion's ops link
#: the abseil of the TensorFlow they were built with. Each row: the TensorFlow lines whose
#: sources pin that LTS commit (tensorflow/workspace.bzl at v2.3.0,
#: ``abseil-cpp-df3ea785d8c30a9503321a3d35ee7d35808f190d``, which the
#: third_party/absl/workspace.bzl split out of it during 2.4's development kept as
#: ABSL_COMMIT, so 2.4 is read from the file's history rather than from its tag;
#: third_party/absl/workspace.bzl at v2.5.0, ``6f9d96a1f41439ac172ee2ef7ccd8edf0e5d068c``,
#: "Abseil LTS branch, Sept 2020, Patch 3"). Later lines are left out until the pin at each
#: tag is read (2.6 on pin other LTS commits, such as 997aaf3a, lts_20210324): no row is
#: guessed, and a namespace without a row names its release only.
ABSL_LTS_TF_LINES: Final[Mapping[str, tuple[str, ...]]] = {
    "2020_02_25": ("2.3", "2.4"),
    "2020_09_23": ("2.5",),
}

#: An abseil symbol's LTS namespace, as Itanium mangling prints it after ``4absl``: its length,
#: then ``lts_`` and the date (``14lts_2020_02_25``, ``12lts_20230802``).
_ABSL_LTS = re.compile(r"4absl\d{1,2}lts_(?P<date>\d{4}_?\d\d_?\d\d)")

#: The C++ namespaces a companion's compiled library shares with the TensorFlow it was built
#: against, by their mangled prefix: abseil, protobuf (google::protobuf), TensorFlow's own,
#: TSL and XLA (TensorFlow's code split out since 2.13).
_TF_BUILD_NAMESPACES = re.compile(r"^_*Z[NK]*(?:4absl|6google8protobuf|10tensorflow|3tsl|3xla)")


def tf_build_symbol(symbol: str) -> bool:
    """Whether a missing mangled symbol is of a namespace a compiled companion shares with the
    TensorFlow it was built against (abseil, protobuf, TensorFlow, TSL, XLA)."""
    return _TF_BUILD_NAMESPACES.match(symbol) is not None


def absl_lts_lines(symbol: str) -> tuple[str, tuple[str, ...]]:
    """The abseil LTS release a mangled symbol names (``2020_02_25``) and the TensorFlow lines
    built with it (:data:`ABSL_LTS_TF_LINES`; empty where no row knows it); ("", ()) for a
    symbol that names none."""
    found = _ABSL_LTS.search(symbol)
    if found is None:
        return "", ()
    date = found.group("date")
    return date, ABSL_LTS_TF_LINES.get(date, ())


def companion_dll_fix(m: Machine, name: str) -> Fix:
    """Windows refused a compiled companion's extension (``name``: tensorflow-text's
    ``tflite_registrar``, its ``_pywrap_*`` modules): it links TensorFlow's own library
    (``_pywrap_tensorflow_internal``), and a release built for another TensorFlow finds a DLL
    or an entry point of it missing (ERROR_MOD_NOT_FOUND, 126; ERROR_PROC_NOT_FOUND, 127:
    https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-): its
    release for the installed TensorFlow (:func:`companion_fix`)."""
    fix = companion_fix(m, name)
    return Fix(
        f"Windows could not load {name}'s compiled extension, not TensorFlow's: {name} is "
        "built against one TensorFlow release and links its library, so a release of it made "
        f"for another TensorFlow finds a DLL or an entry point missing. {fix.text}",
        fix.commands,
    )


def companion_build_fix(m: Machine, name: str, symbol: str, tf_version: Optional[str]) -> Fix:
    """A compiled companion (``name``) whose library misses a symbol of the TensorFlow build it
    was made for (abseil, protobuf, TensorFlow's own): its release for the installed
    TensorFlow (:func:`companion_fix`), and where the symbol's abseil LTS namespace dates the
    build, the TensorFlow lines it was built for, with that TensorFlow as the other way out.
    ``tf_version``: the TensorFlow the log shows, if any."""
    fix = companion_fix(m, name)
    date, lines = absl_lts_lines(symbol)
    if not date:
        return fix
    if not lines:
        return Fix(
            f"{fix.text} The missing symbol is of abseil's LTS release {date} "
            f"(namespace absl::lts_{date}), the abseil of the TensorFlow {name} was built "
            "against; no TensorFlow line this tfdoctor knows pins it.",
            fix.commands,
        )
    shown = " or ".join(lines)
    if tf_version is not None and ".".join(tf_version.split(".")[:2]) in lines:
        # The TensorFlow shown is of those lines: the abseil is not what differs.
        return fix
    last = lines[-1]
    major, minor = last.split(".")[:2]
    spec = f"tensorflow>={lines[0]},<{major}.{int(minor) + 1}"
    running = f" TensorFlow {tf_version} is not of those lines." if tf_version else ""
    # TensorFlow moves to those lines: what moves with it (its Keras, a Python it has wheels
    # for) is named as every move of TensorFlow names it.
    move = tensorflow_move_fix(
        m,
        f"{fix.text} The missing symbol is of abseil's LTS release {date} (namespace "
        f"absl::lts_{date}), which TensorFlow {shown} built with: {name} was built for "
        f"TensorFlow {shown}.{running} Where no {name} release for the installed TensorFlow "
        f"exists, install TensorFlow {last} beside this {name} instead.",
        spec,
    )
    return Fix(move.text, (*fix.commands, *move.commands))


def _companion_release_fix(
    m: Machine,
    name: Optional[str],
    comp: Optional[PackageFacts],
    target: str,
    spec: str,
) -> Fix:
    """:func:`companion_fix` without the ABI's candidate."""
    tf = m.tf
    row = m.companion(name) if name else None
    # Only a release with a wheel for this Python installs (its Requires-Python).
    python = m.facts.python.version if m.facts.python is not None else None
    fit = row.release_for(tf.version, python) if row is not None and tf is not None else None
    # The installed release is the fit's when it is that release, or of that line.
    size = len(fit.release.split(".")) if fit is not None else 2
    installed = version_key(comp.version)[:size] if comp is not None else None
    if fit is not None and tf is not None and name and installed != version_key(fit.release):
        # A pre-release TensorFlow is served by the companion's pre-releases, which pip picks
        # only for a specifier that names one (PEP 440; `==X.Y.*` never matches X.Y.0rc0).
        # Where several releases fit this TensorFlow, name the oldest too: the smallest step
        # from the installed one is as good a fix as the newest.
        fitting = [
            r.release
            for r in (row.releases if row is not None else ())
            if r.serves(tf.version) and (python is None or r.runs_on(python))
        ]
        span = f"; releases {fitting[0]} to {fitting[-1]} all fit it" if len(fitting) > 1 else ""
        return Fix(
            f"Install {name} {fit.release}, the release for the installed TensorFlow "
            f"(it declares tensorflow{fit.tensorflow}{span}).",
            companion_install(m, fit.requirement(name, pre=is_prerelease(tf.version))),
        )
    ended_below = (
        row is not None
        and bool(row.end_of_life)
        and bool(row.releases)
        and (tf is None or above_range(tf.version, row.releases[-1].tensorflow))
    )
    if comp is None and row is not None and ended_below and name:
        # Known by name (a log), ended, and TensorFlow not below its last release (an older
        # TensorFlow has a release of its own, found below): no release to move to; say so
        # before TensorFlow moves.
        last = row.releases[-1]
        if tf is None:
            # Which way TensorFlow would move is unknown: an older TensorFlow has a release
            # of its own (a downgrade to the last one's range would break it), so the fix
            # shows the release first and names the range, installing nothing blind.
            listing = _listing_words(m, name)
            return Fix(
                f"{row.end_of_life} Its last release ({last.release}) declares "
                f"tensorflow{last.tensorflow}. Where the installed TensorFlow is newer, "
                "installing a TensorFlow in that range is a stopgap (a downgrade) and moving "
                f"the code off {name} the lasting fix; where it is older, install the {name} "
                f"release built for it (`{listing}` lists them).",
                (*m.pip(f"show tensorflow {name}"), *m.installable_releases(name)),
            )
        dist = m.tf_name if m.tf_name is not None and not m.is_nightly else "tensorflow"
        return tensorflow_move_fix(
            m,
            f"{row.end_of_life} Its last release ({last.release}) declares "
            f"tensorflow{last.tensorflow}: installing that TensorFlow downgrades TensorFlow "
            f"from {tf.version}, a stopgap; moving the code off {name} is the lasting fix.",
            f"{dist}{last.tensorflow}",
        )
    if (comp is None or not spec) and row is not None and row.releases and tf is not None:
        newest = row.releases[-1]
        if fit is None and above_range(tf.version, newest.tensorflow):
            # Newer than every release the table knows: ask pip for a newer one, else only
            # TensorFlow can move.
            dist = m.tf_name if m.tf_name is not None and not m.is_nightly else "tensorflow"
            ended = f" {row.end_of_life}" if row.end_of_life else ""
            listing = _listing_words(m, name or row.name)
            downgrade = tensorflow_move_fix(
                m,
                f"No {name} release for TensorFlow {tf.version} is known to this tfdoctor: the "
                f"newest it knows ({newest.release}) declares tensorflow{newest.tensorflow}."
                f"{ended} If `{listing}` lists a newer release, install it; "
                "otherwise install a TensorFlow in that range (a downgrade).",
                f"{dist}{newest.tensorflow}",
            )
            return Fix(downgrade.text, (*m.installable_releases(row.name), *downgrade.commands))
    if comp is None or not spec:
        # Known from a log's library path alone: say where the pairing is published.
        shown = name or "add-on"
        running = f"TensorFlow {tf.version}" if tf is not None else "the installed TensorFlow"
        urls = m.companion_urls(name) if name else ()
        table = (
            f"its compatibility table ({', '.join(urls)})" if urls else "its compatibility table"
        )
        return Fix(
            f"Install the {shown} release built for {running}: look it up in {table}. If no "
            f"release is built for {running} yet, install the TensorFlow the installed "
            f"{shown} was built for (the same table) instead; a custom op library must be "
            f"rebuilt against the installed TensorFlow."
            f"{_oldest_floor(row, name, tf.version if tf is not None else None)}"
            f"{_newest_cap(row, name, tf.version if tf is not None else None)}",
            (*m.pip(f"show tensorflow {name}"), *m.list_releases(name))
            if name
            else m.pip("show tensorflow"),
        )
    if target != "tensorflow" or tf is None:
        # TensorFlow constrains Keras too: ask pip for one both accept (it refuses, changing
        # nothing, where none exists) rather than a Keras that breaks TensorFlow.
        tf_keras = m.tf_keras_spec
        own = (
            tf_keras.removeprefix("tf-keras")
            if target == "tf-keras" and tf_keras is not None
            else m.declared_range(target)
        )
        if not own:
            return install_fix(
                m,
                f"Install the {target} that {comp.name} {comp.version} declares.",
                f"{target}{spec}",
            )
        moved = _keras_moves_tensorflow(m, comp, target, spec, own)
        if moved is not None:
            return moved
        return install_fix(
            m,
            f"Install a {target} that both {comp.name} {comp.version} ({spec}) and TensorFlow "
            f"({own}) accept; where pip finds none, install the {comp.name} release made for "
            "the installed TensorFlow.",
            f"{target}{spec},{own}",
        )
    dist = m.tf_name if m.tf_name is not None and not m.is_nightly else "tensorflow"
    way = "downgrades" if above_range(tf.version, spec) else "upgrades"
    if row is not None and row.end_of_life:
        text = (
            f"{row.end_of_life} Installing the TensorFlow its release declares ({dist}{spec}) "
            f"{way} TensorFlow from {tf.version}: a stopgap; moving the code off {comp.name} "
            "is the lasting fix."
        )
    else:
        on = (
            f" on Python {python}"
            if python and row is not None and row.release_for(tf.version)
            else ""
        )
        # A release whose range admits this TensorFlow that its project's table tests with
        # other lines only (tested_with): known, but not made for it; said so, not "none".
        untested = [
            r
            for r in (row.releases if row is not None else ())
            if r.admits(tf.version)
            and not r.serves(tf.version)
            and (python is None or r.runs_on(python))
        ]
        if untested:
            last = untested[-1]
            text = (
                f"No {comp.name} release made for TensorFlow {tf.version} is known to this "
                f"tfdoctor: {comp.name} {last.release} declares tensorflow{last.tensorflow}, "
                "which admits it, but its project's table tests it with TensorFlow "
                f"{', '.join(last.tested_with)} only (pip would install it here, untested). "
                f"The tested pair: the TensorFlow {comp.name} {comp.version} declares, which "
                f"{way} TensorFlow from {tf.version}."
            )
        else:
            text = (
                f"No {comp.name} release for TensorFlow {tf.version}{on} is known to this "
                f"tfdoctor: if one exists, install it (`{_listing_words(m, comp.name)}` lists "
                f"them; pick the one whose requirement admits tensorflow {tf.version}). "
                f"Otherwise install the TensorFlow {comp.name} {comp.version} declares, which "
                f"{way} TensorFlow from {tf.version}."
            )
    return tensorflow_move_fix(m, text, f"{dist}{spec}")


def _listing_words(m: Machine, name: str) -> str:
    """The command a fix's words name for listing the releases of ``name``: conda's where
    conda installed it (:meth:`Machine.installable_releases`), else ``pip index versions``."""
    if m.conda_owned(name) is None:
        return f"pip index versions {name}"
    return m.installable_releases(name)[-1]


#: A requirement's lower bound on TensorFlow (``>=1.7.0``, and the release a pin or a
#: compatible-release clause names: ``==2.1.0``, ``~=2.10.0``), where it opens the range.
_FLOOR = re.compile(r"^(?:>=|==|~=)\s*(?P<floor>\d+\.\d+)")


def _oldest_floor(row: Optional[Companion], name: Optional[str], tf: Optional[str]) -> str:
    """Words for the TensorFlow every release of ``name`` the companion table knows needs at
    least (its oldest row's lower bound), where the log does not show TensorFlow's version
    (``tf`` None) or shows one below it: a TensorFlow older than that fits no release, and
    only TensorFlow can move."""
    if row is None or not row.releases or not name:
        return ""
    oldest = min(row.releases, key=lambda r: version_key(r.release))
    found = _FLOOR.match(oldest.tensorflow)
    if found is None:
        return ""
    floor = found.group("floor")
    if tf is not None and version_key(tf)[:2] >= version_key(floor)[:2]:
        return ""  # this TensorFlow is not below every release: the table's row says which
    known = (
        f" Every {name} release the table knows needs TensorFlow {floor} or later (its oldest, "
        f"{oldest.release}, declares tensorflow{oldest.tensorflow})"
    )
    if tf is not None:
        return f"{known}, and TensorFlow {tf} is older: TensorFlow {floor} or later is the fix."
    return (
        f"{known}: where `pip show tensorflow` shows an older TensorFlow, no {name} release "
        f"fits it, and TensorFlow {floor} or later is the fix."
    )


#: A requirement's upper bound on TensorFlow (``<2.17.0``), where it caps the range.
_CAP = re.compile(r"<\s*(?P<cap>\d+\.\d+(?:\.\d+)?)")


def _newest_cap(row: Optional[Companion], name: Optional[str], tf: Optional[str]) -> str:
    """Words for the TensorFlow the newest release of ``name`` the companion table knows
    ends before (its newest row's upper bound), where the log does not show TensorFlow's
    version: a newer TensorFlow fits none of the releases the table knows (the counterpart of
    :func:`_oldest_floor`; a shown TensorFlow above it is answered by the table's rows)."""
    if tf is not None or row is None or not row.releases or not name:
        return ""
    newest = max(row.releases, key=lambda r: version_key(r.release))
    found = _CAP.search(newest.tensorflow)
    if found is None:
        return ""
    return (
        f" The newest {name} release the table knows ({newest.release}) declares "
        f"tensorflow{newest.tensorflow}: where `pip show tensorflow` shows TensorFlow "
        f"{found.group('cap')} or later, no release the table knows fits it; `pip index "
        f"versions {name}` lists any newer one, else a TensorFlow in that range is the fix."
    )


def tf_keras_fix(m: Machine) -> Fix:
    """Install tf-keras of the installed TensorFlow's line (its pin from the matrix); where the
    line is unknown, say how to find it rather than install the newest tf-keras."""
    spec = m.tf_keras_spec
    if spec is None:
        return Fix(f"Install {TF_KERAS_OF_MINOR}.", m.pip("show tensorflow"))
    return Fix("Install tf-keras (Keras 2), released with TensorFlow.", companion_install(m, spec))


def tf_keras_missing_fix(m: Machine) -> Fix:
    """tf-keras of the installed TensorFlow's line, and TF_USE_LEGACY_KERAS so that tf.keras
    is tf-keras too (one Keras in the process, as the library that asked for it expects),
    unless the machine's environment already sets it."""
    legacy = legacy_keras_switch(m)
    also = (
        ""
        if m.legacy_keras
        else " and set TF_USE_LEGACY_KERAS=1 before TensorFlow is imported, so that tf.keras "
        "is Keras 2 as well"
    )
    spec = m.tf_keras_spec
    if spec is not None:
        return Fix(
            f"Install tf-keras of this TensorFlow's line{also}.",
            (*companion_install(m, spec), *legacy),
        )
    return Fix(f"Install {TF_KERAS_OF_MINOR}{also}.", (*m.pip("show tensorflow"), *legacy))


def tensorflow_gpu_removed_fix(m: Machine) -> Fix:
    """Install ``tensorflow`` instead of the removed ``tensorflow-gpu`` (removing the stub)."""
    if m.facts.package("tensorflow-gpu") is not None:
        keep = [p for p in m.tf_providers if normalize_name(p.name) != "tensorflow-gpu"]
        if keep:
            # Uninstalling tensorflow-gpu deletes files of the tensorflow/ package both
            # write: the kept release's files are put back, its CUDA extra added where the
            # release has a working one.
            extra = m.and_cuda_spec(keep[0].version)
            return Fix(
                "Remove tensorflow-gpu, then restore the files of the TensorFlow kept"
                + (" and install its CUDA libraries." if extra else "."),
                (
                    *m.pip("uninstall -y tensorflow-gpu"),
                    *m.pip(
                        f'install --force-reinstall --no-deps "{keep[0].name}=={keep[0].version}"'
                    ),
                    *(m.pip_install(extra) if extra else ()),
                ),
            )
        spec = "tensorflow[and-cuda]" if m.os == "linux" else "tensorflow"
        return Fix(
            "Replace tensorflow-gpu with tensorflow (and its CUDA extra on Linux).",
            (*m.pip("uninstall -y tensorflow-gpu"), *m.pip_install(spec)),
        )
    extra = m.and_cuda_spec() if m.tf is not None else None
    if extra is not None:
        return install_fix(
            m, "Install tensorflow with its CUDA libraries instead of tensorflow-gpu.", extra
        )
    return Fix(
        "Install `tensorflow` instead of `tensorflow-gpu` (change it in requirements files "
        "too): it carries the same GPU support.",
        m.pip_install("tensorflow"),
    )


def import_hang_fix(m: Machine) -> Fix:
    """Where an import that never returns stops (faulthandler's dump), then the usual reasons:
    another framework's native libraries in the same process first."""
    return Fix(
        "See where the import stops: Python's fault handler prints every thread's frames "
        "after a delay (the command below). Where another framework with native libraries "
        "(torch, jax, cv2) is imported in the same process, the two clash: import them in the "
        "other order, or run them in separate processes, or pair releases that do not clash; "
        "where TensorFlow alone hangs, look at what the frames wait on (a file on a network "
        "file system, a lock, a GPU driver call).",
        (
            'python -X faulthandler -c "import faulthandler; '
            'faulthandler.dump_traceback_later(120, exit=True); import tensorflow"',
        ),
    )


def import_crash_fix(m: Machine, imported_before: Sequence[str] = ()) -> Fix:
    """Where the crash is, from Python's fault handler; then the usual reasons, in order.
    ``imported_before``: the packages the crashed command imports before TensorFlow, whose
    release crashing beside TensorFlow's is this cause (their order is the other,
    :func:`tfdoctor.causes.runtime.import_order_fix`)."""
    general = Fix(
        "Find where it crashes: Python's fault handler prints the frames of the crash (run the "
        "import, or the program, with -X faulthandler). If another framework with native "
        "libraries (torch, cv2, ...) is imported first, import TensorFlow first or run them "
        "in separate processes; otherwise install TensorFlow afresh in a new environment, "
        "with one installer (pip or conda, not both), built for this Python and CUDA.",
        (TF_IMPORT_FAULTHANDLER,),
    )
    if not imported_before:
        return general
    from tfdoctor.modules import distribution_of  # noqa: PLC0415 - the module table, on demand

    # The distribution to upgrade (cv2 is opencv-python's): the module table's, else the name.
    dists = [distribution_of(x) or x for x in imported_before]
    return Fix(
        f"The release of {', '.join(dists)} installed may crash beside this TensorFlow "
        "whatever the order: where TensorFlow alone imports and the pair crashes either way, "
        f"install another release of {', '.join(dists)} (a newer one first: a release that "
        "crashed beside TensorFlow is often mended in the next).",
        (
            *import_after_commands(imported_before),
            *m.pip(f"install --upgrade {' '.join(dists)}"),
        ),
    )


def tensorboard_fix(m: Machine) -> Fix:
    """Install tensorboard next to TensorFlow (2.21 no longer requires it)."""
    return install_fix(
        m, "Install tensorboard next to TensorFlow and add it to the requirements.", "tensorboard"
    )


def tensorboard_duplicate_fix(
    m: Machine,
    site_packages: Optional[str] = None,
    leftover: Optional[str] = None,
    nightly: bool = False,
) -> Fix:
    """Uninstall every TensorBoard distribution, delete the ``~``-prefixed leftovers of an
    interrupted uninstall (in ``site_packages``, named from pip's ``leftover`` such as
    ``-ensorboard``, where the log shows them), then install the one TensorBoard that goes
    with the installed TensorFlow (``nightly``: the log shows a nightly installed)."""
    every = " ".join(TENSORBOARD_DISTRIBUTIONS)
    words, spec = (
        ("tb-nightly, as tf-nightly requires", "tb-nightly") if nightly else _tensorboard_for(m)
    )
    # pip renames a directory it is removing with a leading '~' in place of its first
    # letter, and lists it with '-' or '~' there (pip/_internal/req/req_uninstall.py,
    # freeze.py, metadata/base.py).
    stem = "~" + leftover[1:] if leftover and leftover[0] in "-~" else "~ensorboard"
    if site_packages is None:
        where = "the environment's site-packages directory (the command below prints it)"
        clean: tuple[str, ...] = (
            "python -c \"import sysconfig; print(sysconfig.get_path('purelib'))\"",
        )
    elif "\\" in site_packages or m.os == "windows":
        where = site_packages
        clean = (f'Remove-Item -Recurse -Force "{site_packages}\\{stem}*"',)
    else:
        where = site_packages
        clean = (f"rm -rf {shlex_quote(site_packages)}/{stem}*",)
    text = (
        "Keep one TensorBoard: uninstall every TensorBoard distribution "
        f"({', '.join(TENSORBOARD_DISTRIBUTIONS)}; run the uninstall again until pip says "
        f"none is installed), delete the folders in {where} whose names start with '~' "
        f"(`{stem}`, `{stem}-X.Y.Z.dist-info`: what an interrupted uninstall left), then "
        f"install the TensorBoard that goes with the installed TensorFlow ({words}). A "
        "nightly TensorFlow goes with tb-nightly alone, never beside a stable tensorboard."
    )
    # Without TensorFlow's version no TensorBoard can be named: an unpinned install brings
    # the newest, of another line than the TensorFlow (pip does not weigh what is installed).
    install = m.pip_install(spec) if spec is not None else m.pip("show tensorflow")
    return Fix(text, (*m.pip(f"uninstall -y {every}"), *clean, *install))


def conda_tensorboards_fix(
    m: Machine,
    conda_rows: Sequence[tuple[str, str]],
    pip_names: Sequence[str],
    tf_version: Optional[str] = None,
) -> Fix:
    """TensorBoard twice in one conda environment, as conda list shows it: each installer's
    rows out with its own remover (conda's ``remove --force``: only that package, not what
    depends on it, for ``conda_rows``, name and channel; pip's uninstall for ``pip_names``,
    its ``pypi`` rows), then the one TensorBoard of the installed TensorFlow back: with pip
    where pip had one (:func:`tensorboard_duplicate_fix`), else with conda, from the channel
    its rows show, for the TensorFlow the machine holds or the listing shows (``tf_version``)."""
    names = sorted({n for n, _ in conda_rows})
    remove = m.conda_remove(*names, force=True)
    if pip_names:
        pip_fix = tensorboard_duplicate_fix(m)
        return Fix(
            "conda list shows TensorBoard from both installers in this environment: conda's "
            "and pip's both write the tensorboard/ folder, and neither installer knows of the "
            "other's files. Remove conda's copy with conda, then: " + pip_fix.text,
            (*remove, *pip_fix.commands),
        )
    # conda's MatchSpec "tensorboard=2.10" matches every 2.10.x build (conda's docs, Package
    # match specifications: https://docs.conda.io/projects/conda/en/stable/user-guide/concepts/pkg-specs.html);
    # TensorBoard's releases track TensorFlow's minor line.
    channels = {c for _, c in conda_rows if c and c != "pypi"}
    channel = next(iter(channels)) if len(channels) == 1 else ""
    version = m.tf.version if m.tf is not None else tf_version
    # A final release from 1.6 on (the name tensorboard starts there; a nightly goes with
    # tb-nightly, which conda's channels do not carry).
    if version and re.fullmatch(r"\d+(?:\.\d+)*", version) and version_key(version)[:2] >= (1, 6):
        line = ".".join(version.split(".")[:2])
        words = f"tensorboard {line}.x for TensorFlow {version}"
        again: tuple[str, ...] = m.conda_install(f"tensorboard={line}", channel=channel, yes=True)
    else:
        words = (
            "`conda install tensorboard=X.Y` for the TensorFlow X.Y that `conda list "
            "tensorflow` prints"
        )
        again = ("conda list tensorflow",)
    return Fix(
        "conda list shows two TensorBoard packages that conda installed ("
        + ", ".join(names)
        + "): both write the tensorboard/ folder. Remove them with conda's remover (pip did "
        f"not install them, so pip's uninstall would leave conda's records), then install "
        f"the one TensorBoard that goes with the installed TensorFlow ({words}).",
        (*remove, *again),
    )


def _tensorboard_for(m: Machine) -> tuple[str, Optional[str]]:
    """The words and the requirement for the TensorBoard of the installed TensorFlow: the same
    minor line (TensorBoard's releases track TensorFlow's), tb-nightly for a nightly; no
    requirement where the TensorFlow is not known."""
    tf = m.tf
    if tf is None:
        return (
            "`tensorboard==X.Y.*` for the TensorFlow X.Y `pip show tensorflow` prints; "
            "`tb-nightly` for tf-nightly",
            None,
        )
    if m.is_nightly:
        return ("tb-nightly, as tf-nightly requires", "tb-nightly")
    major_minor = ".".join(tf.version.split(".")[:2])
    if version_key(tf.version)[:2] < (1, 6):
        # The name tensorboard starts at 1.6; TensorFlow 1.3-1.5 required tensorflow-tensorboard
        # in a range of its own: installing the same TensorFlow again brings what it requires.
        return (
            f"the tensorflow-tensorboard TensorFlow {tf.version} requires, which installing it "
            "again brings",
            f"{tf.name}=={tf.version}",
        )
    return (
        f"tensorboard {major_minor}.x for TensorFlow {tf.version}",
        f"tensorboard=={major_minor}.*",
    )


def tensorboard_line_fix(m: Machine, name: str, version: str, tf_name: str, tf_version: str) -> Fix:
    """The TensorBoard of the installed TensorFlow's line in place of ``name`` ``version``:
    TensorBoard's releases track TensorFlow's (X.Y for X.Y), a nightly TensorFlow's are
    tb-nightly's."""
    key = version_key(tf_version)
    nightly = "nightly" in tf_name
    target = "tb-nightly" if nightly else f"tensorboard~={key[0]}.{key[1]}.0"
    words = "tb-nightly" if nightly else f"tensorboard {key[0]}.{key[1]}.x"
    return Fix(
        f"Replace {name} {version} with the TensorBoard of {tf_name} {tf_version}'s line "
        f"({words}): uninstall every TensorBoard distribution first, so that one copy "
        "remains.",
        (*m.pip(f"uninstall -y {' '.join(TENSORBOARD_DISTRIBUTIONS)}"), *m.pip_install(target)),
    )


def added_release_shown(m: Machine, row: AddedApi) -> Optional[str]:
    """The release of ``row``'s distribution the machine (or the log) shows, where it is at or
    above the release that added what the row names: its refusal then says something else
    than its age (a module of it missing is then an install broken, not an older release).
    None where no release is shown or the one shown is older."""
    installed = m.facts.package(row.dist)
    if installed is None or not installed.version:
        return None
    return (
        installed.version if version_key(installed.version) >= version_key(row.added_in) else None
    )


def added_module_causes(m: Machine, row: AddedApi) -> tuple[CauseId, ...]:
    """The readings, most likely first, of a Keras 3 backend's framework lacking the module
    ``row`` names (torch._dynamo): under a release shown at or above the one that added it,
    that install broken (wheel-mismatch); under an older one shown, its age
    (keras-backend-version-unsupported); where the log shows no release, both, in that order,
    which ``pip show`` of the framework tells apart."""
    installed = m.facts.package(row.dist)
    if installed is None or not installed.version:
        return (WHEEL_MISMATCH, KERAS_BACKEND_VERSION_UNSUPPORTED)
    if added_release_shown(m, row):
        return (WHEEL_MISMATCH,)
    return (KERAS_BACKEND_VERSION_UNSUPPORTED,)


def keras_backend_fix(m: Machine, signature: str) -> Fix:
    """A Keras 3 backend older than what Keras' code calls (the module table's
    ``added_to_distribution`` row of the ``signature`` whose words showed it): the backend's
    release that added it."""
    row = modules().added_to_dist[signature]
    have = added_release_shown(m, row)
    if have and not row.module:
        # The release the log shows has it: what failed is another name Keras' check imports
        # beside it (JAX's private cuDNN attention helpers, keras/src/backend/jax/nn.py's
        # _can_use_flash_attention), which changes between JAX releases in either direction.
        return Fix(
            f"Keras says {row.dist} is too old, but the installed {row.dist} "
            f"{have} has {row.what} ({row.added_in} added it): what failed is "
            f"another {row.dist} name Keras' check imports beside it ({row.dist}'s private "
            "attention helpers, which change from release to release). Install the "
            f"{row.dist} release this Keras release was tested with (its "
            f"requirements-{row.dist}-cuda.txt names it), or a Keras (and KerasHub) release "
            f"made for {row.dist} {have}.",
            m.pip(f"show keras {row.dist}"),
        )
    if normalize_name(row.dist) == "jax":
        return jax_floor_fix(
            m,
            row.added_in,
            f"Keras calls {row.what}; jax added it in {row.added_in} and the installed jax is "
            "older (or install the Keras release of that backend's day).",
        )
    return Fix(
        f"Keras calls {row.what}; {row.dist} added it in {row.added_in} and the installed "
        f"{row.dist} is older. Upgrade {row.dist} to {row.added_in} or later the way it was "
        "installed (a GPU build with the same extra or index as before), or install the Keras "
        "release of that backend's day.",
        m.pip_install(f"{row.dist}>={row.added_in}"),
    )


#: Keras 3's backends: the name KERAS_BACKEND (else keras.json's "backend") gives, and the
#: distribution whose module its package under keras/src/backend/<name>/ imports first
#: (keras/src/backend/__init__.py: ``elif backend() == "torch": from
#: keras.src.backend.torch import *``; keras/src/backend/config.py reads the variable, then
#: ~/.keras/keras.json, and defaults to tensorflow).
#: https://github.com/keras-team/keras/blob/v3.8.0/keras/src/backend/__init__.py
#: https://github.com/keras-team/keras/blob/v3.8.0/keras/src/backend/config.py
KERAS3_BACKENDS: Final[Mapping[str, str]] = {
    "tensorflow": "tensorflow",
    "jax": "jax",
    "torch": "torch",
    "openvino": "openvino",
}


def keras_backend_missing_fix(m: Machine, backend: str, dist: str) -> Fix:
    """Keras 3 set to a ``backend`` whose framework (``dist``) the Python that ran lacks:
    install that framework, or point Keras at one that is installed."""
    others = ", ".join(f"KERAS_BACKEND={b}" for b in KERAS3_BACKENDS if b != backend)
    return Fix(
        f'Keras 3 imports the backend KERAS_BACKEND names (else the "backend" of '
        f"~/.keras/keras.json; tensorflow where neither does): {backend} here, and {dist} is "
        "not installed in the Python that ran. Install it (a GPU build the way its own "
        "install guide gives), or set the variable to a backend that is installed, before "
        f"Keras is first imported ({others}), and correct keras.json where it names "
        f"{backend}.",
        m.pip_install(dist),
    )


def keras_backend_release_fix(m: Machine, dist: str) -> Fix:
    """Keras 3's backend calling an API of ``dist`` (torch, jax) that the installed release
    lacks or changed: the release of ``dist`` that Keras release was tested with (its
    requirements files), or the Keras release of that framework's day. Keras declares no range
    on its backends (its pyproject.toml), so pip never aligned them."""
    installed = m.facts.package(dist)
    have = f" (the log shows {dist} {installed.version})" if installed and installed.version else ""
    return Fix(
        f"Install the {dist} release the installed Keras was tested with{have}: the Keras "
        f"release's requirements files name it (requirements.txt and requirements-"
        f"{dist}-cuda.txt at its tag); a {dist} pre-release or one newer than that Keras can "
        f"break its backend, an older one lacks what it calls. Or install the Keras release "
        f"made for this {dist}.",
        (*m.pip(f"show keras {dist}"), *m.list_releases(dist)),
    )


def removed_api_fix(
    m: Machine, module: str, name: str, user: str = "", caller_shown: bool = False
) -> Fix:
    """Code using ``module.name`` (or the module, with ``name`` empty) that a release of its
    distribution removed (the module table's ``removed_from_distribution`` row): the
    replacement in the code, or a release before the removal. ``user``: the library whose
    code uses it, where a frame shows one; its ``removed_api_users`` row, where the table has
    one, names its first release without the use (:func:`removed_api_user_fix`).
    ``caller_shown``: a frame shows whose code uses it (``user``'s, or the user's own where
    empty); where none does, the rows of the libraries known to use it name theirs."""
    known = removed_api_user(m, module, name, user) if user else None
    if known is not None:
        return removed_api_user_fix(m, known)
    row = modules().removed_from_dist[module]
    return release_removed_fix(
        m,
        row.dist,
        row.removed_in,
        removed_api_name(module, name),
        row.use,
        user,
        row.python_below,
        row.unimported,
        users=()
        if user or caller_shown
        else tuple(
            u
            for u in modules().removed_api_users
            if (u.module, u.name) == (module, name) and not u.python
        ),
        absent=_absent_from(m, row),
    )


def removed_api_user(m: Machine, module: str, name: str, user: str) -> Optional[RemovedApiUser]:
    """The module table's ``removed_api_users`` row of ``user``'s use of ``module``'s ``name``
    (the module itself where empty), unless the machine shows ``user`` in a release outside
    the row's (then the row does not say what that release does); None where none is."""
    for row in modules().removed_api_users:
        if row.python or (row.dist, row.module, row.name) != (normalize_name(user), module, name):
            continue
        pkg = m.facts.package(row.dist)
        if pkg is None or not pkg.version or spec_contains(pkg.version, row.releases) is not False:
            return row
    return None


def removed_api_user_fix(m: Machine, user: RemovedApiUser) -> Fix:
    """A release of ``user.dist`` whose code uses what the installed release of another
    distribution removed (the module table's ``removed_api_users`` row): its first release
    without it, or that distribution's release before the removal."""
    row = modules().removed_from_dist[user.module]
    return release_removed_fix(
        m,
        row.dist,
        row.removed_in,
        removed_api_name(user.module, user.name),
        row.use,
        user.dist,
        row.python_below,
        unimported=row.unimported,
        fixed_in=user.fixed_in,
        held=_held_below(m, user.dist, user.fixed_in),
        absent=_absent_from(m, row),
    )


def _absent_from(m: Machine, row: RemovedApi) -> str:
    """The environments that come without ``row``'s distribution at all (its row's
    ``absent_from``), where the machine does not show the distribution installed: the words
    that said the module is gone say the same there. Empty where it shows it."""
    return row.absent_from if m.facts.package(row.dist) is None else ""


def _held_below(m: Machine, dist: str, release: str) -> str:
    """The words for the installed distributions whose requirements exclude ``dist``
    ``release`` (TensorFlow X.Y requires tensorboard~=X.Y.0): upgrading ``dist`` alone breaks
    them; empty where none does."""
    held = [
        f"{pkg.name} {pkg.version} requires {dist}{spec}"
        for pkg in m.facts.packages or ()
        for _, spec in applicable_requirements(pkg.requires, m.marker_env, (dist,))
        if spec and spec_contains(release, spec) is False
    ]
    return "; ".join(held)


def removed_api_name(module: str, name: str) -> str:
    """The words for ``module``'s ``name`` (the module itself where ``name`` is empty) as a
    row of ``removed_from_distribution`` keys it: a class's method (``DataFrame.ix``) as the
    class names it, which is how Python's words name it too ("'DataFrame' object has no
    attribute 'ix'", Objects/object.c): the module that defines the class (``pandas.core.
    generic``) is not where the user meets it, nor is every class exported by the top-level
    package (Pillow's FreeTypeFont is PIL.ImageFont's)."""
    if not name:
        return module
    if "." in name:
        return name
    return f"{module}.{name}"


def release_removed_fix(
    m: Machine,
    dist: str,
    removed_in: str,
    what: str,
    use: str,
    user: str = "",
    below: str = "",
    unimported: bool = False,
    fixed_in: str = "",
    held: str = "",
    users: Sequence[RemovedApiUser] = (),
    absent: str = "",
    via: str = "",
) -> Fix:
    """Code using ``what``, which ``dist`` ``removed_in`` removed, ``use`` replacing it: the
    replacement in the code (or a release of ``user``, the library whose frame uses it, that
    has it: ``fixed_in``, its first release without it, where known), or a release of
    ``dist`` before the removal, where the Python runs one (``below``: the first Python on
    which none does; empty where any does). ``unimported``: ``what`` is a submodule that the
    release and later ones no longer import, not one deleted. ``held``: the installed
    requirements that exclude ``fixed_in`` (upgrading ``user`` alone breaks them).
    ``users``: where no library shows, the rows of those known to use it (their first
    releases without it). ``absent``: the environments that come without ``dist`` at all,
    which the pin also serves (empty: none said). ``via``: the library the program called
    whose import reached ``user``'s code (its release decides which ``user`` comes with
    it)."""
    uses = (
        f"{what} without importing it, and {dist} {removed_in} and later do not import it"
        if unimported
        else f"{what}, which {dist} {removed_in} removed"
    )
    pin = f"{dist}<{removed_in}"
    older = f"or install a {dist} before {removed_in} and pin it ({pin})"
    commands = m.pip_install(pin)
    if below:
        python = m.python_version
        if python is not None and version_key(python)[:2] >= version_key(below)[:2]:
            # The release before the removal does not import on this Python: pinning it
            # breaks what imports it.
            older = (
                f"not an older {dist}: no {dist} before {removed_in} runs on Python "
                f"{below} or later, and this Python is {python}"
            )
            absent = ""
            commands = (
                m.pip_install(f"{user}>={fixed_in}") if user and fixed_in and not held else ()
            )
        else:
            older = f"or, on a Python before {below}, {older.removeprefix('or ')}"
            if python is None:
                # Which Python runs is not shown: a PEP 508 marker makes pip skip the pin
                # ("Ignoring ...: markers ... don't match your environment") where it would
                # install a release that does not import.
                commands = m.pip_install(f"{pin};python_version<'{below}'")
    if absent:
        # The pin also installs one where the environment has none: there the same words
        # said the module is missing, not removed.
        older += f"; that also installs {dist} where the environment has none (as in {absent})"
    if user and fixed_in:
        with_held = f", together with what requires an older one ({held})" if held else ""
        text = (
            f"{user}'s code uses {uses}: upgrade {user} to {fixed_in} or later (its first "
            f"release without it){with_held}, {older}."
        )
        return Fix(text, commands)
    if user:
        with_via = f" (with {via}, whose import reaches it)" if via else ""
        text = (
            f"{user}'s code uses {uses}: upgrade "
            f"{user}{with_via} to a release written for {dist} {removed_in} or later (one that "
            f"uses {use}), {older}."
        )
        return Fix(text, commands)
    known = ", ".join(f"{u.dist} to {u.fixed_in} or later" for u in users)
    upgrade = (
        f", or, where the code is a package's, upgrade it ({known}: the first release without it)"
    )
    text = f"The code uses {uses}: use {use} in the code{upgrade if known else ''}, {older}."
    return Fix(text, commands)


def own_code_dependency_fix(m: Machine, dist: str, asked: str, version: Optional[str]) -> Fix:
    """The user's own code asking the installed ``dist`` for ``asked``, which that release
    lacks (``version``: the release the log shows installed, if any): the ``dist`` release the
    code was written for, or the code ported to the installed one. No install runs blindly:
    the message says what is missing, not whether the release removed it or added it later."""
    line = ".".join(version.split(".")[:2]) if version else ""
    installed = (
        f"{dist} {version} is installed"
        if version
        else f"`pip show {dist}` shows the installed release"
    )
    older = f' ("{dist}<{line}" brings one from before its line)' if line else ""
    return Fix(
        f"The code was written for another {dist} release than the installed one, which lacks "
        f"{asked}. {installed}: install the {dist} release the code was written for (its "
        f"requirements file or README says which; where {dist} removed it, an earlier "
        f"release{older}; where a later {dist} brought it, `pip install --upgrade {dist}`), or "
        f"port the code to the installed {dist}'s API (its release notes say what replaced it).",
        (*m.pip(f"show {dist}"),),
    )


def dependency_release_fix(
    m: Machine, dist: Optional[str], user: str, version: Optional[str], lacking: str
) -> Fix:
    """``user``'s installed release (a distribution's name, or the package's import name
    where the module table does not know its distribution) uses what the installed ``dist``
    (imported as ``lacking``) lacks: the ``dist`` release ``user`` was written for (below the
    installed major.minor, ``version``, where the log shows it), or a ``user`` release made
    for this ``dist``. ``dist`` None: the module table does not know which distribution
    installs ``lacking``, so no command names one (PyPI's project of that name may be
    another's)."""
    if dist is None:
        return Fix(
            f"{user}'s release and the installed release of the package imported as "
            f"{lacking} do not go together. `pip check` names a range {user} declares that an "
            f"installed release is outside; find the distribution that installs {lacking} "
            f"(`pip list` shows it) and install the release {user} was written for, or install "
            f"a release of {user} made for the installed one (its release notes say which).",
            (*m.pip("check"), *m.pip(f"show {user}"), *m.pip("list")),
        )
    line = ".".join(version.split(".")[:2]) if version else ""
    older = (
        f'{dist} {version} is installed: where that release removed or changed it, "{dist}<{line}" '
        "brings one from before its line"
        if line
        else f"`pip show {dist}` shows the installed release; where it removed or changed it, "
        "an earlier one"
    )
    text = (
        f"{user}'s release and {dist}'s do not go together. Install the {dist} release "
        f"{user} was written for (`pip check` names a range {user} declares that the "
        f"installed {dist} is outside): {older}; "
        f"where {user} asks for what a later {dist} brought, `pip install --upgrade {dist}`. "
        f"Or install a release of {user} made for the installed {dist} (its release notes say "
        "which)."
    )
    # The message says what the installed release lacks, not which way it moved (removed
    # since, or added later): no install is a command run blindly; `pip check` names the
    # range the user's release declares, and the text says both ways.
    return Fix(text, (*m.pip("check"), *m.pip(f"show {user} {dist}")))


def package_install_fix(m: Machine, dist: str, module: str) -> Fix:
    """Install ``dist`` (which provides ``module``) into the Python that ran the code: a
    companion in its release for the installed TensorFlow, so that pip does not move
    TensorFlow to fit the companion's newest release."""
    where = (
        " Install it with the Python that runs the code (`python -m pip`); if `pip show "
        f"{dist}` already lists it, it is installed for another Python."
    )
    row = m.companion(dist)
    if row is None:
        return install_fix(
            m, f"Install {dist}, the distribution that provides `{module}`.{where}", dist
        )
    if m.tf is not None:
        fix = companion_fix(m, dist)
        return Fix(fix.text + where, fix.commands)
    # A companion pins the TensorFlow it was built for: its newest release would replace the
    # installed TensorFlow. Which release fits is the companion table's answer for X.Y.
    urls = m.companion_urls(dist)
    table = f" ({', '.join(urls)})" if urls else ""
    ended = f" {row.end_of_life}" if row.end_of_life else ""
    return Fix(
        f"Install the {dist} release built for the installed TensorFlow (`pip show tensorflow` "
        f"gives its version; the release for it is in {dist}'s compatibility table{table}); a "
        f"bare `pip install {dist}` installs its newest release, which may replace the "
        f"installed TensorFlow.{ended}{where}",
        (*m.pip("show tensorflow"), *m.list_releases(dist)),
    )


def unlisted_module_fix(module: str) -> Fix:
    """Install whatever provides ``module``, a module no listed distribution installs: its
    distribution is usually named like it (PEP 503 compares ``apache_beam`` and
    ``apache-beam`` as one name), but not always, so the project's own instructions decide;
    or, for the user's own module, the directory that holds it on the path."""
    guess = re.sub(r"[-_.]+", "-", module).lower()
    return Fix(
        f"Install the distribution that provides `{module}` with the Python that runs the "
        f"code (`python -m pip install`). Its name is often the module's (`{guess}`), but not "
        "always (the module cv2 is the distribution opencv-python): the project's instructions "
        f"name it, and a project's optional extra may be what installs it. If `{module}` is a "
        "module of your own project, run the code from the directory that holds it or add "
        "that directory to PYTHONPATH.",
        # No install command: a guessed name can be another project's distribution on PyPI
        # (object-detection is not TensorFlow's Object Detection API); the check is safe.
        (f'python -c "import {module}"',),
    )


def partial_install_fix(top: str, module: str, step: Optional[InstallStep] = None) -> Fix:
    """A package ``top`` found without its submodule ``module``: where it was found, and its
    own install step (``step``, where the module table knows it) run again to the end."""
    check = f'python -c "import {top}; print({top}.__file__, list({top}.__path__))"'
    if step is not None:
        return Fix(
            f"The package {top} was found but without {module}: its install did not finish. "
            f"{top} is installed by {step.what}: in the complete clone of the project run "
            f"`{step.command}` again and let it end without errors (on a stable connection: it "
            "downloads).",
            ("git submodule update --init", step.command, check),
        )
    return Fix(
        f"The package {top} was found but without {module}: see where it imported from. If "
        "that is a clone or download of the project, run the project's install step again "
        "until it ends without errors (`python -m pip install .` in its directory, or the "
        "install script its instructions name) after the clone or download completed; if it "
        f"is another folder named {top} on the path (in the working directory), rename it or "
        "run from elsewhere.",
        (check,),
    )


def tflite_runtime_fix() -> Fix:
    """A TFLite model whose operators are newer than the runtime that loads it: a runtime of
    the converter's release or newer, or the model converted by the runtime's release."""
    return Fix(
        "The model was converted by a newer TensorFlow than the TFLite runtime that loads it "
        "(TFLite versions each operator, and a runtime knows only the versions of its own "
        "release and older). Load it with a runtime of the converter's release or newer "
        "(tflite-runtime, TensorFlow's tf.lite.Interpreter, or the Android/iOS TensorFlow Lite "
        "library of that version), or convert the model with the TensorFlow release of the "
        "runtime. The other cause: an op resolver built without that operator (TFLite Micro's "
        "MicroMutableOpResolver, a selective build): register the operator in it (AddXxx()).",
        ('python -c "import tensorflow as tf; print(tf.__version__)"  # the converter\'s',),
    )


def tflite_resolver_fix(op: Optional[str]) -> Fix:
    """A TFLite operator the interpreter's op resolver has no kernel for, at its first version
    or in TFLite Micro's words: the operator added to the resolver the program builds
    (MicroMutableOpResolver's Add methods, tflite-micro's micro_mutable_op_resolver.h)."""
    what = op or "the operator the error names"
    method = (
        "Add" + "".join(p if p[:1].isdigit() else p[:1] + p[1:].lower() for p in op.split("_"))
        if op
        else "its Add method"
    )
    return Fix(
        f"The op resolver the program builds has no kernel registered for {what}: TFLite "
        "Micro's MicroMutableOpResolver (and a selective build's resolver) registers only the "
        f"operators the code adds. Add it where the resolver is set up ({method}(), and raise "
        "the operator count of MicroMutableOpResolver<N> to match), or use the "
        "AllOpsResolver where memory allows; no newer converter wrote it, so the runtime's "
        "release is not the fault.",
    )


def converter_older_fix(m: Machine, dist: str) -> Fix:
    """A model converter (``dist``) older than the TensorFlow that wrote the model: a newer
    converter, with the installed TensorFlow held where it is known, or the model exported by
    a TensorFlow the converter knows.

    A converter's upgrade can move TensorFlow: tensorflowjs 4.x requires
    tensorflow-decision-forests, whose releases each pin one TensorFlow (their Requires-Dist),
    so pip installs the newest of those with the TensorFlow it pins unless the command names
    the TensorFlow to keep."""
    tf = m.tf
    if tf is not None:
        held = f" in the same command as the installed {tf.name} {tf.version}, so that pip keeps it"
        upgrade = m.pip(f'install --upgrade {dist} "{tf.name}=={tf.version}"')
    else:
        held = (
            " naming the installed TensorFlow in the same command (`pip show tensorflow` prints "
            'it; add `"tensorflow==VERSION"`), or pip may move TensorFlow with the converter\'s '
            "own requirements"
        )
        # No TensorFlow to hold: an unpinned upgrade could move it, so only what shows it.
        upgrade = m.pip(f"show {dist} tensorflow")
    return Fix(
        f"The model holds ops of a newer TensorFlow than the installed {dist} knows how to "
        f"convert: upgrade {dist} (its newer releases map them){held}; or export the model "
        f"with the TensorFlow {dist} requires (`pip show {dist}` lists it).",
        upgrade,
    )


def older_grappler_caller_fix(m: Machine) -> Fix:
    """Code written for an older TensorFlow's Grappler API (OptimizeGraph given a
    RewriterConfig, where the installed TensorFlow takes a ConfigProto), called by a library
    the log may not name: that library's release for the installed TensorFlow, or the older
    TensorFlow it requires, in an environment of its own. pip check names the library whose
    declared TensorFlow requirement the installed release breaks."""
    shown = f"the installed {m.tf.name} {m.tf.version}" if m.tf is not None else "it"
    return Fix(
        "The code that called TensorFlow's graph optimizer was written for an older TensorFlow, "
        "whose OptimizeGraph took a RewriterConfig; the installed one takes a ConfigProto. Such "
        "calls are a library's (a model converter, most often), not the user's: the traceback's "
        "file paths name it, and `pip check` names a library whose TensorFlow requirement the "
        f"installed release breaks. Install that library's release made for {shown} (its "
        "release notes say which), or install the TensorFlow release it requires (`pip show` "
        "of the library lists it) in a virtual environment of its own.",
        (*m.pip("check"), *m.pip("show tensorflow")),
    )


#: TensorFlow's own name for the compiler that built it (tf.version since 1.13; the top-level
#: tf.COMPILER_VERSION before).
TF_COMPILER_COMMAND: Final = (
    "python -c \"import tensorflow as tf; print(getattr(tf, 'version', tf).COMPILER_VERSION)\""
)


def horovod_compiler_fix(m: Machine, tf_version: Optional[str]) -> Fix:
    """A crash inside Horovod's TensorFlow extension: Horovod compiled again, with the g++
    that built the installed TensorFlow, against that TensorFlow."""
    # Horovod's README (v0.18.0): TensorFlow from PyPI needs g++ 4.8.5 or 4.9 to build Horovod
    # (the wheels up to 1.14 were built with GCC 4.8, the old C++ ABI); later guides name the
    # C++ standard instead (g++ 5 or later; C++17, g++ 8, for TensorFlow 2.10 on).
    old = tf_version is not None and version_key(tf_version)[:2] <= (1, 14)
    which = (
        f"for TensorFlow {tf_version}'s wheels Horovod's guide names g++ 4.8.5 or 4.9"
        if old
        else "TensorFlow prints the compiler that built it"
    )
    compiler = "4.9" if old else "N"
    note = "" if old else "  # N: the GCC release TensorFlow printed"
    return Fix(
        "The crash is inside Horovod's TensorFlow extension (horovod/tensorflow/mpi_lib), "
        "which Horovod compiles as it is installed: built with another compiler (another C++ "
        "ABI) or against another TensorFlow than the one it runs in, its code does not fit "
        "that TensorFlow's. Install Horovod again with the g++ TensorFlow was built with "
        f"({which}), with this TensorFlow in place, without pip's cache.",
        (
            TF_COMPILER_COMMAND,
            *_horovod_reinstall(
                m, f"HOROVOD_WITH_TENSORFLOW=1 CC=gcc-{compiler} CXX=g++-{compiler}", note
            ),
        ),
    )


def horovod_controller_fix(m: Machine, controller: Optional[str], mpi_absent: bool) -> Fix:
    """horovodrun without a controller: ``controller`` ("MPI" or "Gloo") the one asked for and
    not built, None where neither was built; ``mpi_absent`` where MPI is built but horovodrun
    found no MPI installed."""
    # horovod/runner/launch.py: "ensure MPI is installed and reinstall Horovod with
    # HOROVOD_WITH_MPI=1", "ensure CMake is installed and reinstall Horovod with
    # HOROVOD_WITH_GLOO=1"; mpi_run.py's advice for a missing MPI: install one or use --gloo.
    check = "horovodrun --check-build"
    if mpi_absent:
        return Fix(
            "horovodrun found no MPI on this machine (it runs `mpirun --version`): install an "
            "MPI (Open MPI 4 or later, MPICH, IBM Spectrum MPI) so that its mpirun is on the "
            "PATH, or start the job with Gloo instead (horovodrun --gloo ...).",
            ("mpirun --version", check),
        )
    if controller == "MPI":
        return Fix(
            "Horovod was installed without MPI support: install an MPI (Open MPI 4 or later) "
            "and install Horovod again with HOROVOD_WITH_MPI=1 and without pip's cache (the "
            "install then fails with the build's own error instead of leaving MPI out), or "
            "start the job with Gloo (horovodrun --gloo ...).",
            (check, "mpirun --version", *_horovod_reinstall(m, "HOROVOD_WITH_MPI=1")),
        )
    return Fix(
        "Horovod was installed without "
        + ("Gloo support" if controller == "Gloo" else "MPI or Gloo support")
        + ": Gloo builds where CMake is installed. Install CMake and install Horovod again "
        "with HOROVOD_WITH_GLOO=1 and without pip's cache (the install then fails with the "
        "build's own error instead of leaving Gloo out).",
        (check, *m.pip("install cmake"), *_horovod_reinstall(m, "HOROVOD_WITH_GLOO=1")),
    )


def horovod_unbuilt_fix(m: Machine) -> Fix:
    """Horovod installed without its TensorFlow extension: installed again with the extension
    required, so that its build runs against this TensorFlow or fails with its error."""
    # horovod/common/util.py check_extension: "reinstall Horovod with HOROVOD_WITH_TENSORFLOW=1
    # to debug the build error"; without the variable setup.py skips an extension it cannot
    # build (no TensorFlow importable then, or its compile failed).
    return Fix(
        "Horovod was installed without its TensorFlow extension (horovod/tensorflow/mpi_lib): "
        "its setup skips an extension it cannot build, as when no TensorFlow was importable "
        "at install time or the compile failed. Install it again with this TensorFlow in "
        "place, HOROVOD_WITH_TENSORFLOW=1 (the install then fails with the build's own error "
        "instead of leaving the extension out) and without pip's cache.",
        _horovod_reinstall(m, "HOROVOD_WITH_TENSORFLOW=1"),
    )


def _horovod_reinstall(m: Machine, variables: str, note: str = "") -> tuple[str, ...]:
    """Horovod removed, then built again under ``variables`` (the HOROVOD_WITH_* part it must
    build, a compiler) and without pip's cached wheel, ``note`` after the install: pip leaves
    an installed Horovod as it is."""
    return (
        *m.pip("uninstall -y horovod"),
        *(f"{variables} {c}{note}" for c in m.pip("install --no-cache-dir horovod")),
    )


def rebuild_on_install_fix(m: Machine, dist: str, env: str = "") -> Fix:
    """A companion that compiles its TensorFlow extension as it is installed (Horovod): built
    against another TensorFlow, it is installed again, from source, without pip's cached wheel
    of the old build."""
    prefix = f"{env} " if env else ""
    return Fix(
        f"{dist} builds its TensorFlow extension when it is installed, against the TensorFlow "
        "present then: install it again with this TensorFlow in place, without pip's cache "
        "(which holds the wheel built for the other one).",
        tuple(
            prefix + c for c in m.pip(f"install --no-cache-dir --force-reinstall --no-deps {dist}")
        ),
    )


#: The gcc release a TensorFlow build was compiled with, as its framework library records it
#: (GCC's ".comment" strings, ``GCC: (...) X.Y.Z``): what DALI's plugin install reads
#: (dali_tf_plugin_utils.py, get_tf_compiler_version), by a command that runs on any release.
TF_GCC_COMMAND: Final = (
    'python -c "import glob, os, re, tensorflow as tf; print(sorted(set(m.group(0).decode() '
    "for f in glob.glob(os.path.join(tf.sysconfig.get_lib(), 'libtensorflow_framework*')) "
    "for m in re.finditer(rb'GCC: [(][^)]*[)] [0-9.]+', open(f, 'rb').read()))))\""
)


def dali_plugin_fix(m: Machine) -> Fix:
    """DALI's TensorFlow plugin with no library that loads into the installed TensorFlow:
    installed again with this TensorFlow in place, where its install picks a prebuilt library
    by the gcc release TensorFlow was built with or compiles one with the machine's g++, which
    must fit that release."""
    # dali_tf_plugin/dali_tf_plugin_install_tool.py (InstallerHelper): a prebuilt plugin only
    # where the gcc TensorFlow was built with has prebuilt ones; else it compiles with $CXX or
    # g++ where that g++ is TensorFlow's release, or both are 5 or later, else g++-<release>,
    # else it stops ("conda install gxx_linux-64==<release>" in a conda environment).
    # The plugin requires nvidia-dali-cudaXXX at its own release exactly (setup.py.in), so an
    # unpinned reinstall takes the newest plugin and the newest DALI with it; both come from
    # NVIDIA's index (https://docs.nvidia.com/deeplearning/dali/user-guide/docs/installation.html:
    # pip install --extra-index-url https://pypi.nvidia.com ...). The placeholders stay in the
    # text: the log names neither the CUDA flavour nor the DALI release.
    return Fix(
        "DALI's TensorFlow plugin (the nvidia-dali-tf-plugin distribution, named with DALI's "
        "CUDA flavour: nvidia-dali-tf-plugin-cudaXXX; DALI 0.x's was nvidia-dali-tf-plugin, "
        "beside nvidia-dali) has no library that loads into the "
        "installed TensorFlow: its install picks a prebuilt library by the gcc release "
        "TensorFlow was built with, or compiles one with the machine's g++ (or $CXX) against "
        "the TensorFlow present then. Install it again with this TensorFlow in place, without "
        "pip's cache, from NVIDIA's index, at the release of the nvidia-dali `pip list` shows "
        "(the plugin requires that DALI release exactly: unpinned, pip would take the newest "
        "plugin and the newest DALI with it), under the name `pip list` shows: pip install "
        "--extra-index-url https://pypi.nvidia.com --no-cache-dir --force-reinstall "
        '"nvidia-dali-tf-plugin-cudaXXX==<installed nvidia-dali-cudaXXX version>"; '
        "where it compiles, the g++ must be the gcc release this TensorFlow was "
        "built with, or 5 or later for a TensorFlow built with 5 or later (a conda "
        "TensorFlow's may differ from PyPI's): the commands print both, and in a conda "
        "environment `conda install gxx_linux-64==<that release>` provides it.",
        (*m.pip("list"), "g++ --version", TF_GCC_COMMAND),
    )


def deepmd_rebuild_fix(
    m: Machine, built: Optional[str], runtime: Optional[str], built_abi: Optional[str]
) -> Fix:
    """DeePMD-kit's op libraries built for another TensorFlow build (its loader's check in
    deepmd/tf/env.py: the release ``built`` against ``runtime``, or the C++ ABI flag
    ``built_abi``): built again from source against the installed TensorFlow, the release kept;
    or, where the check named it, the TensorFlow release the wheel was compiled against."""
    if built_abi is not None:
        why = (
            f"were compiled with _GLIBCXX_USE_CXX11_ABI={built_abi} and the installed "
            "TensorFlow with the other C++ ABI (conda's TensorFlow and the wheels from PyPI "
            "may differ)"
        )
    elif built is not None:
        now = f"TensorFlow {runtime}" if runtime else "the installed TensorFlow"
        why = f"were compiled against TensorFlow {built}, and {now} runs here"
    else:
        why = "were built for another TensorFlow build than the installed one"
    installed = m.facts.package("deepmd-kit")
    spec = f"deepmd-kit=={installed.version}" if installed and installed.version else "deepmd-kit"
    other = (
        f" Or install TensorFlow {built}, the release the installed deepmd-kit was built for."
        if built is not None
        else ""
    )
    return Fix(
        f"DeePMD-kit's op libraries {why}: C++ ops load only into the TensorFlow build they "
        "were compiled against. Build deepmd-kit from source against this TensorFlow (pip's "
        "--no-binary, without the cached wheel, keeping the TensorFlow installed), as "
        f"DeePMD-kit's own message advises.{other}",
        m.pip(f"install --no-cache-dir --force-reinstall --no-deps --no-binary deepmd-kit {spec}"),
    )


def tflite_flex_fix(m: Machine) -> Fix:
    """A model with Select TensorFlow ops (Flex) under a runtime without the Flex delegate:
    a runtime that links it, or the model converted with builtin operators only."""
    return Fix(
        "The model was converted with Select TensorFlow ops (SELECT_TF_OPS), which run only "
        "where the Flex delegate is linked: TensorFlow's own tf.lite.Interpreter (the full "
        "tensorflow package) links it; tflite-runtime and a plain TensorFlow Lite library do "
        "not (on Android add org.tensorflow:tensorflow-lite-select-tf-ops; elsewhere build the "
        "runtime with the Flex delegate). Or convert the model with builtin operators only "
        "(converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]), replacing "
        "the ops the converter reports.",
        m.pip("install tensorflow"),  # its tf.lite.Interpreter has the Flex delegate
    )


def tflite_select_ops_fix(op: Optional[str]) -> Fix:
    """The TFLite converter refusing an op it has no builtin for: let it keep TensorFlow's
    op (Select TF ops), or, for an op TFLite has builtins for, convert a float32 model."""
    what = f"`{op}`" if op else "the op"
    return Fix(
        f"The converter has no TensorFlow Lite builtin for {what} as the model uses it. Let it "
        "keep TensorFlow's own op: converter.target_spec.supported_ops = "
        "[tf.lite.OpsSet.TFLITE_BUILTINS, tf.lite.OpsSet.SELECT_TF_OPS] (the model then runs "
        "where the Flex delegate is linked: TensorFlow's tf.lite.Interpreter has it, "
        "tflite-runtime does not; on Android add org.tensorflow:tensorflow-lite-select-tf-ops), "
        "or converter.allow_custom_ops = True with a custom op of your own in the runtime. Where "
        "the op is one TFLite has builtins for (Conv2D, MatMul, Mul, ResizeBilinear), the "
        "dtype is what it lacks: a model built under the mixed_float16 policy computes in "
        "float16; rebuild it under float32, copy the weights over, and convert that.",
    )


#: The custom op name edgetpu_compiler gives the subgraph it compiles for the Edge TPU: only
#: the Edge TPU delegate (libedgetpu) runs it (https://coral.ai/docs/edgetpu/tflite-python/).
EDGETPU_CUSTOM_OP = "edgetpu-custom-op"
#: The prefix of the custom code a Select TensorFlow op carries in a TFLite model
#: (tensorflow/lite/util.h: kFlexCustomCodePrefix, IsFlexOp).
FLEX_OP_PREFIX = "Flex"


def tflite_custom_op_fix(m: Machine, op: Optional[str]) -> Fix:
    """A TFLite model's custom op that the interpreter's op resolver does not register: the
    Edge TPU delegate for the Edge TPU's op, the Flex delegate for a Select TensorFlow op,
    else the op's kernel registered (or the model converted with Select TensorFlow ops)."""
    if op == EDGETPU_CUSTOM_OP:
        return Fix(
            "The model was compiled for the Edge TPU: edgetpu_compiler puts the subgraph it "
            f"maps to the accelerator into one custom op, {op}, which only the Edge TPU "
            "delegate runs. Create the interpreter with that delegate (tflite_runtime's or "
            "tf.lite's Interpreter(model_path, experimental_delegates=[load_delegate("
            "'libedgetpu.so.1')]); libedgetpu.1.dylib on macOS, edgetpu.dll on Windows) with "
            "the Edge TPU runtime installed and the device attached, or run the model's "
            "version that was not compiled for the Edge TPU on the CPU.",
            m.pip("show tflite-runtime"),
        )
    if op is not None and op.startswith(FLEX_OP_PREFIX):
        return tflite_flex_fix(m)
    what = f"`{op}`" if op else "a custom op"
    # The guide to TFLite custom operators: a custom op runs only where its kernel is
    # registered with the interpreter's resolver (AddCustom); a TensorFlow op the converter
    # wrote as a custom op (allow_custom_ops) is run instead by Select TF ops' Flex delegate.
    return Fix(
        f"The model holds {what}, which the interpreter's op resolver does not register: "
        "TFLite runs a custom op only where its kernel is registered with the interpreter "
        "before it is built (the C++ OpResolver's AddCustom, or the library or delegate that "
        "provides the op: MediaPipe's, a vendor's). Where the op is a TensorFlow op the "
        "converter kept as a custom op (converter.allow_custom_ops = True), convert the model "
        "with Select TensorFlow ops instead (converter.target_spec.supported_ops = "
        "[tf.lite.OpsSet.TFLITE_BUILTINS, tf.lite.OpsSet.SELECT_TF_OPS]) and run it where the "
        "Flex delegate is linked (TensorFlow's tf.lite.Interpreter).",
    )


def tflite_unknown_op_fix(op: Optional[str]) -> Fix:
    """The TFLite converter, Select TensorFlow ops allowed, meeting an op that is neither a
    TFLite builtin nor a TensorFlow op (TOCO's "and are not recognized by TensorFlow"): an
    add-on's op, which only a custom op registered in the runtime can run."""
    what = f"`{op}`" if op else "the ops it lists"
    return Fix(
        f"Select TensorFlow ops were allowed, and {what} is no TensorFlow op either: an op an "
        "add-on library registered (its name usually says which, Addons>... TensorFlow "
        "Addons'). Replace it in the model with TensorFlow's own ops before converting, or "
        "convert with converter.allow_custom_ops = True and register a TFLite kernel of that "
        "op with the interpreter that runs the model (the C++ OpResolver's AddCustom).",
    )


def edgetpu_runtime_fix(m: Machine) -> Fix:
    """The Edge TPU runtime and the TFLite interpreter of one Coral release."""
    return Fix(
        "The Edge TPU runtime (libedgetpu) is built against one TensorFlow Lite release and "
        "the interpreter that loads its delegate (tflite_runtime, or TensorFlow's tf.lite) is "
        "of another, usually older: install the tflite_runtime of the same Coral release as "
        "the installed libedgetpu (Coral's package repository has both; libedgetpu 15 and "
        "later go with tflite_runtime 2.5), or the libedgetpu of the interpreter's release.",
        (
            "dpkg -l | grep -E 'edgetpu|tflite'",
            *m.pip("show tflite-runtime"),
            "sudo apt-get install --only-upgrade libedgetpu1-std python3-tflite-runtime",
        ),
    )


def mo_dependency_fix(
    m: Machine, dist: Optional[str], required: Optional[str], installed: Optional[str]
) -> Fix:
    """OpenVINO's Model Optimizer finding ``dist`` (``installed``, or none) outside the range
    its release requires (``required``, as its check prints it: "< 2.14.0"). A package newer
    than the range is mo's release older than the package, so mo moves (the openvino-dev
    release made for newer ones), not the package the program trains with; a package missing
    or below the range gets the range, in the Python that runs mo."""
    name = dist or "the package"
    spec = re.sub(r"\s+", "", required or "")
    if spec[:1].isdigit():
        spec = f"=={spec}"  # the oldest checks print the pinned version without its sign
    newer = bool(installed and spec) and (
        above_range(installed or "", spec)
        or (spec.startswith("~=") and version_key(installed or "") > version_key(spec[2:]))
    )
    has = f"{name} {installed} is outside" if installed else f"{name} does not import, for"
    text = (
        "OpenVINO's Model Optimizer (mo) checks the packages of the framework it converts "
        f"from against the ranges its release requires: {has} `{spec or '?'}`. "
    )
    if newer:
        return Fix(
            text + f"The installed {name} is newer than this mo release was made for: where "
            "the conversion failed, upgrade openvino-dev (mo's package) to a release whose "
            f"requirements admit {name} {installed}, rather than moving {name} back under the "
            "program that uses it (or convert in an environment of its own, with "
            f'`pip install "{dist}{spec}"` there); where the IR was generated, the check '
            "only warns.",
            m.pip("install --upgrade openvino-dev"),
        )
    text += (
        "Where the conversion failed, install that range in the Python that runs mo; where "
        "the IR was generated, the check only warns."
    )
    if dist and spec:
        return Fix(text, m.pip_install(f"{dist}{spec}"))
    return Fix(text, m.pip("show openvino-dev"))


#: The Edge TPU runtime's library as load_delegate names it on Linux, macOS and Windows
#: (https://coral.ai/docs/edgetpu/tflite-python/, "Load the Edge TPU delegate").
_EDGETPU_RUNTIME = re.compile(
    r"(?:^|[\\/])(?:libedgetpu\.so\.1|libedgetpu\.1\.dylib|edgetpu\.dll)$"
)


def edgetpu_runtime_file(library: str) -> bool:
    """Whether ``library`` (a path or file name) is the Edge TPU runtime's library."""
    return _EDGETPU_RUNTIME.search(library.strip()) is not None


def edgetpu_install_fix(library: str) -> Fix:
    """The Edge TPU runtime not installed (its library not found): Coral's package of it for
    the system the file's name says (Debian's libedgetpu1-std, the runtime archive's
    install.sh on macOS and install.bat on Windows: Coral's get-started pages)."""
    name = library.strip().replace("\\", "/").rsplit("/", 1)[-1]
    text = (
        f"The Edge TPU runtime ({name}) is not installed where the loader looks: TFLite's "
        "load_delegate loads it by name. "
    )
    if name.endswith((".dll", ".dylib")):
        script = "install.bat" if name.endswith(".dll") else "install.sh"
        return Fix(
            text + "Install it from Coral's Edge TPU runtime archive (edgetpu_runtime_*.zip, "
            f"https://coral.ai/software/#edgetpu-runtime): unpack it and run its {script}.",
        )
    return Fix(
        text + "Install Coral's libedgetpu1-std from Coral's package repository "
        "(https://coral.ai/software/#debian-packages; libedgetpu1-max runs the device "
        "faster and hotter), then unplug and plug in the USB Accelerator again.",
        # Coral's page still pipes the key to apt-key, which Debian and Ubuntu deprecated (a
        # key trusted for every repository) and apt 2.9 removed: the key goes into a keyring
        # of its own that only this repository's line names (signed-by; apt-key(8), and
        # sources.list(5) "signed-by"; the key at the URL Coral's page gives, ASCII-armored,
        # hence --dearmor). --yes: a keyring an earlier try wrote is replaced, where gpg
        # would ask whether to (its input is the pipe) and fail.
        (
            "curl -fsSL https://packages.cloud.google.com/apt/doc/apt-key.gpg "
            "| sudo gpg --dearmor --yes -o /usr/share/keyrings/coral-edgetpu.gpg",
            'echo "deb [signed-by=/usr/share/keyrings/coral-edgetpu.gpg] '
            'https://packages.cloud.google.com/apt coral-edgetpu-stable main" '
            "| sudo tee /etc/apt/sources.list.d/coral-edgetpu.list",
            "sudo apt-get update && sudo apt-get install libedgetpu1-std",
        ),
    )


def edgetpu_device_fix(library: Optional[str], container: bool = False) -> Fix:
    """The Edge TPU runtime that created no delegate: the device attached, seen, permitted and
    free. ``library`` is the runtime's file load_delegate named: its name says the system
    (libedgetpu.so.1 Linux, libedgetpu.1.dylib macOS, edgetpu.dll Windows); ``container``:
    the log shows a container, which sees the device only where its run passes it in."""
    name = (library or "libedgetpu.so.1").replace("\\", "/").rsplit("/", 1)[-1]
    text = (
        f"The Edge TPU runtime ({name}) loaded but opened no Edge TPU, so it gave TFLite no "
        "delegate. Check that the accelerator is attached and seen by the system (a USB "
        "Accelerator: on a USB 3 port of the computer or a powered hub), that this user may "
        "open it, and that no other process is using it (the runtime opens a device for one "
        "process at a time)."
    )
    if name.endswith(".dll"):
        return Fix(
            text + " On Windows the runtime's install.bat installs the USB driver as well; "
            "Device Manager lists the accelerator once the driver is in place.",
        )
    if name.endswith(".dylib"):
        return Fix(text, ("system_profiler SPUSBDataType",))
    # The USB Accelerator enumerates as 1a6e:089a until the runtime loads its firmware and as
    # 18d1:9302 afterwards (the IDs the runtime's udev rules name); the M.2 and PCIe cards
    # appear as /dev/apex_0 once the gasket and apex drivers are loaded (Coral's M.2 page).
    # A container sees neither unless its run passes it in; the USB device's node changes
    # when it re-enumerates, hence the whole bus (google-coral/tflite#3).
    inside = (
        " In a container, the device, the udev rules and the apex group are the host's: the "
        "container sees the accelerator only where its run passes it in (docker run "
        "--privileged -v /dev/bus/usb:/dev/bus/usb for the USB Accelerator, --device "
        "/dev/apex_0 for an M.2 or PCIe card); run the checks below on the host."
        if container
        else ""
    )
    return Fix(
        text + " On Linux, unplug the USB Accelerator and plug it in again after the runtime "
        "is installed, so that the runtime's udev rules apply; an M.2 or PCIe card needs the "
        "gasket-dkms driver, /dev/apex_0, and this user in its apex group." + inside,
        (
            "lsusb | grep -iE '1a6e:089a|18d1:9302'",
            "ls -l /dev/apex_0",
            "id -nG",
        ),
    )


def edgetpu_model_runtime_fix(required: Optional[str], loaded: Optional[str]) -> Fix:
    """An Edge TPU model compiled for a newer runtime (``required``) than the installed
    libedgetpu (``loaded``): the model compiled again for the installed runtime, which the
    compiler's ``--min_runtime_version`` chooses, else the newer runtime installed."""
    needs = f"Edge TPU runtime {required}" if required else "a newer Edge TPU runtime"
    has = f"version {loaded}" if loaded else "older"
    # Coral's compiler page: -m, --min_runtime_version "The lowest Edge TPU runtime version you
    # want the model to be compatible with"; by default a compiler writes for its own runtime.
    target = loaded or "N"
    return Fix(
        f"The model was compiled by an edgetpu_compiler that writes for {needs}, and the "
        f"installed Edge TPU runtime (libedgetpu) is {has}. Compile the model again for the "
        f"installed runtime with edgetpu_compiler's `--min_runtime_version {target}` (an "
        "older compiler release does the same), or install the newer runtime from Coral's "
        "package repository where nothing on the device needs the old one (the deprecated "
        "edgetpu Python library requires its own runtime version).",
        (
            f"edgetpu_compiler --min_runtime_version {target} MODEL.tflite",
            "edgetpu_compiler --version",
            "sudo apt-get update && sudo apt-get install --only-upgrade libedgetpu1-std",
        ),
    )


#: A release tuple as Python prints one in a list (``(2, 0, 0)``).
_RELEASE_TUPLE = re.compile(r"\((\d{1,4}), (\d{1,4}), (\d{1,4})\)")


#: Edward's declared TensorFlow floor (setup.py's `tensorflow` extra of Edward 1.3,
#: ``tensorflow>=1.2.0rc0``, https://github.com/blei-lab/edward/blob/352596c3bd9d2f4bac6b6efbb4d4b02b5a8add6b/setup.py).
EDWARD_TF_FLOOR: Final = "1.2"


def edward_tf_fix(m: Machine) -> Fix:
    """Edward's own words for a TensorFlow name its import could not find: a TensorFlow 1.x
    from its declared floor (1.2) on, since Edward builds on tf.contrib, which TensorFlow 2
    removed; where the log shows a TensorFlow 2, a TensorFlow 1 environment or Edward's
    successors on TensorFlow 2 (Edward2, TensorFlow Probability)."""
    floor = EDWARD_TF_FLOOR
    version = m.tf.version if m.tf is not None else None
    said = (
        f"Edward supports TensorFlow {floor} or later of the 1.x line (its setup.py declares "
        f"tensorflow>={floor}.0rc0, and it builds on tf.contrib, which TensorFlow 2 removed)"
    )
    if version is not None and version_key(version)[0] >= 2:
        return Fix(
            f"{said}; TensorFlow {version} is a 2.x release, which no Edward release runs "
            f"on. Run Edward in an environment of its own with a TensorFlow 1.x from {floor} "
            "(and a Python that release has wheels for), or move the model to Edward2 or "
            "TensorFlow Probability, its successors on TensorFlow 2.",
            m.pip("show edward tensorflow"),
        )
    if version is not None and version_key(version)[:2] < version_key(floor):
        return Fix(
            f"{said}; TensorFlow {version} is older. Upgrade TensorFlow to {floor} or later, "
            "staying on 1.x (the TensorFlow 1.x releases current when your Edward release "
            "came out are the safest: `pip show edward` gives its release).",
            m.pip("show edward tensorflow"),
        )
    return Fix(
        f"{said}. `pip show tensorflow` gives the installed one: below {floor}, upgrade it "
        f"within 1.x; 2.x, run Edward with a TensorFlow 1.x from {floor} in an environment of "
        "its own, or move to Edward2 or TensorFlow Probability.",
        m.pip("show edward tensorflow"),
    )


def library_tf_check_fix(
    m: Machine,
    library: str,
    minimum: Optional[str],
    excluded: Optional[str],
    at_floor: bool = False,
) -> Fix:
    """A library's own import check refused the installed TensorFlow: a TensorFlow at or above
    its ``minimum`` and outside the releases it lists as ``excluded`` (a Python list of
    release tuples, as keras-retinanet prints it). ``at_floor``: the library is newer than
    the TensorFlow found (below its floor), so the floor's own line is installed, the least
    move that passes its check, where pip would take the newest line; the Keras and Python
    that move with it are named (:func:`tensorflow_move_fix`)."""
    refused = [".".join(t) for t in _RELEASE_TUPLE.findall(excluded or "")]
    key = version_key(minimum or "")
    cap = [f"<{key[0]}.{key[1] + 1}"] if at_floor and len(key) >= 2 else []
    spec = ",".join(
        ([f">={minimum}"] if minimum else []) + cap + [f"!={release}" for release in refused]
    )
    installed = f"TensorFlow {m.tf.version}" if m.tf is not None else "the installed TensorFlow"
    floor = f"TensorFlow {minimum} or later" if minimum else "a newer TensorFlow"
    but = f", except {', '.join(refused)}" if refused else ""
    which = (
        f"TensorFlow {key[0]}.{key[1]}, its floor's line" if cap else "a TensorFlow in that range"
    )
    text = (
        f"{library} checks the TensorFlow it runs under and refuses {installed}: it supports "
        f"{floor}{but}. Install {which} (or a release of {library} made for the installed "
        "TensorFlow)."
    )
    if cap:
        return tensorflow_move_fix(m, text, f"tensorflow{spec}")
    return Fix(
        text,
        m.pip(f'install "tensorflow{spec}"') if spec else m.pip(f"show {library} tensorflow"),
    )


#: Ops that a module of TensorFlow 1.x's tf.contrib registers when it is first accessed
#: (contrib's ops load lazily, as op.cc's "Op type not registered" note says), by op name:
#: REGISTER_OP in tensorflow/contrib/image/ops/image_ops.cc and
#: tensorflow/contrib/resampler/ops/resampler_ops.cc (r1.15). TensorFlow 2 has no tf.contrib.
CONTRIB_OPS: Mapping[str, str] = {
    "ImageProjectiveTransform": "tensorflow.contrib.image",
    "Resampler": "tensorflow.contrib.resampler",
    "ResamplerGrad": "tensorflow.contrib.resampler",
}


#: The hosts of TensorFlow that are no Python process, where an import cannot register an op:
#: TensorFlow Serving links ops when its model server is built
#: (https://www.tensorflow.org/tfx/serving/custom_op); a program of the C API loads an op
#: library with TF_LoadLibrary (tensorflow/c/c_api.h), TensorFlow Java with
#: TensorFlow.loadLibrary.
SERVING_HOST = "serving"
NATIVE_HOST = "native"
#: TensorFlow.js' graph executor (tfjs-converter), which implements its own list of ops.
TFJS_HOST = "tfjs"


#: The add-ons whose ops TensorFlow Serving's model server links into its binary
#: (tensorflow_serving/model_servers/BUILD, SUPPORTED_TENSORFLOW_OPS: TF Text's ops_lib, and
#: TF-DF's inference ops from September 2022), each at the release the server was built with.
SERVING_LINKED_OPS: Final = frozenset({"tensorflow-text", "tensorflow-decision-forests"})
SERVING_BUILD = (
    "https://github.com/tensorflow/serving/blob/master/tensorflow_serving/model_servers/BUILD"
)


def _hosted_op_fix(op: Optional[str], dist: Optional[str], host: str) -> Fix:
    """An op no library of a non-Python host (``host``) registered: the host given the
    library that registers it (``dist``'s, where known)."""
    what = f"`{op}`" if op else "The op"
    owner = f" is an op of {dist}, and" if dist else ""
    if host == TFJS_HOST:
        # tfjs-converter's executor runs only the ops it implements (its supported_ops.md);
        # TensorFlow's op libraries and releases do not reach it.
        return Fix(
            f"{what} is not implemented by the TensorFlow.js release that runs the graph model "
            "(its graph executor implements its own list of TensorFlow ops, and an op of a "
            "newer TensorFlow than it knows is unknown to it). Install a later @tensorflow/tfjs "
            "release that implements the op (its release notes, and tfjs-converter's "
            "supported-ops list, say which; in a page that loads tfjs from a CDN, the version "
            "in the script's URL), or export and convert the model again without the op (an "
            "older TensorFlow or another layer that writes an op the release implements); "
            "tf.registerOp() can register an execution of the op in the program itself.",
            ("npm ls @tensorflow/tfjs @tensorflow/tfjs-converter",),
        )
    if host == SERVING_HOST and dist in SERVING_LINKED_OPS:
        return Fix(
            f"{what} is an op of {dist}, whose ops TensorFlow Serving's model server links in "
            f"({SERVING_BUILD}, SUPPORTED_TENSORFLOW_OPS), each server at the {dist} release "
            f"it was built with: this one lacks the op, so it is older than the {dist} that "
            "saved the model. Serve the model with a newer model server (a later "
            "tensorflow/serving image; tensorflow/serving:nightly where no release carries "
            f"the op yet), or with a model server built with the {dist} release that saved it "
            "(TensorFlow Serving's guide to custom ops), or save the model with the "
            f"{dist} release of this server's TensorFlow.",
            ("tensorflow_model_server --version", "docker pull tensorflow/serving:nightly"),
        )
    if host == SERVING_HOST:
        return Fix(
            f"{what}{owner} is not linked into this TensorFlow Serving model server, and no "
            "Python import reaches it: serve the model with a model server built with the "
            "library that registers the op (TensorFlow Serving's guide to custom ops builds "
            "tensorflow_model_server with it as a dependency; some add-ons publish such a "
            "build), at the TensorFlow release the model was saved with; or, where the op is "
            "a newer TensorFlow's, a model server of that release or later.",
            ("tensorflow_model_server --version",),
        )
    return Fix(
        f"{what}{owner} is not registered in this process, which is no Python program (an "
        "import does not reach it): load the op library that registers it before the model "
        "is loaded (TF_LoadLibrary in the C API, TensorFlow.loadLibrary in TensorFlow Java; "
        "a Python package's op libraries are its .so files, built for one TensorFlow "
        "release), or, where the op is a newer TensorFlow's, a TensorFlow library of the "
        "release that saved the model.",
    )


def op_not_registered_fix(m: Machine, op: Optional[str], host: str = "") -> Fix:
    """Load the library that registers ``op`` (the module table names add-on ops; a module of
    tf.contrib registers some of 1.x's), else the TensorFlow that saved the model: the two
    explanations, the one the op's name supports first. ``host``: where the log shows a
    process that no Python import reaches (:data:`SERVING_HOST`, :data:`NATIVE_HOST`,
    :data:`TFJS_HOST`)."""
    if host:
        return _hosted_op_fix(op, modules().op_library(op) if op else None, host)
    contrib = CONTRIB_OPS.get(op or "")
    if contrib is not None:
        return Fix(
            f"{op} is an op of {contrib}, which TensorFlow 1.x registers only when the module "
            f"is first used: `import {contrib}` (or touch tf.contrib.{contrib.rsplit('.', 1)[1]}) "
            "in the same process before the graph or model is loaded. TensorFlow 2 has no "
            "tf.contrib: a graph holding this op runs only on a 1.x release (1.15 is the last).",
            m.pip("show tensorflow"),
        )
    table = modules()
    dist = table.op_library(op) if op else None
    if dist is not None:
        module = table.module_of(dist) or dist.replace("-", "_")
        comp = m.facts.package(dist)
        install = () if comp is not None else companion_fix(m, dist).commands
        return Fix(
            f"{op} is an op of {dist}: import it before the model is loaded or the graph is "
            f"built (`import {module}` in the same process)"
            + (
                "."
                if comp
                else "; where it is missing, install its release for the installed TensorFlow."
            ),
            install,
        )
    what = f"`{op}`" if op else "The op"
    return Fix(
        f"{what} is not one of this TensorFlow's ops. Either the model was saved by a newer "
        "TensorFlow (load it with that release or a newer one), or by a process that had an "
        "add-on library loaded (import the package that provides the op before loading: "
        "the op's name usually says which).",
        m.pip("show tensorflow"),
    )


def graph_from_other_tf_fix(m: Machine, op: Optional[str], inputs: bool = False) -> Fix:
    """A graph whose node carries an attribute the installed TensorFlow's op lacks (or, with
    ``inputs``, other inputs than the op takes): export it again with this TensorFlow, or run
    it with the release that exported it."""
    # node_def_util.cc's ValidateNodeDef: an attr the OpDef does not list, or a count of
    # inputs its signature does not take, is how a graph written by a newer (or other)
    # TensorFlow reads to this one.
    what = f"`{op}`" if op else "an op"
    differs = (
        "has other inputs than the installed TensorFlow's op takes (the op's signature "
        "changed between the releases)"
        if inputs
        else "carries an attribute the installed TensorFlow's op does not define (a newer "
        "release added it)"
    )
    return Fix(
        f"The graph was written by another TensorFlow release: its {what} node {differs}. "
        "Export the graph again (freeze or save it from its checkpoint) with the installed "
        "TensorFlow, or install the TensorFlow release that exported it (the model's README "
        "or its producer version says which) and run it there.",
        m.pip("show tensorflow"),
    )


def in_notebook(fix: Fix) -> Fix:
    """``fix`` for a notebook: its pip commands as the %pip magic, which installs into the
    kernel's own interpreter; a `!pip` runs whatever pip is first on the server's PATH
    (IPython's documentation of %pip)."""
    if not any(c.startswith("pip ") for c in fix.commands):
        return fix
    return Fix(
        fix.text + " In a notebook, `%pip install` installs into the kernel's own Python (a "
        "`!pip install` may reach another); restart the kernel afterwards.",
        tuple("%" + c if c.startswith("pip ") else c for c in fix.commands),
    )


def tfjs_releases_fix() -> Fix:
    """Two tfjs-core releases in one program: the backend's and the one the code uses."""
    return Fix(
        "A TensorFlow.js backend (tfjs-node, tfjs-node-gpu) and the tfjs-core the code or a "
        "model package (body-pix, coco-ssd, face-api) imports are of different releases, each "
        "with its own copy of tfjs-core: put them on one release (the same version of "
        "@tensorflow/tfjs, tfjs-core and tfjs-node in package.json, and a model package made "
        "for it), so that one tfjs-core remains.",
        ("npm ls @tensorflow/tfjs-core", "npm ls @tensorflow/tfjs-node @tensorflow/tfjs"),
    )


def _c_function_change(symbol: str) -> Optional[tuple[str, str, bool]]:
    """What the C API table says of ``symbol``: the sentence naming the release that removed
    (or added) it, the release line whose library has it, and whether that line is the last
    with it (removed) rather than the first (added); None where the table has no row."""
    row = c_function(symbol)
    if row is None:
        return None
    if row.removed is not None and row.last is not None:
        return (
            f"TensorFlow removed {symbol} from its C library in {row.removed} ({row.header}), "
            f"so the library loaded is {row.removed} or newer while the binding calls the C API "
            f"of {row.last} or older.",
            row.last,
            True,
        )
    assert row.added is not None  # the table's reader requires added or removed
    return (
        f"TensorFlow added {symbol} to its C library in {row.added} ({row.header}), so the "
        f"library loaded is older than {row.added} while the binding calls its C API.",
        row.added,
        False,
    )


def c_binding_fix(binding: Optional[str], symbol: str, os: Optional[str] = None) -> Fix:
    """A binding of the TensorFlow C API (Go, graft, tfgo, Rust) compiled against a
    libtensorflow of another release than it was written for: ``symbol`` is the C name the
    library lacks (the C API table names the releases that have it; without a row, the
    binding is taken to be the newer); ``os`` the system the log shows (ldconfig is Linux's)."""
    who = binding or "the binding"
    looks: tuple[str, ...] = ("ldconfig -p | grep libtensorflow",) if os in (None, "linux") else ()
    looks += ("go list -m all | grep -i tensorflow",) if binding else ()
    change = _c_function_change(symbol)
    if change is not None:
        said, line, last = change
        return Fix(
            f"{said} Install the libtensorflow {line} release"
            + (" (the last with it)" if last else " or newer")
            + f", or use a release of {who} made for the installed library.",
            looks,
        )
    return Fix(
        f"{binding or 'The binding'} was written for a newer TensorFlow C library than the "
        f"one installed, which lacks {symbol}: install the libtensorflow release {who} is "
        "made for (its README or release notes name it; the official Go package is "
        "TensorFlow's own release), or use a release of the binding made for the installed "
        "library.",
        looks,
    )


#: The NuGet package that carries TensorFlow's C library for TensorFlow.NET and ML.NET
#: (https://github.com/SciSharp/TensorFlow.NET#installation).
_DOTNET_NATIVE = "SciSharp.TensorFlow.Redist"


def dotnet_binding_fix(symbol: str) -> Fix:
    """A .NET binding of the C API (TensorFlow.NET, TensorFlowSharp) beside a TensorFlow C
    library of another release, which lacks ``symbol``: the native package release that has
    it where the C API table says, else the one the binding's release pairs with."""
    change = _c_function_change(symbol)
    if change is not None:
        said, line, last = change
        return Fix(
            f"The TensorFlow C library the program loads lacks {symbol}, which the .NET "
            f"binding calls: {said} Install the {line} native library: {_DOTNET_NATIVE} "
            + (f"{line}.x (the last release line with {symbol})" if last else f"{line} or newer")
            + ", the NuGet package that carries it for TensorFlow.NET and ML.NET, or a "
            "binding release made for the native library installed; remove other "
            "tensorflow.dll / libtensorflow copies the loader finds first.",
            ("dotnet list package",),
        )
    return Fix(
        f"The TensorFlow C library the program loads lacks {symbol}, which the .NET binding "
        "calls: the binding and the native library are of different releases. Install the "
        "native package the binding's release names (TensorFlow.NET's README pairs each "
        f"release with a {_DOTNET_NATIVE} version, the TensorFlow release it wraps), "
        "or the binding release made for the native library installed; remove other "
        "tensorflow.dll / libtensorflow copies the loader finds first.",
        ("dotnet list package",),
    )


#: The schemes TensorFlow served itself up to 2.5 (tensorflow/core/platform/s3, .../hadoop)
#: and tensorflow-io registers under these names only from 0.20, its release for TensorFlow
#: 2.6: 0.17 registers s3e, hdfse and viewfse, and 0.18 and 0.19 the plain names only with
#: TF_USE_MODULAR_FILESYSTEM=1 (tensorflow/io v0.17.0 and v0.19.0,
#: tensorflow_io/core/{plugins/file_system_plugins.cc,filesystems/filesystem_plugins.cc}).
_SCHEMES_TF_SERVED = frozenset({"s3", "hdfs", "viewfs"})
_SCHEMES_MOVED_IN = (2, 6)


def filesystem_plugin_fix(m: Machine, scheme: Optional[str]) -> Fix:
    """No file system registered for ``scheme``: tensorflow-io's release for the installed
    TensorFlow (the companion table), imported before the path is opened; for a TensorFlow
    that served the scheme itself, a build without it, which no tensorflow-io mends."""
    tf = m.tf
    if (
        scheme in _SCHEMES_TF_SERVED
        and tf is not None
        and version_key(tf.version)[:2] < _SCHEMES_MOVED_IN
    ):
        return Fix(
            f"TensorFlow {tf.version} serves {scheme}:// paths itself, in its Linux packages: "
            "this one was built without that file system (Windows' packages never had it, nor "
            "have some conda or source builds). The tensorflow-io releases for it register it "
            f"as {scheme}e:// instead (0.18 and 0.19 as {scheme}:// only with "
            "TF_USE_MODULAR_FILESYSTEM=1), so installing one does not serve the path. Run on "
            "TensorFlow's Linux package, or move to TensorFlow 2.6 or later with the "
            "tensorflow-io release built for it and `import tensorflow_io` before the path is "
            "opened.",
            (
                'python -c "import platform, tensorflow as tf; '
                'print(tf.__version__, platform.system())"',
            ),
        )
    comp = next(
        (p for p in m.facts.packages or () if normalize_name(p.name) == "tensorflow-io"), None
    )
    fix = companion_fix(m, "tensorflow-io", comp)
    shown = f"{scheme}://" if scheme else "this scheme's"
    return Fix(
        f"No file system is registered for {shown} paths. From TensorFlow 2.6 the s3 and hdfs "
        "file systems (and az, http) are tensorflow-io's, registered as `import tensorflow_io` "
        "runs, and only by a tensorflow-io built for the installed TensorFlow (one built for "
        "another warns 'file system plugins are not loaded' and registers none). "
        f"{fix.text} Then `import tensorflow_io` in the program before it opens the path. "
        "(TensorFlow 2.5 and older carry s3 and hdfs themselves, in their Linux and macOS "
        "packages.)",
        (
            *fix.commands,
            'python -c "import tensorflow as tf, tensorflow_io as tfio; '
            'print(tf.__version__, tfio.__version__)"',
        ),
    )


#: A pre-release in a specifier as PEP 440 reads it, with the separators it normalises away
#: (TensorFlow 2.3.0rc0's metadata wrote tensorflow-estimator's floor as 2.3.0-rc0).
#: One clause of an environment marker, as uv prints it: sys_platform == 'win32'.
_MARKER_CLAUSE = re.compile(r"^\s*(?P<name>\w+)\s*==\s*(?P<q>['\"])(?P<value>[^'\"]*)(?P=q)\s*$")


def _marker_complement(marker: str) -> Optional[str]:
    """The marker that excludes the environments of a one-clause ``marker`` (``sys_platform
    != 'win32'``), or None where the marker has more clauses (PEP 508 has no ``not``)."""
    clause = _MARKER_CLAUSE.match(marker)
    if clause is None:
        return None
    return f"{clause.group('name')} != '{clause.group('value')}'"


def metadata_unsatisfiable_fix(
    m: Machine,
    companion: str,
    spec: str,
    marker: str,
    required_by: str,
    resolver: str,
    old_pip: bool = False,
) -> Fix:
    """What changes the lock where TensorFlow's own requirement of ``companion`` (``spec``,
    for the environments of ``marker``) cannot be met: uv locking only the environments the
    project runs in, the resolver taking pre-releases, or another TensorFlow release.
    ``resolver`` is the tool that printed the refusal: ``uv``, ``pip-tools`` (Pipenv and
    pip-compile), ``poetry`` or ``pip`` (which installs, locking nothing); ``old_pip``: the
    refusal is in a pip's words before 20.3, which has no ``pip index``."""
    release = required_by or "TensorFlow"
    asked = f"{companion}{spec}"
    if marker:
        complement = _marker_complement(marker)
        where = f"for the environments where {marker}"
        if complement is None:
            return Fix(
                f"{release}'s metadata requires {asked} {where}, a version the index does "
                "not offer, and uv's universal lock must satisfy it on every platform. Limit "
                "the lock to the platforms the project runs on with [tool.uv] environments in "
                "pyproject.toml (markers that leave those environments out), then lock again; "
                "or use a TensorFlow release whose metadata does not require it.",
                ("uv lock",),
            )
        return Fix(
            f"{release}'s metadata requires {asked} {where}, a version the index does not "
            "offer; uv's universal lock must satisfy it on every platform, while pip on one "
            "platform never reads it. Limit the lock to the environments the project runs "
            f'in: add to pyproject.toml [tool.uv] environments = ["{complement}"], then lock '
            "again; or use a TensorFlow release whose metadata does not require it.",
            ("uv lock",),
        )
    if resolver == "pip":
        # pip takes a pre-release wherever the specifier names one (PEP 440's "explicitly
        # requested"; packaging's SpecifierSet.prereleases): what it could not find is absent.
        # `pip index versions` drops pre-releases unless asked (commands/index.py), and came
        # with pip 21.2: a pip that printed the older words is upgraded first.
        listing = m.list_releases(companion, pre=_asks_prerelease(spec))
        if old_pip and any(" index versions " in c for c in listing):
            listing = tuple(dict.fromkeys((*m.pip("install --upgrade pip"), *listing)))
        return Fix(
            f"{release}'s metadata requires {asked}, a version the index does not offer, so "
            "pip cannot install this TensorFlow release whatever the environment holds (a "
            "release candidate or a build of TensorFlow's source can require a companion "
            "release not yet published): install a TensorFlow release whose companions are "
            "published, or wait until this one's is. See which versions the index offers:",
            listing,
        )
    if _asks_prerelease(spec):
        if resolver == "pip-tools":
            # The words are Pipenv's and pip-compile's alike: the text names both ways.
            commands: tuple[str, ...] = ()
            how = (
                "let the resolver take pre-releases (Pipenv: `pipenv lock --pre`, or "
                "allow_prereleases = true in the Pipfile's [pipenv] section; pip-compile: "
                "--pre)"
            )
        elif resolver == "poetry":
            commands = (f'poetry add "{companion}{spec}" --allow-prereleases',)
            how = "add the companion with --allow-prereleases"
        else:
            commands = ("uv lock --prerelease allow",)
            how = "let uv take pre-releases (--prerelease allow)"
        return Fix(
            f"{release}'s metadata requires {asked}, a pre-release, which the resolver does "
            f"not take unless asked: {how}; or move to the next release candidate or the final "
            "release of TensorFlow, whose metadata names a published companion.",
            commands,
        )
    return Fix(
        f"{release}'s metadata requires {asked}, a version the index does not offer, so no "
        "lock of this TensorFlow release can succeed: move to another release of TensorFlow "
        "(the next patch), or install the companion by hand at a version that exists. See "
        "which versions the index offers:",
        m.list_releases(companion),
    )


def tensorflow_ecosystem(dist: str) -> bool:
    """A distribution of TensorFlow's own ecosystem: its family in the module table, or named
    as Google names them (tensorflow-metadata, tensorflow-serving-api, tf-models-official).
    A nightly build (tb-nightly) is its release's."""
    table = modules()
    module = table.release_of(dist).replace("-", "_")
    return (
        dist in TF_DISTRIBUTIONS
        or module in table.family
        or module in table.on_tensorflow
        or dist.startswith(("tensorflow-", "tf-"))
    )


def written_on_tensorflow(dist: str) -> bool:
    """A library the module table lists as written against TensorFlow (``on_tensorflow``:
    deepctr, tf2onnx, tf-models-official), not of its family: its pins are its own, and a
    clash of one with the environment is ``library-pin-conflicts``, for check and explain."""
    return modules().written_on_tensorflow(dist)


def tensorflow_family(dist: str) -> bool:
    """A distribution of TensorFlow's own family, released by its project beside TensorFlow:
    the module table's family, or named in TensorFlow's own ``tensorflow-`` namespace
    (tensorflow-metadata). Not a library merely written against TensorFlow (``on_tensorflow``,
    tf-models-official), nor one another author named ``tf-...`` (tf-keras-vis, tf-explain):
    their pins are their own business. A nightly build the family publishes under a name of
    its own (tb-nightly, which tf-nightly requires in TensorBoard's place) is its release's."""
    table = modules()
    release = table.release_of(dist)
    # The module table first: the import packages the release installs (by its wheel's
    # RECORD), which it marks family or a library on TensorFlow (tensorflow-transform,
    # tensorflow-federated, tensorflow-data-validation are TFX's and federated's, not
    # released beside TensorFlow); only a name the table does not hold falls to the namespace.
    installs = {release.replace("-", "_"), *table.modules_of(release)}
    if installs & table.family:
        return True
    if installs & table.on_tensorflow:
        return False
    return release.startswith("tensorflow-")


#: A CUDA build of jaxlib as its version shows it (``0.4.20+cuda12.cudnn89``, the local tag
#: of the builds JAX published on its own index; before it, jaxlib 0.1.x's tag named the CUDA
#: release with its minor digit, ``0.1.71+cuda102`` and ``+cuda110`` being CUDA 10.2 and
#: 11.0, so only the major is read) or as the plugin distribution JAX installs beside the
#: CPU jaxlib from 0.4.26 on (jax-cuda12-plugin, jax-cuda12-pjrt).
_JAX_CUDA = re.compile(
    r"\+cuda(?:(?P<tag>\d+)(?=\.)|(?P<old>\d+)\d\b)|^jax-cuda(?P<plugin>\d+)-(?:plugin|pjrt)$"
)

#: A ROCm (AMD GPU) build of jaxlib: its version's local tag (``+rocm``) or the ROCm plugin
#: JAX installs beside the CPU jaxlib (jax-rocm60-plugin, jax-rocm60-pjrt).
_JAX_ROCM = re.compile(r"\+rocm\d|^jax-rocm\d+-(?:plugin|pjrt)$")

#: The CUDA lines jax's own extras install (jax[cuda12], jax[cuda13]) in the current release:
#: https://github.com/jax-ml/jax/blob/main/setup.py (``extras_require``), and the install
#: page, https://docs.jax.dev/en/latest/installation.html.
_JAX_CUDA_EXTRAS: Final = ("12", "13")


def jax_cuda_line(m: Machine, jaxlib_version: str) -> Optional[str]:
    """The CUDA major of the jaxlib the evidence shows: its version's local tag, else a JAX
    CUDA plugin the package listing holds; None for a CPU build or where nothing says."""
    found = _JAX_CUDA.search(jaxlib_version)
    if found is not None:
        return found["tag"] or found["old"]
    for p in m.facts.packages or ():
        found = _JAX_CUDA.match(normalize_name(p.name))
        if found is not None:
            return found["plugin"]
    return None


def jax_rocm_build(m: Machine, jaxlib_version: str) -> bool:
    """Whether a ROCm (AMD GPU) build of jaxlib is what is installed: its version's local tag
    (``+rocm610``), or a ROCm plugin the package listing holds."""
    return bool(_JAX_ROCM.search(jaxlib_version)) or any(
        _JAX_ROCM.match(normalize_name(p.name)) for p in m.facts.packages or ()
    )


def jax_floor_fix(m: Machine, floor: str, lead: str) -> Fix:
    """jax and jaxlib of one release at ``floor`` or later (``lead``: the words before, what
    needs that release), the way JAX was installed: its CUDA extra where the machine shows a
    CUDA build, the CPU extra where it shows a CPU jaxlib, conda-forge's where conda installed
    them, else how to tell, with no blind command: jax alone leaves an older jaxlib it
    refuses, and PyPI's jaxlib alone is the CPU build (JAX's install page,
    https://docs.jax.dev/en/latest/installation.html)."""
    how = (
        f"{lead} Upgrade jax and jaxlib together to {floor} or later, as JAX's install page "
        "does: not jax alone, which refuses an older jaxlib"
    )
    if m.from_conda("jax") or m.from_conda("jaxlib"):
        return Fix(
            f"{how}; conda installed them here, so from conda-forge.",
            m.conda_install(f"jax>={floor}", f"jaxlib>={floor}", channel="conda-forge"),
        )
    jaxlib = m.facts.package("jaxlib")
    version = jaxlib.version if jaxlib is not None else ""
    if jax_rocm_build(m, version):
        return Fix(
            f"{how}; a ROCm (AMD GPU) build is installed, so jax and the ROCm build of that "
            "release together, as JAX's install page says for AMD GPUs. No command is given: "
            "the `cpu` extra and PyPI's jaxlib alone are the CPU build."
        )
    cuda = jax_cuda_line(m, version)
    if cuda in _JAX_CUDA_EXTRAS:
        return Fix(
            f"{how}; with the CUDA extra, so that the GPU build stays.",
            m.pip_install(f"jax[cuda{cuda}]>={floor}"),
        )
    if cuda is not None:
        return Fix(
            f"{how}; a CUDA {cuda} build is installed, which jax's current extras do not "
            "install: jax and the CUDA jaxlib of that release from JAX's release index. No "
            "command is given: PyPI's jaxlib is the CPU build."
        )
    if jaxlib is not None and version:
        return Fix(
            f"{how}; with the CPU extra, as the CPU build is installed.",
            m.pip_install(f"jax[cpu]>={floor}"),
        )
    return Fix(
        f'{how}. The extra keeps the build: `pip install -U "jax[cuda12]>={floor}"` for an '
        f'NVIDIA GPU, `"jax[cpu]>={floor}"` otherwise (PyPI\'s jaxlib alone is the CPU build).',
        m.pip("show jax jaxlib"),
    )


def jax_release_fix(m: Machine, jaxlib_version: str) -> Fix:
    """jax refused the installed jaxlib as it imported (older than the jax release's minimum,
    or newer than jax itself): jax and jaxlib of one release, as JAX's install page installs
    them (``pip install -U "jax[cpu]"``, ``"jax[cuda12]"``), never jaxlib alone: the message
    does not show jax's version, a jaxlib newer than jax is refused too, and PyPI's jaxlib
    is the CPU build, which would replace a CUDA one. The CUDA line the evidence shows is
    kept (:func:`jax_cuda_line`)."""
    cuda = jax_cuda_line(m, jaxlib_version)
    if m.from_conda("jax") or m.from_conda("jaxlib"):
        # conda-forge builds jax and jaxlib (its CUDA builds too, by the build string):
        # pip's over conda's mixes two installers' files (conda-forge's jaxlib-feedstock,
        # https://github.com/conda-forge/jaxlib-feedstock; JAX's install page, conda section).
        return Fix(
            f"jax refuses jaxlib {jaxlib_version}: jax and jaxlib must be of one release, and "
            "conda installed them here. Update both at once from conda-forge (it picks the "
            "jaxlib build, CPU or CUDA, that fits the environment), not with pip.",
            m.conda_install("jax", "jaxlib", channel="conda-forge"),
        )
    if jax_rocm_build(m, jaxlib_version):
        return Fix(
            f"jax refuses jaxlib {jaxlib_version}, with a ROCm (AMD GPU) build installed: jax "
            "and jaxlib must be of one release. Install jax and the ROCm build of that same "
            "release together, as JAX's install page says for AMD GPUs "
            "(https://docs.jax.dev/en/latest/installation.html). No command is given: the "
            "`cpu` extra and PyPI's jaxlib alone are the CPU build, which would leave the "
            "ROCm build of another release beside it.",
        )
    if cuda is None:
        return Fix(
            f"jax refuses jaxlib {jaxlib_version}: jax and jaxlib are released together and "
            "must be of one release. Upgrade both at once, as JAX's install page does "
            "(https://docs.jax.dev/en/latest/installation.html); the `cpu` extra keeps the "
            "CPU build. Not jaxlib alone: jax also refuses a jaxlib newer than itself.",
            m.pip('install -U "jax[cpu]"'),
        )
    if cuda not in _JAX_CUDA_EXTRAS:
        return Fix(
            f"jax refuses jaxlib {jaxlib_version}, a CUDA {cuda} build: jax and jaxlib must be "
            f"of one release. Install jax and the CUDA {cuda} jaxlib of that same release "
            "from JAX's release index (https://docs.jax.dev/en/latest/installation.html), or "
            f"move to a CUDA line jax's current extras install "
            f"({', '.join(f'jax[cuda{x}]' for x in _JAX_CUDA_EXTRAS)}) where the driver "
            "supports it. No command is given: PyPI's jaxlib is the CPU build, and jax's "
            f"current releases install no CUDA {cuda} build.",
        )
    return Fix(
        f"jax refuses jaxlib {jaxlib_version}, a CUDA {cuda} build: jax and jaxlib must be of "
        "one release. Upgrade both at once with the CUDA extra, as JAX's install page does "
        "(https://docs.jax.dev/en/latest/installation.html), so that the GPU build stays: "
        "PyPI's jaxlib alone is the CPU build.",
        m.pip(f'install -U "jax[cuda{cuda}]"'),
    )
