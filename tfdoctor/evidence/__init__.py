"""Evidence read from text: what a log observes, kept apart from what it lets one infer.

Below the catalogue of causes: these modules import nothing from the package but
:mod:`tfdoctor.records`, so ``explain``, ``run`` and the checks can share them.
"""
