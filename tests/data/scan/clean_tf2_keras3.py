"""Modern TensorFlow 2 / Keras 3 code: nothing here breaks on 2.21."""

import keras
import numpy as np
import tensorflow as tf
from keras import layers, ops
from tensorflow.keras import mixed_precision


@keras.saving.register_keras_serializable()
class Residual(layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.dense = layers.Dense(units)
        self.norm = layers.LayerNormalization()

    def call(self, inputs):
        return self.norm(inputs + ops.relu(self.dense(inputs)))


def make_model():
    inputs = keras.Input(shape=(16,))
    x = Residual(16)(inputs)
    outputs = layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss="mse")
    return model


def dataset():
    features = np.random.rand(256, 16).astype("float32")
    labels = np.random.rand(256, 1).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((features, labels))
    return ds.shuffle(256).batch(32).prefetch(tf.data.AUTOTUNE)


@tf.function(reduce_retracing=True)
def train_step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def main(out_dir="out"):
    for gpu in tf.config.list_physical_devices("GPU"):
        tf.config.experimental.set_memory_growth(gpu, True)
    mixed_precision.set_global_policy("float32")
    tf.random.set_seed(0)
    model = make_model()
    model.fit(dataset(), epochs=1, callbacks=[keras.callbacks.EarlyStopping(patience=2)])
    model.save(f"{out_dir}/model.keras")
    model.save_weights("model.weights.h5")
    model.export(f"{out_dir}/serving")
    ckpt = tf.train.Checkpoint(model=model)
    manager = tf.train.CheckpointManager(ckpt, out_dir, max_to_keep=2)
    manager.save()
    ckpt.save(f"{out_dir}/ckpt")
    np.save("features", np.zeros(3))
    restored = keras.models.load_model(f"{out_dir}/model.keras")
    writer = tf.summary.create_file_writer(out_dir)
    with writer.as_default():
        tf.summary.flush()
    print(tf.__version__, keras.__version__, tf.newaxis)
    return restored
