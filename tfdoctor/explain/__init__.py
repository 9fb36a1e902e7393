"""``tfdoctor explain``: a pasted TensorFlow log as evidence for the catalogue of causes.

The log is scanned for known signatures (:mod:`tfdoctor.signatures`); what it reveals (the
TensorFlow, CUDA and cuDNN versions, the GPU's compute capability, the operating system, the
Python) becomes a :class:`~tfdoctor.facts.Facts` holding only that, merged into a machine's
facts when those are given; each recognised cause becomes one finding whose fix comes from the
catalogue's builder applied to that machine view, so a fix never assumes more than is known.
Benign noise becomes ``info`` findings that say why it is harmless.

Finding ids: ``explain.<cause>`` for a cause, ``explain.benign.<signature>`` for noise,
``explain.no-signature`` when nothing is recognised, ``explain.unexplained-exception`` for a
Python exception no cause explains (docs/findings.md).

Where each part lives (each module imports only from the ones before it in this list):

- :mod:`.scanning`: a block of the log read into :class:`Evidence` and :class:`Hits`
  (:func:`scan`: shapes, literals, candidates, visits).
- :mod:`.revealed`: what a log reveals (:class:`Revealed`, :func:`reveal`, :func:`log_facts`).
- :mod:`.common`: the helpers the builders of several areas share (citing, rules, groups,
  a cause's hits by signature, whether a cause was warned of).
- the builders that turn hits into findings, by area: :mod:`.drivers` (drivers, devices, WSL),
  :mod:`.libraries` (CUDA libraries, cuDNN, TensorRT, GPU memory), :mod:`.xla` (ptxas),
  :mod:`.platform` (operating system, CPU, word size), :mod:`.native` (native extensions and
  TensorFlow's own libraries), :mod:`.network` (downloads, certificates),
  :mod:`.software` (companion packages, Keras, NumPy, protobuf, ops), :mod:`.conda`,
  :mod:`.containers`, :mod:`.progress` (a program that went on after a message),
  :mod:`.cluster` (NCCL, tasks, pods), :mod:`.notebooks`, :mod:`.hosted` (Colab, Kaggle,
  TPU), :mod:`.wheels` (pip's refusals and wheels);
- :mod:`.overlaps`: the readings that settle findings which explain the same lines.
- :mod:`.builders`: ``BUILDERS``, each cause's candidate reader.
- :mod:`.assembly`: :func:`explain`, the findings put together, ordered and cited.

The readers of one kind of text have their own modules beside these (:mod:`.reader`,
:mod:`.packages`, :mod:`.api`, :mod:`.exceptions`, ...).
"""

from __future__ import annotations

from tfdoctor.explain.assembly import explain
from tfdoctor.explain.builders import BUILDERS
from tfdoctor.explain.revealed import Revealed, reveal
from tfdoctor.explain.scanning import Evidence, Hits, scan

__all__ = ["BUILDERS", "Evidence", "Hits", "Revealed", "explain", "reveal", "scan"]
