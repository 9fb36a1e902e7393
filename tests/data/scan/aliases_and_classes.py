"""TF1 code reached through aliases, star imports and attributes inside classes."""

import tensorflow as tf
from tensorflow import *  # noqa: F403 - the shape being tested
from tensorflow.compat import v1
from tensorflow.compat import v1 as tf1
from tensorflow.contrib import slim  # expect: scan.tf-contrib
from tensorflow.keras.optimizers.legacy import SGD  # expect: scan.keras3-legacy-optimizers
from tensorflow.python.keras.layers import Dense  # expect: scan.tf-python-keras-keras3


class Model:
    def __init__(self):
        self.graph = tf.Graph()
        with self.graph.as_default():
            self.inputs = placeholder(float32, [None, 4])  # expect: scan.tf1-placeholder
            self.hidden = slim.fully_connected(self.inputs, 8)
            self.outputs = Dense(2)(self.hidden)
            self.sess = tf.Session(graph=self.graph)  # expect: scan.tf1-session
            self.opt = SGD(learning_rate=0.1)
            self.cell = tf.nn.rnn_cell.LSTMCell(16)  # expect: scan.keras3-rnn-cell-v1

    def restore(self, path):
        # tf.compat.v1 used on purpose: the stop-gap the migration guide names.
        saver = v1.train.Saver()
        saver.restore(self.sess, path)
        tf1.disable_eager_execution()
        return tf.compat.v1.get_default_graph()


def build_keras():
    return tf.keras.Sequential(
        [tf.keras.layers.CuDNNLSTM(32)]  # expect: scan.keras-cudnn-layers
    )
