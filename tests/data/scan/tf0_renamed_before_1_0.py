"""TensorFlow 0.12 code: names 1.0 removed for new ones (RELEASE.md, 1.0.0)."""

import tensorflow as tf


def build(mask, a, b, logdir):
    picked = tf.select(mask, a, b)  # expect: scan.api-removed
    scaled = tf.mul(picked, 2.0)  # expect: scan.api-removed
    stacked = tf.pack([scaled, picked])  # expect: scan.api-removed
    writer = tf.train.SummaryWriter(logdir)  # expect: scan.api-removed
    return stacked, writer
