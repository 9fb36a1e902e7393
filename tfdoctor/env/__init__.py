"""``tfdoctor env``: the environment variables TensorFlow should start with here.

:mod:`tfdoctor.env.settings` derives them from facts (pure); :mod:`tfdoctor.env.service`
reads the facts for the command. This module imports neither, so that a renderer can read
the settings' type without loading the probes.
"""
