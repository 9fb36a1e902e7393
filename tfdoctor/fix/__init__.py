"""``tfdoctor fix``: the fixes of a check applied as one transaction.

:mod:`~tfdoctor.fix.plan` turns findings into ordered operations and manual steps;
:mod:`~tfdoctor.fix.pip` runs the examined interpreter's pip (inventory, dry run, install);
:mod:`~tfdoctor.fix.snapshot` keeps what was installed before, a journal of the steps and the
lock; :mod:`~tfdoctor.fix.apply` applies, restores and recovers; :mod:`~tfdoctor.fix.verify`
judges the environment again; :mod:`~tfdoctor.fix.service` wires them for the command.
"""
