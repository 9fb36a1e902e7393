"""float32 FLOP per cycle per core, per CPU microarchitecture: data with its sources.

A core's float32 peak is its FMA pipes x float32 lanes per pipe x 2 (an FMA is a multiply and
an add). The instruction-set flags do not say it: AMD's Zen 1 runs AVX2 on two 128-bit FMA
pipes (16 FLOP/cycle, half of Haswell's 32), and Zen 4 runs AVX-512 on its two 256-bit pipes
(32, not the 64 of a Xeon with two 512-bit units). So the CPU is matched by vendor, family and
model (x86-64, as ``/proc/cpuinfo`` prints them in decimal) or by implementer and part
(aarch64, ``CPU implementer`` / ``CPU part``), and every row names where its figures come from.

Model ranges follow the Linux kernel: AMD's Zen generations from ``bsp_init_amd`` in
arch/x86/kernel/cpu/amd.c (AMD_ZEN_MODELS), Intel's model numbers from
arch/x86/include/asm/intel-family.h (INTEL_FAMILY_H), Arm's parts from
arch/arm64/include/asm/cputype.h (ARM_CPUTYPE_H). A row whose figure is the smaller of two
that the identifiers cannot tell apart (hybrid P/E cores; Xeon SKUs with one or two 512-bit
FMA units) says so in ``lower_bound``: a measured peak then decides.
"""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.records import Record, record

AMD_ZEN_MODELS = "https://github.com/torvalds/linux/blob/master/arch/x86/kernel/cpu/amd.c"
INTEL_FAMILY_H = "https://github.com/torvalds/linux/blob/master/arch/x86/include/asm/intel-family.h"
ARM_CPUTYPE_H = "https://github.com/torvalds/linux/blob/master/arch/arm64/include/asm/cputype.h"
#: Agner Fog, "The microarchitecture of Intel, AMD and VIA CPUs": execution units and vector
#: widths of every x86 core below, measured.
AGNER_MICROARCH = "https://www.agner.org/optimize/microarchitecture.pdf"
#: Agner Fog, "Instruction tables": VFMADD...PS throughput per core.
AGNER_TABLES = "https://www.agner.org/optimize/instruction_tables.pdf"
INTEL_OPT_MANUAL = (
    "https://www.intel.com/content/www/us/en/developer/articles/technical/"
    "intel64-and-ia32-architectures-optimization.html"
)
AMD_17H_SOG = (
    "https://developer.amd.com/wordpress/media/2013/12/55723_SOG_Fam_17h_Processors_3.00.pdf"
)
WIKICHIP = "https://en.wikichip.org/wiki/"

AMD = "AuthenticAMD"
HYGON = "HygonGenuine"
INTEL = "GenuineIntel"
#: ``CPU implementer`` of Arm Ltd's own cores (ARM_CPU_IMP_ARM in ARM_CPUTYPE_H).
ARM_LTD = 0x41


@record
class Microarchitecture(Record):
    """One core design: how to recognise it, its float32 FLOP per cycle, and the sources."""

    name: str
    #: ``vendor_id`` (x86-64) or ``arm`` (aarch64, matched by implementer and part).
    vendor: str
    #: x86-64 ``cpu family``; aarch64 ``CPU implementer``.
    family: int
    #: Inclusive ranges of x86-64 ``model`` numbers, or of aarch64 ``CPU part`` numbers.
    models: tuple[tuple[int, int], ...]
    #: float32 FLOP per cycle per core with the widest FMA the core runs at full rate.
    flops_per_cycle: int
    #: The FMA pipes behind that figure, in words.
    units: str
    sources: tuple[str, ...]
    #: A regular expression the model name must match (Xeon SKUs within one model number).
    name_pattern: Optional[str] = None
    #: Why the figure is only a lower bound; empty when it is exact.
    lower_bound: str = ""

    def matches(self, vendor: str, family: Optional[int], model: Optional[int], name: str) -> bool:
        """Whether a CPU with these identifiers is this design."""
        if vendor != self.vendor or family != self.family or model is None:
            return False
        if not any(low <= model <= high for low, high in self.models):
            return False
        return self.name_pattern is None or re.search(self.name_pattern, name) is not None


def _one(*models: int) -> tuple[tuple[int, int], ...]:
    return tuple((m, m) for m in models)


_ZEN1_UNITS = (
    "2 FMA pipes x 4 float32 lanes x 2: four 128-bit FP pipes, FMA on two of them; a 256-bit "
    "AVX instruction runs as two 128-bit halves"
)
_AVX2_UNITS = "2 FMA units x 8 float32 lanes x 2 (two 256-bit FMA ports)"
_SKX_TWO = "2 FMA units x 16 float32 lanes x 2 (two 512-bit FMA units: ports 0+1 and port 5)"
_SKX_ONE = "1 FMA unit x 16 float32 lanes x 2 (one 512-bit FMA unit: ports 0+1 fused)"
_SKX_SOURCES = (
    WIKICHIP + "intel/microarchitectures/skylake_(server)",
    "https://www.microway.com/knowledge-center-articles/"
    "detailed-specifications-of-the-skylake-sp-intel-xeon-processor-scalable-family-cpus/",
    INTEL_OPT_MANUAL,
    INTEL_FAMILY_H,
)
_HYBRID_BOUND = (
    "P-cores do 32 float32 FLOP/cycle (two 256-bit FMA units), E-cores 16 (two 128-bit FMA "
    "pipes; Skymont more), and /proc/cpuinfo does not say which CPU is which: the E-core "
    "figure is taken for every core"
)

#: First match wins: the rows with a model-name pattern come before their model's default.
MICROARCHITECTURES: tuple[Microarchitecture, ...] = (
    # --- AMD ------------------------------------------------------------------------------
    Microarchitecture(
        "AMD Zen / Zen+",
        AMD,
        0x17,
        ((0x00, 0x2F), (0x50, 0x5F)),
        16,
        _ZEN1_UNITS,
        (AMD_17H_SOG, AGNER_MICROARCH, WIKICHIP + "amd/microarchitectures/zen", AMD_ZEN_MODELS),
    ),
    Microarchitecture(
        "Hygon Dhyana (Zen)",
        HYGON,
        0x18,
        ((0x00, 0xFF),),
        16,
        _ZEN1_UNITS,
        (AGNER_MICROARCH, WIKICHIP + "hygon/microarchitectures/dhyana"),
    ),
    Microarchitecture(
        "AMD Zen 2",
        AMD,
        0x17,
        ((0x30, 0x4F), (0x60, 0x7F), (0x90, 0x91), (0xA0, 0xAF)),
        32,
        "2 FMA pipes x 8 float32 lanes x 2 (256-bit FP pipes)",
        (AGNER_MICROARCH, WIKICHIP + "amd/microarchitectures/zen_2", AMD_ZEN_MODELS),
    ),
    Microarchitecture(
        "AMD Zen 3",
        AMD,
        0x19,
        ((0x00, 0x0F), (0x20, 0x5F)),
        32,
        "2 FMA pipes x 8 float32 lanes x 2 (256-bit FP pipes)",
        (AGNER_MICROARCH, WIKICHIP + "amd/microarchitectures/zen_3", AMD_ZEN_MODELS),
    ),
    Microarchitecture(
        "AMD Zen 4",
        AMD,
        0x19,
        ((0x10, 0x1F), (0x60, 0xAF)),
        32,
        "2 FMA pipes x 8 float32 lanes x 2: AVX-512 runs on the two 256-bit pipes, a 512-bit "
        "instruction as two halves, so it does not double the peak",
        (
            AGNER_MICROARCH,
            WIKICHIP + "amd/microarchitectures/zen_4",
            "http://numberworld.org/blogs/2024_8_7_zen5_avx512_teardown",
            AMD_ZEN_MODELS,
        ),
    ),
    Microarchitecture(
        "AMD Zen 5 (desktop and server)",
        AMD,
        0x1A,
        ((0x00, 0x1F), (0x40, 0x4F)),
        64,
        "2 FMA pipes x 16 float32 lanes x 2 (512-bit FP pipes)",
        (
            "http://numberworld.org/blogs/2024_8_7_zen5_avx512_teardown",
            WIKICHIP + "amd/microarchitectures/zen_5",
            AMD_ZEN_MODELS,
        ),
    ),
    Microarchitecture(
        "AMD Zen 5 (mobile)",
        AMD,
        0x1A,
        ((0x20, 0x2F), (0x60, 0x7F)),
        32,
        "2 FMA pipes x 8 float32 lanes x 2: 512-bit instructions on 256-bit pipes",
        (
            "https://chipsandcheese.com/2024/08/10/amds-strix-point-zen-5-hits-mobile",
            "http://numberworld.org/blogs/2024_8_7_zen5_avx512_teardown",
            AMD_ZEN_MODELS,
        ),
        lower_bound="mobile Zen 5 (Strix Point, Krackan Point) runs 512-bit instructions on "
        "256-bit pipes, as taken here; a part with the desktop's 512-bit pipes does twice",
    ),
    # --- Intel (family 6) --------------------------------------------------------------------
    Microarchitecture(
        "Intel Sandy Bridge / Ivy Bridge",
        INTEL,
        6,
        _one(0x2A, 0x2D, 0x3A, 0x3E),
        16,
        "no FMA: one 256-bit add and one 256-bit multiply per cycle (8 lanes each)",
        (INTEL_OPT_MANUAL, AGNER_MICROARCH, INTEL_FAMILY_H),
    ),
    Microarchitecture(
        "Intel Haswell / Broadwell",
        INTEL,
        6,
        _one(0x3C, 0x3F, 0x45, 0x46, 0x3D, 0x47, 0x4F, 0x56),
        32,
        _AVX2_UNITS,
        (INTEL_OPT_MANUAL, AGNER_TABLES, WIKICHIP + "intel/microarchitectures/haswell_(client)"),
    ),
    Microarchitecture(
        "Intel Skylake client (Kaby, Coffee, Whiskey, Comet Lake)",
        INTEL,
        6,
        _one(0x4E, 0x5E, 0x8E, 0x9E, 0xA5, 0xA6),
        32,
        _AVX2_UNITS,
        (INTEL_OPT_MANUAL, AGNER_TABLES, WIKICHIP + "intel/microarchitectures/skylake_(client)"),
    ),
    # Skylake-SP, Cascade Lake and Cooper Lake share model 0x55; the SKU decides how many
    # 512-bit FMA units a core has: Platinum, Gold 6xxx and Gold 5122/5222 two, the other Gold
    # 5xxx, Silver and Bronze one.
    Microarchitecture(
        "Intel Skylake-SP / Cascade Lake (two AVX-512 FMA units)",
        INTEL,
        6,
        _one(0x55),
        64,
        _SKX_TWO,
        _SKX_SOURCES,
        name_pattern=r"Platinum|Gold 6\d{3}|Gold 5[12]22\b",
    ),
    Microarchitecture(
        "Intel Skylake-SP / Cascade Lake (one AVX-512 FMA unit)",
        INTEL,
        6,
        _one(0x55),
        32,
        _SKX_ONE,
        _SKX_SOURCES,
        name_pattern=r"Silver|Bronze|Gold 5\d{3}",
    ),
    Microarchitecture(
        "Intel Skylake-SP / Cascade Lake",
        INTEL,
        6,
        _one(0x55),
        32,
        _SKX_ONE,
        _SKX_SOURCES,
        lower_bound="parts of this model have one or two 512-bit FMA units by SKU (Platinum, "
        "Gold 6xxx, Gold 5122/5222: two), and the model name does not say which: one is taken",
    ),
    Microarchitecture(
        "Intel Ice Lake / Tiger Lake / Rocket Lake client (one AVX-512 FMA unit)",
        INTEL,
        6,
        _one(0x66, 0x7D, 0x7E, 0x9D, 0x8C, 0x8D, 0xA7),
        32,
        _SKX_ONE + "; AVX2: two 256-bit FMA units, the same 32",
        (INTEL_OPT_MANUAL, WIKICHIP + "intel/microarchitectures/sunny_cove", INTEL_FAMILY_H),
    ),
    Microarchitecture(
        "Intel Ice Lake-SP",
        INTEL,
        6,
        _one(0x6A, 0x6C),
        64,
        _SKX_TWO,
        (
            INTEL_OPT_MANUAL,
            WIKICHIP + "intel/microarchitectures/ice_lake_(server)",
            INTEL_FAMILY_H,
        ),
    ),
    Microarchitecture(
        "Intel Sapphire Rapids / Emerald Rapids / Granite Rapids",
        INTEL,
        6,
        _one(0x8F, 0xCF, 0xAD, 0xAE),
        64,
        _SKX_TWO,
        (
            INTEL_OPT_MANUAL,
            WIKICHIP + "intel/microarchitectures/sapphire_rapids",
            INTEL_FAMILY_H,
        ),
    ),
    Microarchitecture(
        "Intel hybrid (Alder, Raptor, Meteor, Arrow, Lunar Lake)",
        INTEL,
        6,
        _one(0x8A, 0x97, 0x9A, 0xB7, 0xBA, 0xBF, 0xAA, 0xAC, 0xB5, 0xC5, 0xC6, 0xBD),
        16,
        "E-cores: 2 FMA pipes x 4 float32 lanes x 2; P-cores: " + _AVX2_UNITS,
        (
            INTEL_OPT_MANUAL,
            WIKICHIP + "intel/microarchitectures/alder_lake",
            WIKICHIP + "intel/microarchitectures/gracemont",
            INTEL_FAMILY_H,
        ),
        lower_bound=_HYBRID_BOUND,
    ),
    Microarchitecture(
        "Intel Sierra Forest / Grand Ridge (Crestmont E-cores)",
        INTEL,
        6,
        _one(0xAF, 0xB6),
        16,
        "2 FMA pipes x 4 float32 lanes x 2 (128-bit pipes; 256-bit AVX as two halves)",
        (INTEL_OPT_MANUAL, AGNER_MICROARCH, INTEL_FAMILY_H),
    ),
    # --- Arm Neoverse (aarch64) ---------------------------------------------------------------
    Microarchitecture(
        "Arm Neoverse N1",
        "arm",
        ARM_LTD,
        _one(0xD0C),
        16,
        "2 FP/ASIMD pipes x 4 float32 lanes x 2 (128-bit NEON FMA on both)",
        (
            "https://github.com/llvm/llvm-project/blob/main/llvm/lib/Target/AArch64/"
            "AArch64SchedNeoverseN1.td",
            WIKICHIP + "arm_holdings/microarchitectures/neoverse_n1",
            ARM_CPUTYPE_H,
        ),
    ),
    Microarchitecture(
        "Arm Neoverse N2",
        "arm",
        ARM_LTD,
        _one(0xD49),
        16,
        "2 FP/ASIMD pipes x 4 float32 lanes x 2 (128-bit NEON and SVE2)",
        (
            "https://github.com/llvm/llvm-project/blob/main/llvm/lib/Target/AArch64/"
            "AArch64SchedNeoverseN2.td",
            ARM_CPUTYPE_H,
        ),
    ),
    Microarchitecture(
        "Arm Neoverse V1",
        "arm",
        ARM_LTD,
        _one(0xD40),
        32,
        "4 FP/ASIMD pipes x 4 float32 lanes x 2 (NEON; SVE: 2 x 256-bit, the same)",
        (
            "https://chipsandcheese.com/2022/05/29/graviton-3-first-impressions/",
            "https://github.com/llvm/llvm-project/blob/main/llvm/lib/Target/AArch64/"
            "AArch64SchedNeoverseV1.td",
            ARM_CPUTYPE_H,
        ),
    ),
    Microarchitecture(
        "Arm Neoverse V2",
        "arm",
        ARM_LTD,
        _one(0xD4F),
        32,
        "4 FP/ASIMD pipes x 4 float32 lanes x 2 (128-bit NEON and SVE2)",
        (
            "https://chipsandcheese.com/2024/07/22/arms-neoverse-v2-in-awss-graviton-4/",
            "https://github.com/llvm/llvm-project/blob/main/llvm/lib/Target/AArch64/"
            "AArch64SchedNeoverseV2.td",
            ARM_CPUTYPE_H,
        ),
    ),
)


@record
class CpuIdentity(Record):
    """What ``/proc/cpuinfo`` says a CPU is: enough to find it in the table."""

    #: ``vendor_id`` (``AuthenticAMD``, ``GenuineIntel``), or ``arm`` for an aarch64 CPU.
    vendor: str
    #: x86-64 ``cpu family`` or aarch64 ``CPU implementer``.
    family: Optional[int]
    #: x86-64 ``model`` or aarch64 ``CPU part``.
    model: Optional[int]
    name: str = ""


def _number(text: str) -> Optional[int]:
    """A decimal (x86-64 cpuinfo) or ``0x`` hexadecimal (aarch64 cpuinfo) number, or None."""
    text = text.strip()
    try:
        return int(text, 16) if text.lower().startswith("0x") else int(text)
    except ValueError:
        return None


def identify(fields: dict[str, str]) -> CpuIdentity:
    """The identity in one processor block of ``/proc/cpuinfo`` (keys in lower case)."""
    name = fields.get("model name") or fields.get("cpu model") or ""
    if "cpu implementer" in fields:
        return CpuIdentity(
            "arm",
            _number(fields["cpu implementer"]),
            _number(fields.get("cpu part", "")),
            name,
        )
    return CpuIdentity(
        fields.get("vendor_id", ""),
        _number(fields.get("cpu family", "")),
        _number(fields.get("model", "")),
        name,
    )


def find_microarchitecture(cpu: CpuIdentity) -> Optional[Microarchitecture]:
    """The table row for this CPU, or None when its design is not in the table."""
    for row in MICROARCHITECTURES:
        if row.matches(cpu.vendor, cpu.family, cpu.model, cpu.name):
            return row
    return None


@record
class FlagsEstimate(Record):
    """FLOP per cycle from the instruction-set flags alone, for a CPU not in the table."""

    flops_per_cycle: int
    units: str
    lower_bound: str


def flops_from_flags(flags: set[str]) -> Optional[FlagsEstimate]:
    """A cautious float32 FLOP per cycle for a core known only by its flags, or None.

    Flags give the instruction set, not the pipes: AVX-512 runs on two 256-bit pipes on Zen 4
    and on one 512-bit unit on Ice Lake client (32 either way, twice that with two 512-bit
    units); FMA3 on two 128-bit pipes on Zen 1 (16); NEON on two 128-bit pipes on Neoverse N1.
    """
    bound = "by the instruction-set flags only (the microarchitecture is not in tfdoctor's table)"
    if "avx512f" in flags:
        return FlagsEstimate(32, "AVX-512: at least 2 x 256-bit FMA", bound)
    if "fma" in flags:
        return FlagsEstimate(16, "FMA3: at least 2 x 128-bit FMA", bound)
    if "avx" in flags:
        return FlagsEstimate(16, "AVX: one 256-bit add and one 256-bit multiply", bound)
    if "asimd" in flags:
        return FlagsEstimate(16, "NEON: 2 x 128-bit FMA pipes, as Neoverse N1", bound)
    if "sse2" in flags:
        return FlagsEstimate(8, "SSE: one 128-bit add and one 128-bit multiply", bound)
    return None
