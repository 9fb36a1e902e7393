"""A TensorFlow 2.5-era script: the old optimizers' graph-mode interface, their schedule's
current learning rate and their slots, Sequential's class predictions."""

import numpy as np
import tensorflow as tf


def make_model(features):
    model = tf.keras.Sequential(
        [
            tf.keras.Input(shape=(features,)),
            tf.keras.layers.Dense(16, activation="relu"),
            tf.keras.layers.Dense(3, activation="softmax"),
        ]
    )
    return model


def updates_for(model, loss):
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
    return optimizer.get_updates(loss, model.trainable_weights)  # expect: scan.keras211-optimizer-get-updates


def current_learning_rate(optimizer):
    return optimizer._decayed_lr(tf.float32)  # expect: scan.keras211-optimizer-decayed-lr


def momentum_of(model):
    opt = model.optimizer
    return [opt.get_slot(v, "m") for v in model.trainable_weights]  # expect: scan.keras211-optimizer-get-slot


def labels(model, x):
    return model.predict_classes(x)  # expect: scan.keras26-predict-classes


if __name__ == "__main__":
    net = make_model(4)
    print(labels(net, np.zeros((2, 4), dtype="float32")))
