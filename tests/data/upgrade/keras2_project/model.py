"""A small image classifier written for TensorFlow 2.15 and Keras 2."""

import tensorflow as tf
from tensorflow.keras import backend as K


def build(classes):
    inputs = tf.keras.Input(shape=(64, 64, 3))
    x = tf.keras.layers.experimental.preprocessing.Rescaling(1.0 / 255)(inputs)
    x = tf.keras.layers.Conv2D(16, 3, activation="relu")(x)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    print("features:", K.int_shape(x))
    outputs = tf.keras.layers.Dense(classes, activation="softmax")(x)
    model = tf.keras.Model(inputs, outputs)
    model.compile(
        optimizer=tf.keras.optimizers.legacy.Adam(learning_rate=1e-3),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )
    return model
